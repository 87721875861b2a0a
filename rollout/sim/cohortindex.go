package sim

import "time"

// cohortIndex is what the controllers model reads of a podSet's running
// cohorts at every event (the samples' counts, the next pod time, whether
// pods are due or late, how many are settled), kept between the changes of
// the cohorts, so that a read costs a binary search, not a walk of every
// cohort. A run holds many cohorts while pods are created faster than they
// become available (one a creation: about 600 for pods ready after 30s at
// the default QPS) and reads them several times an event.
//
// The index stands for the cohorts it was built from: the slice (its
// first element and length) and no change since. Whatever changes a
// cohort in place calls podSet.touch; a slice of another length or
// backing array is seen by the reads themselves. The answers are those of
// the walks they replace (TestCohortIndexAsByWalking).
type cohortIndex struct {
	valid  bool
	first  *cohort // &cohorts[0] when built; nil for none
	length int
	// running are the pods of the cohorts (all of them running: the
	// terminating ones are podSet.gone); pending those of the pending
	// cohorts (created, not yet bound to a node: PodModel.Room).
	running, pending int64
	// up are the cohorts not terminating that may become ready (not
	// never, hence not pending), ordered by readyAt and then late (not
	// late first); cum[i] is the pods of up[:i]. A cohort's availableAt
	// grows with its readyAt, so the cohorts available at any t under
	// any minReady are a prefix of up, as are those ready.
	up  []upEntry
	cum []int64
	// lateAt is the earliest readyAt of the late cohorts not terminating,
	// if hasLate.
	lateAt  time.Time
	hasLate bool
	// sorted: the cohorts were normal (see normal) when built.
	sorted bool
	// normalLen is how many of the first cohorts (the first of them at
	// normalFirst) the last normalize, sortMerge or settle left normal,
	// none changed since: normalize's pass starts after them.
	normalLen   int
	normalFirst *cohort
}

type upEntry struct {
	readyAt time.Time
	late    bool
}

// touch says that the cohorts of ps changed in place: the index is built
// again at its next read.
func (ps *podSet) touch() {
	if ps.idx != nil {
		ps.idx.valid = false
		ps.idx.normalLen, ps.idx.normalFirst = 0, nil
	}
}

// index returns the index of ps's cohorts as they are, building it if they
// changed since it was built.
func (ps *podSet) index() *cohortIndex {
	x := ps.idx
	if x == nil {
		x = &cohortIndex{}
		ps.idx = x
	}
	var first *cohort
	if len(ps.cohorts) > 0 {
		first = &ps.cohorts[0]
	}
	if x.valid && x.first == first && x.length == len(ps.cohorts) {
		return x
	}
	// Cohorts appended since (a creation's, before normalize) are added
	// to the index where they go at its end, as they usually do.
	if x.valid && x.first == first && x.length > 0 && x.length < len(ps.cohorts) && x.extend(ps.cohorts, x.length) {
		x.length = len(ps.cohorts)
		return x
	}
	x.build(ps.cohorts)
	x.first, x.length = first, len(ps.cohorts)
	return x
}

// build makes x the index of cs.
func (x *cohortIndex) build(cs []cohort) {
	x.valid, x.sorted, x.hasLate = true, true, false
	x.running, x.pending = 0, 0
	x.up, x.cum = x.up[:0], append(x.cum[:0], 0)
	upSorted := true
	for i := range cs {
		upSorted = x.add(cs, i) && upSorted
	}
	if upSorted {
		return
	}
	// Sort the entries with their pods (cum holds each one's running
	// sum: take the pods back out first). Entries that compare equal
	// are alike to every read (each reads a prefix of up by its keys),
	// so their order is free.
	up, ns := x.up, x.cum[1:]
	for i := len(ns) - 1; i > 0; i-- {
		ns[i] -= ns[i-1]
	}
	heapSort(len(up), func(i, j int) bool { return compareUp(up[i], up[j]) < 0 },
		func(i, j int) { up[i], up[j], ns[i], ns[j] = up[j], up[i], ns[j], ns[i] })
	for i := 1; i < len(ns); i++ {
		ns[i] += ns[i-1]
	}
}

// add adds cs[i] to x, after cs[:i], and reports whether it went at the
// end of up in its order.
func (x *cohortIndex) add(cs []cohort, i int) (upInOrder bool) {
	c := cs[i]
	if c.n <= 0 || i > 0 && compareCohorts(cs[i-1], c) >= 0 {
		x.sorted = false
	}
	if c.pending {
		x.pending += c.n
	}
	x.running += c.n
	if c.late && (!x.hasLate || c.readyAt.Before(x.lateAt)) {
		x.lateAt, x.hasLate = c.readyAt, true
	}
	if c.never {
		return true
	}
	e := upEntry{readyAt: c.readyAt, late: c.late}
	k := len(x.up)
	x.up = append(x.up, e)
	x.cum = append(x.cum, x.cum[k]+c.n)
	return k == 0 || compareUp(e, x.up[k-1]) >= 0
}

// extend adds cs[from:] to x, built from cs[:from], and reports whether it
// could: each new cohort goes at the end of up. Where one does not, x is
// left part extended, to be built again.
func (x *cohortIndex) extend(cs []cohort, from int) bool {
	for i := from; i < len(cs); i++ {
		if !x.add(cs, i) {
			return false
		}
	}
	return true
}

// settled makes x, the index of normal cohorts of which settle merged the
// first k of up (the settled ones, none of them late) into one, the index
// of cs, the cohorts it left (normal): the merged cohort is ready when the
// last of them was, and not late, so it stands first in up for their pods;
// the other entries and the counts stay.
func (x *cohortIndex) settled(k int, cs []cohort) {
	x.up = x.up[k-1:]
	x.up[0].late = false
	x.cum = x.cum[k-1:]
	x.cum[0] = 0
	x.sorted = true
	x.first, x.length = &cs[0], len(cs)
	x.normalFirst, x.normalLen = &cs[0], len(cs)
}

func compareUp(a, b upEntry) int {
	if c := a.readyAt.Compare(b.readyAt); c != 0 {
		return c
	}
	switch {
	case a.late == b.late:
		return 0
	case a.late:
		return 1
	}
	return -1
}

// availableBy returns how many entries of up are available at t under
// minReady (as cohort.available says): a prefix.
func (x *cohortIndex) availableBy(t time.Time, minReady time.Duration) int {
	if minReady == 0 {
		return x.readyBy(t)
	}
	return search(len(x.up), func(i int) bool {
		return x.up[i].availableAt(minReady).After(t)
	})
}

// readyBy returns how many entries of up are ready at t (as cohort.ready
// says): a prefix.
func (x *cohortIndex) readyBy(t time.Time) int {
	return search(len(x.up), func(i int) bool {
		e := x.up[i]
		return e.readyAt.After(t) || e.readyAt.Equal(t) && e.late
	})
}

func (e upEntry) availableAt(minReady time.Duration) time.Time {
	return cohort{readyAt: e.readyAt}.availableAt(minReady)
}

// next returns the first time after t at which a cohort of x becomes ready
// or available under minReady, and whether there is one.
func (x *cohortIndex) next(t time.Time, minReady time.Duration) (time.Time, bool) {
	var best time.Time
	found := false
	consider := func(e time.Time) {
		if !found || e.Before(best) {
			best, found = e, true
		}
	}
	if i := search(len(x.up), func(i int) bool { return x.up[i].readyAt.After(t) }); i < len(x.up) {
		consider(x.up[i].readyAt)
	}
	if minReady > 0 {
		if i := search(len(x.up), func(i int) bool { return x.up[i].availableAt(minReady).After(t) }); i < len(x.up) {
			consider(x.up[i].availableAt(minReady))
		}
	}
	return best, found
}

// dueAt reports whether a cohort of x not terminating, not late and not
// never becomes ready at t, or available under a positive minReady.
func (x *cohortIndex) dueAt(t time.Time, minReady time.Duration) bool {
	i := search(len(x.up), func(i int) bool { return !x.up[i].readyAt.Before(t) })
	if i < len(x.up) && x.up[i].readyAt.Equal(t) && !x.up[i].late {
		return true
	}
	if minReady == 0 {
		return false
	}
	for i := search(len(x.up), func(i int) bool { return !x.up[i].availableAt(minReady).Before(t) }); i < len(x.up); i++ {
		e := x.up[i]
		if !e.availableAt(minReady).Equal(t) {
			break
		}
		if !e.late {
			return true
		}
	}
	return false
}

// search returns the least i in [0, n) for which f is true, or n, f being
// false and then true over [0, n) (as sort.Search; written out, as is
// heapSort, so that the playground's module links no sort package).
func search(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// heapSort sorts the n elements that less compares and swap exchanges, in
// O(n log n) and not stably.
func heapSort(n int, less func(i, j int) bool, swap func(i, j int)) {
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && less(c, c+1) {
				c++
			}
			if !less(i, c) {
				return
			}
			swap(i, c)
			i = c
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for end := n - 1; end > 0; end-- {
		swap(0, end)
		down(0, end)
	}
}
