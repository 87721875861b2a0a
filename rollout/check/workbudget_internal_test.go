package check

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// fakeCounts are a range's counts as the work budget sees them: count i
// ends within any budget above need[i], using need[i], and otherwise
// stops at its limit having used min(stop[i], budget) plus over[i] (the
// work of its last event), as a run stopped early by its projection or
// at the limit does.
type fakeCounts struct {
	replicas           []int32 // increasing
	need, stop, over   []int
	runs, work, passed int // calls, work and work past a budget, summed
}

func drawFakeCounts(t *rapid.T) *fakeCounts {
	n := rapid.IntRange(1, 40).Draw(t, "counts")
	f := &fakeCounts{}
	r := int32(0)
	for range n {
		r += rapid.Int32Range(1, 1000).Draw(t, "more replicas")
		f.replicas = append(f.replicas, r)
		f.need = append(f.need, rapid.IntRange(1, 5000).Draw(t, "need"))
		f.stop = append(f.stop, rapid.SampledFrom([]int{3, 1 << 30}).Draw(t, "stops early"))
		f.over = append(f.over, rapid.IntRange(0, 12).Draw(t, "over"))
	}
	return f
}

func (f *fakeCounts) run(i, budget int) rolloutCheck {
	f.runs++
	if budget > f.need[i] {
		f.work += f.need[i]
		return rolloutCheck{cost: sim.Cost{Work: f.need[i]}}
	}
	w := min(f.stop[i], budget) + f.over[i]
	f.work += w
	f.passed += max(w-budget, 0)
	return rolloutCheck{cost: sim.Cost{Work: w, Limited: true}}
}

// share runs the two passes over f with the budget total, as Run does,
// and returns each count's check.
func (f *fakeCounts) share(total int) []rolloutCheck {
	share := shares(f.replicas, total)
	checks := make([]rolloutCheck, len(f.need))
	for i := range checks {
		checks[i] = f.run(i, share[i])
	}
	rerunLimited(share, checks, f.run)
	return checks
}

// TestWorkBudgetTotal: a range's runs together compute at most the
// budget (or one unit a count, when the budget is smaller than that),
// past it only by the work of the event each run was handling when it
// reached its own budget.
func TestWorkBudgetTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFakeCounts(t)
		total := rapid.IntRange(1, 100_000).Draw(t, "MaxWork")
		f.share(total)
		if f.work-f.passed > max(total, len(f.need)) {
			t.Fatalf("%d runs computed %d (%d past their budgets), more than the budget %d of %d counts", f.runs, f.work, f.passed, total, len(f.need))
		}
	})
}

// TestWorkBudgetMonotone: a larger MaxWork never makes a computed count
// projected, and a count that ends within its budget is computed as it
// would be alone.
func TestWorkBudgetMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawFakeCounts(t)
		total := rapid.IntRange(1, 100_000).Draw(t, "MaxWork")
		more := total + rapid.IntRange(0, 100_000).Draw(t, "more MaxWork")
		small, large := f.share(total), f.share(more)
		for i := range small {
			if !small[i].cost.Limited && large[i].cost.Limited {
				t.Fatalf("count %d (need %d) is computed with MaxWork %d, projected with %d", i, f.need[i], total, more)
			}
			if !small[i].cost.Limited && small[i].cost.Work != f.need[i] {
				t.Fatalf("count %d computed with work %d, need %d", i, small[i].cost.Work, f.need[i])
			}
		}
	})
}

// TestWorkBudgetSecondPass pins the two passes on a small case: four
// counts of 1 to 4 replicas and a budget of 100, whose shares are 12
// each and 5, 10, 15 and 20 by the replicas: 17, 22, 27 and 32. The first
// two end within theirs (5 each); the last two stop at them and are
// charged them, which leaves 12 + 17 = 29: the third (need 28) runs
// again with the 29 and ends, leaving 1, too little for the fourth.
func TestWorkBudgetSecondPass(t *testing.T) {
	f := &fakeCounts{replicas: []int32{1, 2, 3, 4}, need: []int{5, 5, 28, 1000}, stop: []int{1 << 30, 1 << 30, 1 << 30, 1 << 30}, over: []int{0, 0, 0, 0}}
	if got, want := shares(f.replicas, 100), []int{17, 22, 27, 32}; !slices.Equal(got, want) {
		t.Fatalf("shares %v, want %v", got, want)
	}
	checks := f.share(100)
	var limited []bool
	for _, c := range checks {
		limited = append(limited, c.cost.Limited)
	}
	if want := []bool{false, false, false, true}; !slices.Equal(limited, want) {
		t.Fatalf("limited %v, want %v", limited, want)
	}
	if f.runs != 5 || f.work != 5+5+27+32+28 {
		t.Fatalf("%d runs computed %d, want 5 runs computing 97 (the first pass's 69 and the second's 28)", f.runs, f.work)
	}
}

// TestWorkBudgetBelowOnePerCount pins the case that once spent more
// than the budget: eight counts and a MaxWork of 7 give each count one
// unit, all that is paid, instead of a unit to each of the seven
// smallest on top of the largest one's share of the proportional half.
func TestWorkBudgetBelowOnePerCount(t *testing.T) {
	f := &fakeCounts{
		replicas: []int32{1, 2, 3, 4, 5, 6, 7, 28},
		need:     []int{1, 1, 1, 1, 1, 1, 1, 2},
		stop:     []int{3, 3, 3, 3, 3, 3, 3, 3},
		over:     make([]int, 8),
	}
	if got, want := shares(f.replicas, 7), []int{1, 1, 1, 1, 1, 1, 1, 1}; !slices.Equal(got, want) {
		t.Fatalf("shares %v, want %v", got, want)
	}
	f.share(7)
	if f.work > 8 {
		t.Fatalf("%d runs computed %d, more than one unit for each of the 8 counts", f.runs, f.work)
	}
}

// TestShares: the first pass's shares are at least 1, do not fall from
// one count to the next, add up to at most the budget (or one unit a
// count, when the budget is less than the counts), and none falls when
// the budget grows, over the whole int32 range of replicas.
func TestShares(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 200).Draw(t, "counts")
		counts := make([]int32, 0, n)
		r := rapid.Int32Range(0, 1000).Draw(t, "min replicas")
		for range n {
			counts = append(counts, r)
			if r == math.MaxInt32 {
				break
			}
			r += rapid.Int32Range(1, math.MaxInt32-r).Draw(t, "more replicas")
		}
		total := rapid.IntRange(1, math.MaxInt).Draw(t, "MaxWork")
		more := total + rapid.IntRange(0, math.MaxInt-total).Draw(t, "more MaxWork")
		got, larger := shares(counts, total), shares(counts, more)
		var sum uint64
		for i, s := range got {
			sum += uint64(s)
			if s < 1 || i > 0 && s < got[i-1] || larger[i] < s {
				t.Fatalf("shares of %v: %v with MaxWork %d, %v with %d", counts, got, total, larger, more)
			}
		}
		if sum > uint64(max(total, len(counts))) {
			t.Fatalf("shares of %v add up to %d, budget %d", counts, sum, total)
		}
	})
}

// TestBudgetWords: a limit finding words its budget in the units
// sim.Cost.Work counts (controller syncs and pod writes taken one by
// one, and the pods their events walk past the free cohorts), not as
// syncs alone, and a count that had part of a range's budget says so.
func TestBudgetWords(t *testing.T) {
	tests := []struct {
		name            string
		maxWork, budget int
		want            string
	}{
		{"the whole budget", 1_000_000, 1_000_000, "1000000 units of work (controller syncs and pod writes taken one by one, and the pods they walk)"},
		{"one unit", 1, 1, "1 unit of work (controller syncs and pod writes taken one by one, and the pods they walk)"},
		{"a count's part of a range's budget", 50, 1, "1 unit of work (controller syncs and pod writes taken one by one, and the pods they walk), its part of the 50 its replica range shares,"},
		{"a budget at or above MaxWork", 50, 80, "50 units of work (controller syncs and pod writes taken one by one, and the pods they walk)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newChecker(Config{Sim: sim.Config{MaxWork: tt.maxWork}})
			if got := f.budgetWords(tt.budget); got != tt.want {
				t.Errorf("budgetWords(%d) with MaxWork %d = %q, want %q", tt.budget, tt.maxWork, got, tt.want)
			}
		})
	}
}
