package field

import "testing"

// TestPathString: a path renders its fields joined by dots, a list's
// elements as [index] and a map's entries as [key]; the zero Path is the
// object itself, rendered as nothing.
func TestPathString(t *testing.T) {
	for _, tc := range []struct {
		p    *Path
		want string
	}{
		{NewPath("spec", "template", "spec").Child("containers").Index(0).Child("image"), "spec.template.spec.containers[0].image"},
		{NewPath("metadata").Child("labels").Key("app.kubernetes.io/name"), "metadata.labels[app.kubernetes.io/name]"},
		{NewPath("a").Child("b", "c", "d").Index(12).Index(3).Key(""), "a.b.c.d[12][3][]"},
		{(&Path{}).Child("x"), "x"},
		{(&Path{}).Index(1).Child("y"), "[1].y"},
		{&Path{}, ""},
		{nil, "<nil>"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
