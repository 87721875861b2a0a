package sim_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// A rollout too large to compute event by event within the work limit:
// 100,000 replicas at maxSurge and maxUnavailable 25%, the controllers at
// kube-controller-manager's client limits (20 requests a second), pods
// ready after 5s. The run stops at MaxWork and projects the rest: no
// sooner than the pods left allow at the ReplicaSet controller's rate.
// (Computed to its end, this rollout completes after 2h47m16.85s.)
func ExampleProjection() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 100000, "selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "web", "web:2")
	if err != nil {
		panic(err)
	}
	res, err := sim.Run(s, sim.Config{
		Model:     sim.ModelControllers,
		Pods:      sim.PodModel{ReadyAfter: 5 * time.Second},
		MaxWork:   7_000,
		OmitSteps: true,
	})
	if err != nil {
		panic(err)
	}
	p := res.Summary.Projection
	fmt.Println(res.Summary.Outcome, "after", p.Stepped, "computed")
	fmt.Println("left:", p.Creates, "creations and", p.Deletes, "deletions")
	fmt.Println("complete no sooner than", p.DurationAtLeast.Round(time.Minute))
	fmt.Println("at the pace so far", p.DurationEstimate.Round(time.Minute))
	fmt.Println("pods at once: at most", p.PeakPodsAtMost, "(peak so far", res.Summary.PeakPods, "of a ceiling of", res.Summary.Ceiling, "by sizes)")
	// Output:
	// limit reached after 5m48.751s computed
	// left: 98969 creations and 94074 deletions
	// complete no sooner than 2h47m0s
	// at the pace so far 2h47m0s
	// pods at once: at most 194074 (peak so far 100031 of a ceiling of 125000 by sizes)
}

// What a run cost, to share a work budget between runs as rolloutctl
// check does between the replica counts of a range: a 10-replica
// rollout ends within the default budget, and is the same under any
// MaxWork above its Work; below it, the run stops at the limit.
func ExampleRunCost() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 10, "selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "web", "web:2")
	if err != nil {
		panic(err)
	}
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true}
	res, cost, err := sim.RunCost(s, cfg)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Summary.Outcome, "in", res.Summary.Duration, "limited:", cost.Limited)
	cfg.MaxWork = cost.Work + 1
	again, same, _ := sim.RunCost(s, cfg)
	fmt.Println("with MaxWork", cfg.MaxWork, again.Summary.Outcome, "in", again.Summary.Duration, "same cost:", same == cost)
	cfg.MaxWork = cost.Work / 2
	less, lessCost, _ := sim.RunCost(s, cfg)
	fmt.Println("with MaxWork", cfg.MaxWork, less.Summary.Outcome, "limited:", lessCost.Limited)
	// Output:
	// complete in 1.251s limited: false
	// with MaxWork 72 complete in 1.251s same cost: true
	// with MaxWork 35 limit reached limited: true
}
