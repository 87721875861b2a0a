package sim

import (
	"slices"
	"time"
)

// A podSet keeps its terminating pods' cohorts (podSet.gone) apart from
// the running ones, in the order they end: by deletion time, then as
// compareCohorts orders them, equal ones merged. The ReplicaSet
// controller ranks only running pods for deletion (remove), and the pods
// whose termination ended are a prefix of gone (expireGone), so neither
// walks the terminating pods; a rollout whose pods terminate for 30 s
// holds hundreds of their cohorts (one a deletion at 20 QPS). The running
// cohorts' index (cohortIndex) holds none of them: podSet.goneN and
// goneLate count them as gone changes, and the reads of when they end
// (endsBy, endsAt, next) are binary searches of gone. A pending pod
// deleted is gone at once (remove), so none of gone is pending.

// compareGone orders terminating cohorts as they end: by deletion time,
// then as compareCohorts does. Cohorts it finds equal are merged.
func compareGone(a, b cohort) int {
	if c := a.deleted.Compare(b.deleted); c != 0 {
		return c
	}
	return compareCohorts(a, b)
}

// addGone adds terminating cohorts to ps.gone, where they go.
func (ps *podSet) addGone(cs ...cohort) {
	from := len(ps.gone)
	for _, c := range cs {
		if c.n <= 0 {
			continue
		}
		ps.gone = append(ps.gone, c)
		ps.countGone(c, 1)
	}
	ps.normalizeGone(from)
}

// countGone adds c to the counts of ps.gone (sign 1) or takes it out
// (sign -1).
func (ps *podSet) countGone(c cohort, sign int64) {
	ps.goneN += sign * c.n
	if c.late {
		ps.goneLate += int(sign)
	}
}

// normalizeGone puts ps.gone in order again, ps.gone[:from] being in
// order, and merges the cohorts that compareGone finds equal. The
// cohorts a deletion adds are deleted at the run's time, after every
// other, so only those of its instant are sorted.
func (ps *podSet) normalizeGone(from int) {
	g := ps.gone
	if from >= len(g) {
		return
	}
	earliest := g[from].deleted
	for _, c := range g[from+1:] {
		if c.deleted.Before(earliest) {
			earliest = c.deleted
		}
	}
	start := search(from, func(i int) bool { return !g[i].deleted.Before(earliest) })
	slices.SortStableFunc(g[start:], compareGone)
	k := max(start-1, 0)
	out := g[:k]
	for _, c := range g[k:] {
		if last := len(out) - 1; last >= 0 && compareGone(out[last], c) == 0 {
			out[last].n += c.n
			if c.late {
				ps.goneLate--
			}
			continue
		}
		out = append(out, c)
	}
	clear(g[len(out):])
	ps.gone = out
}

// recountGone counts the pods of ps.gone again, after something set it
// whole (the fast-forward's decoding).
func (ps *podSet) recountGone() {
	ps.goneN, ps.goneLate = 0, 0
	for _, c := range ps.gone {
		ps.countGone(c, 1)
	}
}

// ends returns when the pods of the k-th cohort of ps.gone are gone.
func (ps *podSet) ends(k int, terminating time.Duration) time.Time {
	return ps.gone[k].deleted.Add(terminating)
}

// endsBy reports whether terminating pods of ps end by t (before t if
// before) after terminating.
func (ps *podSet) endsBy(t time.Time, terminating time.Duration, before bool) bool {
	if len(ps.gone) == 0 {
		return false
	}
	end := ps.ends(0, terminating)
	return end.Before(t) || !before && end.Equal(t)
}

// endsAt reports whether terminating pods of ps end exactly at t, and
// returns the first of their cohorts in ps.gone (the least by
// compareCohorts).
func (ps *podSet) endsAt(t time.Time, terminating time.Duration) (int, bool) {
	i := search(len(ps.gone), func(i int) bool { return !ps.ends(i, terminating).Before(t) })
	return i, i < len(ps.gone) && ps.ends(i, terminating).Equal(t)
}

// expireGone removes the terminating pods whose termination ended by t
// (before t if before), and returns how many it removed and how many
// cohorts.
func (ps *podSet) expireGone(t time.Time, terminating time.Duration, before bool) (int64, int) {
	k := search(len(ps.gone), func(i int) bool {
		end := ps.ends(i, terminating)
		return !(end.Before(t) || !before && end.Equal(t))
	})
	n := ps.goneN
	for _, c := range ps.gone[:k] {
		ps.countGone(c, -1)
	}
	clear(ps.gone[:k])
	ps.gone = ps.gone[k:]
	return n - ps.goneN, k
}

// next returns the first time after t at which a pod of ps becomes ready,
// or available under minReady, or is gone after terminating, and whether
// there is one: podModel.next for one podSet.
func (ps *podSet) next(t time.Time, minReady, terminating time.Duration) (time.Time, bool) {
	best, found := ps.index().next(t, minReady)
	if i := search(len(ps.gone), func(i int) bool { return ps.ends(i, terminating).After(t) }); i < len(ps.gone) {
		if e := ps.ends(i, terminating); !found || e.Before(best) {
			best, found = e, true
		}
	}
	return best, found
}

// revealLateGone clears the late flag of the terminating cohorts ready by
// t, as revealLate does for the running ones, and reports whether there
// were any.
func (ps *podSet) revealLateGone(t time.Time) bool {
	if ps.goneLate == 0 {
		return false
	}
	found := false
	for i, c := range ps.gone {
		if c.late && !c.readyAt.After(t) {
			ps.gone[i].late, found = false, true
		}
	}
	if found {
		ps.recountGone()
		ps.normalizeGone(0)
	}
	return found
}

// all returns every cohort of ps, running and terminating, in
// compareCohorts order (as a Pod list names them): a new slice.
func (ps *podSet) all() []cohort {
	out := slices.Concat(ps.cohorts, ps.gone)
	if len(ps.gone) > 0 {
		slices.SortStableFunc(out, compareCohorts)
	}
	return out
}

// first returns the first cohort of all(), and whether ps has any,
// without sorting them.
func (ps *podSet) first() (cohort, bool) {
	var out cohort
	found := len(ps.cohorts) > 0
	if found {
		out = ps.cohorts[0] // normal: the least of the running ones
	}
	for _, c := range ps.gone {
		if !found || compareCohorts(c, out) < 0 {
			out, found = c, true
		}
	}
	return out, found
}
