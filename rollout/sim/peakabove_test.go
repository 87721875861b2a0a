package sim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestPeakAboveChangesNothingRead checks Config.PeakPodsAbove's promise
// on random runs of the controllers model: against the same run without
// it, the Steps, the steps handed to both observers and every figure of
// the Summary but PeakPodsLow, PeakPodsHigh and MinAvailableHigh (and
// those of UpToDeadline) are the same; PeakPodsHigh (and
// UpToDeadline's) is above PeakPodsAbove exactly when the run's without
// it is, and then the same; Cost.Work is at most the run's and
// Limited only where the run's is; where the run's DeadlineFreeFrom is
// proved, so is its own, at most the run's (the cut order reads the
// deadline in fewer syncs; TestPeakAboveDeadlineFreeFrom checks it).
// The threshold is drawn around the rollout's own size, so that both
// sides of it are met; most runs cut their third order short.
func TestPeakAboveChangesNothingRead(t *testing.T) {
	runs, cut := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawControllersRun(t)
		r := int64(s.Deployment.Spec.Replicas)
		above := rapid.Int64Range(1, 3*r+8).Draw(t, "peak pods above")
		type observed struct{ inOrder, deletesFirst []sim.Step }
		runObserved := func(cfg sim.Config) (sim.Result, sim.Cost, observed) {
			var o observed
			cfg.Observe = func(st sim.Step) { o.inOrder = append(o.inOrder, st) }
			cfg.ObserveDeletesFirst = func(st sim.Step) { o.deletesFirst = append(o.deletesFirst, st) }
			res, cost, err := sim.RunCost(s, cfg)
			if err != nil {
				t.Fatalf("RunCost() error: %v", err)
			}
			return res, cost, o
		}
		full, fullCost, fullSeen := runObserved(cfg)
		cfg.PeakPodsAbove = above
		got, gotCost, gotSeen := runObserved(cfg)

		if (got.Summary.PeakPodsHigh > above) != (full.Summary.PeakPodsHigh > above) ||
			full.Summary.PeakPodsHigh > above && got.Summary.PeakPodsHigh != full.Summary.PeakPodsHigh {
			t.Fatalf("PeakPodsHigh = %d with PeakPodsAbove %d, %d without", got.Summary.PeakPodsHigh, above, full.Summary.PeakPodsHigh)
		}
		if g, f := got.Summary.UpToDeadline.PeakPodsHigh, full.Summary.UpToDeadline.PeakPodsHigh; (g > above) != (f > above) || f > above && g != f {
			t.Fatalf("UpToDeadline.PeakPodsHigh = %d with PeakPodsAbove %d, %d without", g, above, f)
		}
		if full.DeadlineFreeFrom != 0 && (got.DeadlineFreeFrom == 0 || got.DeadlineFreeFrom > full.DeadlineFreeFrom) {
			t.Fatalf("DeadlineFreeFrom = %d with PeakPodsAbove, %d without", got.DeadlineFreeFrom, full.DeadlineFreeFrom)
		}
		if gotCost.Work > fullCost.Work || gotCost.Limited && !fullCost.Limited {
			t.Fatalf("Cost = %+v with PeakPodsAbove, %+v without", gotCost, fullCost)
		}
		if sim.DeletesLastCut(s, cfg) {
			cut++
		}
		runs++
		for _, res := range []*sim.Result{&full, &got} {
			res.Summary.PeakPodsLow, res.Summary.PeakPodsHigh, res.Summary.MinAvailableHigh = 0, 0, 0
			u := &res.Summary.UpToDeadline
			u.PeakPodsLow, u.PeakPodsHigh, u.MinAvailableHigh = 0, 0, 0
			res.DeadlineFreeFrom = 0
		}
		opts := []cmp.Option{cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})}
		if diff := cmp.Diff(full, got, opts...); diff != "" {
			t.Fatalf("PeakPodsAbove changes the Result beyond the figures it frees (-without +with):\n%s", diff)
		}
		if diff := cmp.Diff(fullSeen.inOrder, gotSeen.inOrder, opts...); diff != "" {
			t.Fatalf("PeakPodsAbove changes the observed steps (-without +with):\n%s", diff)
		}
		if diff := cmp.Diff(fullSeen.deletesFirst, gotSeen.deletesFirst, opts...); diff != "" {
			t.Fatalf("PeakPodsAbove changes the deletes-first order's steps (-without +with):\n%s", diff)
		}
	})
	t.Logf("%d of %d runs cut their third order short", cut, runs)
	gen.Covered(t, "cut their third order short", cut, runs, 0.25) // 31% over 300 draws
}

// TestDeletesFirstDoneChangesNothingRead checks Config.DeletesFirstDone's
// promise on random runs of the controllers model: against the same run
// without it, the deletes-first order's steps observed are a prefix of
// its whole steps, and the Result is the same but PeakPodsLow and
// MinAvailableHigh (and UpToDeadline's), Cost (Work at most the run's, Limited only where the
// run's is) and DeadlineFreeFrom (the run's or 0). The callback's answer
// is drawn; it is asked with the Summary's fewest available.
func TestDeletesFirstDoneChangesNothingRead(t *testing.T) {
	runs, cut := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawControllersRun(t)
		agree := rapid.Bool().Draw(t, "done")
		var asked []int64
		runObserved := func(cfg sim.Config) (sim.Result, sim.Cost, []sim.Step) {
			var steps []sim.Step
			cfg.ObserveDeletesFirst = func(st sim.Step) { steps = append(steps, st) }
			res, cost, err := sim.RunCost(s, cfg)
			if err != nil {
				t.Fatalf("RunCost() error: %v", err)
			}
			return res, cost, steps
		}
		full, fullCost, fullSteps := runObserved(cfg)
		cfg.DeletesFirstDone = func(fewest int64) bool {
			asked = append(asked, fewest)
			return agree
		}
		got, gotCost, gotSteps := runObserved(cfg)
		for _, f := range asked {
			if f != full.Summary.MinAvailable {
				t.Fatalf("DeletesFirstDone asked with %d, the Summary's fewest available is %d", f, full.Summary.MinAvailable)
			}
		}
		if len(gotSteps) < len(fullSteps) {
			cut++
		}
		runs++
		opts := []cmp.Option{cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})}
		if diff := cmp.Diff(fullSteps[:min(len(gotSteps), len(fullSteps))], gotSteps, opts...); diff != "" || len(gotSteps) > len(fullSteps) {
			t.Fatalf("the observed deletes-first steps are not a prefix of the whole order's (-whole +observed):\n%s", diff)
		}
		if gotCost.Work > fullCost.Work || gotCost.Limited && !fullCost.Limited {
			t.Fatalf("Cost = %+v with DeletesFirstDone, %+v without", gotCost, fullCost)
		}
		if got.DeadlineFreeFrom != full.DeadlineFreeFrom && got.DeadlineFreeFrom != 0 {
			t.Fatalf("DeadlineFreeFrom = %d with DeletesFirstDone, %d without", got.DeadlineFreeFrom, full.DeadlineFreeFrom)
		}
		for _, res := range []*sim.Result{&full, &got} {
			res.Summary.PeakPodsLow, res.Summary.MinAvailableHigh, res.DeadlineFreeFrom = 0, 0, 0
			res.Summary.UpToDeadline.PeakPodsLow, res.Summary.UpToDeadline.MinAvailableHigh = 0, 0
		}
		if diff := cmp.Diff(full, got, opts...); diff != "" {
			t.Fatalf("DeletesFirstDone changes the Result beyond the figures it frees (-without +with):\n%s", diff)
		}
	})
	t.Logf("%d of %d runs ended their deletes-first order early", cut, runs)
	gen.Covered(t, "ended their deletes-first order early", cut, runs, 0.15) // 18% over 300 draws
}
