package schemagen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// Minors is a set of Kubernetes minors: bit v is set for the
// kubeversion.Version v (Latest, bit 0, is never set).
type Minors uint8

// Has reports whether v (Latest resolved to the newest minor) is in ms.
func (ms Minors) Has(v kubeversion.Version) bool { return ms&(1<<v.Resolve()) != 0 }

// list returns the minors of ms, oldest first.
func (ms Minors) list() []kubeversion.Version {
	var out []kubeversion.Version
	for _, v := range kubeversion.Supported() {
		if ms.Has(v) {
			out = append(out, v)
		}
	}
	return out
}

// String names the minors, as 1.36+ or 1.35.
func (ms Minors) String() string {
	l := ms.list()
	switch {
	case len(l) == 0:
		return "none"
	case l[len(l)-1] == kubeversion.Newest && len(l) > 1 && int(l[len(l)-1]-l[0])+1 == len(l):
		return l[0].String() + "+"
	}
	var names []string
	for _, v := range l {
		names = append(names, v.String())
	}
	return strings.Join(names, ",")
}

// ident is a Go identifier for ms, as since1_36, only1_35 or
// in1_35_1_37: the name of its generated constant.
func (ms Minors) ident() string {
	l := ms.list()
	under := func(v kubeversion.Version) string { return "1_" + strconv.Itoa(v.Minor()) }
	switch {
	case len(l) == 1:
		return "only" + under(l[0])
	case ms.String() == l[0].String()+"+":
		return "since" + under(l[0])
	}
	var parts []string
	for _, v := range l {
		parts = append(parts, under(v))
	}
	return "in" + strings.Join(parts, "_")
}

// MetadataChange is a difference in a field's merge metadata (patch
// strategy and merge key, list type and keys, map and struct types)
// between minors that is known and accepted: the merged model takes the
// newest minor's metadata. Any other difference fails the merge, so that
// a change of the apply semantics is a rule someone wrote down.
type MetadataChange struct {
	Field  string // Struct.GoName
	Reason string
}

// metadataChanges are the accepted differences of merge metadata.
var metadataChanges = []MetadataChange{
	// Status only: no manifest or template holds it.
	{"PodStatus.NodeAllocatableResourceClaimStatuses", "an atomic list in 1.36, a map keyed by resourceClaimName (strategic merge by the same key) from 1.37"},
}

// A Version is one minor's model, as the generator run under that minor's
// module file dumped it.
type Version struct {
	Minor kubeversion.Version
	API   string // the k8s.io/api version, as v0.36.3
	Model *Model
}

// Merge builds the model of every minor at once: the union of their
// structs and fields, each recording in Minors the minors that have it.
// Fields keep each minor's order: the merged fields of a struct, filtered
// to those of one minor, are that minor's fields in its own order. A field
// that has another type, JSON name or options in another minor, or that
// moves between minors, is an error; so is a difference of merge metadata
// not listed in metadataChanges.
func Merge(versions []Version) (*Model, error) { return merge(versions, metadataChanges) }

// merge is Merge with the accepted metadata changes.
func merge(versions []Version, changes []MetadataChange) (*Model, error) {
	if len(versions) == 0 {
		return nil, fmt.Errorf("schemagen: no models to merge")
	}
	versions = slices.Clone(versions)
	slices.SortFunc(versions, func(a, b Version) int { return int(a.Minor) - int(b.Minor) })
	out := &Model{}
	merged := map[string]*Struct{}
	var order []string
	for _, v := range versions {
		if v.Minor == kubeversion.Latest || !v.Minor.Valid() {
			return nil, fmt.Errorf("schemagen: model of %s: not a supported minor", v.API)
		}
		out.Minors |= 1 << v.Minor
		out.APIs = append(out.APIs, v.API)
		var names []string
		for _, s := range v.Model.Structs {
			names = append(names, s.Name)
		}
		order = mergeOrder(order, names)
	}
	for _, name := range order {
		merged[name] = &Struct{Name: name}
	}
	accepted := map[string]bool{}
	for _, c := range changes {
		accepted[c.Field] = false
	}
	fieldOrder := map[string][]string{}
	for _, v := range versions {
		bit := Minors(1) << v.Minor
		for _, s := range v.Model.Structs {
			ms := merged[s.Name]
			if ms.Minors != 0 && (ms.Upstream != s.Upstream || ms.Spew != s.Spew || ms.Model != s.Model) {
				return nil, fmt.Errorf("schemagen: %s is %s (%s) in %s and %s (%s) before", s.Name, s.Upstream, s.Spew, v.Minor, ms.Upstream, ms.Spew)
			}
			ms.Upstream, ms.Spew, ms.Model = s.Upstream, s.Spew, s.Model
			ms.Minors |= bit
			var names []string
			for _, f := range s.Fields {
				names = append(names, f.Go)
				t := retarget(f.Type, merged)
				prev := ms.field(f.Go)
				if prev == nil {
					nf := *f
					nf.Type, nf.Minors, nf.Gates = t, bit, nil
					nf.Gates = addGates(nil, f.Gates, bit)
					ms.Fields = append(ms.Fields, &nf)
					continue
				}
				prev.Gates = addGates(prev.Gates, f.Gates, bit)
				if prev.JSON != f.JSON || prev.OmitEmpty != f.OmitEmpty || prev.Embedded != f.Embedded || !sameType(prev.Type, t) {
					return nil, fmt.Errorf("schemagen: %s.%s changes in %s (JSON %q, type %s)", s.Name, f.Go, v.Minor, f.JSON, f.Type.Spew)
				}
				if !sameMetadata(prev, f) {
					key := s.Name + "." + f.Go
					if _, ok := accepted[key]; !ok {
						return nil, fmt.Errorf("schemagen: the merge metadata of %s changes in %s: list it in metadataChanges", key, v.Minor)
					}
					accepted[key] = true
					prev.PatchStrategy, prev.PatchMergeKey = f.PatchStrategy, f.PatchMergeKey
					prev.ListType, prev.ListMapKeys, prev.MapType, prev.StructType = f.ListType, slices.Clone(f.ListMapKeys), f.MapType, f.StructType
				}
				prev.Minors |= bit
			}
			fieldOrder[s.Name] = mergeOrder(fieldOrder[s.Name], names)
		}
		if v.Minor == versions[len(versions)-1].Minor {
			for _, r := range v.Model.Roots {
				out.Roots = append(out.Roots, merged[r.Name])
			}
		}
	}
	for key, used := range accepted {
		if !used {
			return nil, fmt.Errorf("schemagen: metadataChanges lists %s, whose metadata does not change", key)
		}
	}
	for _, name := range order {
		s := merged[name]
		fields := make([]*Field, 0, len(s.Fields))
		for _, g := range fieldOrder[name] {
			fields = append(fields, s.field(g))
		}
		s.Fields = fields
		out.Structs = append(out.Structs, s)
	}
	// Each minor's fields, in its order, are the merged ones filtered.
	for _, v := range versions {
		for _, s := range v.Model.Structs {
			var got, want []string
			for _, f := range merged[s.Name].Fields {
				if f.Minors.Has(v.Minor) {
					got = append(got, f.Go)
				}
			}
			for _, f := range s.Fields {
				want = append(want, f.Go)
			}
			if !slices.Equal(got, want) {
				return nil, fmt.Errorf("schemagen: the fields of %s move between minors: %s has %v, the merge gives %v", s.Name, v.Minor, want, got)
			}
		}
	}
	return out, nil
}

func (s *Struct) field(goName string) *Field {
	for _, f := range s.Fields {
		if f.Go == goName {
			return f
		}
	}
	return nil
}

// retarget returns t with its structs replaced by the merged ones.
func retarget(t *Type, merged map[string]*Struct) *Type {
	n := &Type{Kind: t.Kind, Spew: t.Spew}
	if t.Elem != nil {
		n.Elem = retarget(t.Elem, merged)
	}
	if t.Struct != nil {
		n.Struct = merged[t.Struct.Name]
	}
	return n
}

func sameType(a, b *Type) bool {
	if a.Kind != b.Kind || a.Spew != b.Spew || (a.Elem == nil) != (b.Elem == nil) || a.Struct != b.Struct {
		return false
	}
	return a.Elem == nil || sameType(a.Elem, b.Elem)
}

func sameMetadata(a, b *Field) bool {
	return a.PatchStrategy == b.PatchStrategy && a.PatchMergeKey == b.PatchMergeKey && a.ListType == b.ListType &&
		slices.Equal(a.ListMapKeys, b.ListMapKeys) && a.MapType == b.MapType && a.StructType == b.StructType
}

// mergeOrder returns a sequence holding every element of a and of b once,
// in which a and b, filtered, keep their orders when they can: the
// elements common to both along a longest common subsequence stay in
// place, and the others go in before the next common one (a's first). An
// element that a and b hold in different orders appears once, where b
// puts it, and the check after the merge reports the move.
func mergeOrder(a, b []string) []string {
	if len(a) == 0 {
		return slices.Clone(b)
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	inB := map[string]bool{}
	for _, x := range b {
		inB[x] = true
	}
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			if !inB[a[i]] {
				out = append(out, a[i])
			}
			i++
		default:
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// addGates adds the minor bit to the gates of merged named in gs, adding
// the gates merged does not hold yet.
func addGates(merged []Gate, gs []Gate, bit Minors) []Gate {
	for _, g := range gs {
		i := slices.IndexFunc(merged, func(m Gate) bool { return m.Name == g.Name })
		if i < 0 {
			merged = append(merged, Gate{Name: g.Name})
			i = len(merged) - 1
		}
		merged[i].Minors |= bit
	}
	return merged
}
