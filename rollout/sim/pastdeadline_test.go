package sim_test

import (
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

// TestPastDeadline: a quota-refused rollout whose refused creations back
// off past the progress deadline (56 replicas, maxSurge 67%,
// maxUnavailable 27, pods ready after 6s and terminating for 30s, a
// quota of 93 pods) exceeds the deadline, where kubectl rollout status
// fails and Duration ends, and completes afterwards, once the
// ReplicaSet controller's backoff lets it try again; stopped at the
// deadline (PastDeadline -1), the run is the same up to there.
func TestPastDeadline(t *testing.T) {
	s := rollingState(t, 56, rolling(surge.Percent(67), surge.Count(27)))
	cfg := sim.Config{Pods: sim.PodModel{ReadyAfter: 6 * time.Second, Terminating: 30 * time.Second, MaxPods: 93}}
	on := run(t, s, cfg)
	cfg.PastDeadline = -1
	stop := run(t, s, cfg)
	sm := on.Summary
	if sm.Outcome != sim.OutcomeDeadlineExceeded || stop.Summary.Outcome != sim.OutcomeDeadlineExceeded {
		t.Fatalf("outcomes %q and %q (stopped at the deadline), want both %q", sm.Outcome, stop.Summary.Outcome, sim.OutcomeDeadlineExceeded)
	}
	if sm.DeadlineExceededAt < 10*time.Minute || sm.DeadlineExceededAt != sm.Duration || stop.Summary.DeadlineExceededAt != sm.DeadlineExceededAt {
		t.Errorf("deadline exceeded at %v (stopped there: %v), duration %v: want past 600s, the duration, alike", sm.DeadlineExceededAt, stop.Summary.DeadlineExceededAt, sm.Duration)
	}
	if sm.CompleteAfterDeadline <= sm.DeadlineExceededAt || sm.FailedCreates == 0 || !strings.Contains(sm.Detail, "complete the rollout at") {
		t.Errorf("summary %+v: want the rollout complete after the deadline, having been refused pods", sm)
	}
	if stop.Summary.CompleteAfterDeadline != 0 {
		t.Errorf("stopped at the deadline, CompleteAfterDeadline %v, want 0", stop.Summary.CompleteAfterDeadline)
	}
	if d := on.Final.Deployment; !rollout.DeploymentComplete(d, d.Status) {
		t.Errorf("final status %+v, want complete", d.Status)
	}
	if n := len(stop.Steps); n > len(on.Steps) || !cmp.Equal(stop.Steps, on.Steps[:n], cmpopts.EquateErrors()) {
		t.Errorf("the steps stopped at the deadline are not the first %d of the run past it", n)
	}

	// Past a PastDeadline shorter than the backoff, the run stops, not
	// complete, and says so.
	cfg.PastDeadline = time.Minute
	short := run(t, s, cfg).Summary
	if short.Outcome != sim.OutcomeDeadlineExceeded || short.CompleteAfterDeadline != 0 || !strings.Contains(short.Detail, "not complete 1m after") {
		t.Errorf("with PastDeadline 1m: %+v, want the deadline exceeded, not complete a minute after", short)
	}
}

// TestPastDeadlineProperties: on drawn ModelControllers runs, going on
// past the progress deadline changes nothing before it. A run whose
// deadline is not exceeded is the same Result either way, but for the
// racing orders' figures, which can only widen; one whose
// deadline is exceeded keeps its outcome, DeadlineExceededAt (its
// Duration) and first steps, its peak can only rise and its fewest
// available only fall, and a completion after the deadline comes after
// it, with a complete final status (unless a replica change comes later),
// as a complete final status has one.
func TestPastDeadlineProperties(t *testing.T) {
	exceeded, completed, runs := 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		s, cfg := drawControllersRun(t)
		cfg.OmitSteps = false
		cfg.PastDeadline = -1
		stop, err := sim.Run(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.PastDeadline = 0
		on, err := sim.Run(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		runs++
		a, b := stop.Summary, on.Summary
		if a.Outcome != sim.OutcomeDeadlineExceeded {
			// The racing orders may exceed it where the run in order does
			// not: their ends of the figures move, the rest is the same.
			racing := cmpopts.IgnoreFields(sim.Summary{}, "PeakPods", "PeakPodsAt", "Ceiling", "PeakPodsLow", "PeakPodsHigh",
				"MinAvailable", "MinAvailableAt", "Floor", "MinAvailableHigh")
			if diff := cmp.Diff(stop, on, racing, cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
				t.Fatalf("a run that does not exceed its deadline differs past it (-stopped +on):\n%s", diff)
			}
			if b.PeakPods < a.PeakPods || b.PeakPodsHigh < a.PeakPodsHigh || b.MinAvailable > a.MinAvailable {
				t.Fatalf("past the racing orders' deadline the peak fell or the fewest available rose: stopped %+v, on %+v", a, b)
			}
			return
		}
		exceeded++
		if b.Outcome != sim.OutcomeDeadlineExceeded || b.DeadlineExceededAt != a.DeadlineExceededAt || a.Duration != a.DeadlineExceededAt || b.Duration != a.Duration {
			t.Fatalf("stopped: %+v\non: %+v\nwant the same outcome and deadline, the duration", a, b)
		}
		if n := len(stop.Steps); n > len(on.Steps) || !cmp.Equal(stop.Steps, on.Steps[:n], cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})) {
			t.Fatalf("the %d steps stopped at the deadline are not the first of the run past it", n)
		}
		if b.PeakPods < a.PeakPods || b.MinAvailable > a.MinAvailable || b.PeakPodsHigh < a.PeakPodsHigh {
			t.Fatalf("past the deadline the peak fell or the fewest available rose: stopped %+v, on %+v", a, b)
		}
		if d := on.Final.Deployment; b.CompleteAfterDeadline == 0 && rollout.DeploymentComplete(d, d.Status) && len(cfg.Changes) == 0 {
			t.Fatalf("the run past the deadline ends complete, but CompleteAfterDeadline is 0: %+v", b)
		}
		if b.CompleteAfterDeadline > 0 {
			completed++
			// A replica change after it may leave the final status
			// incomplete again.
			if d := on.Final.Deployment; b.CompleteAfterDeadline < b.DeadlineExceededAt || len(cfg.Changes) == 0 && !rollout.DeploymentComplete(d, d.Status) {
				t.Fatalf("complete after the deadline at %v (exceeded at %v), final status %+v", b.CompleteAfterDeadline, b.DeadlineExceededAt, d.Status)
			}
		}
	})
	t.Logf("%d of %d runs exceeded the deadline, %d of them completed after it", exceeded, runs, completed)
	gen.Covered(t, "exceeded the deadline", exceeded, runs, 0.3)          // 36% over 300 draws
	gen.Covered(t, "completed after the deadline", completed, runs, 0.07) // 10% over 300 draws
}

// TestPastDeadlineDetail: the outcome's detail of a run that went on
// past its progress deadline says how it ended in the command's words:
// where the simulation stopped, not complete, as an offset from the
// start (not the Config field that set the hour), and a cause that the
// deadline's detail already gave is not repeated whole.
func TestPastDeadlineDetail(t *testing.T) {
	state := func(replicas int32, deadline int32) rollout.State {
		d := nginxDeployment(t)
		d.Spec.Replicas = replicas
		d.Spec.Strategy = rolling(surge.Count(1), surge.Count(0))
		d.Spec.ProgressDeadlineSeconds = rollout.Int32(deadline)
		return withImage(t, sim.FromDeployment(d, epoch), "nginx", "nginx:1.9.3")
	}
	for _, tc := range []struct {
		name     string
		s        rollout.State
		pods     sim.PodModel
		want     []string
		dontWant []string
	}{{
		// rolloutctl simulate on pods ready 2h after they start, against
		// a 60s deadline, said "the rollout is not complete 1h after
		// (Config.PastDeadline)".
		name:     "pods ready after 2h: not complete an hour after the deadline",
		s:        state(3, 60),
		pods:     sim.PodModel{ReadyAfter: 2 * time.Hour},
		want:     []string{"the controllers go on; the rollout is not complete 1h after the deadline, at +1h1m1s, where the simulation stops"},
		dontWant: []string{"Config."},
	}, {
		// A quota with no room for a surge pod and maxUnavailable 0 said
		// its "blocked by quota: ReplicaSet ... has 0 of 1 pods: pods ...
		// is forbidden: ..." twice, before and after "the controllers go
		// on; then".
		name:     "blocked by quota before and after the deadline",
		s:        state(4, 120),
		pods:     sim.PodModel{MaxPods: 4},
		want:     []string{"the controllers go on; still blocked by quota"},
		dontWant: []string{"go on; then"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			sm := run(t, tc.s, sim.Config{Pods: tc.pods}).Summary
			if sm.Outcome != sim.OutcomeDeadlineExceeded {
				t.Fatalf("outcome %q: %s, want the deadline exceeded", sm.Outcome, sm.Detail)
			}
			for _, w := range tc.want {
				if !strings.Contains(sm.Detail, w) {
					t.Errorf("detail %q\nwant it to say %q", sm.Detail, w)
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(sm.Detail, w) {
					t.Errorf("detail %q\nsays %q", sm.Detail, w)
				}
			}
			if n := strings.Count(sm.Detail, "is forbidden"); n > 1 {
				t.Errorf("detail %q gives the refusal %d times", sm.Detail, n)
			}
		})
	}
}

// extremesOf returns the whole-run figures of a summary as Extremes.
func extremesOf(sm sim.Summary) sim.Extremes {
	return sim.Extremes{PeakPods: sm.PeakPods, PeakPodsAt: sm.PeakPodsAt, PeakPodsLow: sm.PeakPodsLow, PeakPodsHigh: sm.PeakPodsHigh,
		MinAvailable: sm.MinAvailable, MinAvailableAt: sm.MinAvailableAt, MinAvailableHigh: sm.MinAvailableHigh, Floor: sm.Floor, Ceiling: sm.Ceiling}
}

// TestUpToDeadlineIsTheStoppedRun: on drawn ModelControllers rollouts
// (1 to 40 replicas, so that from 15 on the race peak counts; quotas,
// slow and terminating pods, minReadySeconds, rate limits, an HPA's
// change), a run that
// goes on past its progress deadline has in Summary.UpToDeadline the
// figures of the run stopped at the deadline (PastDeadline -1): its
// peak, the peak's range over the racing orders, its fewest available,
// their times, the floor and the ceiling; a run that does not go on
// past a deadline has the zero Extremes. The draws meet rollouts whose
// worst figures come after the deadline, which the whole run's figures
// alone would misplace.
func TestUpToDeadlineIsTheStoppedRun(t *testing.T) {
	runs, past, differ, racing := 0, 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		runs++
		st := gen.Strategy().Draw(t, "strategy")
		s := rollingState(t, rapid.Int32Range(1, 40).Draw(t, "replicas"), st)
		d := &s.Deployment
		d.Spec.MinReadySeconds = rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
		d.Spec.ProgressDeadlineSeconds = rollout.Int32(rapid.Int32Range(d.Spec.MinReadySeconds+1, 60).Draw(t, "deadline"))
		sec := func(label string, hi int64) time.Duration {
			return time.Duration(rapid.Int64Range(0, hi).Draw(t, label)) * time.Second
		}
		cfg := sim.Config{
			Model:   sim.ModelControllers,
			MaxWork: 3000,
			Pods: sim.PodModel{
				ReadyAfter:  sec("ready after", 90),
				Terminating: sec("terminating", 60),
			},
			Controllers:  sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
			PastDeadline: -1,
		}
		if rapid.Bool().Draw(t, "quota") {
			cfg.Pods.MaxPods = d.Spec.Replicas + rapid.Int32Range(0, 5).Draw(t, "quota room")
		}
		if rapid.Bool().Draw(t, "replica change") {
			cfg.Changes = []sim.ReplicaChange{{After: sec("change after", 180), Replicas: rapid.Int32Range(1, 40).Draw(t, "new replicas")}}
		}
		stop, err := sim.Run(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.PastDeadline = 0
		on, err := sim.Run(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		sm := on.Summary
		if sm.AfterDeadline == "" {
			if sm.UpToDeadline != (sim.Extremes{}) {
				t.Fatalf("a run that did not go on past a deadline has UpToDeadline %+v, want the zero Extremes", sm.UpToDeadline)
			}
			return
		}
		past++
		if stop.Summary.UpToDeadline != (sim.Extremes{}) {
			t.Fatalf("the run stopped at the deadline has UpToDeadline %+v, want the zero Extremes", stop.Summary.UpToDeadline)
		}
		want := extremesOf(stop.Summary)
		if diff := cmp.Diff(want, sm.UpToDeadline); diff != "" {
			t.Fatalf("UpToDeadline of the run past the deadline (+%v) differs from the figures of the run stopped there (-stopped +UpToDeadline):\n%s", sm.DeadlineExceededAt, diff)
		}
		if want != extremesOf(sm) {
			differ++
		}
		if d.Spec.Replicas >= 15 {
			racing++
		}
	})
	t.Logf("%d runs went on past the deadline, %d of them with other figures past it, %d of 15 replicas or more", past, differ, racing)
	gen.Covered(t, "went on past the deadline", past, runs, 0.5)             // 59% over 300 draws
	gen.Covered(t, "had other figures past the deadline", differ, runs, 0.1) // 14% over 300 draws
}

// TestUpToDeadlineFastForwarded: runs that go on past their progress
// deadline and are fast-forwarded past it (rollouts one pod at a time of
// hundreds of replicas, each wave longer than the deadline, or the
// deadline of 1s) keep the figures up to the deadline of the runs taken
// event by event, and those are the figures of the runs stopped at the
// deadline (taken at the deadline's sync, they stay as they are through
// each jump, which the walker visits too).
func TestUpToDeadlineFastForwarded(t *testing.T) {
	for _, tc := range []struct {
		replicas           int32
		ready, terminating time.Duration
		deadline           int32
	}{
		{1000, 20 * time.Second, 0, 10},
		{300, 20 * time.Second, 5 * time.Second, 10},
		{500, 0, 0, 1},
	} {
		s := rollingState(t, tc.replicas, rolling(surge.Count(1), surge.Count(0)))
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(tc.deadline)
		cfg := sim.Config{Pods: sim.PodModel{ReadyAfter: tc.ready, Terminating: tc.terminating}, OmitSteps: true}
		fast := run(t, s, cfg)
		slow := run(t, s, sim.WithoutFastForward(cfg))
		cfg.PastDeadline = -1
		stopped := run(t, s, cfg)
		sm := fast.Summary
		if sm.AfterDeadline == "" || sm.FastForwarded == 0 {
			t.Fatalf("%+v: went on past the deadline %q, %d syncs fast-forwarded; the case wants both", tc, sm.AfterDeadline, sm.FastForwarded)
		}
		if sm.UpToDeadline != slow.Summary.UpToDeadline {
			t.Errorf("%+v: UpToDeadline %+v fast-forwarded, %+v event by event", tc, sm.UpToDeadline, slow.Summary.UpToDeadline)
		}
		if want := extremesOf(stopped.Summary); sm.UpToDeadline != want {
			t.Errorf("%+v: UpToDeadline %+v, the run stopped at the deadline %+v", tc, sm.UpToDeadline, want)
		}
	}
}
