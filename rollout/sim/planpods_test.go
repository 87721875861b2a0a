package sim_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestPlanPodsPlanAlike: a Recreate Deployment's sync gives Plan one Pod
// for each ReplicaSet that has pods (planPods), not one for every cohort
// of pods; Plan asks of them only whether an old ReplicaSet still has
// any (R-REC-2). On random Recreate rollouts under every model (pods
// ready after up to 90s, terminating, a pod quota, placement, replica
// changes, each minor's controller), the Result is the one every cohort's
// Pod gives.
func TestPlanPodsPlanAlike(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawControllersRun(t)
		s.Deployment.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
		s.Deployment.Spec.Replicas = rapid.Int32Range(0, 300).Draw(t, "replicas")
		cfg.Pods.ReadyAfter = time.Duration(rapid.Int64Range(0, 90).Draw(t, "ready after seconds")) * time.Second
		cfg.MaxWork = 20_000
		switch rapid.IntRange(0, 2).Draw(t, "model") {
		case 1:
			cfg.Model, cfg.Controllers = sim.ModelSimple, sim.Controllers{}
		case 2:
			cfg.Model, cfg.Controllers = sim.ModelSimple, sim.Controllers{}
			cfg.Interval = 30 * time.Second
		}
		if rapid.Bool().Draw(t, "placement") {
			room := rapid.Int64Range(0, 400).Draw(t, "room")
			cfg.Pods.Room = func(bound int64) int64 { return room - bound }
			cfg.Pods.MaxPods = 0
		}
		s.Options.Version = rapid.SampledFrom([]rollout.Version{0, rollout.V1_35, rollout.V1_36, rollout.V1_37}).Draw(t, "controller minor")
		want := run(t, s, sim.WithEveryPod(cfg))
		got := run(t, s, cfg)
		if diff := cmp.Diff(want, got, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("one Pod a ReplicaSet changes the Result (-every cohort's +one a ReplicaSet):\n%s", diff)
		}
	})
}
