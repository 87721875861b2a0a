package schema

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestStrictProblemsAsUpstream: the problems of strict decoding are the
// ones upstream's strict decoder reports (each row was checked against it
// in internal/upstream; the last two, found by FuzzCreateAgainstUpstream,
// are in that fuzz target's corpus): an unknown member repeated, in one
// object or in a repeated object, is reported once; a known member
// repeated is a duplicate, and decoded all the same, so that the unknown
// members inside it are reported too.
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
		{`{"metadata":{"labels":{"":"","":"","":""}}}`, []string{"metadata.labels.: duplicate field"}},
		{`{"spec":{"template":{"spec":{"containers":[{"livenessProbe":{"a":1},"livenessProbe":{"b":0}}]}}}}`, []string{
			"spec.template.spec.containers[0].livenessProbe.a: unknown field",
			"spec.template.spec.containers[0].livenessProbe: duplicate field",
			"spec.template.spec.containers[0].livenessProbe.b: unknown field"}},
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

// TestLenientRepeatedMembersMerge: when lenient, a repeated member is
// decoded onto the first, as upstream's decoder (encoding/json's rules)
// stores it: objects and maps merge, a scalar's last value wins.
func TestLenientRepeatedMembersMerge(t *testing.T) {
	in := `{"metadata":{"name":"a","labels":{"x":"1","y":"1"},"name":"b","labels":{"y":"2"}},` +
		`"spec":{"minReadySeconds":1},"spec":{"replicas":3}}`
	d, res := DecodeDeployment([]byte(in), DecodeOptions{Lenient: true})
	if len(res.Errs) != 0 {
		t.Fatalf("errors %v", res.Errs)
	}
	if d.ObjectMeta.Name != "b" || d.ObjectMeta.Labels["x"] != "1" || d.ObjectMeta.Labels["y"] != "2" {
		t.Errorf("metadata %+v, want name b and labels x=1 y=2", d.ObjectMeta)
	}
	if d.Spec.MinReadySeconds != 1 || d.Spec.Replicas == nil || *d.Spec.Replicas != 3 {
		t.Errorf("spec minReadySeconds %d replicas %v, want 1 and 3", d.Spec.MinReadySeconds, d.Spec.Replicas)
	}
	if len(res.Warnings) != 3 {
		t.Errorf("warnings %q, want the three duplicates", res.Warnings)
	}
}

// TestDeepPath: a path deeper than the segments the decoder keeps in
// itself spills to the heap and renders the same, also after it shrinks
// and grows again.
func TestDeepPath(t *testing.T) {
	var d decoder
	var want []string
	render := func() string {
		var b strings.Builder
		for _, s := range want {
			if s[0] != '[' && b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
		return b.String()
	}
	push := func(i int) {
		if i%3 == 2 {
			d.path.push(segment{index: i})
			want = append(want, "["+strconv.Itoa(i)+"]")
			return
		}
		name := "f" + strconv.Itoa(i)
		d.path.push(segment{name: name, named: true})
		want = append(want, name)
	}
	for round := range 3 {
		for i := range 40 {
			push(i)
			if got := d.pathString(); got != render() {
				t.Fatalf("round %d, depth %d: path %q, want %q", round, d.path.depth, got, render())
			}
			if d.key() != d.path.at(d.path.depth-1).name {
				t.Fatalf("key() is not the last segment's name")
			}
		}
		for range 25 + round*5 {
			d.path.pop()
			want = want[:len(want)-1]
		}
		if got := d.pathString(); got != render() {
			t.Fatalf("round %d, after popping: path %q, want %q", round, got, render())
		}
	}
}

// TestLongLists: lists longer than the elements their decoder keeps on
// the stack decode whole and in order, at their exact length, with null
// elements zero and the paths of errors past the stack's elements right.
func TestLongLists(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 8, 16, 17, 40} {
		var cs []string
		for i := range n {
			var env []string
			for j := range n {
				env = append(env, `{"name":"v`+strconv.Itoa(j)+`"}`)
			}
			ports := `[]`
			if i == n-1 {
				ports = `{}` // not a list
			}
			c := `{"name":"c` + strconv.Itoa(i) + `","env":[` + strings.Join(env, ",") + `],"ports":` + ports + `}`
			if i == 2 {
				c = "null"
			}
			cs = append(cs, c)
		}
		data := `{"spec":{"containers":[` + strings.Join(cs, ",") + `]}}`
		x, res := DecodePodTemplateSpec([]byte(data), DecodeOptions{})
		got := x.Spec.Containers
		if len(got) != n || cap(got) != n || got == nil {
			t.Fatalf("n=%d: %d containers (capacity %d, nil %v)", n, len(got), cap(got), got == nil)
		}
		for i, c := range got {
			if i == 2 {
				if c.Name != "" || c.Env != nil {
					t.Errorf("n=%d: the null container decoded as %+v", n, c)
				}
				continue
			}
			if c.Name != "c"+strconv.Itoa(i) || len(c.Env) != n || cap(c.Env) != n {
				t.Fatalf("n=%d: container %d is %q with %d variables (capacity %d)", n, i, c.Name, len(c.Env), cap(c.Env))
			}
			for j, e := range c.Env {
				if e.Name != "v"+strconv.Itoa(j) {
					t.Fatalf("n=%d: container %d, variable %d is %q", n, i, j, e.Name)
				}
			}
		}
		if n > 0 && n != 3 {
			want := "spec.containers[" + strconv.Itoa(n-1) + "].ports"
			if len(res.Errs) != 1 || res.Errs[0].Field != want {
				t.Errorf("n=%d: errors %v, want one at %s", n, res.Errs, want)
			}
		}
	}
}

// TestShortIntegersAgreeWithStrconv: the decoder's shortcut for integers
// of up to nine digits gives what strconv.ParseInt gives, for every JSON
// number of up to eleven characters drawn from its grammar, and leaves to
// strconv every number it cannot read whole (a sign, a fraction, an
// exponent, ten digits or more).
func TestShortIntegersAgreeWithStrconv(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.StringMatching(`-?(0|[1-9][0-9]{0,10})(\.[0-9]{1,2})?([eE][+-]?[0-9])?`).Draw(t, "number")
		v, ok := shortUint(n)
		want, err := strconv.ParseInt(n, 10, 32)
		plain := len(n) <= 9 && !strings.ContainsAny(n, "-.eE")
		if ok != plain || ok && (err != nil || v != want) {
			t.Fatalf("shortUint(%q) = %d, %v; strconv: %d, %v", n, v, ok, want, err)
		}
	})
	for _, n := range []string{"0", "7", "999999999"} {
		if v, ok := shortUint(n); !ok || strconv.FormatInt(v, 10) != n {
			t.Errorf("shortUint(%q) = %d, %v", n, v, ok)
		}
	}
	for _, n := range []string{"", "1000000000", "-1", "1.0", "1e3"} {
		if _, ok := shortUint(n); ok {
			t.Errorf("shortUint(%q) answers", n)
		}
	}
}
