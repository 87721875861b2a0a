package sim_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestPeakAboveDeadlineFreeFrom: a run under Config.PeakPodsAbove whose
// deletes-last order ended early (cutBelow) proves its DeadlineFreeFrom
// over what that order ran (cutFree): with any deadline from there up,
// under the same PeakPodsAbove, the Result is the same (all but the
// fields that echo the deadline), and so is its Cost. Rollouts as in
// TestDeadlineFreeFrom; the threshold is drawn around the rollout's
// size. Most draws cut the order and are proved.
func TestPeakAboveDeadlineFreeFrom(t *testing.T) {
	runs, provedCut := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		st := gen.Strategy().Draw(t, "strategy")
		s := rollingState(t, rapid.Int32Range(1, 20).Draw(t, "replicas"), st)
		s.Deployment.Spec.MinReadySeconds = rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
		d := rapid.Int32Range(s.Deployment.Spec.MinReadySeconds+1, 1200).Draw(t, "deadline")
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(d)
		sec := func(label string, hi int64) time.Duration {
			return time.Duration(rapid.Int64Range(0, hi).Draw(t, label)) * time.Second
		}
		r := int64(s.Deployment.Spec.Replicas)
		cfg := sim.Config{
			Model:         sim.ModelControllers,
			MaxWork:       3000,
			OmitSteps:     rapid.Bool().Draw(t, "omit steps"),
			PeakPodsAbove: rapid.Int64Range(1, 3*r+8).Draw(t, "peak pods above"),
			Pods: sim.PodModel{
				ReadyAfter:  sec("ready after", 60),
				Terminating: sec("terminating", 60),
				MaxPods:     rapid.SampledFrom([]int32{0, 0, 0, 1, 5, 12, 25}).Draw(t, "max pods"),
			},
			Controllers: sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
		}
		res, cost, err := sim.RunCost(s, cfg)
		if err != nil {
			t.Fatalf("RunCost() error: %v", err)
		}
		runs++
		from := res.DeadlineFreeFrom
		if from == 0 {
			return
		}
		if from > d || res.Summary.Outcome != sim.OutcomeComplete {
			t.Fatalf("DeadlineFreeFrom = %d with deadline %d, outcome %q", from, d, res.Summary.Outcome)
		}
		if sim.DeletesLastCut(s, cfg) {
			provedCut++
		}
		other := rapid.OneOf(
			rapid.Just(from),
			rapid.Int32Range(from, from+30),
			rapid.Int32Range(from, max(from, d)*3),
			rapid.Just(int32(rollout.Unlimited-1)),
		).Draw(t, "other deadline")
		s2 := s
		s2.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(other)
		res2, cost2, err := sim.RunCost(s2, cfg)
		if err != nil {
			t.Fatalf("RunCost() error: %v", err)
		}
		if cost2 != cost {
			t.Fatalf("Cost = %+v with deadline %d (proved from %d), %+v with %d", cost, d, from, cost2, other)
		}
		if diff := cmp.Diff(withoutDeadlineEchoes(res), withoutDeadlineEchoes(res2), cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("deadline %d (proved from %d) and deadline %d give different Results under PeakPodsAbove %d (-%d +%d):\n%s", d, from, other, cfg.PeakPodsAbove, d, other, diff)
		}
	})
	t.Logf("%d runs, %d proved with their deletes-last order cut", runs, provedCut)
	gen.Covered(t, "proved with their deletes-last order cut", provedCut, runs, 0.2) // 27% over 300 draws
}
