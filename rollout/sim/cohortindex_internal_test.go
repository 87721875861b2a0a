package sim

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The walks cohortIndex replaces, kept as the reference its answers must
// equal.

func countsByWalking(cs []cohort, t time.Time, minReady time.Duration) counts {
	var c counts
	for _, co := range cs {
		switch {
		case co.terminating():
			c.terminating += co.n
		default:
			c.replicas += co.n
			if co.ready(t) {
				c.ready += co.n
			}
			if co.available(t, minReady) {
				c.available += co.n
			}
		}
	}
	return c
}

func nextByWalking(cs []cohort, t time.Time, minReady, terminating time.Duration) (time.Time, bool) {
	var best time.Time
	found := false
	consider := func(e time.Time) {
		if e.After(t) && (!found || e.Before(best)) {
			best, found = e, true
		}
	}
	for _, c := range cs {
		switch {
		case c.terminating():
			consider(c.deleted.Add(terminating))
		case !c.never:
			consider(c.readyAt)
			if minReady > 0 {
				consider(c.availableAt(minReady))
			}
		}
	}
	return best, found
}

func endsByWalking(cs []cohort, t time.Time, terminating time.Duration, before bool) bool {
	return slices.ContainsFunc(cs, func(c cohort) bool {
		if !c.terminating() {
			return false
		}
		end := c.deleted.Add(terminating)
		return end.Before(t) || !before && end.Equal(t)
	})
}

func dueByWalking(cs []cohort, t time.Time, minReady time.Duration) bool {
	return slices.ContainsFunc(cs, func(co cohort) bool {
		return !co.terminating() && !co.late && !co.never &&
			(co.readyAt.Equal(t) || minReady > 0 && co.availableAt(minReady).Equal(t))
	})
}

func settledByWalking(cs []cohort, t time.Time, minReady time.Duration) int {
	n := 0
	for _, c := range cs {
		if !c.terminating() && c.available(t, minReady) {
			n++
		}
	}
	return n
}

func pendingByWalking(cs []cohort) int64 {
	var n int64
	for _, c := range cs {
		if c.pending {
			n += c.n
		}
	}
	return n
}

func readyWithByWalking(cs []cohort, created, readyAt time.Time) bool {
	return slices.ContainsFunc(cs, func(c cohort) bool {
		return !c.terminating() && !c.never && c.created.Equal(created) && c.readyAt.Equal(readyAt)
	})
}

// normalizeGoneBySorting is what podSet.gone holds of the terminating
// cohorts cs: no empty one, sorted by compareGone, equal ones merged.
func normalizeGoneBySorting(cs []cohort) []cohort { return mergeBySorting(cs, compareGone) }

// checkGone checks how ps keeps its terminating pods: only in gone, none
// pending, in compareGone order with none empty and none equal, and
// counted.
func checkGone(t *rapid.T, ps *podSet) {
	if i := slices.IndexFunc(ps.cohorts, cohort.terminating); i >= 0 {
		t.Fatalf("a terminating cohort among the running ones: %v", ps.cohorts)
	}
	if !slices.Equal(normalizeGoneBySorting(slices.Clone(ps.gone)), ps.gone) && len(ps.gone) > 0 {
		t.Fatalf("gone %v is not in order and merged", ps.gone)
	}
	if i := slices.IndexFunc(ps.gone, func(c cohort) bool { return c.pending }); i >= 0 {
		t.Fatalf("a pending cohort among the terminating ones: %v", ps.gone)
	}
	n, l := ps.goneN, ps.goneLate
	ps.recountGone()
	if n != ps.goneN || l != ps.goneLate {
		t.Fatalf("gone %v counted %d pods, %d late; want %d, %d", ps.gone, n, l, ps.goneN, ps.goneLate)
	}
}

// TestCohortIndexAsByWalking checks every read of the cohort index against
// the walk of the cohorts it replaces, on cohorts drawn in any order and
// normalized, between the changes a run makes (creations, deletions,
// expiry, settling, binding and the reveal of late pods, each through the
// pod model's own methods, which keep the index in step), at times and
// minReadySeconds around the cohorts' own.
func TestCohortIndexAsByWalking(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at := func(label string) time.Time {
			return time.Unix(0, 0).Add(time.Duration(rapid.IntRange(0, 5).Draw(t, label)) * 500 * time.Millisecond)
		}
		terminating := time.Duration(rapid.IntRange(0, 2).Draw(t, "terminating")) * 500 * time.Millisecond
		m := newPodModel(PodModel{
			Terminating: terminating,
			ReadyAfter:  time.Duration(rapid.IntRange(0, 2).Draw(t, "readyAfter")) * 500 * time.Millisecond,
		})
		room := int64(rapid.IntRange(0, 12).Draw(t, "room"))
		m.stagger = rapid.Bool().Draw(t, "stagger")
		ps := setCohorts(&podSet{name: "a"}, drawCohorts(t))
		m.sets["a"] = ps
		if rapid.Bool().Draw(t, "normalized") {
			ps.normalize()
		}
		for range rapid.IntRange(1, 12).Draw(t, "steps") {
			now := at("now")
			minReady := time.Duration(rapid.IntRange(0, 1).Draw(t, "minReadySeconds")) * time.Second
			checkGone(t, ps)
			cs := slices.Concat(ps.cohorts, ps.gone)
			if got, want := ps.counts(now, minReady), countsByWalking(cs, now, minReady); got != want {
				t.Fatalf("counts(%v, %v) of %v = %+v, want %+v", now, minReady, cs, got, want)
			}
			want := countsByWalking(cs, now, minReady)
			if e, a := ps.existingAvailable(now, minReady); e != want.replicas+want.terminating || a != want.available {
				t.Fatalf("existingAvailable of %v = %d, %d, want %+v", cs, e, a, want)
			}
			if ps.running() != want.replicas || ps.existing() != want.replicas+want.terminating {
				t.Fatalf("running, existing of %v = %d, %d, want %+v", cs, ps.running(), ps.existing(), want)
			}
			if got, want := ps.pending(), pendingByWalking(cs); got != want {
				t.Fatalf("pending of %v = %d, want %d", cs, got, want)
			}
			x := ps.index()
			gotAt, gotOK := ps.next(now, minReady, terminating)
			wantAt, wantOK := nextByWalking(cs, now, minReady, terminating)
			if gotOK != wantOK || !gotAt.Equal(wantAt) {
				t.Fatalf("next(%v) of %v = %v %v, want %v %v", now, cs, gotAt, gotOK, wantAt, wantOK)
			}
			for _, before := range []bool{false, true} {
				if got, want := ps.endsBy(now, terminating, before), endsByWalking(cs, now, terminating, before); got != want {
					t.Fatalf("endsBy(%v, before %v) of %v = %v, want %v", now, before, cs, got, want)
				}
			}
			ends := slices.ContainsFunc(cs, func(c cohort) bool { return c.terminating() && c.deleted.Add(terminating).Equal(now) })
			k, got := ps.endsAt(now, terminating)
			if got != ends {
				t.Fatalf("endsAt(%v) of %v = %v, want %v", now, cs, got, ends)
			}
			for _, c := range ps.gone {
				if got && c.deleted.Add(terminating).Equal(now) && compareCohorts(c, ps.gone[k]) < 0 {
					t.Fatalf("endsAt(%v) of %v names %v, not the least of those that end then (%v)", now, ps.gone, ps.gone[k], c)
				}
			}
			if got, want := x.dueAt(now, minReady), dueByWalking(cs, now, minReady); got != want {
				t.Fatalf("dueAt(%v, %v) of %v = %v, want %v", now, minReady, cs, got, want)
			}
			if got, want := x.availableBy(now, minReady), settledByWalking(cs, now, minReady); got != want {
				t.Fatalf("settled cohorts at %v, %v of %v = %d, want %d", now, minReady, cs, got, want)
			}
			late := slices.ContainsFunc(cs, func(c cohort) bool { return c.late && !c.terminating() && !c.readyAt.After(now) })
			if got := x.hasLate && !x.lateAt.After(now); got != late {
				t.Fatalf("late pods ready by %v in %v = %v, want %v", now, cs, got, late)
			}
			created, readyAt := at("created"), at("readyAt")
			if got, want := ps.readyWith(created, readyAt), readyWithByWalking(cs, created, readyAt); got != want {
				t.Fatalf("readyWith(%v, %v) of %v = %v, want %v", created, readyAt, cs, got, want)
			}
			switch rapid.IntRange(0, 7).Draw(t, "change") {
			case 0:
				m.add(ps, int64(rapid.IntRange(1, 3).Draw(t, "create")), now)
			case 1:
				if run := ps.running(); run > 0 {
					m.remove(ps, int64(rapid.IntRange(1, int(run)).Draw(t, "delete")), now)
				}
			case 2:
				m.expireWhere(now, rapid.Bool().Draw(t, "expire before"))
			case 3:
				ps.settle(now, minReady)
			case 4: // the runner's reveal of late pods
				ps.revealLate(now)
			case 5:
				ps.normalize()
			case 6: // slices the runner replaces, as the walker may
				ps.cohorts = slices.DeleteFunc(drawCohorts(t), cohort.terminating)
				ps.gone = normalizeGoneBySorting(slices.DeleteFunc(drawCohorts(t), func(c cohort) bool { return !c.terminating() }))
				ps.recountGone()
			case 7: // placement binds pending pods (the runner's cohorts are normal then; bind takes any)
				if rapid.Bool().Draw(t, "normal when bound") {
					ps.normalize()
				}
				m.cfg.Room = func(bound int64) int64 { return room - bound }
				m.bind(now)
				m.cfg.Room = nil
			}
		}
	})
}
