package schema

import (
	"iter"
	"maps"
	"slices"
	"strings"
)

// ResourceList is k8s.io/api/core/v1.ResourceList: quantities by resource
// name, a map upstream. It is held as its entries sorted by name, each name
// once, which is the order the API server writes them in and go-spew
// renders them in, so that decoding builds one small slice where a map
// would cost two allocations and the writers never sort. nil is an absent
// list and a non-nil empty one an empty object, as upstream tells a nil
// map from an empty one.
//
// The methods keep the order. Set changes an entry in place, which every
// list sharing it sees, as every holder of a map sees an assignment; an
// entry it adds goes into new memory, never into capacity that another
// list may share.
type ResourceList []ResourceEntry

// ResourceEntry is one member of a ResourceList.
type ResourceEntry struct {
	Name     string
	Quantity Quantity
}

// MakeResourceList returns the entries of m as a ResourceList; nil for nil.
func MakeResourceList(m map[string]Quantity) ResourceList {
	if m == nil {
		return nil
	}
	l := make(ResourceList, 0, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		l = append(l, ResourceEntry{name, m[name]})
	}
	return l
}

// Map returns the entries of l as a map; nil for nil.
func (l ResourceList) Map() map[string]Quantity {
	if l == nil {
		return nil
	}
	m := make(map[string]Quantity, len(l))
	for _, e := range l {
		m[e.Name] = e.Quantity
	}
	return m
}

// search returns where name is in l, or where it would go.
func (l ResourceList) search(name string) (int, bool) {
	// Lists hold a handful of names: a linear scan beats a binary search.
	for i := range l {
		switch c := strings.Compare(l[i].Name, name); {
		case c == 0:
			return i, true
		case c > 0:
			return i, false
		}
	}
	return len(l), false
}

// Get returns the quantity named name, and whether l has it.
func (l ResourceList) Get(name string) (Quantity, bool) {
	if i, ok := l.search(name); ok {
		return l[i].Quantity, true
	}
	return Quantity{}, false
}

// Has reports whether l has a quantity named name.
func (l ResourceList) Has(name string) bool {
	_, ok := l.search(name)
	return ok
}

// Set makes name's quantity q: in place when l has name, else in a new
// list with the entry in its place.
func (l *ResourceList) Set(name string, q Quantity) {
	i, ok := l.search(name)
	if ok {
		(*l)[i].Quantity = q
		return
	}
	old := *l
	n := make(ResourceList, len(old)+1)
	copy(n, old[:i])
	n[i] = ResourceEntry{name, q}
	copy(n[i+1:], old[i:])
	*l = n
}

// Names returns the names in l, in order.
func (l ResourceList) Names() iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := range l {
			if !yield(l[i].Name) {
				return
			}
		}
	}
}

// Clone returns a copy of l that shares no memory with it; nil for nil.
func (l ResourceList) Clone() ResourceList {
	if l == nil {
		return nil
	}
	return append(ResourceList{}, l...)
}
