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
		// Through a StringTable, the same object, twice over (the second
		// time every string comes from the table).
		var table StringTable
		for range 2 {
			w, res := DecodePodTemplateSpec(data, DecodeOptions{Strings: &table})
			if len(res.Errs) > 0 {
				t.Fatalf("decoding through a StringTable: %v", res.Errs)
			}
			w.stored()
			if interned := AppendPodTemplateSpec(nil, w, Stored); !bytes.Equal(interned, enc) {
				t.Fatalf("decoding through a StringTable differs:\n%s\n%s", enc, interned)
			}
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

// FuzzDecodeMinors: for any input and any minor, decoding never panics;
// what a minor accepts, every-minor decoding accepts alike; its encoding
// holds only the minor's fields (the minor decodes it again, strictly) and
// renders alike for the hash, and the hashing rendering is the hash of the
// text one.
func FuzzDecodeMinors(f *testing.F) {
	for _, s := range []string{
		`{"spec":{"containers":[{"name":"a","image":"nginx"}]}}`,
		`{"spec":{"evictionResponders":[{"name":"r","priority":1}],"containers":[{"name":"a","volumeMounts":[{"name":"v","mountPath":"/m","bindMountOptions":["x"]}]}]}}`,
		`{"spec":{"workloadRef":{"name":"w","podGroup":"g"}}}`,
		`{"spec":{"schedulingGroup":{"podGroupName":"g"},"volumes":[{"name":"e","emptyDir":{"mode":448}}]}}`,
		`{"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"port":80,"protocol":"HTTP"},"grpc":{"port":1,"mode":"TLS"}}}]}}`,
		`{"spec":{"EvictionResponders":[]}}`,
	} {
		for m := range uint8(kubeversion.Newest) + 1 {
			f.Add([]byte(s), m)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, minor uint8) {
		v := kubeversion.Version(minor % uint8(kubeversion.Newest+1))
		x, res := DecodePodTemplateSpec(data, DecodeOptions{Version: v})
		if len(res.Errs) > 0 {
			return
		}
		x.stored()
		enc := AppendPodTemplateSpec(nil, x, Stored)
		every, res := DecodePodTemplateSpec(data, DecodeOptions{Version: v, EveryMinor: true})
		if len(res.Errs) > 0 {
			t.Fatalf("%s accepts it, every-minor decoding refuses it: %v", v, res.Errs)
		}
		every.stored()
		if e := AppendPodTemplateSpec(nil, every, Stored); !bytes.Equal(e, enc) {
			t.Fatalf("every-minor decoding differs:\n%s\n%s", enc, e)
		}
		y, res := DecodePodTemplateSpec(enc, DecodeOptions{Version: v})
		if len(res.Errs) > 0 {
			t.Fatalf("%s refuses its own encoding: %v\n%s", v, res.Errs, enc)
		}
		y.stored()
		if a, b := SpewText(nil, x, v), SpewText(nil, y, v); !bytes.Equal(a, b) {
			t.Fatalf("the rendering changes through JSON:\n%s\n%s", a, b)
		}
		spewAgree(t, x)
	})
}
