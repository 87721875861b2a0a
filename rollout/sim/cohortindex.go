package sim

import (
	"sort"
	"time"
)

// cohortIndex is what the controllers model reads of a podSet's cohorts at
// every event (the samples' counts, the next pod time, whether pods are
// due, late or gone, how many are settled), kept between the changes of
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
	// existing and running are the pods of every cohort and of those
	// not terminating.
	existing, running int64
	// up are the cohorts not terminating that may become ready (not
	// never, hence not pending), ordered by readyAt and then late (not
	// late first); cum[i] is the pods of up[:i]. A cohort's availableAt
	// grows with its readyAt, so the cohorts available at any t under
	// any minReady are a prefix of up, as are those ready.
	up  []upEntry
	cum []int64
	// deleted are the terminating cohorts' deletion times, earliest first:
	// they end in that order.
	deleted []time.Time
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
	x.valid = true
	x.existing, x.running = 0, 0
	x.up = x.up[:0]
	x.deleted = x.deleted[:0]
	x.hasLate = false
	x.sorted = true
	upSorted, delSorted := true, true
	for i, c := range cs {
		if c.n <= 0 || i > 0 && compareCohorts(cs[i-1], c) >= 0 {
			x.sorted = false
		}
		x.existing += c.n
		if c.terminating() {
			if k := len(x.deleted); k > 0 && c.deleted.Before(x.deleted[k-1]) {
				delSorted = false
			}
			x.deleted = append(x.deleted, c.deleted)
			continue
		}
		x.running += c.n
		if c.late && (!x.hasLate || c.readyAt.Before(x.lateAt)) {
			x.lateAt, x.hasLate = c.readyAt, true
		}
		if c.never {
			continue
		}
		e := upEntry{readyAt: c.readyAt, late: c.late}
		if k := len(x.up); k > 0 && compareUp(e, x.up[k-1]) < 0 {
			upSorted = false
		}
		x.up = append(x.up, e)
	}
	if !delSorted {
		sort.Slice(x.deleted, func(i, j int) bool { return x.deleted[i].Before(x.deleted[j]) })
	}
	// The pods of each entry, in the order of up.
	x.cum = append(x.cum[:0], 0)
	if upSorted {
		for _, c := range cs {
			if !c.terminating() && !c.never {
				x.cum = append(x.cum, x.cum[len(x.cum)-1]+c.n)
			}
		}
		return
	}
	{
		type pair struct {
			e upEntry
			n int64
		}
		ps := make([]pair, 0, len(x.up))
		for _, c := range cs {
			if !c.terminating() && !c.never {
				ps = append(ps, pair{upEntry{c.readyAt, c.late}, c.n})
			}
		}
		sort.SliceStable(ps, func(i, j int) bool { return compareUp(ps[i].e, ps[j].e) < 0 })
		for i, p := range ps {
			x.up[i] = p.e
			x.cum = append(x.cum, x.cum[len(x.cum)-1]+p.n)
		}
	}
}

// extend adds cs[from:] to x, built from cs[:from], and reports whether it
// could: each new cohort goes at the end of up and of deleted. Where one
// does not, x is left part extended, to be built again.
func (x *cohortIndex) extend(cs []cohort, from int) bool {
	for i := from; i < len(cs); i++ {
		c := cs[i]
		if c.n <= 0 || compareCohorts(cs[i-1], c) >= 0 {
			x.sorted = false
		}
		if c.terminating() {
			if k := len(x.deleted); k > 0 && c.deleted.Before(x.deleted[k-1]) {
				return false
			}
			x.existing += c.n
			x.deleted = append(x.deleted, c.deleted)
			continue
		}
		e := upEntry{readyAt: c.readyAt, late: c.late}
		if !c.never {
			if k := len(x.up); k > 0 && compareUp(e, x.up[k-1]) < 0 {
				return false
			}
		}
		x.existing += c.n
		x.running += c.n
		if c.late && (!x.hasLate || c.readyAt.Before(x.lateAt)) {
			x.lateAt, x.hasLate = c.readyAt, true
		}
		if c.never {
			continue
		}
		x.up = append(x.up, e)
		x.cum = append(x.cum, x.cum[len(x.cum)-1]+c.n)
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
	return sort.Search(len(x.up), func(i int) bool {
		return x.up[i].availableAt(minReady).After(t)
	})
}

// readyBy returns how many entries of up are ready at t (as cohort.ready
// says): a prefix.
func (x *cohortIndex) readyBy(t time.Time) int {
	return sort.Search(len(x.up), func(i int) bool {
		e := x.up[i]
		return e.readyAt.After(t) || e.readyAt.Equal(t) && e.late
	})
}

func (e upEntry) availableAt(minReady time.Duration) time.Time {
	return cohort{readyAt: e.readyAt}.availableAt(minReady)
}

// next returns the first time after t at which a cohort of x becomes ready
// or available under minReady, or a terminating one ends terminating after
// its deletion, and whether there is one: podModel.next for one podSet.
func (x *cohortIndex) next(t time.Time, minReady, terminating time.Duration) (time.Time, bool) {
	var best time.Time
	found := false
	consider := func(e time.Time) {
		if !found || e.Before(best) {
			best, found = e, true
		}
	}
	if i := sort.Search(len(x.up), func(i int) bool { return x.up[i].readyAt.After(t) }); i < len(x.up) {
		consider(x.up[i].readyAt)
	}
	if minReady > 0 {
		if i := sort.Search(len(x.up), func(i int) bool { return x.up[i].availableAt(minReady).After(t) }); i < len(x.up) {
			consider(x.up[i].availableAt(minReady))
		}
	}
	if i := sort.Search(len(x.deleted), func(i int) bool { return x.deleted[i].Add(terminating).After(t) }); i < len(x.deleted) {
		consider(x.deleted[i].Add(terminating))
	}
	return best, found
}

// endsBy reports whether a terminating cohort of x ends by t (before t if
// before) after terminating.
func (x *cohortIndex) endsBy(t time.Time, terminating time.Duration, before bool) bool {
	if len(x.deleted) == 0 {
		return false
	}
	end := x.deleted[0].Add(terminating)
	return end.Before(t) || !before && end.Equal(t)
}

// endsAt reports whether a terminating cohort of x ends exactly at t.
func (x *cohortIndex) endsAt(t time.Time, terminating time.Duration) bool {
	i := sort.Search(len(x.deleted), func(i int) bool { return !x.deleted[i].Add(terminating).Before(t) })
	return i < len(x.deleted) && x.deleted[i].Add(terminating).Equal(t)
}

// dueAt reports whether a cohort of x not terminating, not late and not
// never becomes ready at t, or available under a positive minReady.
func (x *cohortIndex) dueAt(t time.Time, minReady time.Duration) bool {
	i := sort.Search(len(x.up), func(i int) bool { return !x.up[i].readyAt.Before(t) })
	if i < len(x.up) && x.up[i].readyAt.Equal(t) && !x.up[i].late {
		return true
	}
	if minReady == 0 {
		return false
	}
	for i := sort.Search(len(x.up), func(i int) bool { return !x.up[i].availableAt(minReady).Before(t) }); i < len(x.up); i++ {
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
