package sim_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// drawLongRun draws a rollout that takes many syncs: small surges over up
// to 300 replicas, with slow or fast pods, minReadySeconds, lingering
// terminating pods, a quota, a replica change, a pause, a limit.
func drawLongRun(t *rapid.T) (rollout.State, sim.Config) {
	ms := rapid.SampledFrom([]surge.Value{surge.Count(1), surge.Count(2), surge.Count(0), surge.Percent(5)}).Draw(t, "maxSurge")
	mu := rapid.SampledFrom([]surge.Value{surge.Count(0), surge.Count(1), surge.Percent(3)}).Draw(t, "maxUnavailable")
	if ms.Int() == 0 && mu.Int() == 0 {
		mu = surge.Count(1)
	}
	replicas := rapid.Int32Range(1, 300).Draw(t, "replicas")
	s := rollingState(t, replicas, rolling(ms, mu))
	s.Deployment.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 10, 45}).Draw(t, "minReadySeconds")
	if rapid.Bool().Draw(t, "no progress deadline") {
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{}
	}
	cfg := sim.Config{
		Model:    sim.ModelSimple,
		Interval: rapid.SampledFrom([]time.Duration{0, 30 * time.Second, 45 * time.Second}).Draw(t, "interval"),
		Pods: sim.PodModel{
			ReadyAfter:  rapid.SampledFrom([]time.Duration{0, 20 * time.Second, 50 * time.Second, 2 * time.Minute}).Draw(t, "readyAfter"),
			Terminating: rapid.SampledFrom([]time.Duration{0, 0, 15 * time.Second, 70 * time.Second}).Draw(t, "terminating"),
		},
		MaxSyncs: rapid.SampledFrom([]int{0, 0, 0, 77, 500}).Draw(t, "maxSyncs"),
		MaxTime:  rapid.SampledFrom([]time.Duration{0, 0, 0, 3 * time.Hour}).Draw(t, "maxTime"),
	}
	if rapid.Bool().Draw(t, "quota") {
		cfg.Pods.MaxPods = replicas + rapid.Int32Range(0, 2).Draw(t, "quota headroom")
	}
	if rapid.Bool().Draw(t, "replica change") {
		cfg.Changes = []sim.ReplicaChange{{
			After:    time.Duration(rapid.Int64Range(0, 4*3600).Draw(t, "change after seconds")) * time.Second,
			Replicas: rapid.Int32Range(0, 300).Draw(t, "new replicas"),
		}}
	}
	if rapid.Bool().Draw(t, "pause") {
		at := time.Duration(rapid.Int64Range(0, 4*3600).Draw(t, "pause at seconds")) * time.Second
		cfg.Edits = []sim.Edit{{At: at, Apply: func(d *rollout.Deployment) { d.Spec.Paused = true }}}
	}
	return s, cfg
}

// TestFastForwardChangesNoResult checks the fast-forward's guarantee: a
// run gives the same Result, every step included, whether its regular
// phases are fast-forwarded or computed sync by sync.
func TestFastForwardChangesNoResult(t *testing.T) {
	var runs, forwarded int
	defer func() {
		// Not vacuous: many of the drawn runs were fast-forwarded (about
		// a quarter; a twentieth, and at least one, leaves the 20 draws
		// of -short a chance below one in 500 of failing by luck).
		if !t.Failed() && forwarded < max(1, runs/20) {
			t.Errorf("only %d of %d runs were fast-forwarded", forwarded, runs)
		}
		if testing.Verbose() {
			t.Logf("%d of %d runs fast-forwarded", forwarded, runs)
		}
	}()
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawLongRun(t)
		cfg.OmitSteps = rapid.Bool().Draw(t, "omit steps")
		if rapid.Bool().Draw(t, "pauses often") {
			// Looking pauses after a few syncs without a period, as a
			// long run without a cycle does after sim.FFKeep.
			cfg = sim.WithFastForwardKeep(cfg, rapid.IntRange(1, 6).Draw(t, "keep"))
		}
		fast := run(t, s, cfg)
		slow := run(t, s, sim.WithoutFastForward(cfg))
		if slow.Summary.FastForwarded != 0 {
			t.Fatalf("without fast-forward, FastForwarded = %d", slow.Summary.FastForwarded)
		}
		runs++
		if fast.Summary.FastForwarded > 0 {
			forwarded++
		}
		fast.Summary.FastForwarded = 0
		if diff := cmp.Diff(slow, fast, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("fast-forwarded run differs (-sync by sync +fast-forwarded):\n%s", diff)
		}
	})
}

// TestFastForwardTakesLongRegularPhases checks that the fast-forward does
// take the regular phase of one-pod-at-a-time rollouts, event driven and
// with a sync every 30s, and that what it writes out is every step.
func TestFastForwardTakesLongRegularPhases(t *testing.T) {
	for _, tt := range []struct {
		replicas int32
		cfg      sim.Config
	}{
		{3000, sim.Config{Model: sim.ModelSimple}},
		{1440, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second}},
		{500, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Pods: sim.PodModel{ReadyAfter: 45 * time.Second}}},
	} {
		t.Run(fmt.Sprintf("%d replicas, every %v", tt.replicas, tt.cfg.Interval), func(t *testing.T) {
			s := rollingState(t, tt.replicas, rolling(surge.Count(1), surge.Count(0)))
			res := run(t, s, tt.cfg)
			sum := res.Summary
			if sum.Outcome != sim.OutcomeComplete || sum.Syncs != len(res.Steps) || sum.FastForwarded < sum.Syncs*9/10 {
				t.Errorf("summary %+v with %d steps: want complete, most syncs fast-forwarded", sum, len(res.Steps))
			}
			if got := len(sizeChanges(res.Steps)); got != 2*int(tt.replicas) {
				t.Errorf("%d syncs changed a size, want %d", got, 2*tt.replicas)
			}
		})
	}
}

// TestFastForwardPausesWithoutCycle: a ModelSimple run that finds no
// period looks at few of its syncs. The run is 2,147,483,647 replicas at
// minReadySeconds 2,147,483,646 with a sync every 30s: its new pods never
// become available, and once its times pass 2^62 ns after the epoch (in
// 2116, after three jumps) the flattening writes them into the shape
// rather than as numbers, so that no two syncs have one shape. Before
// the pauses it flattened each of them, some 25 µs where the sync took
// 7: 38 s for rolloutctl simulate's 1,000,000 units of work. A run that
// pauses still finds a cycle where one starts (the pauses change no
// Result: TestFastForwardChangesNoResult draws small sim.FFKeep).
func TestFastForwardPausesWithoutCycle(t *testing.T) {
	s := shapeState(t, math.MaxInt32, math.MaxInt32-1, math.MaxInt32, rolling(surge.Percent(25), surge.Percent(25)))
	const maxWork = 200_000
	cfg := sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, MaxWork: maxWork, OmitSteps: true}
	res, cost, err := sim.RunCost(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !cost.Limited || res.Summary.FastForwarded == 0 {
		t.Fatalf("cost %+v, %d syncs fast-forwarded: want the run stopped at its limit after a jump", cost, res.Summary.FastForwarded)
	}
	flattened, _, err := sim.Flattenings(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Looking at FFKeep syncs, then pausing for 2, 8, 32 and 128 times as
	// many, looking again after each but the last: four looks in the
	// 200,000 syncs (12,296 flattened), after a few syncs between jumps.
	if flattened > 5*sim.FFKeep+3*8 {
		t.Errorf("%d of the %d syncs computed were flattened, want at most %d", flattened, maxWork, 5*sim.FFKeep+3*8)
	}
}

// TestObserveSeesEveryStep: Config.Observe is handed every step, in order,
// fast-forwarded ones included, with or without OmitSteps.
func TestObserveSeesEveryStep(t *testing.T) {
	for _, replicas := range []int32{3, 500} {
		s := rollingState(t, replicas, rolling(surge.Count(1), surge.Count(0)))
		cfg := sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second}
		want := run(t, s, cfg)
		for _, omit := range []bool{true, false} {
			var seen []sim.Step
			cfg := cfg
			cfg.OmitSteps = omit
			cfg.Observe = func(st sim.Step) { seen = append(seen, st) }
			got := run(t, s, cfg)
			if diff := cmp.Diff(want.Steps, seen, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("%d replicas, OmitSteps %v: observed steps differ (-kept +observed):\n%s", replicas, omit, diff)
			}
			if omit != (got.Steps == nil) || got.Summary.FastForwarded != want.Summary.FastForwarded {
				t.Errorf("%d replicas, OmitSteps %v: %d steps kept, %d fast-forwarded", replicas, omit, len(got.Steps), got.Summary.FastForwarded)
			}
		}
	}
}
