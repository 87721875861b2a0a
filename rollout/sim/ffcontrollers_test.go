package sim_test

import (
	"flag"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

var ffLong = flag.Bool("ff.long", false, "TestControllersFastForwardChangesNoResult: rollouts of up to 30,000 replicas and 60 draws")

// drawCycle draws a long rollout under ModelControllers whose regular
// phase the fast-forward may take: 1,000 to maxReplicas replicas, one of
// several strategies, pods ready after 0 to 30s, minReadySeconds,
// terminating pods, client limits.
func drawCycle(t *rapid.T, maxReplicas int32) (rollout.State, sim.Config) {
	st := rapid.SampledFrom([]rollout.Strategy{
		rolling(surge.Count(1), surge.Count(0)),
		rolling(surge.Count(1), surge.Count(0)),
		rolling(surge.Count(2), surge.Count(0)),
		rolling(surge.Count(0), surge.Count(1)),
		rolling(surge.Count(3), surge.Count(2)),
		rolling(surge.Percent(25), surge.Percent(25)),
	}).Draw(t, "strategy")
	s := rollingState(t, rapid.Int32Range(1000, maxReplicas).Draw(t, "replicas"), st)
	s.Deployment.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 0, 5}).Draw(t, "minReadySeconds")
	cfg := sim.Config{
		Model:     sim.ModelControllers,
		OmitSteps: rapid.Bool().Draw(t, "omit steps"),
		Pods: sim.PodModel{
			ReadyAfter:  time.Duration(rapid.SampledFrom([]int64{0, 0, 1, 5, 30}).Draw(t, "ready after seconds")) * time.Second,
			Terminating: time.Duration(rapid.SampledFrom([]int64{0, 0, 5, 30}).Draw(t, "terminating seconds")) * time.Second,
		},
	}
	switch rapid.IntRange(0, 4).Draw(t, "client") {
	case 1:
		cfg.Controllers = sim.Controllers{QPS: 5, Burst: 10}
	case 2:
		cfg.Controllers = sim.Controllers{QPS: 50, Burst: 100}
	case 3:
		cfg.Controllers = sim.Controllers{QPS: -1}
	}
	return s, cfg
}

// TestControllersFastForwardChangesNoResult checks the guarantee of the
// controllers model's fast-forward (ffcontrollers.go): a Result, every
// step and every summary figure of the three orders included, is the
// same whether the run's cycles are jumped over or computed event by
// event. Some of the draws must be fast-forwarded. With -short it draws
// rollouts of up to 1,500 replicas, 4 times; by default up to 2,000, 8
// times; with -ff.long up to 30,000, 60 times.
func TestControllersFastForwardChangesNoResult(t *testing.T) {
	maxReplicas, draws := int32(2000), 8
	switch {
	case *ffLong:
		maxReplicas, draws = 30_000, 60
	case testing.Short():
		maxReplicas, draws = 1500, 4
	}
	var runs, forwarded int
	gen := rapid.Custom(func(t *rapid.T) func() (rollout.State, sim.Config) {
		s, cfg := drawCycle(t, maxReplicas)
		return func() (rollout.State, sim.Config) { return s, cfg }
	})
	for i := range draws {
		s, cfg := gen.Example(i)()
		fast := run(t, s, cfg)
		slow := run(t, s, sim.WithoutFastForward(cfg))
		if slow.Summary.FastForwarded != 0 {
			t.Fatalf("without fast-forward, FastForwarded = %d", slow.Summary.FastForwarded)
		}
		runs++
		if fast.Summary.FastForwarded > 0 {
			forwarded++
		}
		if testing.Verbose() {
			t.Logf("draw %d: %d replicas, %+v, %v: %d syncs, %d fast-forwarded", i, s.Deployment.Spec.Replicas, s.Deployment.Spec.Strategy.RollingUpdate, cfg.Pods, fast.Summary.Syncs, fast.Summary.FastForwarded)
		}
		fast.Summary.FastForwarded = 0
		if diff := cmp.Diff(slow, fast, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("draw %d: fast-forwarded run differs (-event by event +fast-forwarded):\n%s", i, diff)
		}
	}
	if forwarded == 0 {
		t.Errorf("none of %d runs was fast-forwarded", runs)
	}
}

// TestControllersFastForwardAcrossRefills checks the fast-forward where
// it takes the cycle again after one period (ffcontrollers.go, again)
// and where it jumps over whole super-periods of jumps (ffsuper.go):
// rollouts one or two pods at a time (maxSurge/maxUnavailable 1/0, 2/0,
// 0/1; pods ready at once or after 1 or 5 s) long enough to cross several
// of the spam filter's refills (every 5 minutes) and progress re-checks
// (every 10), whose every break of the cycle is followed by a jump
// retaken so, and, without steps, long enough to repeat their breaks.
// Each draw's Result, every step and the three orders' figures, must
// equal the run event by event, and some jumps must have been retaken
// after one period and some super-jumps taken. With -short 3 draws of up
// to 2,500 replicas; by default 6 of up to 4,000; with -ff.long 24 of up
// to 12,000.
func TestControllersFastForwardAcrossRefills(t *testing.T) {
	maxReplicas, draws := int32(4000), 6
	switch {
	case *ffLong:
		maxReplicas, draws = 12_000, 24
	case testing.Short():
		maxReplicas, draws = 2500, 3
	}
	gen := rapid.Custom(func(t *rapid.T) func() (rollout.State, sim.Config) {
		st := rapid.SampledFrom([]rollout.Strategy{
			rolling(surge.Count(1), surge.Count(0)),
			rolling(surge.Count(1), surge.Count(0)),
			rolling(surge.Count(2), surge.Count(0)),
			rolling(surge.Count(0), surge.Count(1)),
		}).Draw(t, "strategy")
		s := rollingState(t, rapid.Int32Range(1500, maxReplicas).Draw(t, "replicas"), st)
		cfg := sim.Config{
			Model:     sim.ModelControllers,
			OmitSteps: rapid.SampledFrom([]bool{true, true, false}).Draw(t, "omit steps"),
			Pods: sim.PodModel{
				ReadyAfter:  time.Duration(rapid.SampledFrom([]int64{5, 0, 1, 5}).Draw(t, "ready after seconds")) * time.Second,
				Terminating: time.Duration(rapid.SampledFrom([]int64{0, 0, 0, 5}).Draw(t, "terminating seconds")) * time.Second,
			},
		}
		if rapid.IntRange(0, 3).Draw(t, "client") == 1 {
			cfg.Controllers = sim.Controllers{QPS: 50, Burst: 100}
		}
		return func() (rollout.State, sim.Config) { return s, cfg }
	})
	var retaken, supers int
	for i := range draws {
		s, cfg := gen.Example(i)()
		fast := run(t, s, cfg)
		slow := run(t, s, sim.WithoutFastForward(cfg))
		again, super, forwarded, err := sim.JumpsRetaken(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if forwarded != fast.Summary.FastForwarded {
			t.Fatalf("draw %d: the run in order fast-forwarded %d syncs, Run %d", i, forwarded, fast.Summary.FastForwarded)
		}
		retaken += again
		supers += super
		t.Logf("draw %d: %d replicas, %v/%v, ready after %v, terminating %v, %v, steps omitted %v: %v, %d syncs, %d fast-forwarded, %d jumps retaken after one period, %d super-jumps",
			i, s.Deployment.Spec.Replicas, s.Deployment.Spec.Strategy.RollingUpdate.MaxSurge, s.Deployment.Spec.Strategy.RollingUpdate.MaxUnavailable, cfg.Pods.ReadyAfter, cfg.Pods.Terminating, cfg.Controllers, cfg.OmitSteps, fast.Summary.Duration, fast.Summary.Syncs, fast.Summary.FastForwarded, again, super)
		fast.Summary.FastForwarded = 0
		if diff := cmp.Diff(slow, fast, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("draw %d: fast-forwarded run differs (-event by event +fast-forwarded):\n%s", i, diff)
		}
	}
	if retaken == 0 {
		t.Errorf("no jump of %d runs was taken again after one period", draws)
	}
	if supers == 0 {
		t.Errorf("none of %d runs took a super-jump", draws)
	}
}

// TestControllersSuperJumpsChangeNoResult checks the guarantee of the
// super-jumps (ffsuper.go) on drawn rollouts without steps, where they
// are taken: maxSurge/maxUnavailable 1/0, 2/0, 0/1, 1/1, 3/2; pods ready
// after 0 to 12s; minReadySeconds 0 or 5; terminating pods 0 to 30s;
// client limits 20/30, 5/10, 50/100. Each Result must equal the run
// event by event, and some draws must take a super-jump. Skipped with
// -short; 6 draws of 1,500 to 3,000 replicas by default (4 super-jumps,
// 28s at load 10); with -ff.long 60 of up to 6,000 (on 2026-11-28: all
// 60 equal, 27 with a super-jump, in 52s at load 5).
func TestControllersSuperJumpsChangeNoResult(t *testing.T) {
	if testing.Short() {
		t.Skip("10 to 30s")
	}
	maxReplicas, draws := int32(3000), 6
	if *ffLong {
		maxReplicas, draws = 6000, 60
	}
	gen := rapid.Custom(func(t *rapid.T) func() (rollout.State, sim.Config) {
		st := rapid.SampledFrom([]rollout.Strategy{
			rolling(surge.Count(1), surge.Count(0)),
			rolling(surge.Count(2), surge.Count(0)),
			rolling(surge.Count(0), surge.Count(1)),
			rolling(surge.Count(1), surge.Count(1)),
			rolling(surge.Count(3), surge.Count(2)),
		}).Draw(t, "strategy")
		s := rollingState(t, rapid.Int32Range(1500, maxReplicas).Draw(t, "replicas"), st)
		s.Deployment.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 5}).Draw(t, "minReadySeconds")
		cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{
			ReadyAfter:  time.Duration(rapid.SampledFrom([]int{5, 0, 1, 2, 8, 12}).Draw(t, "ready after seconds")) * time.Second,
			Terminating: time.Duration(rapid.SampledFrom([]int{0, 0, 5, 30}).Draw(t, "terminating seconds")) * time.Second,
		}}
		switch rapid.IntRange(0, 3).Draw(t, "client") {
		case 1:
			cfg.Controllers = sim.Controllers{QPS: 5, Burst: 10}
		case 2:
			cfg.Controllers = sim.Controllers{QPS: 50, Burst: 100}
		}
		return func() (rollout.State, sim.Config) { return s, cfg }
	})
	var supers int
	for i := range draws {
		s, cfg := gen.Example(i)()
		fast := run(t, s, cfg)
		slow := run(t, s, sim.WithoutFastForward(cfg))
		_, super, _, err := sim.JumpsRetaken(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		supers += super
		t.Logf("draw %d: %d replicas, %v/%v, ready after %v, terminating %v, %v: %v, %d syncs, %d fast-forwarded, %d super-jumps",
			i, s.Deployment.Spec.Replicas, s.Deployment.Spec.Strategy.RollingUpdate.MaxSurge, s.Deployment.Spec.Strategy.RollingUpdate.MaxUnavailable, cfg.Pods.ReadyAfter, cfg.Pods.Terminating, cfg.Controllers, fast.Summary.Duration, fast.Summary.Syncs, fast.Summary.FastForwarded, super)
		fast.Summary.FastForwarded = 0
		if diff := cmp.Diff(slow, fast, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("draw %d: fast-forwarded run differs (-event by event +fast-forwarded):\n%s", i, diff)
		}
	}
	if supers == 0 {
		t.Errorf("none of %d runs took a super-jump", draws)
	}
}

// TestControllersSuperJump pins the super-jump (ffsuper.go) on a rollout
// whose breaks repeat every 10 minutes: 3,000 replicas at maxSurge 1,
// pods ready after 5s (a pod every 5s, 4h10m in all), no steps kept, as
// check runs it. The Result must equal the run event by event, the run
// in order must take a super-jump, and the whole Run must compute less
// than a tenth of the work event by event.
func TestControllersSuperJump(t *testing.T) {
	s := rollingState(t, 3000, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: 5 * time.Second}}
	fast, fastCost, err := sim.RunCost(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	slow, slowCost, err := sim.RunCost(s, sim.WithoutFastForward(cfg))
	if err != nil {
		t.Fatal(err)
	}
	_, supers, _, err := sim.JumpsRetaken(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v, %d syncs, %d fast-forwarded, %d super-jumps in order; work %d, event by event %d", fast.Summary.Duration, fast.Summary.Syncs, fast.Summary.FastForwarded, supers, fastCost.Work, slowCost.Work)
	if fast.Summary.Outcome != sim.OutcomeComplete || supers == 0 || fastCost.Work*10 > slowCost.Work {
		t.Errorf("Run() = %s, %d super-jumps, work %d against %d event by event; want complete, a super-jump, under a tenth", fast.Summary.Outcome, supers, fastCost.Work, slowCost.Work)
	}
	fast.Summary.FastForwarded = 0
	if diff := cmp.Diff(slow, fast, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
		t.Fatalf("fast-forwarded run differs (-event by event +fast-forwarded):\n%s", diff)
	}
}

// TestControllersFastForwardOneByOne pins the fast-forward on the cycle it
// was built for: 10,000 replicas, maxSurge 1, maxUnavailable 0, pods
// ready at once, every step kept; the same Result as event by event, and
// most of its syncs jumped over.
func TestControllersFastForwardOneByOne(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10s event by event")
	}
	s := rollingState(t, 10_000, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{Model: sim.ModelControllers}
	fast := run(t, s, cfg)
	slow := run(t, s, sim.WithoutFastForward(cfg))
	if fast.Summary.Outcome != sim.OutcomeComplete || fast.Summary.FastForwarded < fast.Summary.Syncs/2 {
		t.Errorf("Run() = %s after %d syncs, %d fast-forwarded; want complete, most fast-forwarded", fast.Summary.Outcome, fast.Summary.Syncs, fast.Summary.FastForwarded)
	}
	fast.Summary.FastForwarded = 0
	if diff := cmp.Diff(slow, fast, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
		t.Fatalf("fast-forwarded run differs (-event by event +fast-forwarded):\n%s", diff)
	}
}

// TestControllersJumpedStepsShareParts pins what the jumps' steps share
// (jumpsteps.go) in the 3,000-replica maxSurge-1 rollout with every step:
// its conditions change once a second and most of its steps are a
// progress re-check whose reason changes with them, so far fewer
// conditions and actions slices are written than there are steps; a
// step's parts are equal to those of the run event by event (compared
// whole by TestControllersFastForwardOneByOne and
// TestControllersFastForwardChangesNoResult).
func TestControllersJumpedStepsShareParts(t *testing.T) {
	s := rollingState(t, 3000, rolling(surge.Count(1), surge.Count(0)))
	res := run(t, s, sim.Config{Model: sim.ModelControllers})
	if res.Summary.FastForwarded < res.Summary.Syncs*9/10 {
		t.Fatalf("Run() fast-forwarded %d of %d syncs, want at least 90%%", res.Summary.FastForwarded, res.Summary.Syncs)
	}
	conditions := map[*rollout.Condition]bool{}
	actions := map[*rollout.Action]bool{}
	for _, st := range res.Steps {
		if len(st.Conditions) > 0 {
			conditions[&st.Conditions[0]] = true
		}
		if len(st.Actions) > 0 {
			actions[&st.Actions[0]] = true
		}
	}
	n := len(res.Steps)
	// A status write's conditions are the step's where the Deployment
	// took them, in jumped steps as in computed ones: the jump's decoding
	// takes the step's for them rather than a copy of its own
	// (sameConds), so the run shares them as the run event by event does.
	shared := func(steps []sim.Step) (equal, shared int) {
		for _, st := range steps {
			for _, a := range st.Actions {
				if a.Status == nil || len(st.Conditions) == 0 || !slices.Equal(a.Status.Conditions, st.Conditions) {
					continue
				}
				equal++
				if &a.Status.Conditions[0] == &st.Conditions[0] {
					shared++
				}
			}
		}
		return equal, shared
	}
	equal, same := shared(res.Steps)
	wantEqual, wantSame := shared(run(t, s, sim.WithoutFastForward(sim.Config{Model: sim.ModelControllers})).Steps)
	t.Logf("%d steps hold %d conditions slices and %d actions slices; %d of %d status writes equal to their step's conditions share them", n, len(conditions), len(actions), same, equal)
	if equal != wantEqual || same != wantSame {
		t.Errorf("%d of %d status writes whose conditions equal their step's share them; event by event %d of %d", same, equal, wantSame, wantEqual)
	}
	if len(conditions) > n/10 || len(actions) > n*7/10 {
		t.Errorf("%d steps hold %d conditions slices and %d actions slices, want at most %d and %d", n, len(conditions), len(actions), n/10, n*7/10)
	}
}

// TestLargestComputed computes the largest Deployment the API server
// accepts (2,147,483,647 replicas) to its end: maxSurge 1 and
// maxUnavailable 0, which at that size resolve to 0 and 1 (replicas +
// maxSurge must fit an int32), pods ready after 1s, no steps kept, the
// default MaxWork. beyondWork gives it a trial rather than stopping it,
// and the fast-forward's super-jumps carry it (68 years of rollout).
// Its figures are checked against two runs of the same rollout at 2,000
// and 3,000 replicas computed event by event, which move by exactly the
// same per replica (one pod a second): the duration, the peak and the
// fewest available of the largest are those the law of the two gives at
// 2,147,483,647; and the duration is at least the lower bound of the
// projection made where the run stops after a few units of work.
func TestLargestComputed(t *testing.T) {
	const largest = math.MaxInt32
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: time.Second}}
	big := run(t, rollingState(t, largest, rolling(surge.Count(1), surge.Count(0))), cfg).Summary
	t.Logf("%d replicas: %s after %v, peak %d, fewest available %d, %d syncs (%d fast-forwarded)", largest, big.Outcome, big.Duration, big.PeakPods, big.MinAvailable, big.Syncs, big.FastForwarded)
	if big.Outcome != sim.OutcomeComplete {
		t.Fatalf("Outcome %q (%s), want complete", big.Outcome, big.Detail)
	}
	// The analogues: the limits the largest resolves to, 0 and 1.
	analogue := func(n int32) sim.Summary {
		return run(t, rollingState(t, n, rolling(surge.Count(0), surge.Count(1))), sim.WithoutFastForward(cfg)).Summary
	}
	a, b := analogue(2000), analogue(3000)
	perPod := (b.Duration - a.Duration) / 1000
	if perPod*1000 != b.Duration-a.Duration || b.PeakPods-3000 != a.PeakPods-2000 || b.MinAvailable-3000 != a.MinAvailable-2000 {
		t.Fatalf("analogues 2000 %v/%d/%d and 3000 %v/%d/%d: no exact law", a.Duration, a.PeakPods, a.MinAvailable, b.Duration, b.PeakPods, b.MinAvailable)
	}
	wantDuration := b.Duration + time.Duration(largest-3000)*perPod
	wantPeak, wantAvail := b.PeakPods-3000+largest, b.MinAvailable-3000+largest
	if big.Duration != wantDuration || big.PeakPods != wantPeak || big.MinAvailable != wantAvail {
		t.Errorf("largest: %v, peak %d, fewest available %d; the analogues' law: %v, %d, %d", big.Duration, big.PeakPods, big.MinAvailable, wantDuration, wantPeak, wantAvail)
	}
	if big.PeakPods < largest || big.PeakPods > largest+1 || big.MinAvailable < largest-1 {
		t.Errorf("peak %d, fewest available %d: want within [replicas, replicas+1] and at least replicas-1 (maxSurge 0, maxUnavailable 1; PeakPods counts a pod created at the instant one goes as created first)", big.PeakPods, big.MinAvailable)
	}
	limited := cfg
	limited.MaxWork = 100
	p := run(t, rollingState(t, largest, rolling(surge.Count(1), surge.Count(0))), limited).Summary.Projection
	if !p.Made || big.Duration < p.DurationAtLeast {
		t.Errorf("duration %v, projection %+v: want at least its lower bound", big.Duration, p)
	}
}
