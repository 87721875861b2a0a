package apiserver

import (
	"slices"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// TestNilSelectorMatchesNoLabels: without a selector, upstream's
// LabelSelectorAsSelector gives labels.Nothing(), which is not Empty and
// matches no labels, so the template's labels are reported too (found by
// FuzzCreateAgainstUpstream on the manifest {}).
func TestNilSelectorMatchesNoLabels(t *testing.T) {
	d, res := schema.DecodeDeployment([]byte(`{}`), schema.DecodeOptions{})
	if len(res.Errs) > 0 {
		t.Fatal(res.Errs)
	}
	d.Namespace = "default"
	var got []string
	for _, e := range CreateDeployment(d, FeatureGates{}) {
		got = append(got, e.Field+": "+string(e.Type))
	}
	want := []string{
		"metadata.name: Required value",
		"spec.selector: Required value",
		"spec.template.metadata.labels: Invalid value",
		"spec.template.spec.containers: Required value",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want upstream's %q", got, want)
	}
}
