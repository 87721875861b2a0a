package manifest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// FuzzParse checks that no input makes Parse panic, that every problem is
// an *Error naming the input on one line, that every document is a JSON
// object with its kind, and that FieldLine finds its kind and gives a line
// of the input for any path.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"testdata/ci", "testdata/ci/apps", "../../testdata/manifests", "../../testdata/manifests/bad"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{"", "---", "{}", "[]", "null", "{\"kind\":\"List\",\"items\":[{}]}", `{"items": [1, {"kind": "Pod"}]}`,
		`{"kind":"List","items":[` + depJSON("a") + `]} {"kind": "Pod"}`, `{"a\"b": 1, "kind": "x"}`, `{"kind": "List", "items": [}`,
		"kind: List\nitems: 3", "\"\\u006bind\": Pod\n", `{"k":"v"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := manifest.Parse("in", data)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "in") {
					t.Fatalf("problem %q does not name the input", line)
				}
			}
			var me *manifest.Error
			if !errors.As(err, &me) {
				t.Fatalf("Parse() error %T", err)
			}
		}
		// Lines as YAML (and SARIF) count them: a CR alone ends one too.
		crlf := strings.ReplaceAll(string(data), "\r\n", "\n")
		lines := strings.Count(crlf, "\n") + strings.Count(crlf, "\r") + 1
		var packer *manifest.Packer
		if len(docs) > 0 {
			packer = manifest.NewPacker(docs[0])
		}
		for _, d := range docs {
			// Packed, it says the same: its object and the lines of its
			// fields.
			packed := packer.Pack(d)
			if got, err := packed.Object(); err != nil || !bytes.Equal(got, d.JSON) || packed.String() != d.String() {
				t.Fatalf("document %s packed: Object() = %s, %v; want %s", d, got, err, d.JSON)
			}
			for _, p := range []string{"", "metadata.name", "spec.template.spec.containers[0].image", "items[1]"} {
				line, exact := packed.FieldLine(p)
				if wantLine, wantExact := d.FieldLine(p); line != wantLine || exact != wantExact {
					t.Fatalf("document %s packed: FieldLine(%q) = %d, %v; want %d, %v", d, p, line, exact, wantLine, wantExact)
				}
			}
			var obj struct{ Kind string }
			if e := json.Unmarshal(d.JSON, &obj); e != nil || obj.Kind != d.Kind || d.Kind == "" {
				t.Fatalf("document %s: kind %q, JSON %s: %v", d, d.Kind, d.JSON, e)
			}
			for _, p := range []string{"", "kind", "metadata.name", "spec.template.spec.containers[0].image", "items[1]", "a[b.c]"} {
				if line, exact := d.FieldLine(p); line < 1 || line > lines || (p == "kind" && !exact) {
					t.Fatalf("document %s: FieldLine(%q) = %d, %v, in %d lines", d, p, line, exact, lines)
				}
			}
		}
	})
}
