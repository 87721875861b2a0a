package sim_test

import (
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// capacity is a PodModel.Room that holds at most c bound pods.
func capacity(c int64) func(int64) int64 {
	return func(bound int64) int64 { return c - bound }
}

// TestRunPlacement runs rollouts whose pods only c fit at once, under
// both models: a surge pod that has no room keeps a rollout with
// maxUnavailable 0 from ever finishing, and one that may take an old pod
// down first finishes later than without the limit.
func TestRunPlacement(t *testing.T) {
	tests := []struct {
		name     string
		replicas int32
		strategy rollout.Strategy
		room     int64
		want     sim.Outcome
		slower   bool // finishes, later than with room for every pod
	}{
		// kubernetes#116891: required anti-affinity on the hostname with
		// replicas equal to the nodes, maxSurge 1, maxUnavailable 0.
		{"one pod per node, replicas = nodes, surge 1 unavailable 0", 3, rolling(surge.Count(1), surge.Count(0)), 3, sim.OutcomeUnplaced, false},
		{"one pod per node, replicas = nodes, surge 1 unavailable 1", 3, rolling(surge.Count(1), surge.Count(1)), 3, sim.OutcomeComplete, true},
		// The pod that terminates holds its node until it is gone.
		{"one pod per node, one node spare", 3, rolling(surge.Count(1), surge.Count(0)), 4, sim.OutcomeComplete, true},
		{"room for 2 of a surge of 3 pods", 10, rolling(surge.Count(3), surge.Count(0)), 12, sim.OutcomeComplete, true},
		// A ReadWriteOncePod claim: one pod at all.
		{"one pod at all, surge 1", 1, rolling(surge.Count(1), surge.Count(0)), 1, sim.OutcomeUnplaced, false},
		{"one pod at all, maxSurge 0 maxUnavailable 1", 1, rolling(surge.Count(0), surge.Count(1)), 1, sim.OutcomeComplete, true},
		{"one pod at all, Recreate", 1, rollout.Strategy{Type: rollout.RecreateStrategy}, 1, sim.OutcomeComplete, false},
		{"no room at all", 2, rolling(surge.Count(1), surge.Count(1)), 0, sim.OutcomeUnplaced, false},
	}
	for _, model := range []sim.Model{sim.ModelSimple, sim.ModelControllers} {
		for _, tt := range tests {
			t.Run(model.Name(0)+"/"+tt.name, func(t *testing.T) {
				s := rollingState(t, tt.replicas, tt.strategy)
				s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
				cfg := sim.Config{Model: model, Pods: sim.PodModel{ReadyAfter: 10 * time.Second, Terminating: 5 * time.Second}}
				free := run(t, s, cfg).Summary
				cfg.Pods.Room = capacity(tt.room)
				got := run(t, s, cfg).Summary
				if got.Outcome != tt.want {
					t.Fatalf("Outcome = %q (%s), want %q", got.Outcome, got.Detail, tt.want)
				}
				if tt.want == sim.OutcomeComplete && (got.Duration > free.Duration) != tt.slower {
					t.Errorf("Duration %s with room %d, %s without a limit: slower = %v, want %v",
						got.Duration, tt.room, free.Duration, got.Duration > free.Duration, tt.slower)
				}
				if got.PeakPods > free.PeakPods {
					t.Errorf("PeakPods %d above %d without a limit", got.PeakPods, free.PeakPods)
				}
			})
		}
	}
}

// TestRunPlacementPending checks that the steps show pods pending while
// they wait for room, not ready.
func TestRunPlacementPending(t *testing.T) {
	s := rollingState(t, 3, rolling(surge.Count(1), surge.Count(0)))
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
	// Under ModelSimple a step's counts are the pods' own; under
	// ModelControllers Current is the ReplicaSet's status, which counts a
	// pending pod only once the ReplicaSet controller has written it.
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Pods: sim.PodModel{Room: capacity(3)}})
	seen := false
	for _, st := range res.Steps {
		for _, c := range st.Sets {
			if c.Pending > 0 {
				seen = true
				if c.Ready > c.Current-c.Pending {
					t.Errorf("step at %s: %+v has pending pods ready", st.At, c)
				}
			}
		}
	}
	if !seen {
		t.Errorf("no step shows a pending pod: %+v", res.Steps)
	}
	if res.Summary.Outcome != sim.OutcomeUnplaced || res.Summary.Detail == "" {
		t.Errorf("Summary = %+v, want %q with a detail", res.Summary, sim.OutcomeUnplaced)
	}
}

// TestRunPlacementProperties checks what placement guarantees over drawn
// rollouts: with room for every pod it changes nothing, and it never
// raises the peak of pods above the run without it. Under the controllers
// model the bound is the unplaced run's PeakPodsHigh (the order whose
// creations all go before the deletions of their instant): pods waiting
// for room move the steps, so a step's creations may race its deletions
// where no step of the unplaced run's likelier orders does. With
// terminating pods, a later step's creations may meet more of the pods
// still terminating (60 replicas at maxSurge 0, maxUnavailable 47%, ready
// after 5 s, terminating for 1 s, room for 49: 77 pods at 6.5 s, against
// 75, high 88, without placement); without them, a step of two pods (15
// replicas at maxSurge 25%, maxUnavailable 4, minReadySeconds 1, ready at
// once, room for 13) creates its two at 1 s before the two deletions of
// that sync are granted, 21 pods, where the unplaced run scales the old
// ReplicaSet down first and peaks at 19 (high 26).
func TestRunPlacementProperties(t *testing.T) {
	t.Run("unlimited room changes nothing", rapid.MakeCheck(func(t *rapid.T) {
		d := drawRollout(t, 1)
		if rapid.Bool().Draw(t, "controllers") {
			d.cfg.Model, d.cfg.Interval = sim.ModelControllers, 0
		}
		d.cfg.Pods.Terminating = time.Duration(rapid.Int64Range(0, 60).Draw(t, "terminating seconds")) * time.Second
		want := run(t, d.state, d.cfg)
		d.cfg.Pods.Room = func(int64) int64 { return 1 << 40 }
		got := run(t, d.state, d.cfg)
		if got.Summary.Outcome != want.Summary.Outcome || got.Summary.Duration != want.Summary.Duration ||
			got.Summary.PeakPods != want.Summary.PeakPods || got.Summary.MinAvailable != want.Summary.MinAvailable ||
			len(got.Steps) != len(want.Steps) {
			t.Fatalf("with unlimited room %+v, without %+v", got.Summary, want.Summary)
		}
	}))
	t.Run("peak never above the unplaced run", rapid.MakeCheck(func(t *rapid.T) {
		d := drawRollout(t, 1)
		if rapid.Bool().Draw(t, "controllers") {
			d.cfg.Model, d.cfg.Interval = sim.ModelControllers, 0
		}
		d.state.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
		d.cfg.Pods.Terminating = time.Duration(rapid.Int64Range(0, 60).Draw(t, "terminating seconds")) * time.Second
		free := run(t, d.state, d.cfg)
		room := rapid.Int64Range(0, free.Summary.PeakPods+1).Draw(t, "room")
		d.cfg.Pods.Room = capacity(room)
		got := run(t, d.state, d.cfg)
		limit := free.Summary.PeakPods
		if d.cfg.Model == sim.ModelControllers || d.cfg.Pods.Terminating > 0 {
			limit = free.Summary.PeakPodsHigh
		}
		if got.Summary.PeakPods > limit {
			t.Fatalf("PeakPods %d with room %d, %d (high %d) without", got.Summary.PeakPods, room, free.Summary.PeakPods, free.Summary.PeakPodsHigh)
		}
		if got.Summary.Outcome != sim.OutcomeComplete && got.Summary.Outcome != sim.OutcomeUnplaced {
			t.Fatalf("Outcome %q (%s)", got.Summary.Outcome, got.Summary.Detail)
		}
		if room >= free.Summary.PeakPods && got.Summary.Outcome != sim.OutcomeComplete {
			t.Fatalf("room %d for a peak of %d: %+v", room, free.Summary.PeakPods, got.Summary)
		}
	}))
}

// TestPlacementIsNotStoppedEarly checks that a run whose pod requests
// outnumber what MaxWork allows is still computed under a placement
// (PodModel.Room): the nodes may end it (pods that never get a place)
// before the work limit, so it is not stopped after its first sync with a
// projection, as the same run without a placement is.
func TestPlacementIsNotStoppedEarly(t *testing.T) {
	s := rollingState(t, 10_000, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{MaxWork: 50, OmitSteps: true}
	free := run(t, s, cfg).Summary
	if free.Outcome != sim.OutcomeLimit || free.Syncs != 1 || !free.Projection.Made {
		t.Fatalf("without a placement: %+v, want the limit after the first sync with a projection", free)
	}
	cfg.Pods.Room = capacity(10_000)
	placed := run(t, s, cfg).Summary
	if placed.Syncs <= 1 {
		t.Fatalf("with a placement: %+v, want the run computed past its first sync", placed)
	}
	// Room for the 10,000 old pods only, and maxUnavailable 0: the surge
	// pod never gets a place, and the progress deadline passes (the
	// detail says why) long before the work limit.
	if placed.Outcome == sim.OutcomeLimit || !strings.Contains(placed.Detail, "cannot be placed") {
		t.Errorf("with a placement: outcome %q (%s), want the rollout stuck on its pending pods", placed.Outcome, placed.Detail)
	}
}
