package check

import (
	"fmt"
	"math/bits"
)

// A Deployment's replica counts share one work budget, Config.Sim.MaxWork
// (sim.DefaultMaxWork when 0), the budget a single run has: checking a
// range costs about what checking its costliest count would, however many
// counts it has. The work of a count is that of its run (see checkOne;
// sim.Cost): under the controllers model one run, the time past the
// progress deadline included (an hour at most, Config.Sim.PastDeadline);
// under the other models, which stop at the deadline, a second run
// without it when the first stopped there, with what the first left. A
// run may pass what it had by the work of the event it was handling when
// it reached it.
//
// The budget is shared in two passes, each deterministic, so that the
// report is the same whatever the workers:
//
//  1. Every count runs with its share, all at once: one unit of work
//     each, then half the rest of the budget split evenly between the
//     counts and the other half in proportion to their replicas, as the
//     work of a rollout grows with its pods. Shares grow with the
//     replicas and add up to at most the budget (or one unit a count,
//     when MaxWork is less than the counts).
//  2. What the counts that ended under their share did not spend (the
//     shares less their work, and less a share, or the work if more, for
//     each count that stopped at the limit) goes to the counts that
//     stopped, in increasing order of replicas, one after the other: each
//     runs again with all that is left, when that is more than its share,
//     and what it spends (all of it, if it stops again) is gone.
//
// A count that ends within its budget is computed as it would be alone
// under any larger MaxWork (sim.Cost); one that stops at its budget is
// projected (sim.Projection) and reported at the limit. A larger MaxWork
// never turns a computed count into a projected one
// (TestWorkBudgetMonotone, TestRangeWorkBudgetProperties).

// shares returns the first pass's budget of each of counts (in
// increasing order) out of total: one unit each, then what is left of
// total split half evenly and half in proportion to the replicas. They
// add up to at most total, or to len(counts) (one unit each) when total
// is less, and do not fall from one count to the next.
func shares(counts []int32, total int) []int {
	out := make([]int, len(counts))
	for i := range out {
		out[i] = 1
	}
	if total <= len(counts) {
		return out
	}
	free := uint64(total - len(counts))
	var sum uint64
	for _, r := range counts {
		sum += uint64(max(r, 0))
	}
	even := (free / 2) / uint64(len(counts))
	rest := free - free/2
	for i, r := range counts {
		part := uint64(0)
		if sum > 0 {
			// rest * r / sum in 128 bits: rest and sum may each be
			// near 2^63 and 2^38.
			hi, lo := bits.Mul64(rest, uint64(max(r, 0)))
			part, _ = bits.Div64(hi, lo, sum)
		}
		out[i] += int(even + part)
	}
	return out
}

// rerunLimited is the second pass over the checks of a range's counts,
// in increasing order of replicas, whose first pass gave them share
// (non-decreasing): it replaces the checks that stopped at their work
// limit by again(i, budget) while the budget left of the shares is more
// than the count's share. It returns the budget left (negative when the
// last run passed it).
func rerunLimited(share []int, checks []rolloutCheck, again func(i, budget int) rolloutCheck) int {
	left := 0
	for i, c := range checks {
		left += share[i] - charge(c, share[i])
	}
	for i, c := range checks {
		if left <= share[i] {
			break
		}
		if !c.cost.Limited {
			continue
		}
		r := again(i, left)
		left -= charge(r, left)
		checks[i] = r
	}
	return left
}

// charge is what the budget pays for a check run with budget: its work,
// or, when it stopped at the limit, all the budget if more.
func charge(c rolloutCheck, budget int) int {
	if c.cost.Limited {
		return max(c.cost.Work, budget)
	}
	return c.cost.Work
}

// budgetWords says a check's work budget in a limit finding, in the
// units of sim.Config.MaxWork (what sim.Cost.Work counts): "1000000
// units of work (controller syncs and pod writes taken one by one, and the pods they walk)",
// and for a count that had part of a range's budget, "2000 units of work
// (controller syncs and pod writes taken one by one, and the pods they walk), its part of the
// 1000000 its replica range shares,".
func (f *checker) budgetWords(budget int) string {
	if budget >= f.maxWork {
		return workWords(f.maxWork)
	}
	return fmt.Sprintf("%s, its part of the %d its replica range shares,", workWords(budget), f.maxWork)
}

// workWords words n units of what sim.Cost.Work counts: the syncs a run
// computes one by one (under sim.ModelControllers, both controllers'
// syncs and groups of pod writes), and a unit for every two cohorts of
// pods beyond 256 that one event walks.
func workWords(n int) string {
	unit := "units"
	if n == 1 {
		unit = "unit"
	}
	return fmt.Sprintf("%d %s of work (controller syncs and pod writes taken one by one, and the pods they walk)", n, unit)
}
