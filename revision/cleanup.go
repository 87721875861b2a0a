package revision

import (
	"sort"
	"time"
)

// A Set is an old ReplicaSet as history cleanup sees it.
type Set struct {
	Name    string
	Created time.Time // creation timestamp; compared with Equal and Before
	Rev     Rev
	// Idle reports that the set may be deleted: spec.replicas == 0,
	// status.replicas == 0, metadata.generation <= status.observedGeneration
	// and no deletionTimestamp (R-CLEAN-4).
	Idle bool
}

// Prune returns the indices into sets of the ReplicaSets that
// revision-history cleanup deletes, keeping limit of them (R-CLEAN-3,
// R-CLEAN-4, Q-6). sets are the candidates: the deployment's old ReplicaSets
// without those already being deleted (R-CLEAN-2); the caller also skips
// cleanup entirely when the deployment has no limit (R-CLEAN-1). A negative
// limit counts as 0.
//
// Let diff = len(sets) - limit. If diff <= 0 Prune returns nil. Otherwise it
// orders the sets by revision (smaller first; when either revision is invalid
// or both are equal, older creation time first, then name ascending: R-PRIM-7)
// and examines only the first diff of them: each Idle one is selected and each
// other one is skipped without looking at a later set instead, so fewer than
// diff sets may be selected. The result lists the selected indices in
// that order, or is nil if none; it has at most diff distinct indices, each of
// an Idle set. Prune does not modify sets.
//
// The ordering uses sort.Sort, as upstream does, not a stable sort. When some
// revisions are invalid the comparison is not a strict weak order and
// the result depends on the sort algorithm and on the order of sets. sort.Sort
// is deterministic, so Prune gives the same answer for the same input order,
// and the same answer as upstream given sets in upstream's list order and the
// same Go sort implementation (pdqsort since Go 1.19); upstream itself takes
// that order from an unordered cache. When every revision is valid and names
// are unique the order of sets does not matter.
func Prune(sets []Set, limit int32) []int {
	diff := int64(len(sets)) - int64(max(limit, 0))
	if diff <= 0 {
		return nil
	}
	order := make([]int, len(sets))
	for i := range order {
		order[i] = i
	}
	sort.Sort(byRevision{sets: sets, order: order})
	var out []int
	for _, i := range order[:diff] {
		if sets[i].Idle {
			out = append(out, i)
		}
	}
	return out
}

// byRevision sorts order, a permutation of indices into sets, by R-PRIM-7.
// Sorting indices makes exactly the Less and Swap calls that sorting a copy
// of sets would, so the resulting permutation is the same.
type byRevision struct {
	sets  []Set
	order []int
}

func (b byRevision) Len() int      { return len(b.order) }
func (b byRevision) Swap(i, j int) { b.order[i], b.order[j] = b.order[j], b.order[i] }
func (b byRevision) Less(i, j int) bool {
	x, y := b.sets[b.order[i]], b.sets[b.order[j]]
	if !x.Rev.Valid || !y.Rev.Valid || x.Rev.N == y.Rev.N {
		return createdBefore(x, y)
	}
	return x.Rev.N < y.Rev.N
}

// createdBefore is R-PRIM-4: older first; the same instant orders by name.
func createdBefore(x, y Set) bool {
	if x.Created.Equal(y.Created) {
		return x.Name < y.Name
	}
	return x.Created.Before(y.Created)
}
