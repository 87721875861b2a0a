package rollout

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// typeMetaCases are objects whose typeMeta encoding/json reads in its own
// way: names in any case (and the Kelvin sign and long s, which fold to k
// and s), the last of repeated members, null, escapes, values of the
// wrong type.
var typeMetaCases = []string{
	`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "a"}, "spec": {"replicas": 1}}`,
	`{"KIND": "Pod", "Metadata": {"NAME": "p"}}`,
	"{\"\u212aind\": \"Pod\", \"\u0131tems\": [1], \"item\u017f\": [2, 3]}",
	`{"kind": "Pod", "kind": null, "metadata": {"name": "a"}, "metadata": {"uid": "u"}, "metadata": null}`,
	`{"kind": "Pod", "Kind": "ReplicaSet", "metadata": {"name": "a", "Name": "b", "name": null}}`,
	`{"kind": "List", "items": [{"kind": "Pod"}, 2, null, "x", [], {}], "items": [ {"a": 1} , true ]}`,
	`{"kind": "List", "items": [1], "items": null}`, `{"items": []}`, `{"items": [  ]}`,
	`{"\u006bind": "Dep\u006coyment", "metadata": {"n\u0061me": "caf\u00e9 \ud83d\ude00 \ud800"}}`,
	"{\"kind\": \"Pod\\u0000\", \"metadata\": {\"name\": \"\xff\xfe\"}}",
	`{"kind": 1}`, `{"kind": true}`, `{"kind": {}}`, `{"kind": []}`, `{"kind": "Pod", "metadata": "x"}`,
	`{"metadata": []}`, `{"metadata": 0}`, `{"metadata": {"name": 1}}`, `{"metadata": {"name": {"a": 1}}}`,
	`{"items": {}}`, `{"items": "x"}`, `{"items": 0}`, `{"items": false}`, `{"kind": "Pod", "kind": 2, "kind": "Pod"}`,
	`{}`, `{"a": {"kind": "Pod", "items": [1]}, "b": ["kind", {"metadata": 1}]}`,
	`{"kind": "\u0050od", "metadata": {"name": "\\"}}`, "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\x80\"}}",
}

// checkTypeMeta checks that readTypeMeta reads the valid JSON object data
// exactly as json.Unmarshal does, and that its items are written where it
// says.
func checkTypeMeta(t *testing.T, data []byte) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) || len(data) == 0 || data[0] != '{' {
		return
	}
	var want typeMeta
	err := json.Unmarshal(data, &want)
	got, items, ok := readTypeMeta(data)
	if ok != (err == nil) {
		t.Fatalf("readTypeMeta(%s) ok = %v, json.Unmarshal error = %v", data, ok, err)
	}
	if !ok {
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("readTypeMeta(%s) mismatch (-json.Unmarshal +readTypeMeta):\n%s", data, diff)
	}
	if (items.end > 0) != (got.Items != nil) {
		t.Fatalf("readTypeMeta(%s): items at %v, Items %q", data, items, got.Items)
	}
	if items.end > 0 {
		var list []json.RawMessage
		if err := json.Unmarshal(data[items.start:items.end], &list); err != nil || !cmp.Equal(list, got.Items) {
			t.Fatalf("readTypeMeta(%s): items at %v are %s, not the Items %q", data, items, data[items.start:items.end], got.Items)
		}
		if !json.Valid(items.emptied(data)) {
			t.Fatalf("readTypeMeta(%s): without its items, %s is not valid", data, items.emptied(data))
		}
	}
}

// TestReadTypeMetaAsEncodingJSON: readTypeMeta reads what encoding/json
// reads, and fails where encoding/json does.
func TestReadTypeMetaAsEncodingJSON(t *testing.T) {
	for _, c := range typeMetaCases {
		if !json.Valid([]byte(c)) {
			t.Fatalf("not valid JSON: %s", c)
		}
		checkTypeMeta(t, []byte(c))
	}
}

// FuzzReadTypeMeta: readTypeMeta reads every valid JSON object as
// json.Unmarshal does.
func FuzzReadTypeMeta(f *testing.F) {
	for _, c := range typeMetaCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkTypeMeta)
}

// malformedCases are inputs that are not valid JSON in one place: in an
// object Decode decodes, in one it skips, in a List around its items, in
// an item that is no object, and between items.
var malformedCases = []string{
	`{"kind": }`,
	`{"kind": "Deployment", "metadata": {"name": "a"}, "spec": {"replicas": tru}}`,
	`{"kind": "Pod", "metadata": {"name": "a"}, "spec": {"nodeName": "x"}} x`,
	`{"kind": "ConfigMap", "data": {"a": 01}}`,
	`{"metadata": {"name": "a"}, "x": [1,]}`,
	`{"kind": "List", "metadata": {"resourceVersion": nul}, "items": []}`,
	`{"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "a"}}, tru]}`,
	`{"kind": "List", "items": [{"kind": "Pod", "spec": {"nodeName": 3}}, {"kind": "Pod", "spec": {"nodeName": "\x"}}]}`,
	`{"kind": "List", "items": [1 2]}`, `{"kind": "List", "items": [{"kind": "List", "items": [{"kind": "Secret", "a": -}]}]}`,
	`{"kind": "List", "items": [{"kind": 5}, {"kind": "Pod" "a": 1}]}`, "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\x01\"}}",
	"{\"kind\": \"Deployment\", \"metad\x02ta\": {}}", `{"kind": "List", "items": [], "items": [{]}`,
}

// TestDecodeMalformed: JSON that is not well formed anywhere gives no
// objects and one error, encoding/json's, as when the whole input is
// checked before anything is read.
func TestDecodeMalformed(t *testing.T) {
	for _, c := range malformedCases {
		if json.Valid([]byte(c)) {
			t.Fatalf("valid JSON: %s", c)
		}
		checkMalformed(t, []byte(c))
	}
}

// FuzzDecodeMalformed: Decode reports malformed JSON as TestDecodeMalformed
// says, wherever it is.
func FuzzDecodeMalformed(f *testing.F) {
	for _, c := range append(malformedCases, typeMetaCases...) {
		f.Add([]byte(c))
	}
	f.Fuzz(checkMalformed)
}

func checkMalformed(t *testing.T, data []byte) {
	// JSON's own whitespace only, as Decode trims it: with a form feed or
	// a vertical tab before it, a document is no JSON object.
	trimmed := bytes.Trim(data, " \t\r\n")
	if json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' {
		return
	}
	want := typeMetaError(trimmed)
	if _, ok := want.(*json.SyntaxError); !ok {
		t.Fatalf("json.Unmarshal(%q) = %v, want a syntax error", data, want)
	}
	for _, o := range []DecodeOptions{{}, {Lenient: true, Validate: true}} {
		objs, err := o.Decode(data)
		if err == nil || err.Error() != want.Error() {
			t.Fatalf("%+v.Decode(%q) error = %v, want %v", o, data, err, want)
		}
		if !cmp.Equal(objs, Objects{}) {
			t.Fatalf("%+v.Decode(%q) = %+v with an error, want nothing", o, data, objs)
		}
	}
}

// TestDecodeListWithoutItems: a List without items, or with null items,
// holds nothing and is no problem.
func TestDecodeListWithoutItems(t *testing.T) {
	for _, in := range []string{`{"kind": "List"}`, `{"kind": "List", "metadata": {}, "items": null}`, `{"kind": "PodList", "items": [1], "items": null}`} {
		objs, err := Decode([]byte(in))
		if err != nil || !cmp.Equal(objs, Objects{}) {
			t.Errorf("Decode(%s) = %+v, %v, want nothing", in, objs, err)
		}
	}
}

// TestDecodeTypeMetaErrors: a kind, name or items of the wrong type is
// encoding/json's error, at the item that has it.
func TestDecodeTypeMetaErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"kind": 5}`, "json: cannot unmarshal number into Go struct field typeMeta.kind of type string"},
		{`{"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "p"}, "spec": {}}, {"metadata": {"name": true}}]}`,
			"items[1]: json: cannot unmarshal bool into Go struct field .metadata.name of type string"},
		{`{"items": [{"kind": "List", "items": {}}]}`, "items[0]: json: cannot unmarshal object into Go struct field typeMeta.items of type []json.RawMessage"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Decode(%s) error = %v, want %s", tc.in, err, tc.want)
		}
	}
}
