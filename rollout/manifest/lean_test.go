package manifest_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestLeanKeepsPlaceAndObject checks that a lean document says what the
// document says: the same place, the same lines of fields, the same JSON
// (converted again from YAML), the same decoded objects; and that only a
// document converted from YAML drops its JSON. A packed document
// (Packer.Pack, against the first document, or against an unlike one)
// says the same, and drops its JSON always.
func TestLeanKeepsPlaceAndObject(t *testing.T) {
	tests := []struct {
		name, input string
		dropsJSON   bool
	}{
		{"JSON stream", depJSON("a") + "\n" + depJSON("b"), false},
		{"JSON List", `{"kind":"List","items":[` + depJSON("a") + `,` + depJSON("b") + `]}`, false},
		{"YAML documents (the fast conversion)", "# head\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: a}\n---\n" + depJSON("b"), true},
		{"YAML List (items)", "kind: List\nitems:\n- " + depJSON("a") + "\n- " + depJSON("b") + "\n", true},
		{"YAML with a key given twice (sigs.k8s.io/yaml)", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  name: b\nspec:\n  selector: {matchLabels: {app: a}}\n  template: {metadata: {labels: {app: a}}}\n", true},
	}
	fields := []string{"", "metadata.name", "spec.replicas", "spec.template.metadata.labels.app", "spec.strategy"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := manifest.Parse("in.yaml", []byte(tt.input))
			if err != nil || len(docs) != 2 && len(docs) != 1 {
				t.Fatalf("Parse: %d documents, %v", len(docs), err)
			}
			packers := map[string]*manifest.Packer{"first": manifest.NewPacker(docs[0])}
			if unlike, err := manifest.Parse("other.json", []byte(`{"kind": "ConfigMap"}`)); err == nil {
				packers["unlike"] = manifest.NewPacker(unlike[0])
			}
			for _, d := range docs {
				lean := d.Lean()
				if got := lean.JSON == nil; got != tt.dropsJSON {
					t.Errorf("%s: Lean dropped the JSON: %v, want %v", d, got, tt.dropsJSON)
				}
				for name, p := range packers {
					packed := p.Pack(d)
					if packed.JSON != nil {
						t.Errorf("%s: packed against the %s document, it keeps its JSON", d, name)
					}
					got, err := packed.Object()
					if err != nil || !bytes.Equal(got, d.JSON) {
						t.Errorf("%s: packed against the %s document, Object() = %s, %v; want %s", d, name, got, err, d.JSON)
					}
					for _, f := range fields {
						line, exact := packed.FieldLine(f)
						wantLine, wantExact := d.FieldLine(f)
						if line != wantLine || exact != wantExact || packed.String() != d.String() {
							t.Errorf("%s: packed against the %s document, FieldLine(%q) = %d, %v; want %d, %v", d, name, f, line, exact, wantLine, wantExact)
						}
					}
				}
				if lean.String() != d.String() || lean.Kind != d.Kind || !cmp.Equal(lean.Warnings, d.Warnings) {
					t.Errorf("Lean: %s %s %q, want %s %s %q", lean, lean.Kind, lean.Warnings, d, d.Kind, d.Warnings)
				}
				for _, f := range fields {
					line, exact := lean.FieldLine(f)
					wantLine, wantExact := d.FieldLine(f)
					if line != wantLine || exact != wantExact {
						t.Errorf("%s: lean FieldLine(%q) = %d, %v; want %d, %v", d, f, line, exact, wantLine, wantExact)
					}
				}
				got, err := lean.Object()
				if err != nil || !bytes.Equal(got, d.JSON) {
					t.Errorf("%s: lean Object() = %s, %v; want %s", d, got, err, d.JSON)
				}
				objs, err := lean.Decode()
				want, wantErr := d.Decode()
				if fmt.Sprint(err) != fmt.Sprint(wantErr) || len(objs.Deployments) != len(want.Deployments) {
					t.Errorf("%s: lean Decode() = %d Deployments, %v; want %d, %v", d, len(objs.Deployments), err, len(want.Deployments), wantErr)
				}
			}
		})
	}
}
