package schema

import (
	"bytes"
	"testing"
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
		if a, b := SpewText(nil, x), SpewText(nil, y); !bytes.Equal(a, b) {
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
