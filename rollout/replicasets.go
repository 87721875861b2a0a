package rollout

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
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

// revisionOf reads rs's revision annotation (R-REV-1): absent is revision 0.
func revisionOf(rs *ReplicaSet) revision.Rev {
	v, ok := rs.Annotations[RevisionAnnotation]
	return revision.Of(v, ok)
}

// Revision returns the revision annotation of a ReplicaSet: 0 when absent, an
// error when present and not a base-10 int64 (R-REV-1).
func Revision(rs ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return revision.Parse(v)
}

func revisions(sets []*ReplicaSet) []revision.Rev {
	out := make([]revision.Rev, len(sets))
	for i, rs := range sets {
		out[i] = revisionOf(rs)
	}
	return out
}

// MaxRevision returns the highest revision among sets, 0 when there is none;
// unparsable revisions are skipped (R-REV-2).
func MaxRevision(sets []ReplicaSet) int64 { return revision.Max(revisions(pointers(sets))) }

// LastRevision returns the second highest revision among sets (the
// multiset: two ReplicaSets at the highest revision give that revision), 0
// when there are fewer than two (R-REV-3).
func LastRevision(sets []ReplicaSet) int64 { return revision.Last(revisions(pointers(sets))) }

func pointers(sets []ReplicaSet) []*ReplicaSet {
	out := make([]*ReplicaSet, len(sets))
	for i := range sets {
		out[i] = &sets[i]
	}
	return out
}

func values(sets []*ReplicaSet) []ReplicaSet {
	if len(sets) == 0 {
		return nil
	}
	out := make([]ReplicaSet, len(sets))
	for i, rs := range sets {
		out[i] = *rs
	}
	return out
}

// FindNewReplicaSet returns the oldest ReplicaSet (by [CompareByCreation])
// whose pod template equals d's ignoring the pod-template-hash label, and
// false when there is none (R-FIND-1). It does not reorder sets.
func FindNewReplicaSet(d Deployment, sets []ReplicaSet) (ReplicaSet, bool) {
	i := findNew(d, pointers(sets))
	if i < 0 {
		return ReplicaSet{}, false
	}
	return sets[i], true
}

// findNew returns the index in sets of the new ReplicaSet, or -1. It scans
// once, keeping the oldest match, instead of sorting.
func findNew(d Deployment, sets []*ReplicaSet) int {
	want := d.Spec.Template
	best := -1
	for i, rs := range sets {
		if best >= 0 && CompareByCreation(rs, sets[best]) >= 0 {
			continue
		}
		if EqualIgnoreHash(want, rs.Spec.Template) {
			best = i
		}
	}
	return best
}

// FindOldReplicaSets returns the ReplicaSets other than d's new one (see
// [FindNewReplicaSet]), oldest first: all of them, and those with a non-zero
// size (R-FIND-2). A ReplicaSet is old when its UID differs from the new
// one's. It does not reorder sets.
func FindOldReplicaSets(d Deployment, sets []ReplicaSet) (withReplicas, all []ReplicaSet) {
	ptrs := pointers(sets)
	old := findOld(ptrs, findNew(d, ptrs))
	for _, rs := range old {
		if rs.Spec.Replicas != 0 {
			withReplicas = append(withReplicas, *rs)
		}
	}
	return withReplicas, values(old)
}

// findOld returns the ReplicaSets of sets other than the new one at index
// newIdx (-1 for none), oldest first: those whose UID differs from its.
func findOld(sets []*ReplicaSet, newIdx int) []*ReplicaSet {
	old := make([]*ReplicaSet, 0, len(sets))
	for _, rs := range sets {
		if newIdx >= 0 && rs.UID == sets[newIdx].UID {
			continue
		}
		old = append(old, rs)
	}
	slices.SortStableFunc(old, CompareByCreation)
	return old
}

// FilterActiveReplicaSets returns the ReplicaSets with a size above zero, in
// their order (R-PRIM-1).
func FilterActiveReplicaSets(sets []ReplicaSet) []ReplicaSet {
	return values(filterActive(pointers(sets)))
}

func filterActive(sets []*ReplicaSet) []*ReplicaSet {
	var out []*ReplicaSet
	for _, rs := range sets {
		if rs != nil && rs.Spec.Replicas > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// FindActiveOrLatest returns the one ReplicaSet a Deployment should be
// resized through (R-AOL-1): when no ReplicaSet is active, the new one or
// else the newest old one; when exactly one is active, that one; otherwise
// none. It does not reorder oldSets.
func FindActiveOrLatest(newRS ReplicaSet, hasNew bool, oldSets []ReplicaSet) (ReplicaSet, bool) {
	var n *ReplicaSet
	if hasNew {
		n = &newRS
	}
	rs := findActiveOrLatest(n, pointers(oldSets))
	if rs == nil {
		return ReplicaSet{}, false
	}
	return *rs, true
}

func findActiveOrLatest(newRS *ReplicaSet, old []*ReplicaSet) *ReplicaSet {
	if newRS == nil && len(old) == 0 {
		return nil
	}
	var active *ReplicaSet
	n := 0
	count := func(rs *ReplicaSet) {
		if rs != nil && rs.Spec.Replicas > 0 {
			active, n = rs, n+1
		}
	}
	for _, rs := range old {
		count(rs)
	}
	count(newRS)
	switch {
	case n == 1:
		return active
	case n > 1:
		return nil
	case newRS != nil:
		return newRS
	}
	return slices.MaxFunc(old, CompareByCreation) // the newest old one
}

// IsSaturated reports whether rs is fully scaled for d (R-SAT-1): its size,
// its desired-replicas annotation (read with Go's Atoi, which accepts a sign
// and leading zeros, Q-8) and its available replicas all equal
// spec.replicas.
func IsSaturated(d Deployment, rs ReplicaSet) bool { return isSaturated(d, &rs) }

func isSaturated(d Deployment, rs *ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	r := d.Spec.Replicas
	return rs.Spec.Replicas == r && int32(desired) == r && int64(desired) == int64(r) && rs.Status.AvailableReplicas == r
}

// Counts are the sums over a list of ReplicaSets that status and rollout
// decisions use (R-PRIM-2, R-PRIM-3), in int64 so that no sum wraps.
type Counts struct {
	Spec, Replicas, Ready, Available int64
	// Terminating is the sum of status.terminatingReplicas; it is unknown
	// (TerminatingKnown false) when a ReplicaSet that the ReplicaSet
	// controller has synced does not report it.
	Terminating      int64
	TerminatingKnown bool
}

// Count sums sets in one pass.
func Count(sets []ReplicaSet) Counts { return count(pointers(sets)) }

func count(sets []*ReplicaSet) Counts {
	c := Counts{TerminatingKnown: true}
	for _, rs := range sets {
		if rs == nil {
			continue
		}
		c.Spec += int64(rs.Spec.Replicas)
		c.Replicas += int64(rs.Status.Replicas)
		c.Ready += int64(rs.Status.ReadyReplicas)
		c.Available += int64(rs.Status.AvailableReplicas)
		t := rs.Status.TerminatingReplicas
		switch {
		case !c.TerminatingKnown:
		case !t.Valid && rs.Status.ObservedGeneration == 0:
			// Never synced by the ReplicaSet controller: skipped.
		case !t.Valid:
			c.TerminatingKnown, c.Terminating = false, 0
		default:
			c.Terminating += int64(t.Value)
		}
	}
	return c
}

func sumSpec(sets []ReplicaSet) int64 {
	var n int64
	for i := range sets {
		n += int64(sets[i].Spec.Replicas)
	}
	return n
}

// GetReplicaCountForReplicaSets returns the sum of spec.replicas.
func GetReplicaCountForReplicaSets(sets []ReplicaSet) int64 { return Count(sets).Spec }

// GetActualReplicaCountForReplicaSets returns the sum of status.replicas.
func GetActualReplicaCountForReplicaSets(sets []ReplicaSet) int64 { return Count(sets).Replicas }

// GetReadyReplicaCountForReplicaSets returns the sum of status.readyReplicas.
func GetReadyReplicaCountForReplicaSets(sets []ReplicaSet) int64 { return Count(sets).Ready }

// GetAvailableReplicaCountForReplicaSets returns the sum of
// status.availableReplicas.
func GetAvailableReplicaCountForReplicaSets(sets []ReplicaSet) int64 { return Count(sets).Available }

// GetTerminatingReplicaCountForReplicaSets returns the sum of
// status.terminatingReplicas, and false when it is unknown (R-PRIM-3).
func GetTerminatingReplicaCountForReplicaSets(sets []ReplicaSet) (int64, bool) {
	c := Count(sets)
	return c.Terminating, c.TerminatingKnown
}
