package schemagen

import (
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// TestMergeKnowsTheMinors checks facts of the merged model against what
// the minors' k8s.io/api are known to hold (issue 24).
func TestMergeKnowsTheMinors(t *testing.T) {
	m, err := Merged(models)
	if err != nil {
		t.Fatal(err)
	}
	v135, v136, v137 := Minors(1)<<kubeversion.V1_35, Minors(1)<<kubeversion.V1_36, Minors(1)<<kubeversion.V1_37
	want := map[string]Minors{
		"PodSpec.Containers":                           v135 | v136 | v137,
		"PodSpec.WorkloadRef":                          v135,
		"PodSpec.SchedulingGroup":                      v136 | v137,
		"PodSpec.EvictionResponders":                   v137,
		"VolumeMount.BindMountOptions":                 v137,
		"HTTPGetAction.Protocol":                       v137,
		"GRPCAction.Mode":                              v137,
		"EmptyDirVolumeSource.Mode":                    v137,
		"ResourceHealth.Message":                       v136 | v137,
		"NodeAllocatableResourceClaimStatus.Resources": v136,
		"NodeAllocatableResourceClaimStatus.Mapping":   v137,
	}
	byName := map[string]*Struct{}
	for _, s := range m.Structs {
		byName[s.Name] = s
	}
	for key, ms := range want {
		var s, f string
		for i := range key {
			if key[i] == '.' {
				s, f = key[:i], key[i+1:]
			}
		}
		st := byName[s]
		if st == nil || st.field(f) == nil {
			t.Errorf("%s: not in the merged model", key)
			continue
		}
		if got := st.field(f).Minors; got != ms {
			t.Errorf("%s: minors %s, want %s", key, got, ms)
		}
	}
	if got := byName["EvictionResponder"].Minors; got != v137 {
		t.Errorf("EvictionResponder: minors %s", got)
	}
	if m.Minors != v135|v136|v137 || !slices.Equal(m.APIs, []string{"v0.35.4", "v0.36.3", "v0.37.2"}) {
		t.Errorf("minors %s, APIs %v", m.Minors, m.APIs)
	}
	gates := map[string][]Gate{
		"PodSpec.EvictionResponders": {{"EvictionRequestAPI", v137}},
		"PodSpec.SchedulingGroup":    {{"GenericWorkload", v136 | v137}},
		"PodSpec.WorkloadRef":        {{"GenericWorkload", v135}},
		"VolumeSource.Image":         {{"ImageVolume", v135}}, // no marker once GA, from 1.36
		"PodSpec.Containers":         nil,
	}
	for key, want := range gates {
		s, f, _ := strings.Cut(key, ".")
		if got := byName[s].field(f).Gates; !slices.Equal(got, want) {
			t.Errorf("%s: gates %v, want %v", key, got, want)
		}
	}
	if got := (v136 | v137).ident(); got != "since1_36" {
		t.Errorf("ident %s", got)
	}
}

// TestMergeOrderExhaustive: for every pair of subsequences of one order
// of six elements (4,096 pairs), the merge holds every element of either
// once, and each is the merge filtered to its elements.
func TestMergeOrderExhaustive(t *testing.T) {
	all := []string{"a", "b", "c", "d", "e", "f"}
	sub := func(mask int) []string {
		var out []string
		for i, x := range all {
			if mask&(1<<i) != 0 {
				out = append(out, x)
			}
		}
		return out
	}
	for ma := range 1 << len(all) {
		for mb := range 1 << len(all) {
			a, b := sub(ma), sub(mb)
			m := mergeOrder(a, b)
			if len(m) != len(unionOf(a, b)) {
				t.Fatalf("merge(%v, %v) = %v: %d elements, want %d", a, b, m, len(m), len(unionOf(a, b)))
			}
			for _, in := range [][]string{a, b} {
				var f []string
				for _, x := range m {
					if slices.Contains(in, x) {
						f = append(f, x)
					}
				}
				if !slices.Equal(f, in) {
					t.Fatalf("merge(%v, %v) = %v does not keep %v", a, b, m, in)
				}
			}
		}
	}
}

func unionOf(a, b []string) map[string]bool {
	u := map[string]bool{}
	for _, x := range append(slices.Clone(a), b...) {
		u[x] = true
	}
	return u
}

// TestMergeRefusesMoves: a field that moves between minors cannot be
// merged into one order, and the merge says so.
func TestMergeRefusesMoves(t *testing.T) {
	mk := func(fields ...string) *Model {
		s := &Struct{Name: "S", Upstream: "k8s.io/api/x.S", Spew: "x.S"}
		for _, f := range fields {
			s.Fields = append(s.Fields, &Field{Go: f, JSON: f, Type: &Type{Kind: KString, Spew: "string"}})
		}
		return &Model{Roots: []*Struct{s}, Structs: []*Struct{s}}
	}
	_, err := merge([]Version{
		{Minor: kubeversion.V1_35, API: "v0.35.0", Model: mk("A", "B")},
		{Minor: kubeversion.V1_36, API: "v0.36.0", Model: mk("B", "A")},
		{Minor: kubeversion.V1_37, API: "v0.37.0", Model: mk("A", "B")},
	}, nil)
	if err == nil {
		t.Fatal("a field that moves merged")
	}
	m, err := merge([]Version{
		{Minor: kubeversion.V1_35, API: "v0.35.0", Model: mk("A", "X", "B")},
		{Minor: kubeversion.V1_36, API: "v0.36.0", Model: mk("A", "B", "Y")},
		{Minor: kubeversion.V1_37, API: "v0.37.0", Model: mk("A", "Z", "B", "Y")},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range m.Structs[0].Fields {
		got = append(got, f.Go+":"+f.Minors.String())
	}
	if want := []string{"A:1.35+", "X:1.35", "Z:1.37", "B:1.35+", "Y:1.36+"}; !slices.Equal(got, want) {
		t.Errorf("merged fields %v, want %v", got, want)
	}
}
