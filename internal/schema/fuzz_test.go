package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// FuzzDecodePodTemplateSpec: decoding any input never panics; what decodes
// without errors encodes to JSON that decodes to the same encoding, and its
// rendering for the hash is the same.
func FuzzDecodePodTemplateSpec(f *testing.F) {
	for _, s := range []string{
		`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx","ports":[{"containerPort":80}]}]}}`,
		`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":0.5,"memory":"1.5Gi","x":"1e3","y":"12345678901234567890123"}}}]}}`,
		`{"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1Gi"}}],"nodeSelector":{},"tolerations":[]}}`,
		`{"metadata":{"creationTimestamp":"2024-01-02T03:04:05Z","managedFields":[{"fieldsV1":{"f:a":{}}}]}}`,
		`{"spec":{"hostname":"a","hostname":"b"}}`, `{"Spec":{}}`, `{"spec":{"containers":[{"ports":[{"containerPort":"80"}]}]}}`,
		`{"a":"\u00e9\ud800x"}`, `{`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, res := DecodePodTemplateSpec(data, DecodeOptions{})
		if len(res.Errs) > 0 {
			return
		}
		x.stored()
		enc := AppendPodTemplateSpec(nil, x, Stored)
		y, res := DecodePodTemplateSpec(enc, DecodeOptions{})
		if len(res.Errs) > 0 {
			t.Fatalf("the encoding does not decode: %v\n%s", res.Errs, enc)
		}
		y.stored()
		if again := AppendPodTemplateSpec(nil, y, Stored); !bytes.Equal(again, enc) {
			t.Fatalf("encode(decode(encode(x))) differs:\n%s\n%s", enc, again)
		}
		if a, b := SpewText(nil, x, kubeversion.Latest), SpewText(nil, y, kubeversion.Latest); !bytes.Equal(a, b) {
			t.Fatalf("the rendering changes through JSON:\n%s\n%s", a, b)
		}
		// Lenient decoding accepts whatever strict decoding accepts, alike.
		z, res := DecodePodTemplateSpec(data, DecodeOptions{Lenient: true})
		if len(res.Errs) > 0 || len(res.Warnings) > 0 {
			t.Fatalf("lenient decoding of strictly valid input: %v %v", res.Errs, res.Warnings)
		}
		z.stored()
		if lenient := AppendPodTemplateSpec(nil, z, Stored); !bytes.Equal(lenient, enc) {
			t.Fatalf("lenient decoding differs:\n%s\n%s", enc, lenient)
		}
	})
}

// FuzzMalformed: the decoders report malformed JSON exactly when
// json.Valid does, whatever the input's types and fields, so a caller can
// rely on them to check the syntax of what they decode.
func FuzzMalformed(f *testing.F) {
	for _, s := range []string{
		`{"kind":"Deployment","spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"a"}]}}}}`,
		`{"spec":{"replicas":"x","paused":1,"selector":[]},"unknown":{"a":[1,2,{"b":null}]}}`,
		`{"metadata":{"labels":{"a":"b","a":"c"}},"metadata":{}}`, `{"a":tru}`, `{"a":nul}`, `{"a":01}`,
		`{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}", `{"a":1,}`,
		`{"a" 1}`, `{,}`, `{} {}`, `{}x`, ` {} `, ``, `[]`, `null`, `{"a":[1,]}`, `{"a":[1 2]}`,
		`{"spec":{"template":{"metadata":{"creationTimestamp":null}},"strategy":{"rollingUpdate":{"maxSurge":"5%"}}}}`,
		`{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{}, "x": [1, "\u00e9"]}}]}}`, "{\"a\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := !json.Valid(data)
		_, d := DecodeDeployment(data, DecodeOptions{})
		_, r := DecodeReplicaSet(data, DecodeOptions{Lenient: true})
		_, p := DecodePod(data, DecodeOptions{})
		for name, res := range map[string]Result{"Deployment": d, "ReplicaSet": r, "Pod": p} {
			if res.Malformed != want {
				t.Errorf("Decode%s(%q): Malformed = %v, json.Valid = %v (%v)", name, data, res.Malformed, !want, res.Errs)
			}
		}
	})
}

// FuzzCountElems: for a valid JSON list, countElems gives its number of
// elements, so that the slices decoded from it are made once, at their
// size.
func FuzzCountElems(f *testing.F) {
	for _, s := range []string{`[]`, `[ ]`, `[1]`, `[1, "a,]\"", {"a": [1, 2]}, [[], {}], null, true]`, `["\\", "]"]`, `[{"name": "a"}, {"name": "b"}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var list []json.RawMessage
		if len(data) == 0 || data[0] != '[' || json.Unmarshal(data, &list) != nil {
			return
		}
		d := newDecoder(data, DecodeOptions{})
		d.pos = 1
		if got := d.countElems(); got != len(list) {
			t.Fatalf("countElems(%s) = %d, want %d", data, got, len(list))
		}
	})
}
