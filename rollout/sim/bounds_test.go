package sim_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

func TestComputeBounds(t *testing.T) {
	recreate := rollout.Strategy{Type: rollout.RecreateStrategy}
	tests := []struct {
		name     string
		st       rollout.Strategy
		replicas int32
		want     sim.Bounds
	}{
		// spec §5.6: new 0->3 and old 10->8, new 5, old 3, new 10, old 0.
		{"seed 10 at 25%/25%", rolling(surge.Percent(25), surge.Percent(25)), 10,
			sim.Bounds{Replicas: 10, Surge: 3, Unavailable: 2, PeakPods: 13, MinAvailable: 8, MinSteps: 5}},
		{"one at a time", rolling(surge.Count(1), surge.Count(0)), 5,
			sim.Bounds{Replicas: 5, Surge: 1, Unavailable: 0, PeakPods: 6, MinAvailable: 5, MinSteps: 10}},
		{"one down at a time", rolling(surge.Count(0), surge.Count(1)), 5,
			sim.Bounds{Replicas: 5, Surge: 0, Unavailable: 1, PeakPods: 5, MinAvailable: 4, MinSteps: 10}},
		// R-FENCE-1: both round to zero, so maxUnavailable is 1.
		{"1 replica at 25%/25%", rolling(surge.Percent(25), surge.Percent(25)), 1,
			sim.Bounds{Replicas: 1, Surge: 1, Unavailable: 0, PeakPods: 2, MinAvailable: 1, MinSteps: 2}},
		{"3 replicas at 10%/10%", rolling(surge.Percent(10), surge.Percent(10)), 3,
			sim.Bounds{Replicas: 3, Surge: 1, Unavailable: 0, PeakPods: 4, MinAvailable: 3, MinSteps: 6}},
		{"all at once", rolling(surge.Percent(100), surge.Percent(100)), 7,
			sim.Bounds{Replicas: 7, Surge: 7, Unavailable: 7, PeakPods: 14, MinAvailable: 0, MinSteps: 1}},
		// R-FENCE-3: maxUnavailable is clamped to replicas.
		{"clamped", rolling(surge.Count(0), surge.Count(9)), 3,
			sim.Bounds{Replicas: 3, Surge: 0, Unavailable: 3, PeakPods: 3, MinAvailable: 0, MinSteps: 2}},
		{"zero replicas", rolling(surge.Percent(25), surge.Percent(25)), 0, sim.Bounds{}},
		{"recreate", recreate, 4, sim.Bounds{Replicas: 4, Unavailable: 4, PeakPods: 4, MinSteps: 2}},
		{"recreate of 0", recreate, 0, sim.Bounds{}},
		{"unknown strategy", rollout.Strategy{Type: "BlueGreen"}, 4, sim.Bounds{Replicas: 4, PeakPods: 4, MinAvailable: 4}},
		{"negative replicas", rolling(surge.Count(1), surge.Count(0)), -2, sim.Bounds{Replicas: -2}},
		// Issue 11, defect 9: the new ReplicaSet never grows beyond
		// replicas, so a surge above replicas cannot be reached.
		{"maxSurge above replicas", rolling(surge.Count(50), surge.Percent(25)), 5,
			sim.Bounds{Replicas: 5, Surge: 50, Unavailable: 1, PeakPods: 10, MinAvailable: 4, MinSteps: 2}},
		{"maxSurge 1 of 0 replicas", rolling(surge.Count(1), surge.Count(0)), 0, sim.Bounds{Surge: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, sim.ComputeBounds(tt.st, tt.replicas)); diff != "" {
				t.Errorf("ComputeBounds() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestComputeBoundsGolden checks MinSteps against the real controller: in
// every golden scenario that rolls one fully available ReplicaSet to a new
// template with pods that become ready, the syncs that changed a size.
func TestComputeBoundsGolden(t *testing.T) {
	dirs, err := os.ReadDir(scenarios)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range dirs {
		steps := loadScenario(t, filepath.Join(scenarios, dir.Name()))
		s := steps[0].state
		d := s.Deployment
		if len(s.ReplicaSets) != 1 || neverReady[dir.Name()] != nil {
			continue
		}
		if rs := s.ReplicaSets[0]; rs.Spec.Replicas != d.Spec.Replicas || rs.Status.AvailableReplicas != d.Spec.Replicas ||
			rollout.EqualIgnoreHash(rs.Spec.Template, d.Spec.Template) {
			continue
		}
		var golden []sim.Step
		for _, g := range steps {
			var acts []rollout.Action
			for _, a := range g.plan.Actions {
				acts = append(acts, rollout.Action{Type: a.Type, ReplicaSet: a.ReplicaSet, From: a.From, To: a.To})
			}
			golden = append(golden, sim.Step{Actions: acts})
		}
		got := sim.ComputeBounds(d.Spec.Strategy, d.Spec.Replicas).MinSteps
		if want := len(sizeChanges(golden)); got != want {
			t.Errorf("%s: ComputeBounds().MinSteps = %d, the controller changed sizes in %d syncs", dir.Name(), got, want)
		}
		checked++
	}
	t.Logf("%d scenarios checked", checked)
	if checked < 5 {
		t.Errorf("only %d golden scenarios checked", checked)
	}
}

// TestBoundsPeakWhenMaxSurgeExceedsReplicas is issue 11's defect 9:
// PeakPods was replicas + maxSurge (55 for maxSurge 50 over 5 replicas),
// while a run reaches 10. No run from a complete state passes it, and with
// every pod ready at once one reaches it.
func TestBoundsPeakWhenMaxSurgeExceedsReplicas(t *testing.T) {
	for _, replicas := range []int32{0, 1, 5, 49, 50, 51} {
		st := rolling(surge.Count(50), surge.Count(0))
		b := sim.ComputeBounds(st, replicas)
		if want := int64(replicas) + int64(min(replicas, 50)); b.PeakPods != want {
			t.Errorf("ComputeBounds(50/0, %d).PeakPods = %d, want %d", replicas, b.PeakPods, want)
		}
		if replicas == 0 {
			continue
		}
		res := run(t, rollingState(t, replicas, st), sim.Config{Model: sim.ModelSimple})
		if res.Summary.PeakPods != b.PeakPods {
			t.Errorf("%d replicas: a run peaks at %d pods, ComputeBounds says %d", replicas, res.Summary.PeakPods, b.PeakPods)
		}
	}
}

func TestBoundsRange(t *testing.T) {
	st := rolling(surge.Percent(25), surge.Percent(25))
	got := slices.Collect(sim.BoundsRange(st, -3, 9))
	if len(got) != 10 || got[0].Replicas != 0 || got[9].Replicas != 9 {
		t.Fatalf("BoundsRange(-3, 9) = %d entries from %d", len(got), got[0].Replicas)
	}
	for i, b := range got {
		if want := sim.ComputeBounds(st, b.Replicas); b != want {
			t.Errorf("entry %d = %+v, want %+v", i, b, want)
		}
	}
	// Where rounding flips: surge rounds up (past 0, 4, 8), unavailable
	// down (at 4, 8).
	var surgeFlips, unavailFlips []int32
	for i := 1; i < len(got); i++ {
		if got[i].Surge != got[i-1].Surge {
			surgeFlips = append(surgeFlips, got[i].Replicas)
		}
		if got[i].Unavailable != got[i-1].Unavailable {
			unavailFlips = append(unavailFlips, got[i].Replicas)
		}
	}
	// Replicas 1..3 resolve to 1/0 (R-FENCE-1 does not apply: surge is 1).
	if diff := cmp.Diff([]int32{1, 5, 9}, surgeFlips); diff != "" {
		t.Errorf("surge flips (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int32{4, 8}, unavailFlips); diff != "" {
		t.Errorf("unavailable flips (-want +got):\n%s", diff)
	}
	if got := slices.Collect(sim.BoundsRange(st, 5, 4)); got != nil {
		t.Errorf("BoundsRange(5, 4) yields %v", got)
	}
}
