package sim_test

import (
	"fmt"
	"math"
	"regexp"
	"strings"
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

// drawnLimited is a rollout under ModelControllers and a work limit that
// may stop it before it ends.
type drawnLimited struct {
	state   rollout.State
	cfg     sim.Config
	maxWork int
}

func drawLimited(t *rapid.T) drawnLimited {
	st := gen.Strategy().Draw(t, "strategy")
	replicas := rapid.Int32Range(1, 500).Draw(t, "replicas")
	s := rollingState(t, replicas, st)
	s.Deployment.Spec.MinReadySeconds = rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
	cfg := sim.Config{
		Model:     sim.ModelControllers,
		OmitSteps: true,
		Controllers: sim.Controllers{
			QPS:   rapid.SampledFrom([]float64{0, 5, 50, -1}).Draw(t, "qps"),
			Burst: rapid.SampledFrom([]int{0, 1, 100}).Draw(t, "burst"),
		},
		Pods: sim.PodModel{
			ReadyAfter:  time.Duration(rapid.Int64Range(0, 30).Draw(t, "readyAfter seconds")) * time.Second,
			Terminating: time.Duration(rapid.Int64Range(0, 2).Draw(t, "terminating seconds")) * 5 * time.Second,
		},
	}
	if rapid.Bool().Draw(t, "replica change") {
		// An HPA's change early on: the projection holds from the state
		// at the stop, as long as none is still to come.
		cfg.Changes = []sim.ReplicaChange{{
			After:    time.Duration(rapid.Int64Range(0, 20).Draw(t, "change after seconds")) * time.Second,
			Replicas: rapid.Int32Range(0, 500).Draw(t, "changed replicas"),
		}}
	}
	return drawnLimited{s, cfg, rapid.IntRange(1, 3000).Draw(t, "maxWork")}
}

// TestProjectionBounds runs drawn rollouts of up to 500 replicas (and
// maybe a replica change in their first 20s) under ModelControllers
// twice, with a small work limit and to their end, and checks that what
// the projection of the limited run claims holds of the full run: it is
// complete no sooner than DurationAtLeast, its fewest available pods are
// no fewer than MinAvailableAtLeast, and the figures the limited run
// measured are within the full run's; its most pods, PeakPodsHigh
// included, no more than PeakPodsAtMost.
func TestProjectionBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawLimited(t)
		limited := d.cfg
		limited.MaxWork = d.maxWork
		lim := run(t, d.state, limited).Summary
		full := run(t, d.state, d.cfg).Summary
		if full.Outcome == sim.OutcomeLimit {
			t.Skip("the full run stopped at its work limit")
		}
		p := lim.Projection
		if lim.Outcome != sim.OutcomeLimit {
			if p.Made {
				t.Fatalf("a run that ended (%s) made a projection: %+v", lim.Outcome, p)
			}
			return
		}
		if !p.Made && len(d.cfg.Changes) > 0 {
			return // the change may be still to come
		}
		if !p.Made {
			t.Fatalf("a run stopped at the work limit made no projection: %+v", lim)
		}
		if !strings.Contains(lim.Detail, "after the start") {
			t.Fatalf("Detail %q does not give the projection", lim.Detail)
		}
		if p.DurationEstimate < p.DurationAtLeast || p.Stepped < 0 || p.Creates < 0 || p.Deletes < 0 {
			t.Fatalf("projection out of order: %+v", p)
		}
		if full.Outcome == sim.OutcomeComplete && full.Duration < p.DurationAtLeast {
			t.Fatalf("the full run completes at %v, before the projection's lower bound %v (%+v)", full.Duration, p.DurationAtLeast, p)
		}
		if p.MinAvailableAtLeast > lim.MinAvailable || (full.Outcome == sim.OutcomeComplete && full.MinAvailable < p.MinAvailableAtLeast) {
			t.Fatalf("fewest available: %d so far, %d in the full run (%s); projection's bound %d",
				lim.MinAvailable, full.MinAvailable, full.Outcome, p.MinAvailableAtLeast)
		}
		if at := p.PeakPodsAtMost; at < lim.PeakPodsHigh || at < full.PeakPods || at < full.PeakPodsHigh {
			t.Fatalf("most pods: %d so far (high %d), %d in the full run (high %d, %s); projection's bound %d",
				lim.PeakPods, lim.PeakPodsHigh, full.PeakPods, full.PeakPodsHigh, full.Outcome, at)
		}
		if full.PeakPods < lim.PeakPods || full.MinAvailable > lim.MinAvailable {
			t.Fatalf("full run: peak %d, fewest available %d; its first %d work: peak %d, fewest %d",
				full.PeakPods, full.MinAvailable, d.maxWork, lim.PeakPods, lim.MinAvailable)
		}
	})
}

// TestProjectionNotMade lists runs stopped at the work limit that the
// projection's bound does not cover, and one that it does.
func TestProjectionNotMade(t *testing.T) {
	base := func(t *testing.T) (rollout.State, sim.Config) {
		s := rollingState(t, 1000, rolling(surge.Percent(25), surge.Percent(25)))
		return s, sim.Config{Model: sim.ModelControllers, OmitSteps: true, MaxWork: 200}
	}
	for _, tt := range []struct {
		name   string
		change func(*rollout.State, *sim.Config)
		made   bool
	}{
		{"plain rollout", func(*rollout.State, *sim.Config) {}, true},
		{"replica change to come", func(_ *rollout.State, c *sim.Config) {
			c.Changes = []sim.ReplicaChange{{After: time.Hour, Replicas: 10}}
		}, false},
		{"edit to come", func(_ *rollout.State, c *sim.Config) {
			c.Edits = []sim.Edit{{At: time.Hour, Apply: func(d *rollout.Deployment) { d.Spec.Paused = true }}}
		}, false},
		{"new pods never ready", func(_ *rollout.State, c *sim.Config) {
			c.Pods.NeverReady = []string{"nginx:1.9.3"}
			c.MaxWork = 40
		}, false},
		{"interval model", func(_ *rollout.State, c *sim.Config) {
			c.Model = sim.ModelSimple
			c.Pods.ReadyJitter, c.MaxWork = time.Second, 5
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, cfg := base(t)
			tt.change(&s, &cfg)
			sum := run(t, s, cfg).Summary
			if sum.Outcome != sim.OutcomeLimit {
				t.Fatalf("Outcome %q, want the work limit", sum.Outcome)
			}
			if sum.Projection.Made != tt.made {
				t.Fatalf("Projection.Made = %v, want %v (%+v)", sum.Projection.Made, tt.made, sum.Projection)
			}
		})
	}
}

// TestProjectionLargest is the largest Deployment the API server accepts,
// 2,147,483,647 replicas at 25%/25%, under the default work limit: the
// run stops there with a projection that counts every pod left and the
// status writes of the syncs that make them (2,485 days of pod requests,
// 5 of status writes) and does not overflow, and bounds the pods at once (twice the replicas) and the
// available pods (the floor) over the rest.
func TestProjectionLargest(t *testing.T) {
	if testing.Short() {
		t.Skip("about 5s")
	}
	s := rollingState(t, math.MaxInt32, rolling(surge.Percent(25), surge.Percent(25)))
	sum := run(t, s, sim.Config{Model: sim.ModelControllers, OmitSteps: true}).Summary
	p := sum.Projection
	if sum.Outcome != sim.OutcomeLimit || !p.Made {
		t.Fatalf("summary %+v: want the work limit and a projection", sum)
	}
	// Every pod is either still to create or still to delete, twice
	// over but for the ones done, at 20 requests a second less the
	// burst; and each ReplicaSet writes its status after each sync of
	// burstReplicas (500) pods at most, less one sync in flight.
	left := p.Creates + p.Deletes
	if left < 2*math.MaxInt32-2_000_000 {
		t.Fatalf("%d requests left, want nearly all of the 2 x 2,147,483,647", left)
	}
	writes := int64(2 * ((math.MaxInt32 - 2*sim.DefaultBurstReplicas) / sim.DefaultBurstReplicas))
	want := p.Stepped + time.Duration(left+writes-sim.DefaultBurst)*time.Second/sim.DefaultQPS
	if p.DurationAtLeast < want-time.Second || p.DurationAtLeast > want+time.Minute {
		t.Fatalf("DurationAtLeast %v, want about %v", p.DurationAtLeast, want)
	}
	if p.DurationEstimate < p.DurationAtLeast || p.DurationEstimate > 2*p.DurationAtLeast {
		t.Fatalf("DurationEstimate %v, DurationAtLeast %v", p.DurationEstimate, p.DurationAtLeast)
	}
	// The pods at once: every old pod until the last is deleted, and the
	// new ReplicaSet's up to spec.replicas; available, the floor
	// (replicas less maxUnavailable, 536,870,911).
	if p.PeakPodsAtMost != 2*math.MaxInt32 || p.MinAvailableAtLeast != math.MaxInt32-536_870_911 {
		t.Fatalf("PeakPodsAtMost %d, MinAvailableAtLeast %d; want %d and %d", p.PeakPodsAtMost, p.MinAvailableAtLeast, int64(2*math.MaxInt32), math.MaxInt32-536_870_911)
	}
}

// TestProjectionSaturates is the largest Deployment at the slowest client
// Controllers allows (0.01 requests a second) and no progress deadline,
// where the lower bound is past what a time.Duration holds: it stays at
// math.MaxInt64.
func TestProjectionSaturates(t *testing.T) {
	s := rollingState(t, math.MaxInt32, rolling(surge.Percent(25), surge.Percent(25)))
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{}
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, MaxWork: 100, Controllers: sim.Controllers{QPS: 0.01, Burst: 1}}
	p := run(t, s, cfg).Summary.Projection
	if !p.Made || p.DurationAtLeast != math.MaxInt64 || p.DurationEstimate != math.MaxInt64 {
		t.Fatalf("projection %+v: want both durations at math.MaxInt64", p)
	}
}

// TestProjectionPaced lists rollouts stopped at a work limit of 500 whose
// pace the projection's lower bound gets within 1% or 2% of the full run,
// and whose fewest available pods it gets exactly (the most pods at once
// it bounds within twice the replicas):
// paced by the client's rate (25%/25% with pods ready at once) and by
// the pods' readiness (one pod at a time, maxSurge + maxUnavailable = 1,
// each pod ready after 5s).
func TestProjectionPaced(t *testing.T) {
	for _, tt := range []struct {
		name     string
		replicas int32
		st       rollout.Strategy
		ready    time.Duration
		within   float64
	}{
		{"25%/25% ready at once", 1000, rolling(surge.Percent(25), surge.Percent(25)), 0, 0.02},
		{"maxSurge 1 maxUnavailable 0 ready after 5s", 1000, rolling(surge.Count(1), surge.Count(0)), 5 * time.Second, 0.01},
		{"maxSurge 0 maxUnavailable 1 ready after 5s", 1000, rolling(surge.Count(0), surge.Count(1)), 5 * time.Second, 0.01},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, tt.replicas, tt.st)
			cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: tt.ready}}
			full := run(t, s, cfg).Summary
			cfg.MaxWork = 500
			p := run(t, s, cfg).Summary.Projection
			if !p.Made || full.Outcome != sim.OutcomeComplete {
				t.Fatalf("projection %+v, full run %s", p, full.Outcome)
			}
			if lo := float64(p.DurationAtLeast) / float64(full.Duration); lo > 1 || lo < 1-tt.within {
				t.Fatalf("DurationAtLeast %v against the full run's %v", p.DurationAtLeast, full.Duration)
			}
			// The projection proves the floor; the full run's fewest
			// available is the floor, or one above it where the first
			// new pod, ready at once, goes before the deletions of its
			// step (leadsDeletions).
			if p.MinAvailableAtLeast > full.MinAvailable || full.MinAvailable-p.MinAvailableAtLeast > 1 {
				t.Fatalf("MinAvailableAtLeast %d, the full run's fewest available %d", p.MinAvailableAtLeast, full.MinAvailable)
			}
			// The most pods at once is bounded, not pinned: at least the
			// full run's highest peak, at most the old pods at the stop
			// plus the new ReplicaSet's spec.replicas.
			if p.PeakPodsAtMost < full.PeakPodsHigh || p.PeakPodsAtMost > 2*int64(tt.replicas) {
				t.Fatalf("PeakPodsAtMost %d, the full run's peaks %d to %d, %d replicas", p.PeakPodsAtMost, full.PeakPods, full.PeakPodsHigh, tt.replicas)
			}
		})
	}
}

// TestBeyondWork checks the runs stopped after their first sync, or after
// the trial of a twentieth of the work left that a rollout of small steps
// gets (the fast-forward may carry it), because their pod requests need
// more work than MaxWork allows: computed event by event, each stops at
// the work limit all the same.
func TestBeyondWork(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawLimited(t)
		d.cfg.Changes = nil
		d.cfg.Pods.MaxPods = rapid.SampledFrom([]int32{0, 0, 0, 600}).Draw(t, "maxPods")
		cfg := d.cfg
		cfg.MaxWork = rapid.IntRange(1, 100).Draw(t, "small maxWork")
		sum := run(t, d.state, cfg).Summary
		atOnce := strings.Contains(sum.Detail, "no further than the first sync")
		trial := strings.Contains(sum.Detail, "within its trial")
		if !atOnce && !trial {
			return
		}
		if sum.Outcome != sim.OutcomeLimit || atOnce && sum.Syncs != 1 || !sum.Projection.Made {
			t.Fatalf("stopped after the first sync or its trial: %+v", sum)
		}
		stepped := run(t, d.state, sim.WithoutFastForward(cfg)).Summary
		if stepped.Outcome != sim.OutcomeLimit {
			t.Fatalf("computed event by event, the run ends %q (%s)", stepped.Outcome, stepped.Detail)
		}
	})
	t.Run("a trial past a tiny limit", func(t *testing.T) {
		// The trial gets at least 1 unit, so the run may pass a limit of
		// 2: the words name the limit, not a twentieth of it.
		s := rollingState(t, 100000, rolling(surge.Count(1), surge.Count(0)))
		sum := run(t, s, sim.Config{Model: sim.ModelControllers, OmitSteps: true, MaxWork: 2}).Summary
		if !strings.Contains(sum.Detail, "need more than the 2 allowed (MaxWork) one by one, and the fast-forward did not carry the run within its trial (a twentieth of the work left, at least 1 unit)") {
			t.Fatalf("detail %q", sum.Detail)
		}
	})
	t.Run("largest", func(t *testing.T) {
		s := rollingState(t, math.MaxInt32, rolling(surge.Percent(25), surge.Percent(25)))
		sum := run(t, s, sim.Config{Model: sim.ModelControllers, OmitSteps: true}).Summary
		if sum.Syncs != 1 || !strings.Contains(sum.Detail, "no further than the first sync") {
			t.Fatalf("summary %+v: want a run stopped after its first sync", sum)
		}
	})
	t.Run("slow client, computed", func(t *testing.T) {
		// At 0.01 requests a second a ReplicaSet sync takes longer than
		// the progress deadline: the run is computed, and ends there.
		s := rollingState(t, math.MaxInt32, rolling(surge.Percent(25), surge.Percent(25)))
		cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Controllers: sim.Controllers{QPS: 0.01}}
		if sum := run(t, s, cfg).Summary; sum.Outcome != sim.OutcomeDeadlineExceeded {
			t.Fatalf("Outcome %q (%s), want the progress deadline", sum.Outcome, sum.Detail)
		}
	})
}

// TestProjectionAfterScaleUp stops a rollout of one pod at a time (pods
// ready after 30s) at every work limit up to 300, around a replica change
// from 10 to 400 mid-rollout that scales the new ReplicaSet by nearly
// half of 390 at once: the bound holds at each, so it does not count one
// wait for readiness a pod where the proportional scaling made many pods
// wait at once.
func TestProjectionAfterScaleUp(t *testing.T) {
	s := rollingState(t, 10, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{
		Model: sim.ModelControllers, OmitSteps: true,
		Pods:    sim.PodModel{ReadyAfter: 30 * time.Second},
		Changes: []sim.ReplicaChange{{After: 100 * time.Second, Replicas: 400}},
	}
	full := run(t, s, cfg).Summary
	if full.Outcome != sim.OutcomeComplete {
		t.Fatalf("full run: %+v", full)
	}
	made := 0
	for mw := 1; mw <= 300; mw++ {
		cfg.MaxWork = mw
		p := run(t, s, cfg).Summary.Projection
		if !p.Made {
			continue
		}
		made++
		if p.DurationAtLeast > full.Duration {
			t.Fatalf("MaxWork %d: DurationAtLeast %v past the full run's %v (%+v)", mw, p.DurationAtLeast, full.Duration, p)
		}
	}
	if made == 0 {
		t.Fatal("no projection made")
	}
}

// TestWorkUnlimitedRunsAlike: a drawn run under ModelControllers that did
// not stop at its work limit (Cost.Limited false) is the same Result and
// Cost under every MaxWork above its Work; under a MaxWork below it, the
// run stops at the limit or, having passed it in its last event, ends
// the same. rollout/check shares a replica range's budget between its
// runs on this guarantee.
func TestWorkUnlimitedRunsAlike(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawLimited(t)
		cfg := d.cfg
		cfg.MaxWork = d.maxWork
		res, cost := runCost(t, d.state, cfg)
		if res.Summary.Outcome == sim.OutcomeLimit && !cost.Limited {
			t.Fatalf("stopped at a limit (%s) with Cost %+v", res.Summary.Detail, cost)
		}
		if cost.Limited {
			return
		}
		same := func(w int) bool {
			c := d.cfg
			c.MaxWork = w
			got, gotCost := runCost(t, d.state, c)
			if gotCost.Limited && w < cost.Work {
				return false
			}
			if diff := cmp.Diff(res, got, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
				t.Fatalf("MaxWork %d changes the Result of a run with Work %d (-MaxWork %d +MaxWork %d):\n%s", w, cost.Work, cfg.MaxWork, w, diff)
			}
			if gotCost != cost {
				t.Fatalf("MaxWork %d: Cost %+v, want %+v", w, gotCost, cost)
			}
			return true
		}
		same(cost.Work + 1)
		same(cost.Work + 1 + rapid.IntRange(1, 5000).Draw(t, "more work"))
		if cost.Work > 1 {
			same(cost.Work - 1)
		}
	})
}

// runCost is sim.RunCost, failing t on an error.
func runCost(t tb, s rollout.State, cfg sim.Config) (sim.Result, sim.Cost) {
	t.Helper()
	res, cost, err := sim.RunCost(s, cfg)
	if err != nil {
		t.Fatalf("RunCost() error: %v", err)
	}
	return res, cost
}

// TestProjectionCountsStatusWrites lists rollouts of one pod a step
// (maxSurge + maxUnavailable = 1, pods ready at once), paced by the
// requests of both controllers, stopped at a work limit of 500: the
// lower bound counts a status write of the new ReplicaSet for every pod
// it lacks besides the creations and deletions (each write raises its
// available pods by one at most, see Projection), so it is at least the
// time the client takes for three requests a pod left, and still no later
// than the full run's completion.
func TestProjectionCountsStatusWrites(t *testing.T) {
	for _, tt := range []struct {
		name string
		st   rollout.Strategy
	}{
		{"maxSurge 1 maxUnavailable 0", rolling(surge.Count(1), surge.Count(0))},
		{"maxSurge 0 maxUnavailable 1", rolling(surge.Count(0), surge.Count(1))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, 1000, tt.st)
			cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true}
			full := run(t, s, cfg).Summary
			cfg.MaxWork = 500
			p := run(t, s, cfg).Summary.Projection
			if !p.Made || full.Outcome != sim.OutcomeComplete {
				t.Fatalf("projection %+v, full run %s", p, full.Outcome)
			}
			// Three requests a pod the new ReplicaSet lacks (its
			// creation, an old pod's deletion, a status write), less
			// the burst and the writes already asked for.
			want := p.Stepped + time.Duration(3*p.Creates-sim.DefaultBurst-2)*time.Second/sim.DefaultQPS
			if p.DurationAtLeast < want || p.DurationAtLeast > full.Duration {
				t.Fatalf("DurationAtLeast %v: want at least %v and at most the full run's %v (%+v)", p.DurationAtLeast, want, full.Duration, p)
			}
			t.Logf("DurationAtLeast %v, full run %v (%.0f%%)", p.DurationAtLeast, full.Duration, 100*float64(p.DurationAtLeast)/float64(full.Duration))
		})
	}
}

// TestProjectionCountsPodsNotYetAvailable: a run stopped once the new
// pods are created (maxSurge is the replicas, maxUnavailable 0) but
// before they are available is complete no sooner than those pods become
// available (runner.newAvailableBy): with pods ready after 30s (and
// minReadySeconds 5: available at 35s, the ready time kept to the
// second), the bound is that time, not the stop, and still no later than
// the full run's completion.
func TestProjectionCountsPodsNotYetAvailable(t *testing.T) {
	for _, tt := range []struct {
		replicas, maxSurge, minReady int32
		want                         time.Duration
	}{
		{1, 1, 0, 30 * time.Second},
		{1, 1, 5, 35 * time.Second},
		{3, 3, 0, 30 * time.Second},
	} {
		t.Run(fmt.Sprintf("%d replicas maxSurge %d minReadySeconds %d", tt.replicas, tt.maxSurge, tt.minReady), func(t *testing.T) {
			s := rollingState(t, tt.replicas, rolling(surge.Count(tt.maxSurge), surge.Count(0)))
			s.Deployment.Spec.MinReadySeconds = tt.minReady
			cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: 30 * time.Second}}
			full := run(t, s, cfg).Summary
			if full.Outcome != sim.OutcomeComplete {
				t.Fatalf("full run: %s", full.Outcome)
			}
			created := 0
			for work := 1; work < 40; work++ {
				cfg.MaxWork = work
				lim := run(t, s, cfg).Summary
				p := lim.Projection
				if !p.Made || p.Creates > 0 || lim.Outcome != sim.OutcomeLimit || p.Stepped >= tt.want {
					continue // not stopped between the first creation and its availability
				}
				created++
				if p.DurationAtLeast < tt.want || p.DurationAtLeast > full.Duration {
					t.Errorf("MaxWork %d, stopped at %v with the first pod created: DurationAtLeast %v, want at least %v and at most the full run's %v",
						work, p.Stepped, p.DurationAtLeast, tt.want, full.Duration)
				}
			}
			if created == 0 {
				t.Fatal("no work limit stopped the run while its first new pod was not yet available")
			}
		})
	}
}

// TestProjectionBoundsSmallBurstReplicas is TestProjectionBounds's
// duration bound (rollouts of up to 120 replicas) where the ReplicaSet
// controller's syncs take few pods each (burstReplicas 1 to 20), so that the status writes the bound
// counts after every sync (runner.syncWrites) are many: the full run is
// complete no sooner than DurationAtLeast.
func TestProjectionBoundsSmallBurstReplicas(t *testing.T) {
	counted, draws := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		s := rollingState(t, rapid.Int32Range(1, 120).Draw(t, "replicas"), gen.Strategy().Draw(t, "strategy"))
		cfg := sim.Config{
			Model:     sim.ModelControllers,
			OmitSteps: true,
			Controllers: sim.Controllers{
				QPS:           rapid.SampledFrom([]float64{0, 5, -1}).Draw(t, "qps"),
				Burst:         rapid.SampledFrom([]int{0, 1, 100}).Draw(t, "burst"),
				BurstReplicas: rapid.SampledFrom([]int{1, 2, 3, 7, 20}).Draw(t, "burstReplicas"),
			},
			Pods: sim.PodModel{
				ReadyAfter:  time.Duration(rapid.Int64Range(0, 10).Draw(t, "readyAfter seconds")) * time.Second,
				Terminating: time.Duration(rapid.Int64Range(0, 2).Draw(t, "terminating seconds")) * 5 * time.Second,
			},
		}
		limited := cfg
		limited.MaxWork = rapid.IntRange(1, 300).Draw(t, "maxWork")
		p := run(t, s, limited).Summary.Projection
		full := run(t, s, cfg).Summary
		if !p.Made || full.Outcome != sim.OutcomeComplete {
			t.Skip("not projected, or not complete")
		}
		draws++
		if full.Duration < p.DurationAtLeast {
			t.Fatalf("the full run completes at %v, before the projection's lower bound %v (%+v)", full.Duration, p.DurationAtLeast, p)
		}
		if p.Creates+p.Deletes > 0 {
			counted++
		}
	})
	// A weak test decides nothing: a fifth at least of the draws projected
	// and complete (the race detector's CI pass has 20) have pods left.
	if counted < draws/5 {
		t.Fatalf("%d of the %d draws projected and complete had pods left, want a fifth at least", counted, draws)
	}
}

// TestProjectionLargestAnalogues runs, computed event by event, the
// strategies the largest Deployment resolves to (maxSurge 0: replicas +
// maxSurge must fit an int32) at sizes that can be, and checks the
// projection made where beyondWork would stop the largest (after the
// first sync, a work limit of 2): the full run completes no sooner than
// its lower bound, within 0.5% of it at 25% unavailable (20,000
// replicas: 0.36% after it; paced by the pod requests and the status
// writes the bound counts) and within 2.05 times it one pod at a time
// (20,000 replicas: 2.0005 times, 0.3s a pod against the 0.15s of the
// three requests a pod the bound counts: both controllers' writes pace
// it); its pod figures are within the bounds.
func TestProjectionLargestAnalogues(t *testing.T) {
	if testing.Short() {
		t.Skip("about 2s")
	}
	for _, tt := range []struct {
		name     string
		replicas int32
		st       rollout.Strategy
		within   float64
	}{
		{"maxSurge 0 maxUnavailable 25%", 20_000, rolling(surge.Count(0), surge.Percent(25)), 1.005},
		{"maxSurge 0 maxUnavailable 1", 20_000, rolling(surge.Count(0), surge.Count(1)), 2.05},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, tt.replicas, tt.st)
			cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true}
			full := run(t, s, cfg).Summary
			cfg.MaxWork = 2
			p := run(t, s, cfg).Summary.Projection
			if !p.Made || full.Outcome != sim.OutcomeComplete {
				t.Fatalf("projection %+v, full run %s", p, full.Outcome)
			}
			if ratio := float64(full.Duration) / float64(p.DurationAtLeast); ratio < 1 || ratio > tt.within {
				t.Fatalf("full run %v, DurationAtLeast %v: ratio %.4f, want within [1, %v]", full.Duration, p.DurationAtLeast, ratio, tt.within)
			}
			if full.MinAvailable < p.MinAvailableAtLeast || max(full.PeakPods, full.PeakPodsHigh) > p.PeakPodsAtMost {
				t.Fatalf("full run: peak %d to %d, fewest available %d; bounds %d and %d", full.PeakPods, full.PeakPodsHigh, full.MinAvailable, p.PeakPodsAtMost, p.MinAvailableAtLeast)
			}
			t.Logf("full %v, bound %v (%.4f), peak %d (at most %d), fewest %d (at least %d)", full.Duration, p.DurationAtLeast, float64(full.Duration)/float64(p.DurationAtLeast), full.PeakPods, p.PeakPodsAtMost, full.MinAvailable, p.MinAvailableAtLeast)
		})
	}
}

// TestProjectionCompleteNotSettled is the case TestProjectionBounds
// found: a Deployment scaled to 0 replicas 6s in is complete by its
// status (its ReplicaSets' statuses say 0) at 35.8s, while the new
// ReplicaSet's pods are still being deleted; stopped at 52s with 38 of
// them available, the run goes down to 0 available. The projection's
// bound of the fewest available must not take the completion for the
// end of every deletion (runner.settled).
func TestProjectionCompleteNotSettled(t *testing.T) {
	s := rollingState(t, 362, rolling(surge.Percent(172), surge.Count(1)))
	s.Deployment.Spec.MinReadySeconds = 5
	cfg := sim.Config{
		Model:     sim.ModelControllers,
		OmitSteps: true,
		Pods:      sim.PodModel{ReadyAfter: 3 * time.Second},
		Changes:   []sim.ReplicaChange{{After: 6 * time.Second, Replicas: 0}},
	}
	full := run(t, s, cfg).Summary
	cfg.MaxWork = 1058
	lim := run(t, s, cfg).Summary
	p := lim.Projection
	if !p.Made || full.Outcome != sim.OutcomeComplete {
		t.Fatalf("projection %+v, full run %s", p, full.Outcome)
	}
	if p.MinAvailableAtLeast > full.MinAvailable {
		t.Fatalf("MinAvailableAtLeast %d, the full run's fewest available %d (%d so far)", p.MinAvailableAtLeast, full.MinAvailable, lim.MinAvailable)
	}
}

// TestProjectionWordsOneAsSingular runs a 1-replica rollout (maxSurge 1,
// maxUnavailable 0, pods ready after 30s) stopped at tiny work limits,
// where one pod creation, one deletion and one unit of work are left:
// the projection's texts say "1 pod creation and 1 deletion", "1 more
// unit of work", never a count of 1 with a plural noun.
func TestProjectionWordsOneAsSingular(t *testing.T) {
	onePlural := regexp.MustCompile(`(^|[^0-9.,])1 (pod creations|deletions|pods|syncs|requests|units|more units)\b`)
	for _, tt := range []struct {
		name    string
		maxWork int
		want    string
	}{
		{"stopped before the first sync", 1, "(1 pod creation and 1 deletion are left,"},
		{"stopped at the first sync", 2, "need at least 1 more unit of work ("},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, 1, rolling(surge.Count(1), surge.Count(0)))
			res, err := sim.Run(s, sim.Config{
				Model:   sim.ModelControllers,
				Pods:    sim.PodModel{ReadyAfter: 30 * time.Second},
				MaxWork: tt.maxWork,
			})
			if err != nil {
				t.Fatal(err)
			}
			d := res.Summary.Detail
			if res.Summary.Outcome != sim.OutcomeLimit || !strings.Contains(d, tt.want) {
				t.Errorf("outcome %s, detail %q: want %s with %q", res.Summary.Outcome, d, sim.OutcomeLimit, tt.want)
			}
			if m := onePlural.FindString(d); m != "" {
				t.Errorf("detail %q says %q: a count of 1 with a plural noun", d, m)
			}
		})
	}
}
