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

// TestQuoteTyped: a named string type's value renders as encoding/json
// writes it (upstream's field.Error for a value that is not a plain
// string), where Quote renders it as %q does.
func TestQuoteTyped(t *testing.T) {
	for _, tc := range []struct {
		name, in, typed, plain string
	}{
		{"ASCII is the same", "Always", `"Always"`, `"Always"`},
		{"HTML characters are escaped", "a<b>&", `"a\u003cb\u003e\u0026"`, `"a<b>&"`},
		{"a soft hyphen stays as it is", "a\u00adb", "\"a\u00adb\"", `"a\u00adb"`},
		{"invalid UTF-8 becomes an escaped U+FFFD", "a\xe9b", `"a\ufffdb"`, `"a\xe9b"`},
		{"a quote and a backslash", `"\`, `"\"\\"`, `"\"\\"`},
	} {
		if got := QuoteTyped(tc.in); got != tc.typed {
			t.Errorf("%s: QuoteTyped(%q) = %s, want %s", tc.name, tc.in, got, tc.typed)
		}
		if got := Quote(tc.in); got != tc.plain {
			t.Errorf("%s: Quote(%q) = %s, want %s", tc.name, tc.in, got, tc.plain)
		}
	}
}
