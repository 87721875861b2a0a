package check

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const rangeDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`

// rangeConfig checks replicas lo..hi under the controllers model with
// the work budget maxWork, with rules every count breaks: its peak pods
// and its duration are in the findings.
func rangeConfig(lo, hi int32, maxWork int) Config {
	return Config{MinReplicas: lo, MaxReplicas: hi, ReplicasSet: true, MaxPods: 1, MaxDuration: time.Second,
		Sim: sim.Config{Model: sim.ModelControllers, MaxWork: maxWork}, Workers: 2}
}

// TestRangeWorkBudget checks replicas 1..3000 (128 counts sampled, about
// 290,000 units of work to compute them all) with a budget of 100,000:
// the runs together compute no more than it (and the few units each
// run's last event may pass its own budget by); the counts that stopped
// at it are the ones named by a limit finding and by Result.Projected,
// some are computed and some are not; and a computed count has the findings it has when
// checked alone with the whole budget.
func TestRangeWorkBudget(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(rangeDeployment))
	if err != nil {
		t.Fatal(err)
	}
	in := Load("deploy.yaml", docs, LoadOptions{})
	const maxWork = 100_000
	f := newChecker(rangeConfig(1, 3000, maxWork))
	report, _ := f.run(in)
	runs := int64(report.Deployments[0].Rollouts)
	if w := f.worked.Load(); w > maxWork+16*2*runs {
		t.Errorf("the range's runs computed %d units of work, budget %d", w, maxWork)
	}
	byCount := map[int32][]Finding{}
	limited := map[int32]bool{}
	for _, v := range report.Findings {
		byCount[v.Replicas] = append(byCount[v.Replicas], v)
		if v.Rule == RuleLimit {
			limited[v.Replicas] = true
		}
	}
	if n := int64(len(limited)); n != report.Deployments[0].Undecided || n == 0 || n == runs {
		t.Fatalf("%d of %d counts stopped at the limit, Undecided %d: want some, not all, and Undecided to count them",
			n, runs, report.Deployments[0].Undecided)
	}
	var named []int32
	for _, r := range replicaCounts(1, 3000, sampleCounts) {
		if limited[r] {
			named = append(named, r)
		}
	}
	if diff := cmp.Diff(named, report.Deployments[0].Projected); diff != "" {
		t.Errorf("Result.Projected is not the counts with a limit finding (-limit findings +Projected):\n%s", diff)
	}
	// The largest computed count, and the smallest: alone, with the
	// whole budget, each has the findings it has in the range.
	var largest int32
	for _, r := range replicaCounts(1, 3000, sampleCounts) {
		if !limited[r] {
			largest = r
		}
	}
	for _, r := range []int32{1, largest} {
		alone := Run(in, rangeConfig(r, r, maxWork))
		if diff := cmp.Diff(alone.Findings, byCount[r]); diff != "" {
			t.Errorf("replicas %d: the range's findings differ from the count's alone (-alone +range):\n%s", r, diff)
		}
	}
	t.Logf("%d counts computed, %d projected; %d units of work", runs-int64(len(limited)), len(limited), f.worked.Load())
}

// TestRangeWorkBudgetProperties checks drawn ranges of 2 to 20 counts
// of up to 300 replicas under the controllers model with a drawn budget
// and a larger one: the runs compute no more than the budget (one unit a
// count at least, and the few units each run's last event may pass its
// own budget by); a count computed to the end under the budget is
// computed under the larger one too, with the same findings.
func TestRangeWorkBudgetProperties(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(rangeDeployment))
	if err != nil {
		t.Fatal(err)
	}
	in := Load("deploy.yaml", docs, LoadOptions{})
	draws, mixed := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.Int32Range(1, 280).Draw(t, "min replicas")
		hi := lo + rapid.Int32Range(1, 19).Draw(t, "more replicas")
		// What the counts take together, measured with a budget none
		// reaches, so that budgets around it stop some counts and not
		// others.
		unbounded := newChecker(rangeConfig(lo, hi, math.MaxInt32))
		unbounded.run(in)
		need := int(unbounded.worked.Load())
		percent := rapid.IntRange(70, 105).Draw(t, "MaxWork, percent of that")
		maxWork := max(need*percent/100+rapid.IntRange(0, 50).Draw(t, "MaxWork, more"), 1)
		more := maxWork + rapid.IntRange(0, need).Draw(t, "more MaxWork")
		limitedAt := func(maxWork int) (map[int32][]Finding, map[int32]bool) {
			f := newChecker(rangeConfig(lo, hi, maxWork))
			report, _ := f.run(in)
			n := int64(hi - lo + 1)
			if w := f.worked.Load(); w > max(int64(maxWork), n)+16*2*n {
				t.Fatalf("%d counts with MaxWork %d computed %d units of work", n, maxWork, w)
			}
			byCount, limited := map[int32][]Finding{}, map[int32]bool{}
			for _, v := range report.Findings {
				byCount[v.Replicas] = append(byCount[v.Replicas], v)
				limited[v.Replicas] = limited[v.Replicas] || v.Rule == RuleLimit
			}
			return byCount, limited
		}
		small, smallLimited := limitedAt(maxWork)
		large, largeLimited := limitedAt(more)
		draws++
		n := 0
		for _, l := range smallLimited {
			if l {
				n++
			}
		}
		if n > 0 && n <= int(hi-lo) {
			mixed++
		}
		for r := lo; r <= hi; r++ {
			if smallLimited[r] {
				continue
			}
			if largeLimited[r] {
				t.Fatalf("replicas %d: computed with MaxWork %d, projected with %d", r, maxWork, more)
			}
			if diff := cmp.Diff(small[r], large[r]); diff != "" {
				t.Fatalf("replicas %d: computed with MaxWork %d and %d, with other findings (-less +more):\n%s", r, maxWork, more, diff)
			}
		}
	})
	t.Logf("%d of %d draws had both computed and projected counts", mixed, draws)
	gen.Covered(t, "had both computed and projected counts", mixed, draws, 0.2) // 29% over 300 draws
}
