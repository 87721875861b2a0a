package hash_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/hash"
)

// semantic decodes JSON as encoding/json does (numbers as their text) and
// drops object members whose value is null or an empty array: the value
// Canonical must preserve. Blank input is {}.
func semantic(b []byte) any {
	if len(jsonTrim(b)) == 0 {
		return map[string]any{}
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return err.Error()
	}
	var normalize func(any) any
	normalize = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if a, ok := e.([]any); e == nil || ok && len(a) == 0 {
					delete(v, k)
					continue
				}
				v[k] = normalize(e)
			}
		case []any:
			for i, e := range v {
				v[i] = normalize(e)
			}
		}
		return v
	}
	return normalize(v)
}

// jsonTrim removes JSON whitespace, which is narrower than Unicode's.
func jsonTrim(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}

// canonicalSeeds are inputs from the Canonical tables.
var canonicalSeeds = []string{
	"", " ", "{}", "null", "[]", `{"b":1,"a":2}`, `{"a":null,"b":[],"c":{}}`,
	`{"a":1,"a":null}`, `{"\u0061":1,"a":2}`, `[0,-0,1.50,1e10,-2.5e-3]`,
	`"\"\\\/\b\f\n\r\t"`, `"\ud800x\udc00"`, `"\ud83d\ude00"`, "\"a\xffb\"", "\"\u2028\"",
	`{"a":`, `{"a":1,}`, `01`, `1e+`, `"\'"`, `"\u12"`, "\uFEFF{}",
	"\u2028", "\u00a0{}", // Unicode spaces that are not JSON whitespace (found by fuzzing)
	`{"containers":[{"image":"nginx:1.9","name":"nginx"}]}`,
}

func FuzzCanonical(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, err := hash.Canonical(nil, src)
		blank := len(jsonTrim(src)) == 0
		if (err == nil) != (blank || json.Valid(src)) {
			t.Fatalf("Canonical(%q) error = %v, but json.Valid = %v", src, err, json.Valid(src))
		}
		if want := err == nil && len(src) > 0 && bytes.Equal(got, src); hash.IsCanonical(src) != want {
			t.Fatalf("IsCanonical(%q) = %v, but Canonical = %q, %v", src, !want, got, err)
		}
		if err != nil {
			var se *json.SyntaxError
			if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "hash: invalid JSON at offset ") {
				t.Fatalf("Canonical(%q) error %q, want a wrapped *json.SyntaxError naming the offset", src, err)
			}
			return
		}
		if !json.Valid(got) || !hash.IsCanonical(got) {
			t.Fatalf("Canonical(%q) = %q: json.Valid = %v, IsCanonical = %v", src, got, json.Valid(got), hash.IsCanonical(got))
		}
		again, err := hash.Canonical(nil, got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("Canonical(%q) = %q, %v, want it unchanged", got, again, err)
		}
		if diff := cmp.Diff(semantic(src), semantic(got)); diff != "" {
			t.Fatalf("Canonical(%q) = %q decodes differently (-want +got):\n%s", src, got, diff)
		}
		// Strings are escaped exactly as encoding/json escapes them.
		var s string
		if bytes.HasPrefix(jsonTrim(src), []byte(`"`)) && json.Unmarshal(src, &s) == nil {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s)
			if want := bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
				t.Fatalf("Canonical(%q) = %q, encoding/json writes %q", src, got, want)
			}
		}
	})
}

func FuzzSum(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add([]byte(s), "app", "web", int32(0))
	}
	f.Fuzz(func(t *testing.T, spec []byte, key, value string, count int32) {
		a := hash.Template{Labels: map[string]string{key: value}, Spec: spec}
		h, hc := hash.Sum(a), hash.SumCollisions(a, count)
		for _, h := range []string{h, hc} {
			if len(h) < 1 || len(h) > 10 || strings.Trim(h, "456789bcdf") != "" {
				t.Fatalf("hash %q: want 1 to 10 characters from 456789bcdf", h)
			}
		}
		if !hash.Equal(a, a) {
			t.Fatalf("Equal(t, t) = false for spec %q", spec)
		}
		// A spec and its canonical form are the same template.
		if c, err := hash.Canonical(nil, spec); err == nil {
			b := hash.Template{Labels: a.Labels, Spec: c}
			if hash.Sum(b) != h || !hash.Equal(a, b) {
				t.Fatalf("spec %q and its canonical form %q: Sum %q vs %q, Equal %v", spec, c, h, hash.Sum(b), hash.Equal(a, b))
			}
		}
	})
}
