package rollout

import (
	"cmp"
	"slices"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// CompareByCreation orders ReplicaSets oldest first; equal creation times
// (common: the API stores whole seconds) order by name (R-PRIM-4).
func CompareByCreation(a, b *ReplicaSet) int {
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// CompareBySizeOlder orders larger ReplicaSets first and equal sizes by
// [CompareByCreation] (R-PRIM-5). Proportional scaling uses it to shrink;
// it is proportion.CompareSizeOlder.
func CompareBySizeOlder(a, b *ReplicaSet) int {
	return proportion.CompareSizeOlder(proportionSet(a), proportionSet(b))
}

// CompareBySizeNewer orders larger ReplicaSets first and equal sizes newest
// first, equal times by name descending (R-PRIM-6). Proportional scaling
// uses it to grow; it is proportion.CompareSizeNewer.
func CompareBySizeNewer(a, b *ReplicaSet) int {
	return proportion.CompareSizeNewer(proportionSet(a), proportionSet(b))
}

// lessByRevision is upstream's ReplicaSetsByRevision: smaller revision
// first; when either revision does not parse, or they are equal, by
// creation (R-PRIM-7). It is not a strict weak order when some revisions do
// not parse; see [ReplicaSetsByRevision].
func lessByRevision(a, b *ReplicaSet) bool {
	ra, rb := revisionOf(a), revisionOf(b)
	if !ra.Valid || !rb.Valid || ra.N == rb.N {
		return CompareByCreation(a, b) < 0
	}
	return ra.N < rb.N
}

// ReplicaSetsByCreationTimestamp sorts with [CompareByCreation]; it is
// upstream's sort.Interface of the same name.
type ReplicaSetsByCreationTimestamp []ReplicaSet

func (o ReplicaSetsByCreationTimestamp) Len() int      { return len(o) }
func (o ReplicaSetsByCreationTimestamp) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsByCreationTimestamp) Less(i, j int) bool {
	return CompareByCreation(&o[i], &o[j]) < 0
}

// ReplicaSetsBySizeOlder sorts with [CompareBySizeOlder].
type ReplicaSetsBySizeOlder []ReplicaSet

func (o ReplicaSetsBySizeOlder) Len() int           { return len(o) }
func (o ReplicaSetsBySizeOlder) Swap(i, j int)      { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsBySizeOlder) Less(i, j int) bool { return CompareBySizeOlder(&o[i], &o[j]) < 0 }

// ReplicaSetsBySizeNewer sorts with [CompareBySizeNewer].
type ReplicaSetsBySizeNewer []ReplicaSet

func (o ReplicaSetsBySizeNewer) Len() int           { return len(o) }
func (o ReplicaSetsBySizeNewer) Swap(i, j int)      { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsBySizeNewer) Less(i, j int) bool { return CompareBySizeNewer(&o[i], &o[j]) < 0 }

// ReplicaSetsByRevision sorts by revision annotation, smaller first, falling
// back to creation order when a revision does not parse or two are equal.
// With unparsable revisions this is not a strict weak order and the result
// depends on the sort algorithm and the input order; sorting with sort.Sort,
// as upstream does, from the same input order gives upstream's result.
type ReplicaSetsByRevision []ReplicaSet

func (o ReplicaSetsByRevision) Len() int           { return len(o) }
func (o ReplicaSetsByRevision) Swap(i, j int)      { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsByRevision) Less(i, j int) bool { return lessByRevision(&o[i], &o[j]) }

// sortedBy returns a sorted copy of sets; sets is not modified.
func sortedBy(sets []*ReplicaSet, compare func(a, b *ReplicaSet) int) []*ReplicaSet {
	out := slices.Clone(sets)
	slices.SortStableFunc(out, compare)
	return out
}
