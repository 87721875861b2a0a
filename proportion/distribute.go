package proportion

import (
	"cmp"
	"slices"
	"strings"
)

// A Change is the size Distribute gives one set.
type Change struct {
	Index    int   // into the sets passed to Distribute
	Replicas int64 // the set's new spec.replicas; never negative
}

// Distribute resizes the active sets of a Deployment that is being resized
// as r says, in proportion to each set's share of the previous maximum
// (R-SCALE-4 steps 3 to 7). The caller passes the sets in the controller's
// order (old sets newest first, then the new set) and only sets with
// Replicas > 0; Distribute does not modify sets.
//
// With allowed = r.MaxReplicas if r.Replicas > 0, else 0, and toAdd =
// allowed - the sum of the sets' Replicas:
//
//   - The scaling order is [CompareSizeNewer] when toAdd > 0,
//     [CompareSizeOlder] when toAdd < 0, and the order of sets when
//     toAdd == 0.
//   - In that order each set gets Replicas + [Proportion](set, r, toAdd,
//     added), where added sums the proportions of the sets before it.
//   - The leftover toAdd-added goes to the first set in that order, and that
//     set's size is then clamped at 0.
//
// Distribute returns one Change per set, in the scaling order (the order in
// which the controller writes them), or nil when sets is empty. With
// toAdd == 0 every set keeps its size (the controller still writes each one,
// to refresh its annotations). With r.Replicas == 0 every size is 0.
//
// No Replicas in the result is negative. When every set has Replicas >= 0
// and r.MaxReplicas >= 0, only the first set can need the clamp (as
// upstream); for other inputs, which upstream never sees, every size is
// clamped at 0. The sizes sum to allowed exactly when the first set is not
// clamped; see the package documentation for when that holds. Sums that
// would leave int64 saturate instead of wrapping. The result does not
// depend on the order of sets when their names are distinct.
func Distribute(sets []Set, r Resize) []Change {
	if len(sets) == 0 {
		return nil
	}
	var current int64 // at most len(sets)·2^31: no overflow
	for _, s := range sets {
		current += int64(s.Replicas)
	}
	var allowed int64
	if r.Replicas > 0 {
		allowed = r.MaxReplicas
	}
	toAdd := subSat(allowed, current)

	changes := make([]Change, len(sets))
	for i := range changes {
		changes[i].Index = i
	}
	var order func(a, b Set) int
	switch {
	case toAdd > 0:
		order = CompareSizeNewer
	case toAdd < 0:
		order = CompareSizeOlder
	}
	if order != nil {
		slices.SortStableFunc(changes, func(a, b Change) int {
			return order(sets[a.Index], sets[b.Index])
		})
	}

	var added int64
	for k := range changes {
		s := sets[changes[k].Index]
		p := Proportion(s, r, toAdd, added) // 0 when toAdd == 0
		changes[k].Replicas = addSat(int64(s.Replicas), p)
		added = addSat(added, p)
	}
	// R-SCALE-4 step 7: the leftover goes to the first set, the only one
	// upstream clamps. Q-19.
	changes[0].Replicas = addSat(changes[0].Replicas, subSat(toAdd, added))
	for k := range changes {
		changes[k].Replicas = max(changes[k].Replicas, 0)
	}
	return changes
}

// CompareSizeNewer orders sets for a scale-up (R-PRIM-6, BySizeNewer):
// larger Replicas first; equal sizes newer first (Created later first);
// equal sizes and creation instants by Name descending. It returns a
// negative number when a sorts before b, a positive one when after, and 0
// only when size, creation instant and name are all equal.
func CompareSizeNewer(a, b Set) int {
	if c := cmp.Compare(b.Replicas, a.Replicas); c != 0 {
		return c
	}
	if c := b.Created.Compare(a.Created); c != 0 {
		return c
	}
	return strings.Compare(b.Name, a.Name)
}

// CompareSizeOlder orders sets for a scale-down (R-PRIM-5, BySizeOlder):
// larger Replicas first; equal sizes older first (Created earlier first);
// equal sizes and creation instants by Name ascending (byte-wise). It returns
// a negative number when a sorts before b, a positive one when after, and 0
// only when size, creation instant and name are all equal.
func CompareSizeOlder(a, b Set) int {
	if c := cmp.Compare(b.Replicas, a.Replicas); c != 0 {
		return c
	}
	if c := a.Created.Compare(b.Created); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}
