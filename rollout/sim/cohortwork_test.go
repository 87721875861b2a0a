package sim_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// eventsPerWork bounds the events the controllers model handles per unit
// of counted work (a sync or a pod write brings a few: the informer's
// news, readiness, the pods' end), and eventsFree those of a run that
// counts none.
const (
	eventsPerWork = 16
	eventsFree    = 64
)

// checkCohortWork runs s under cfg and checks that the work counted
// covers the loops of the run: the events it handled are at most
// eventsPerWork for each unit of work, and the cohorts its events held
// beyond sim.FreeCohorts each (with those its flattenings wrote beyond
// them, weighed) are at most sim.CohortsPerWork a unit. So
// the CPU time of a run is bounded by a constant times its MaxWork,
// whatever its replicas, minReadySeconds or progress deadline.
func checkCohortWork(t tb, s rollout.State, cfg sim.Config) (work int) {
	t.Helper()
	work, events, walked, err := sim.CohortWalks(s, cfg)
	if err != nil {
		t.Fatalf("CohortWalks() error: %v", err)
	}
	if events > eventsFree+eventsPerWork*work {
		t.Fatalf("%d events for %d units of work: more than %d a unit", events, work, eventsPerWork)
	}
	if beyond := walked - int64(sim.FreeCohorts)*int64(events); beyond > int64(sim.CohortsPerWork)*int64(work+1) {
		t.Fatalf("%d cohorts walked beyond the free ones over %d events, for %d units of work: more than %d a unit", beyond, events, work, sim.CohortsPerWork)
	}
	return work
}

// shapeState is the seed Deployment with replicas, minReadySeconds, a
// progress deadline (0: none) and a strategy, changed to nginx:1.9.3.
func shapeState(t tb, replicas, minReady, deadline int32, st rollout.Strategy) rollout.State {
	t.Helper()
	d := nginxDeployment(t)
	d.Spec.Replicas, d.Spec.Strategy, d.Spec.MinReadySeconds = replicas, st, minReady
	d.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{Value: deadline, Valid: deadline > 0}
	return withImage(t, sim.FromDeployment(d, epoch), "nginx", "nginx:1.9.3")
}

// TestCohortWalksCounted draws shapes, huge replica counts,
// minReadySeconds and deadlines among them, and checks that the work a
// controllers-model run counts covers the events and cohort walks it
// does (checkCohortWork).
func TestCohortWalksCounted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.SampledFrom([]int32{1, 10, 100, 2000, 5000, math.MaxInt32}).Draw(t, "replicas")
		minReady := rapid.SampledFrom([]int32{0, 5, 3600, math.MaxInt32 - 1, math.MaxInt32}).Draw(t, "minReadySeconds")
		deadline := rapid.SampledFrom([]int32{0, 60, 600, math.MaxInt32}).Draw(t, "progressDeadlineSeconds")
		if deadline > 0 && deadline <= minReady {
			deadline = 0 // the API server asks a deadline above minReadySeconds
		}
		ms := rapid.SampledFrom([]surge.Value{surge.Count(1), surge.Percent(25), surge.Count(0)}).Draw(t, "maxSurge")
		mu := rapid.SampledFrom([]surge.Value{surge.Count(0), surge.Percent(25), surge.Count(1)}).Draw(t, "maxUnavailable")
		if ms == surge.Count(0) && mu == surge.Count(0) {
			mu = surge.Count(1) // the API server refuses both zero
		}
		ready := rapid.SampledFrom([]time.Duration{0, 5 * time.Second, 90 * time.Second}).Draw(t, "readyAfter")
		cfg := controllers(sim.Controllers{}, ready)
		cfg.OmitSteps = true
		cfg.MaxWork = rapid.IntRange(1, 3000).Draw(t, "maxWork")
		checkCohortWork(t, shapeState(t, replicas, minReady, deadline, rolling(ms, mu)), cfg)
	})
}

// TestCohortWorkShapes carries the two shapes a tester found unbounded:
// each stays within its work budget (and the events and cohorts it
// walked within checkCohortWork's bounds) and gives its answer.
func TestCohortWorkShapes(t *testing.T) {
	for _, tt := range []struct {
		name                         string
		replicas, minReady, deadline int32
		ms, mu                       surge.Value
		ready                        time.Duration
		maxWork                      int
		want                         sim.Outcome
	}{
		// Pods never available within the run: every creation stayed a
		// cohort of its own, and each event walked them all, uncounted
		// (--max-work 100,000 ran over 60 s).
		{"replicas 2147483647, minReadySeconds 2147483646, progressDeadlineSeconds 2147483647", math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32, surge.Percent(25), surge.Percent(25), 0, 20_000, sim.OutcomeLimit},
		// Ready after 90 s at 20 pod creations a second: some 1,800
		// cohorts wait for their readiness at once.
		{"HPA count 2000, ready after 90s, progressDeadlineSeconds 60, maxSurge 25% maxUnavailable 0", 2000, 0, 60, surge.Percent(25), surge.Count(0), 90 * time.Second, 20_000, sim.OutcomeDeadlineExceeded},
		{"HPA count 40, ready after 90s, progressDeadlineSeconds 60, maxSurge 25% maxUnavailable 0", 40, 0, 60, surge.Percent(25), surge.Count(0), 90 * time.Second, 20_000, sim.OutcomeDeadlineExceeded},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := shapeState(t, tt.replicas, tt.minReady, tt.deadline, rolling(tt.ms, tt.mu))
			cfg := controllers(sim.Controllers{}, tt.ready)
			cfg.OmitSteps, cfg.MaxWork = true, tt.maxWork
			work := checkCohortWork(t, s, cfg)
			// A run stops past MaxWork only by the charge of the event it
			// was handling: its cohorts beyond the free ones (a
			// flattening's weighed), a unit for cohortsPerWork of them (a
			// hundredth of the budget is room for 1,600 cohorts flattened).
			slack := tt.maxWork / 100
			if work > tt.maxWork+slack {
				t.Errorf("work %d, budget %d", work, tt.maxWork)
			}
			res, cost, err := sim.RunCost(s, cfg)
			if err != nil {
				t.Fatalf("RunCost() error: %v", err)
			}
			if res.Summary.Outcome != tt.want {
				t.Errorf("Outcome %q (%s), want %q", res.Summary.Outcome, res.Summary.Detail, tt.want)
			}
			if cost.Work > tt.maxWork+slack {
				t.Errorf("Cost.Work %d, budget %d", cost.Work, tt.maxWork)
			}
		})
	}
}

// TestTerminatingPodsNotWalked: a deletion ranks only the running pods,
// and an expiry drops the terminating pods that end without walking the
// rest (podSet.gone), so pods that take a minute to terminate add little
// work to a rollout. A 5,000-replica rollout at 25%/25% holds some 1,200
// cohorts of terminating pods at 60 s (a deletion every 50 ms); when each
// deletion ranked them and each expiry filtered them, it took 107,660
// units ready at once, against 10,128 with pods gone at once, and
// 115,784 ready after 60 s against 14,160. Now 12,984 and 20,966.
func TestTerminatingPodsNotWalked(t *testing.T) {
	for _, ready := range []time.Duration{0, 60 * time.Second} {
		t.Run(fmt.Sprintf("ready after %v", ready), func(t *testing.T) {
			s := shapeState(t, 5000, 0, 600, rolling(surge.Percent(25), surge.Percent(25)))
			work := map[time.Duration]int{}
			for _, term := range []time.Duration{0, 60 * time.Second} {
				cfg := controllers(sim.Controllers{}, ready)
				cfg.Pods.Terminating, cfg.OmitSteps, cfg.MaxWork = term, true, 1_000_000
				res, cost, err := sim.RunCost(s, cfg)
				if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
					t.Fatalf("terminating %v: RunCost() = %q, %v", term, res.Summary.Outcome, err)
				}
				work[term] = cost.Work
			}
			if work[60*time.Second] > work[0]*3/2 {
				t.Errorf("%d units with pods terminating for 60s, %d with pods gone at once: more than 1.5 times", work[60*time.Second], work[0])
			}
		})
	}
}

// TestManyCohortsNotFlattened holds the fast-forward away from states
// whose pods are in more cohorts than freeCohorts (ctlFFMaxCohorts): an
// HPA count of 5,000 at 25%/25%, pods ready after 60s, holds some 1,400
// at an event on average, and its fast-forward flattens only states of
// fewer; a count of 50,000 ready after 5s, whose cohorts stay few, is
// looked at from its 300th Deployment sync on. Whether a state is looked
// at never changes a Result (the fast-forward tests compare each jump
// with the run event by event).
func TestManyCohortsNotFlattened(t *testing.T) {
	for _, tt := range []struct {
		name     string
		replicas int32
		ready    time.Duration
		many     bool // the cohorts held at an event pass FreeCohorts on average
	}{
		{"5000 replicas ready after 60s", 5000, 60 * time.Second, true},
		{"50000 replicas ready after 5s", 50_000, 5 * time.Second, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := shapeState(t, tt.replicas, 0, 600, rolling(surge.Percent(25), surge.Percent(25)))
			cfg := controllers(sim.Controllers{}, tt.ready)
			cfg.OmitSteps = true
			_, events, walked, err := sim.CohortWalks(s, cfg)
			if err != nil {
				t.Fatalf("CohortWalks() error: %v", err)
			}
			if many := walked > int64(sim.FreeCohorts)*int64(events); many != tt.many {
				t.Fatalf("%d cohorts held over %d events: more than %d on average is %v, want %v", walked, events, sim.FreeCohorts, many, tt.many)
			}
			flattened, widest, err := sim.Flattenings(s, cfg)
			if err != nil {
				t.Fatalf("Flattenings() error: %v", err)
			}
			if widest > sim.FreeCohorts {
				t.Errorf("a flattened state held %d cohorts, more than %d", widest, sim.FreeCohorts)
			}
			if flattened == 0 {
				t.Errorf("no state flattened")
			}
		})
	}
}
