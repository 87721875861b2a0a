package sim_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// BenchmarkRun simulates whole rollouts, event driven with every pod ready
// at once: one pod at a time (maxSurge 1, maxUnavailable 0: two syncs per
// replica) and 25%/25%.
func BenchmarkRun(b *testing.B) {
	strategies := []struct {
		name string
		st   rollout.Strategy
	}{
		{"surge=1/unavailable=0", rolling(surge.Count(1), surge.Count(0))},
		{"surge=25%/unavailable=25%", rolling(surge.Percent(25), surge.Percent(25))},
	}
	for _, st := range strategies {
		for _, replicas := range []int32{10, 1000, 100_000} {
			for _, omit := range []bool{false, true} {
				if omit && replicas != 100_000 {
					continue
				}
				name := fmt.Sprintf("%s/replicas=%d", st.name, replicas)
				if omit {
					name += "/steps=omitted"
				}
				b.Run(name, func(b *testing.B) {
					s := rollingState(b, replicas, st.st)
					cfg := sim.Config{Model: sim.ModelSimple, OmitSteps: omit}
					b.ReportAllocs()
					var syncs int
					for b.Loop() {
						res, err := sim.Run(s, cfg)
						if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
							b.Fatalf("Run() = %+v, %v", res.Summary, err)
						}
						syncs = res.Summary.Syncs
					}
					b.ReportMetric(float64(syncs), "syncs/op")
				})
			}
		}
	}
}

func BenchmarkComputeBounds(b *testing.B) {
	st := rolling(surge.Count(1), surge.Count(0))
	b.ReportAllocs()
	for b.Loop() {
		sim.ComputeBounds(st, 1000)
	}
}

// BenchmarkRunControllers simulates whole rollouts under ModelControllers
// at kube-controller-manager's default client limits, pods ready after
// 5s (or as the name says); each run is three (the races; see Run). The
// rollout ready after 60s holds some 1,400 cohorts of pods at an event,
// which the fast-forward does not flatten (ctlFFMaxCohorts).
func BenchmarkRunControllers(b *testing.B) {
	for _, tt := range []struct {
		name     string
		replicas int32
		st       rollout.Strategy
		ready    time.Duration
	}{
		{"surge=25%/unavailable=25%/replicas=1000", 1000, rolling(surge.Percent(25), surge.Percent(25)), 5 * time.Second},
		{"surge=1/unavailable=0/replicas=1000", 1000, rolling(surge.Count(1), surge.Count(0)), 5 * time.Second},
		{"surge=25%/unavailable=25%/replicas=5000/ready=60s", 5000, rolling(surge.Percent(25), surge.Percent(25)), 60 * time.Second},
		{"surge=25%/unavailable=25%/replicas=100000", 100_000, rolling(surge.Percent(25), surge.Percent(25)), 5 * time.Second},
	} {
		b.Run(tt.name, func(b *testing.B) {
			s := rollingState(b, tt.replicas, tt.st)
			cfg := sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: tt.ready}, OmitSteps: true}
			b.ReportAllocs()
			for b.Loop() {
				res, err := sim.Run(s, cfg)
				if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
					b.Fatalf("Run() = %+v, %v", res.Summary, err)
				}
			}
		})
	}
}

// BenchmarkRunControllersLargest is the largest Deployment the API server
// accepts (2,147,483,647 replicas) under ModelControllers, pods ready at
// once: its pod requests need more work than DefaultMaxWork allows, so
// the run stops after its first sync with a projection.
func BenchmarkRunControllersLargest(b *testing.B) {
	s := rollingState(b, 1<<31-1, rolling(surge.Percent(25), surge.Percent(25)))
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true}
	b.ReportAllocs()
	for b.Loop() {
		res, err := sim.Run(s, cfg)
		if err != nil || res.Summary.Outcome != sim.OutcomeLimit {
			b.Fatalf("Run() = %+v, %v; want the work limit", res.Summary, err)
		}
	}
}

// BenchmarkRunControllersLargestComputed is the largest Deployment at
// maxSurge 1 maxUnavailable 0 (0 and 1 at that size), pods ready after
// 1s, no steps kept: beyondWork gives it a trial and the fast-forward's
// super-jumps carry it to its end (68 years of rollout; see
// TestLargestComputed).
func BenchmarkRunControllersLargestComputed(b *testing.B) {
	s := rollingState(b, 1<<31-1, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: time.Second}}
	b.ReportAllocs()
	var res sim.Result
	for b.Loop() {
		var err error
		if res, err = sim.Run(s, cfg); err != nil || res.Summary.Outcome != sim.OutcomeComplete {
			b.Fatalf("Run() = %+v, %v; want complete", res.Summary, err)
		}
	}
	b.ReportMetric(float64(res.Summary.Syncs-res.Summary.FastForwarded), "computed-syncs")
}

// BenchmarkRunControllersSmall is one rollout of the kind `rolloutctl
// check` simulates for each Deployment of BenchmarkCheck: 6 replicas,
// maxSurge 1 maxUnavailable 0, pods ready after 10s and terminating for
// 30s, under ModelControllers (three runs, one per order).
func BenchmarkRunControllersSmall(b *testing.B) {
	s := rollingState(b, 6, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: 10 * time.Second, Terminating: 30 * time.Second}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := sim.Run(s, cfg)
		if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
			b.Fatalf("Run() = %+v, %v", res.Summary, err)
		}
	}
}

// BenchmarkRunControllersObserved is the rollout of
// BenchmarkRunControllersSmall run as `rolloutctl check` runs it: the
// steps of the in-order run and of the order where deletions go first
// handed to observers (which read each step's counts and conditions, as
// check's judge does) instead of kept.
func BenchmarkRunControllersObserved(b *testing.B) {
	s := rollingState(b, 6, rolling(surge.Count(1), surge.Count(0)))
	var seen int64
	observe := func(st sim.Step) {
		pods, avail := st.Pods()
		seen += pods + avail + int64(len(st.Conditions))
	}
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Observe: observe, ObserveDeletesFirst: observe,
		Pods: sim.PodModel{ReadyAfter: 10 * time.Second, Terminating: 30 * time.Second}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := sim.Run(s, cfg)
		if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
			b.Fatalf("Run() = %+v, %v", res.Summary, err)
		}
	}
	if seen == 0 {
		b.Fatal("no step observed")
	}
}

// BenchmarkOneByOneControllers is a rollout of 100,000 replicas one pod at
// a time (maxSurge 1, maxUnavailable 0, pods ready at once) under
// ModelControllers with every step, the size issue 23 asks to answer in
// under a second. Its cycle (seven Deployment syncs every 0.3s) is
// fast-forwarded between the spam filter's refills (ffcontrollers.go):
// the run reports its syncs, those fast-forwarded and whether it
// completed (899,985 syncs, 862,650 of them fast-forwarded, complete; see
// rollout/sim/README.md, Cost).
func BenchmarkOneByOneControllers(b *testing.B) {
	s := rollingState(b, 100_000, rolling(surge.Count(1), surge.Count(0)))
	cfg := sim.Config{Model: sim.ModelControllers}
	b.ReportAllocs()
	var res sim.Result
	for b.Loop() {
		var err error
		if res, err = sim.Run(s, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Summary.Syncs), "syncs")
	b.ReportMetric(float64(res.Summary.FastForwarded), "fastforwarded")
	b.ReportMetric(map[sim.Outcome]float64{sim.OutcomeComplete: 1}[res.Summary.Outcome], "complete")
}

// BenchmarkRunControllersVaried runs 72 rollouts of the shapes of
// rolloutctl's BenchmarkCheck/with-policy/varied-shapes, as check runs
// them (OmitSteps, the in-order and deletes-first steps observed): 2 to
// 10 replicas, maxSurge 25%, 1, 50% or 2 with maxUnavailable 0, pods
// ready after 1 to 30 s and minReadySeconds 0 to 18, each a shape of its
// own, their syncs not validating the objects again. ns/op is the 72
// rollouts' (each three runs, one per order).
func BenchmarkRunControllersVaried(b *testing.B) { benchmarkVaried(b, 0, 0) }

// BenchmarkRunControllersVariedMaxPods is BenchmarkRunControllersVaried
// under a pod quota that the rollouts never reach, as check runs them
// (check sets Pods.MaxPods from the namespace's quota or --max-pods).
func BenchmarkRunControllersVariedMaxPods(b *testing.B) { benchmarkVaried(b, 100, 0) }

// BenchmarkRunControllersVariedPeakAbove is
// BenchmarkRunControllersVariedMaxPods as check runs them with
// --max-pods 100: Config.PeakPodsAbove 100, so that the order where
// deletions go last ends once its pods are proved to stay within 100,
// and a Config.DeletesFirstDone that always agrees (check's drains agree
// where a moment at the fewest available is seen: in all of 694 asked
// over 1,000 such rollouts).
func BenchmarkRunControllersVariedPeakAbove(b *testing.B) { benchmarkVaried(b, 100, 100) }

func benchmarkVaried(b *testing.B, maxPods int32, peakAbove int64) {
	surges := []surge.Value{surge.Percent(25), surge.Count(1), surge.Percent(50), surge.Count(2)}
	type shape struct {
		s   rollout.State
		cfg sim.Config
	}
	var seen int64
	observe := func(st sim.Step) {
		pods, avail := st.Pods()
		seen += pods + avail + int64(len(st.Conditions))
	}
	var shapes []shape
	for i := range 72 {
		s := rollingState(b, int32(2+i%9), rolling(surges[i%4], surge.Count(0)))
		s.Deployment.Spec.MinReadySeconds = int32(i * 7 % 19)
		s.Options.SkipValidation = true // check validates its input once, when it loads it
		cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Observe: observe, ObserveDeletesFirst: observe,
			Pods: sim.PodModel{ReadyAfter: time.Duration(1+i*11%30) * time.Second, MaxPods: maxPods}, PeakPodsAbove: peakAbove}
		if peakAbove > 0 {
			cfg.DeletesFirstDone = func(int64) bool { return true }
		}
		shapes = append(shapes, shape{s, cfg})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, sh := range shapes {
			res, err := sim.Run(sh.s, sh.cfg)
			if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
				b.Fatalf("Run() = %+v, %v", res.Summary, err)
			}
		}
	}
	if seen == 0 {
		b.Fatal("no step observed")
	}
}

// BenchmarkWorkUnitCost runs the shapes whose cost is their cohorts of
// pods (README.md, "Cohort walks are work") with a MaxWork of 200,000,
// and reports the CPU a unit of work took (µs/unit, wall time over the
// work counted, on one core) and the units (work): what a unit of
// --max-work costs where it is charged for cohorts, against a sync's.
func BenchmarkWorkUnitCost(b *testing.B) {
	recreate := rollout.Strategy{Type: rollout.RecreateStrategy}
	quarter := rolling(surge.Percent(25), surge.Percent(25))
	for _, tt := range []struct {
		name                         string
		replicas, minReady, deadline int32
		st                           rollout.Strategy
		ready                        time.Duration
		room                         int64 // pods that fit on the nodes (0: no placement)
		maxPods                      int32
		terminating                  time.Duration
	}{
		{"minReadySeconds=2147483646", math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32, quarter, 0, 0, 0, 0},
		{"minReadySeconds=2147483646/placement", math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32, quarter, 0, 1 << 40, 0, 0},
		{"minReadySeconds=2147483646/quota", math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32, quarter, 0, 0, 1 << 30, 0},
		{"minReadySeconds=2147483646/recreate", math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32, recreate, 0, 0, 0, 0},
		{"replicas=100000/ready=300s", 100_000, 0, 600, quarter, 300 * time.Second, 0, 0, 0},
		{"replicas=100000/ready=300s/placement", 100_000, 0, 600, quarter, 300 * time.Second, 100_500, 0, 0},
		{"replicas=100000/ready=300s/quota", 100_000, 0, 600, quarter, 300 * time.Second, 0, 110_000, 0},
		{"replicas=100000/ready=300s/recreate", 100_000, 0, 600, recreate, 300 * time.Second, 0, 0, 0},
		{"replicas=5000/ready=60s", 5000, 0, 600, quarter, 60 * time.Second, 0, 0, 0},
		{"replicas=5000/ready=60s/placement", 5000, 0, 600, quarter, 60 * time.Second, 5600, 0, 0},
		{"replicas=5000/ready=60s/recreate", 5000, 0, 600, recreate, 60 * time.Second, 0, 0, 0},
		{"replicas=5000/ready=60s/terminating=60s", 5000, 0, 600, quarter, 60 * time.Second, 0, 0, 60 * time.Second},
	} {
		b.Run(tt.name, func(b *testing.B) {
			s := shapeState(b, tt.replicas, tt.minReady, tt.deadline, tt.st)
			cfg := controllers(sim.Controllers{}, tt.ready)
			cfg.OmitSteps, cfg.MaxWork = true, 200_000
			if room := tt.room; room > 0 {
				cfg.Pods.Room = func(bound int64) int64 { return room - bound }
			}
			cfg.Pods.MaxPods, cfg.Pods.Terminating = tt.maxPods, tt.terminating
			work := 0
			for b.Loop() {
				_, c, err := sim.RunCost(s, cfg)
				if err != nil {
					b.Fatal(err)
				}
				work += c.Work
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(max(work, 1)), "µs/unit")
			b.ReportMetric(float64(work)/float64(b.N), "units")
		})
	}
}
