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

// drawControllersRun draws a ModelControllers run of the kind check
// makes, and wider: a strategy, 0 to 20 replicas, minReadySeconds, a
// progress deadline, ready and terminating times, a pod quota, client
// limits, a replica change, steps kept or not. MaxWork bounds the few
// draws that would run long (a quota refusing pods, retried with backoff,
// at a low QPS).
func drawControllersRun(t *rapid.T) (rollout.State, sim.Config) {
	st := gen.Strategy().Draw(t, "strategy")
	s := rollingState(t, rapid.Int32Range(0, 20).Draw(t, "replicas"), st)
	s.Deployment.Spec.MinReadySeconds = rapid.Int32Range(0, 20).Draw(t, "minReadySeconds")
	if rapid.Bool().Draw(t, "short deadline") {
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rapid.Int32Range(s.Deployment.Spec.MinReadySeconds+1, 90).Draw(t, "deadline"))
	}
	sec := func(label string, hi int64) time.Duration {
		return time.Duration(rapid.Int64Range(0, hi).Draw(t, label)) * time.Second
	}
	cfg := sim.Config{
		Model:     sim.ModelControllers,
		OmitSteps: rapid.Bool().Draw(t, "omit steps"),
		MaxWork:   3000,
		Pods: sim.PodModel{
			ReadyAfter:  sec("ready after", 60),
			Terminating: sec("terminating", 40),
			MaxPods:     rapid.Int32Range(0, 30).Draw(t, "max pods"),
		},
		Controllers: sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
	}
	if rapid.Bool().Draw(t, "replica change") {
		cfg.Changes = []sim.ReplicaChange{{After: sec("change after", 120), Replicas: rapid.Int32Range(0, 20).Draw(t, "new replicas")}}
	}
	return s, cfg
}

// TestPlanCacheChangesNothing: the controllers model's orders share the
// plans of states seen before in the Run (see plancache.go). On random
// runs, every plan taken from the cache equals a fresh Plan of its state,
// and the Result equals the run's without the cache; most runs take
// some plans from it.
func TestPlanCacheChangesNothing(t *testing.T) {
	runs, hit := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawControllersRun(t)
		cached, hits, mismatch, err := sim.CheckPlanCache(s, cfg)
		if err != nil {
			t.Fatalf("CheckPlanCache() error: %v", err)
		}
		if mismatch != "" {
			t.Fatalf("a plan from the cache differs from Plan: %s", mismatch)
		}
		fresh := run(t, s, sim.WithoutPlanCache(cfg))
		if diff := cmp.Diff(fresh, cached, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("the plan cache changes the Result (-without +with):\n%s", diff)
		}
		runs++
		if hits > 0 {
			hit++
		}
	})
	t.Logf("%d of %d runs took a plan from the cache", hit, runs)
	gen.Covered(t, "took a plan from the cache", hit, runs, 0.9) // 98% over 300 draws
}

// TestSharedStateChangesNothing checks that the orders of a run sharing
// one deep copy of its state (the maps and slices of its objects, see
// ownedCopy) give the Result of orders that deep-copy the state each,
// and leave the input as it was, on random runs.
func TestSharedStateChangesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawControllersRun(t)
		before := rollout.Apply(s, nil) // a deep copy
		shared := run(t, s, cfg)
		copied := run(t, s, sim.WithOrdersCopied(cfg))
		if diff := cmp.Diff(copied, shared, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("sharing the state between the orders changes the Result (-copied +shared):\n%s", diff)
		}
		if diff := cmp.Diff(before, s, cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("Run changed its input (-before +after):\n%s", diff)
		}
	})
}
