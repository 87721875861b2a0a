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
	for _, e := range CreateDeployment(d, v136) {
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

// TestTypeMetaAsTheServerFillsIt: the server fills an absent group and
// version, and an absent version of the type's own group, before it
// compares them with the type's (runtime's gvkWithDefaults); anything
// else is another type ("apps/" was found by FuzzCreateAgainstUpstream).
func TestTypeMetaAsTheServerFillsIt(t *testing.T) {
	for _, tc := range []struct {
		got  string
		want bool
	}{
		{"", true}, {"apps/v1", true}, {"apps/", true},
		{"v1", false}, {"/v1", false}, {"apps", false}, {"extensions/v1beta1", false}, {"apps/v1/x", false}, {"apps/v2", false},
	} {
		if got := sameVersion(tc.got, "apps/v1"); got != tc.want {
			t.Errorf("sameVersion(%q, apps/v1) = %v, want %v", tc.got, got, tc.want)
		}
	}
	if !sameVersion("v1", "v1") || sameVersion("apps/v1", "v1") || !sameVersion("", "v1") || !sameVersion("/", "v1") {
		t.Error("the core group's v1")
	}
}
