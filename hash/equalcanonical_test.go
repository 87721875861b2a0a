package hash_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/hash"
)

// canonicalForm returns t with its spec in canonical form.
func canonicalForm(t *rapid.T, tmpl hash.Template) hash.Template {
	if len(tmpl.Spec) == 0 {
		return tmpl
	}
	c, err := hash.Canonical(nil, tmpl.Spec)
	if err != nil {
		t.Fatalf("Canonical(%q): %v", tmpl.Spec, err)
	}
	tmpl.Spec = c
	return tmpl
}

// TestEqualCanonical checks that EqualCanonical agrees with Equal on
// templates whose specs are canonical, which is its precondition.
func TestEqualCanonical(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b hash.Template
		want bool
	}{
		{"nil and {} specs", hash.Template{}, hash.Template{Spec: []byte("{}")}, true},
		{"hash label ignored", hash.Template{Labels: map[string]string{"app": "web", hash.Label: "x"}, Spec: []byte(`{"a":1}`)},
			hash.Template{Labels: map[string]string{"app": "web"}, Spec: []byte(`{"a":1}`)}, true},
		{"specs differ", hash.Template{Spec: []byte(`{"a":1}`)}, hash.Template{Spec: []byte(`{"a":2}`)}, false},
		{"annotations differ", hash.Template{Annotations: map[string]string{"a": "1"}}, hash.Template{}, false},
	} {
		if got := hash.EqualCanonical(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: EqualCanonical() = %v, want %v", tc.name, got, tc.want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		a, b := twoTemplates(t)
		if rapid.Bool().Draw(t, "unrelated b") {
			b, _ = twoTemplates(t)
		}
		a, b = canonicalForm(t, a), canonicalForm(t, b)
		if got, want := hash.EqualCanonical(a, b), hash.Equal(a, b); got != want {
			t.Fatalf("EqualCanonical = %v, Equal = %v\na = %+v\nb = %+v", got, want, a, b)
		}
	})
}

func TestEqualCanonicalAllocs(t *testing.T) {
	a := hash.Template{Labels: map[string]string{"app": "web"}, Spec: []byte(`{"containers":[{"image":"a","name":"c"}]}`)}
	b := hash.Template{Labels: map[string]string{"app": "web", hash.Label: "x"}, Spec: []byte(`{"containers":[{"image":"b","name":"c"}]}`)}
	if n := testing.AllocsPerRun(100, func() { hash.EqualCanonical(a, b) }); n != 0 {
		t.Errorf("EqualCanonical allocates %v times, want 0", n)
	}
}
