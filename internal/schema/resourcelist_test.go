package schema

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/field"
)

// sorted reports whether l keeps ResourceList's order: names strictly
// increasing.
func sorted(l ResourceList) bool {
	for i := 1; i < len(l); i++ {
		if l[i-1].Name >= l[i].Name {
			return false
		}
	}
	return true
}

// TestResourceListMethods: Get, Has and Names read a list; Set changes an
// entry in place and puts a new name in its place in new memory; Clone and
// Map copy; MakeResourceList sorts; nil stays nil and empty stays empty.
func TestResourceListMethods(t *testing.T) {
	cpu, mem := MustParseQuantity("250m"), MustParseQuantity("1Gi")
	l := MakeResourceList(map[string]Quantity{"memory": mem, "cpu": cpu})
	if !sorted(l) || len(l) != 2 || l[0].Name != "cpu" {
		t.Fatalf("MakeResourceList = %+v", l)
	}
	if q, ok := l.Get("memory"); !ok || q != mem || !l.Has("cpu") || l.Has("pods") {
		t.Fatalf("Get/Has on %+v", l)
	}
	if q, ok := l.Get("pods"); ok || q != (Quantity{}) {
		t.Fatalf("Get of an absent name = %+v, %v", q, ok)
	}
	if got := slices.Collect(l.Names()); !slices.Equal(got, []string{"cpu", "memory"}) {
		t.Fatalf("Names = %v", got)
	}

	// Set of a name l has: in place, seen by a list sharing the entries.
	shared := l
	two := MustParseQuantity("2")
	l.Set("cpu", two)
	if q, _ := shared.Get("cpu"); q != two {
		t.Fatalf("Set in place is not seen by a sharing list: %+v", shared)
	}
	// Set of a new name: in order, in new memory, the old list untouched
	// even where it has capacity to spare.
	roomy := append(make(ResourceList, 0, 8), l...)
	before := roomy
	roomy.Set("ephemeral-storage", mem)
	roomy.Set("a", cpu)
	roomy.Set("z", cpu)
	if names := slices.Collect(roomy.Names()); !slices.Equal(names, []string{"a", "cpu", "ephemeral-storage", "memory", "z"}) {
		t.Fatalf("Set of new names: %v", names)
	}
	if len(before) != 2 || before[:cap(before)][2] != (ResourceEntry{}) {
		t.Fatalf("Set wrote into the old list's memory: %+v", before[:cap(before)])
	}

	c := l.Clone()
	c.Set("cpu", cpu)
	if q, _ := l.Get("cpu"); q != two {
		t.Fatal("a clone shares entries with its original")
	}
	if diff := cmp.Diff(map[string]Quantity{"cpu": two, "memory": mem}, l.Map(), cmp.Comparer(func(a, b Quantity) bool { return a == b })); diff != "" {
		t.Fatalf("Map (-want +got):\n%s", diff)
	}

	var none ResourceList
	if none.Clone() != nil || none.Map() != nil || MakeResourceList(nil) != nil {
		t.Fatal("nil is not kept nil")
	}
	if empty := (ResourceList{}).Clone(); empty == nil || len(empty) != 0 {
		t.Fatal("empty is not kept empty")
	}
	if m := (ResourceList{}).Map(); m == nil || len(m) != 0 {
		t.Fatal("Map of an empty list is not an empty map")
	}
	none.Set("cpu", cpu)
	if len(none) != 1 {
		t.Fatalf("Set on nil: %+v", none)
	}
}

// TestDecodeResourceListProperty: a resource list decodes to its members
// sorted by name, each once: the last value of a repeated name, which is
// reported once as a duplicate; a repeated member adds to the first, as
// upstream's decoder stores a repeated map; null is nil and {} is empty.
func TestDecodeResourceListProperty(t *testing.T) {
	names := []string{"cpu", "memory", "ephemeral-storage", "nvidia.com/gpu", "a", "pods", "hugepages-2Mi", "z", "é"}
	amounts := []string{"1", "100m", "512Mi", "0.5", "1e3", "2Gi"}
	rapid.Check(t, func(t *rapid.T) {
		type member struct{ name, amount string }
		draw := func(label string) []member {
			var ms []member
			for range rapid.IntRange(0, 12).Draw(t, label) {
				ms = append(ms, member{rapid.SampledFrom(names).Draw(t, "name"), rapid.SampledFrom(amounts).Draw(t, "amount")})
			}
			return ms
		}
		object := func(ms []member) string {
			var parts []string
			for _, m := range ms {
				k, _ := json.Marshal(m.name)
				parts = append(parts, string(k)+":"+`"`+m.amount+`"`)
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
		first, second := draw("first"), draw("second")
		repeated := rapid.Bool().Draw(t, "repeated")
		doc := `{"limits":` + object(first)
		if repeated {
			doc += `,"limits":` + object(second)
		}
		doc += "}"
		d := newDecoder([]byte(doc), DecodeOptions{})
		var r ResourceRequirements
		d.decodeResourceRequirements(&r)
		d.finish()

		groups := [][]member{first}
		if repeated {
			groups = append(groups, second)
		}
		want := map[string]Quantity{}
		dups := false
		for _, ms := range groups {
			seen := map[string]bool{} // duplicates count per object
			for _, m := range ms {
				dups = dups || seen[m.name]
				seen[m.name] = true
				want[m.name] = MustParseQuantity(m.amount)
			}
		}
		if !sorted(r.Limits) || r.Limits == nil {
			t.Fatalf("%s: %+v is not sorted", doc, r.Limits)
		}
		if diff := cmp.Diff(want, r.Limits.Map(), cmp.Comparer(func(a, b Quantity) bool { return a == b })); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", doc, diff)
		}
		reported := slices.ContainsFunc(d.errs, func(e *field.Error) bool { return e.Type == field.DuplicateKey })
		if reported != (dups || repeated) {
			t.Fatalf("%s: duplicates reported %v, want %v (%v)", doc, reported, dups || repeated, d.errs)
		}
		if cap(r.Limits) != len(r.Limits) {
			t.Fatalf("%s: capacity %d beyond the length %d", doc, cap(r.Limits), len(r.Limits))
		}
	})
	for doc, want := range map[string]ResourceList{`{"limits":null}`: nil, `{"limits":{}}`: {}, `{}`: nil} {
		x, res := DecodePodSpec([]byte(`{"containers":[{"resources":`+doc+`}]}`), DecodeOptions{})
		if len(res.Errs) > 0 {
			t.Fatal(res.Errs)
		}
		if got := x.Containers[0].Resources.Limits; (got == nil) != (want == nil) || len(got) != 0 {
			t.Errorf("%s: limits %#v, want %#v", doc, got, want)
		}
	}
}

// build makes a list of n elements in c, as a generated decoder does,
// the elements named name.
func build(c *chunks[EnvVar], n int, name string) []EnvVar {
	s := c.start()
	for range n {
		if len(s) == cap(s) {
			s = c.grow(s)
		}
		s = s[:len(s)+1]
		if s[len(s)-1] != (EnvVar{}) {
			panic("an element to build is not zero")
		}
		s[len(s)-1].Name = name
	}
	return c.keep(s)
}

// TestChunks: the lists built in chunks have their elements, zero until
// set, and capacity ending at their length, share blocks, and do not
// change when another is appended to; a list of none is empty, not nil.
func TestChunks(t *testing.T) {
	var c chunks[EnvVar]
	if l := build(&c, 0, ""); l == nil || len(l) != 0 {
		t.Fatalf("a list of none: %#v", l)
	}
	var lists [][]EnvVar
	for i, n := range []int{1, 3, 2, 8, 1, 70, 2} {
		l := build(&c, n, string(rune('a'+i)))
		if len(l) != n || cap(l) != n {
			t.Fatalf("a list of %d: len %d cap %d", n, len(l), cap(l))
		}
		lists = append(lists, l)
	}
	lists[0] = append(lists[0], EnvVar{Name: "x"})
	for i, l := range lists[1:] {
		for _, e := range l {
			if e.Name != string(rune('a'+i+1)) {
				t.Fatalf("list %d was written by another's append: %+v", i+1, l)
			}
		}
	}
	// The blocks grow: seven short lists fit in a few allocations.
	n := testing.AllocsPerRun(10, func() {
		var c chunks[EnvVar]
		for _, n := range []int{1, 3, 2, 8, 1, 2, 2} {
			build(&c, n, "")
		}
	})
	if n > 3 {
		t.Fatalf("%v allocations for seven short lists", n)
	}
}

// TestDecodeSharesBlocks: a template's short lists of ports, environment
// variables and resource entries cost one allocation per kind or two, not
// one per container.
func TestDecodeSharesBlocks(t *testing.T) {
	c := `{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}}`
	doc := []byte(`{"spec":{"containers":[` + strings.Repeat(c+",", 3) + c + `]}}`)
	one := []byte(`{"spec":{"containers":[` + c + `]}}`)
	many := testing.AllocsPerRun(20, func() { DecodePodTemplateSpec(doc, DecodeOptions{}) })
	single := testing.AllocsPerRun(20, func() { DecodePodTemplateSpec(one, DecodeOptions{}) })
	// Four containers add their list of containers' growth and no more
	// than a block or two per kind.
	if many-single > 4 {
		t.Fatalf("four containers: %v allocations, one: %v", many, single)
	}
}

// TestEncodeFirstMember: the writers of structs open an object with
// whichever member comes first, and write an object without members as
// {}.
func TestEncodeFirstMember(t *testing.T) {
	for _, tc := range []struct {
		x    ContainerPort
		want string
	}{
		{ContainerPort{}, `{"containerPort":0}`},
		{ContainerPort{Name: "http", ContainerPort: 80}, `{"containerPort":80,"name":"http"}`},
		{ContainerPort{HostIP: "1.2.3.4"}, `{"containerPort":0,"hostIP":"1.2.3.4"}`},
	} {
		e := encoder{}
		e.encodeContainerPort(&tc.x)
		if string(e.buf) != tc.want {
			t.Errorf("%+v: %s, want %s", tc.x, e.buf, tc.want)
		}
	}
	for _, tc := range []struct {
		x    EnvVar
		want string
	}{
		{EnvVar{}, `{"name":""}`},
		{EnvVar{Value: "<&>"}, `{"name":"","value":"\u003c\u0026\u003e"}`},
	} {
		e := encoder{buf: []byte("[")}
		e.encodeEnvVar(&tc.x)
		if string(e.buf) != "["+tc.want {
			t.Errorf("%+v: %s, want [%s", tc.x, e.buf, tc.want)
		}
	}
	var empty LocalObjectReference
	if got := AppendPodSpec(nil, &PodSpec{ImagePullSecrets: []LocalObjectReference{empty}}, Stored); string(got) != `{"imagePullSecrets":[{}]}` {
		t.Errorf("an object without members: %s", got)
	}
}
