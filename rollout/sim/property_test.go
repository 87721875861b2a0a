package sim_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// rollout draws a rollout from a complete state: a strategy, 1 to 60
// replicas, minReadySeconds up to 30, and a pod model whose pods are ready
// within 2 minutes.
type drawn struct {
	state  rollout.State
	cfg    sim.Config
	bounds sim.Bounds
}

func drawRollout(t *rapid.T, minReplicas int32) drawn {
	st := gen.Strategy().Draw(t, "strategy")
	replicas := rapid.Int32Range(minReplicas, 60).Draw(t, "replicas")
	s := rollingState(t, replicas, st)
	s.Deployment.Spec.MinReadySeconds = rapid.Int32Range(0, 30).Draw(t, "minReadySeconds")
	cfg := sim.Config{
		Model:    sim.ModelSimple,
		Interval: rapid.SampledFrom([]time.Duration{0, 30 * time.Second}).Draw(t, "interval"),
		Pods: sim.PodModel{
			ReadyAfter: time.Duration(rapid.Int64Range(0, 120).Draw(t, "readyAfter seconds")) * time.Second,
		},
	}
	return drawn{s, cfg, sim.ComputeBounds(st, replicas)}
}

// TestRunProperties checks, over drawn strategies, replica counts, ready
// times and minReadySeconds, what every rollout from a complete state with
// no replica change guarantees.
func TestRunProperties(t *testing.T) {
	t.Run("sizes within replicas + maxSurge", rapid.MakeCheck(func(t *rapid.T) {
		d := drawRollout(t, 1)
		res := run(t, d.state, d.cfg)
		if res.Summary.Outcome != sim.OutcomeComplete {
			t.Fatalf("not complete: %+v", res.Summary)
		}
		ceiling := int64(d.bounds.Replicas) + int64(d.bounds.Surge)
		if res.Summary.PeakDesired > d.bounds.PeakPods || res.Summary.Ceiling != ceiling {
			t.Fatalf("PeakDesired %d, Ceiling %d; bounds %+v", res.Summary.PeakDesired, res.Summary.Ceiling, d.bounds)
		}
		// Without terminating pods, the pods are the sizes.
		if res.Summary.PeakPods > d.bounds.PeakPods {
			t.Fatalf("PeakPods %d beyond %d", res.Summary.PeakPods, d.bounds.PeakPods)
		}
	}))
	t.Run("availability never below the floor", rapid.MakeCheck(func(t *rapid.T) {
		d := drawRollout(t, 1)
		res := run(t, d.state, d.cfg)
		sum := res.Summary
		if sum.Floor != d.bounds.MinAvailable || sum.MinAvailable < int64(sum.Floor) || sum.BelowFloor != 0 {
			t.Fatalf("MinAvailable %d, BelowFloor %v, Floor %d; bounds %+v", sum.MinAvailable, sum.BelowFloor, sum.Floor, d.bounds)
		}
	}))
	t.Run("a new image that never becomes ready", rapid.MakeCheck(func(t *rapid.T) {
		d := drawRollout(t, 1)
		if rapid.Bool().Draw(t, "no progress deadline") {
			d.state.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{}
		}
		d.cfg.Pods.NeverReady = []string{"nginx:1.9.3"}
		res := run(t, d.state, d.cfg)
		sum := res.Summary
		if (sum.Outcome != sim.OutcomeNeverReady && sum.Outcome != sim.OutcomeDeadlineExceeded) ||
			!strings.Contains(sum.Detail, "never becomes ready") {
			t.Fatalf("summary %+v: want a rollout stuck on pods that never become ready", sum)
		}
	}))
	t.Run("deterministic", rapid.MakeCheck(func(t *rapid.T) {
		d := drawRollout(t, 0)
		d.cfg.Pods.ReadyJitter = time.Duration(rapid.Int64Range(0, 60).Draw(t, "jitter seconds")) * time.Second
		d.cfg.Pods.Seed = rapid.Uint64().Draw(t, "seed")
		d.cfg.Pods.Terminating = time.Duration(rapid.Int64Range(0, 60).Draw(t, "terminating seconds")) * time.Second
		d.cfg.Pods.MaxPods = rapid.Int32Range(0, 70).Draw(t, "maxPods")
		if rapid.Bool().Draw(t, "replica change") {
			d.cfg.Changes = []sim.ReplicaChange{{
				After:    time.Duration(rapid.Int64Range(0, 300).Draw(t, "change after seconds")) * time.Second,
				Replicas: rapid.Int32Range(0, 60).Draw(t, "new replicas"),
			}}
		}
		a, b := run(t, d.state, d.cfg), run(t, d.state, d.cfg)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two runs differ: %+v and %+v", a.Summary, b.Summary)
		}
	}))
}

// TestComputeBoundsMinStepsProperties checks MinSteps against Run: the
// syncs that change a size in an event-driven run whose pods are ready at
// once.
func TestComputeBoundsMinStepsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := gen.Strategy().Draw(t, "strategy")
		replicas := rapid.Int32Range(0, 60).Draw(t, "replicas")
		res := run(t, rollingState(t, replicas, st), sim.Config{Model: sim.ModelSimple})
		if res.Summary.Outcome != sim.OutcomeComplete {
			t.Fatalf("not complete: %+v", res.Summary)
		}
		if got, want := len(sizeChanges(res.Steps)), sim.ComputeBounds(st, replicas).MinSteps; got != want {
			t.Fatalf("Run() changed sizes in %d syncs, ComputeBounds().MinSteps = %d: %v", got, want, sizeChanges(res.Steps))
		}
	})
}

// TestRunAnyState runs from any state the rollout generators draw (several
// ReplicaSets, odd annotations, pauses, rollbacks, huge counts) and checks
// that a run ends, within its limits, with an outcome.
func TestRunAnyState(t *testing.T) { rapid.Check(t, runAnyState) }

func runAnyState(t *rapid.T) {
	s := gen.State().Draw(t, "state")
	cfg := sim.Config{
		Model:    sim.ModelSimple,
		MaxSyncs: 200,
		Interval: rapid.SampledFrom([]time.Duration{0, 30 * time.Second}).Draw(t, "interval"),
		Pods: sim.PodModel{
			ReadyAfter:  time.Duration(rapid.Int64Range(0, 60).Draw(t, "readyAfter seconds")) * time.Second,
			Terminating: time.Duration(rapid.Int64Range(0, 60).Draw(t, "terminating seconds")) * time.Second,
			MaxPods:     rapid.Int32Range(0, 100).Draw(t, "maxPods"),
			NeverReady:  rapid.SliceOfN(rapid.SampledFrom([]string{"app:v1", "app:v2", "app:v3"}), 0, 2).Draw(t, "neverReady"),
		},
	}
	if rapid.Bool().Draw(t, "controllers") {
		cfg.Model, cfg.Interval, cfg.MaxWork = sim.ModelControllers, 0, 5_000
	}
	res := run(t, s, cfg)
	sum := res.Summary
	if sum.Outcome == "" || sum.Syncs != len(res.Steps) || sum.Syncs > cfg.MaxSyncs || sum.Syncs == 0 {
		t.Fatalf("summary %+v with %d steps", sum, len(res.Steps))
	}
	d := res.Final.Deployment
	if sum.Outcome == sim.OutcomeComplete && !rollout.DeploymentComplete(d, d.Status) {
		t.Fatalf("summary %+v, final status %+v", sum, d.Status)
	}
	if sum.PeakPods < 0 || sum.MinAvailable < 0 || sum.BelowFloor < 0 || sum.Duration < 0 {
		t.Fatalf("summary %+v", sum)
	}
	// A projection is made only at the work limit: the run's outcome, or,
	// for a run that went on past its progress deadline, what stopped it
	// there.
	projected := sum.Outcome == sim.OutcomeLimit ||
		sum.Outcome == sim.OutcomeDeadlineExceeded && sum.Projection.Stepped >= sum.DeadlineExceededAt
	if p := sum.Projection; p.Made && (!projected || p.Stepped < 0 || p.Creates < 0 || p.Deletes < 0 ||
		p.DurationAtLeast < 0 || p.DurationEstimate < p.DurationAtLeast || p.MinAvailableAtLeast < 0 || p.MinAvailableAtLeast > sum.MinAvailable ||
		p.PeakPodsAtMost < sum.PeakPods || p.PeakPodsAtMost < sum.PeakPodsHigh) {
		t.Fatalf("projection %+v of a run that ended %q", p, sum.Outcome)
	}
}

// TestControllersProperties checks what every ModelControllers run
// guarantees, over drawn strategies, replica counts, ready and
// termination times, quotas and client limits.
func TestControllersProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawRollout(t, 1)
		cfg := d.cfg
		cfg.Interval = 0
		cfg.Model = sim.ModelControllers
		cfg.Controllers = sim.Controllers{
			QPS:   rapid.SampledFrom([]float64{0, -1, 1, 5, 50}).Draw(t, "qps"),
			Burst: rapid.IntRange(0, 40).Draw(t, "burst"),
		}
		cfg.Pods.Terminating = time.Duration(rapid.Int64Range(0, 30).Draw(t, "terminating seconds")) * time.Second
		cfg.Pods.MaxPods = rapid.SampledFrom([]int32{0, d.bounds.Replicas, d.bounds.Replicas + 1, 1000}).Draw(t, "maxPods")
		res := run(t, d.state, cfg)
		again := run(t, d.state, cfg)
		sm := res.Summary
		if !reflect.DeepEqual(sm, again.Summary) {
			t.Fatalf("two runs differ:\n%+v\n%+v", sm, again.Summary)
		}
		if sm.Outcome == "" || sm.Syncs != len(res.Steps) {
			t.Fatalf("summary %+v with %d steps", sm, len(res.Steps))
		}
		if sm.PeakPodsLow > sm.PeakPods || sm.PeakPods > sm.PeakPodsHigh || sm.MinAvailable > sm.MinAvailableHigh {
			t.Fatalf("ranges out of order: %+v", sm)
		}
		if sm.Duration > sm.LastChange && sm.Outcome == sim.OutcomeComplete {
			t.Fatalf("complete at %v after the last change %v", sm.Duration, sm.LastChange)
		}
		if q := int64(cfg.Pods.MaxPods); q > 0 && sm.PeakPodsHigh > max(q, int64(d.bounds.Replicas)) {
			t.Fatalf("peak %d above the quota %d", sm.PeakPodsHigh, q)
		}
		if cfg.Pods.MaxPods == 0 && sm.Outcome != sim.OutcomeComplete {
			t.Fatalf("no quota, pods that become ready, yet %q: %s", sm.Outcome, sm.Detail)
		}
		if res.Model != cfg.ModelName() {
			t.Fatalf("Model %q, want %q", res.Model, cfg.ModelName())
		}
	})
}
