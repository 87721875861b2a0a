package sim

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// drawCohorts draws the cohorts of a ReplicaSet as a run leaves them
// between its calls: a few creation, ready and deletion times (so that
// some cohorts compare equal), flags and sizes from 0 up, in any order.
func drawCohorts(t *rapid.T) []cohort {
	at := func(label string) time.Time {
		return time.Unix(0, 0).Add(time.Duration(rapid.IntRange(0, 2).Draw(t, label)) * 500 * time.Millisecond)
	}
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) cohort {
		c := cohort{
			n:       int64(rapid.IntRange(0, 3).Draw(t, "n")),
			created: at("created"),
			readyAt: at("readyAt"),
			late:    rapid.IntRange(0, 3).Draw(t, "late") == 0,
			never:   rapid.IntRange(0, 5).Draw(t, "never") == 0,
		}
		if c.never && rapid.Bool().Draw(t, "pending") {
			c.pending = true // created, waiting for room on a node
		}
		if !c.pending && rapid.IntRange(0, 3).Draw(t, "deleted") == 0 {
			c.deleted = at("deletedAt") // a pending pod deleted is gone at once
		}
		return c
	}), 0, 12).Draw(t, "cohorts")
}

// setCohorts gives ps the cohorts cs as the pod model keeps them: the
// running ones as they are (in the order drawn), the terminating ones
// through addGone, one at a time.
func setCohorts(ps *podSet, cs []cohort) *podSet {
	ps.cohorts, ps.gone, ps.goneN, ps.goneLate = nil, nil, 0, 0
	for _, c := range cs {
		if c.terminating() {
			ps.addGone(c)
		} else {
			ps.cohorts = append(ps.cohorts, c)
		}
	}
	ps.touch()
	return ps
}

// TestExpireCountsWhatItRemoves checks that expire and expireBefore
// return the pods they removed: the fall of total, which the runner
// records as pods gone at t.
func TestExpireCountsWhatItRemoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newPodModel(PodModel{Terminating: time.Duration(rapid.IntRange(0, 2).Draw(t, "terminating")) * 500 * time.Millisecond})
		m.sets["a"] = setCohorts(&podSet{name: "a"}, drawCohorts(t))
		m.sets["a"].normalize()
		m.orphans = drawCohorts(t)
		at := time.Unix(0, 0).Add(time.Duration(rapid.IntRange(0, 4).Draw(t, "t")) * 500 * time.Millisecond)
		before := m.total()
		var gone int64
		if rapid.Bool().Draw(t, "before") {
			gone = m.expireBefore(at)
		} else {
			gone = m.expire(at)
		}
		if gone != before-m.total() {
			t.Fatalf("expire removed %d pods, total fell by %d", gone, before-m.total())
		}
	})
}

// normalizeBySorting is normalize without its shortcut: drop the empty
// cohorts, sort stably, merge equal neighbours.
func normalizeBySorting(cs []cohort) []cohort { return mergeBySorting(cs, compareCohorts) }

// mergeBySorting drops the empty cohorts of cs, sorts the rest stably by
// compare and merges the neighbours it finds equal.
func mergeBySorting(cs []cohort, compare func(a, b cohort) int) []cohort {
	cs = slices.DeleteFunc(cs, func(c cohort) bool { return c.n <= 0 })
	slices.SortStableFunc(cs, compare)
	var out []cohort
	for _, c := range cs {
		if k := len(out) - 1; k >= 0 && compare(out[k], c) == 0 {
			out[k].n += c.n
			continue
		}
		out = append(out, c)
	}
	return out
}

// settleBySorting is settle as a merge of every settled cohort appended
// last, then normalizeBySorting: what settle's shortcuts (one walk to the
// second settled cohort, the merged one put in its place) must equal.
func settleBySorting(cs []cohort, t time.Time, minReady time.Duration) []cohort {
	settled := func(c cohort) bool { return !c.terminating() && c.available(t, minReady) }
	if n := len(slices.DeleteFunc(slices.Clone(cs), func(c cohort) bool { return !settled(c) })); n < 2 {
		return cs
	}
	var merged cohort
	var out []cohort
	for _, c := range cs {
		if !settled(c) {
			out = append(out, c)
			continue
		}
		if merged.n == 0 || c.created.After(merged.created) {
			merged.created = c.created
		}
		if merged.n == 0 || c.readyAt.After(merged.readyAt) {
			merged.readyAt = c.readyAt
		}
		merged.n += c.n
	}
	return normalizeBySorting(append(out, merged))
}

// TestNormalizeAndSettleAsBySorting checks normalize's and settle's
// shortcuts against the sorts they replace, on running cohorts (a
// podSet keeps the terminating ones apart, in gone) drawn in any order
// and on cohorts already normalized (the usual input), at
// minReadySeconds 0 and 1; settle on cohorts as drawn too, which it
// normalizes where it merges.
func TestNormalizeAndSettleAsBySorting(t *testing.T) {
	var shortcuts int
	rapid.Check(t, func(t *rapid.T) {
		cs := slices.DeleteFunc(drawCohorts(t), cohort.terminating)
		if rapid.Bool().Draw(t, "normalized first") {
			cs = normalizeBySorting(cs)
		}
		if len(cs) > 0 && rapid.Bool().Draw(t, "a cohort twice") {
			// An equal neighbour, as a creation at the instant of the
			// last one adds: sorted still, but not normal.
			i := rapid.IntRange(0, len(cs)-1).Draw(t, "twice")
			cs = slices.Insert(cs, i, cs[i])
		}
		ps := &podSet{cohorts: slices.Clone(cs)}
		ps.normalize()
		if want := normalizeBySorting(slices.Clone(cs)); !slices.Equal(ps.cohorts, want) && len(ps.cohorts)+len(want) > 0 {
			t.Fatalf("normalize(%v) = %v, want %v", cs, ps.cohorts, want)
		}
		at := time.Unix(0, 0).Add(time.Duration(rapid.IntRange(0, 4).Draw(t, "t")) * 500 * time.Millisecond)
		minReady := time.Duration(rapid.IntRange(0, 1).Draw(t, "minReadySeconds")) * time.Second
		if rapid.Bool().Draw(t, "settle as drawn") {
			ps.cohorts = slices.Clone(cs) // settle normalizes what it merges
		}
		before := slices.Clone(ps.cohorts)
		if normal(before) {
			shortcuts++
		}
		ps.settle(at, minReady)
		if want := settleBySorting(slices.Clone(before), at, minReady); !slices.Equal(ps.cohorts, want) && len(ps.cohorts)+len(want) > 0 {
			t.Fatalf("settle(%v, %v, %v) = %v, want %v", before, at, minReady, ps.cohorts, want)
		}
	})
	if shortcuts == 0 {
		t.Fatal("no draw took the shortcuts")
	}
}
