package schema

import (
	"slices"
	"testing"
)

// TestStrictProblemsAsUpstream: the problems of strict decoding are the
// ones upstream's strict decoder reports (each row was checked against it
// in internal/upstream; the last, found by FuzzCreateAgainstUpstream, is in
// that fuzz target's corpus): an unknown
// member repeated, in one object or in a repeated object, is reported
// once; a known member repeated is a duplicate.
func TestStrictProblemsAsUpstream(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`{"foo":1,"foo":2}`, []string{"foo: unknown field"}},
		{`{"foo":1,"bar":2,"foo":3}`, []string{"foo: unknown field", "bar: unknown field"}},
		{`{"spec":{"foo":1},"spec":{"foo":2}}`, []string{"spec.foo: unknown field", "spec: duplicate field"}},
		{`{"spec":{"template":{"spec":{"containers":[{"foo":1},{"foo":2}]}}}}`,
			[]string{"spec.template.spec.containers[0].foo: unknown field", "spec.template.spec.containers[1].foo: unknown field"}},
		{`{"kind":"Deployment","kind":"Deployment"}`, []string{"kind: duplicate field"}},
		{`{"":{},"":{}}`, []string{": unknown field"}},
	} {
		_, res := DecodeDeployment([]byte(tc.in), DecodeOptions{})
		var got []string
		for _, e := range res.Errs {
			got = append(got, e.Field+": "+string(e.Type))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.in, got, tc.want)
		}
	}
}
