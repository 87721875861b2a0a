package sim_test

import (
	"math"
	"slices"
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

// withoutDeadlineEchoes returns res without the fields that echo the
// progress deadline (see Result.DeadlineFreeFrom): the Deployment's
// progressDeadlineSeconds in Final, Final.Now, and the At and Reason of
// the progress re-checks.
func withoutDeadlineEchoes(res sim.Result) sim.Result {
	res.Final.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{}
	res.Final.Now = time.Time{}
	res.Steps = slices.Clone(res.Steps)
	for i := range res.Steps {
		acts := slices.Clone(res.Steps[i].Actions)
		for j := range acts {
			if acts[j].Type == rollout.RecheckProgress {
				acts[j].At, acts[j].Reason = time.Time{}, ""
			}
		}
		res.Steps[i].Actions = acts
	}
	return res
}

// TestDeadlineFreeFrom: a run under ModelControllers that proves itself
// independent of its progress deadline from DeadlineFreeFrom up gives the
// same Result, steps included, with any deadline from there up to the
// largest (all but the fields that echo the deadline; Final.Now, the last
// re-check, moves no earlier), on random small rollouts: any strategy, 1
// to 20 replicas, ready and terminating times, minReadySeconds, a pod
// quota, client limits. A fifth of the draws or more are proved.
func TestDeadlineFreeFrom(t *testing.T) {
	runs, proved, completeUnproved := 0, 0, 0
	defer func() {
		t.Logf("%d runs: %d proved, %d completed unproved", runs, proved, completeUnproved)
	}()
	rapid.Check(t, func(t *rapid.T) {
		st := gen.Strategy().Draw(t, "strategy")
		s := rollingState(t, rapid.Int32Range(1, 20).Draw(t, "replicas"), st)
		s.Deployment.Spec.MinReadySeconds = rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
		d := rapid.Int32Range(s.Deployment.Spec.MinReadySeconds+1, 1200).Draw(t, "deadline")
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(d)
		sec := func(label string, hi int64) time.Duration {
			return time.Duration(rapid.Int64Range(0, hi).Draw(t, label)) * time.Second
		}
		cfg := sim.Config{
			Model:   sim.ModelControllers,
			MaxWork: 3000,
			Pods: sim.PodModel{
				ReadyAfter:  sec("ready after", 60),
				Terminating: sec("terminating", 60),
				MaxPods:     rapid.SampledFrom([]int32{0, 0, 0, 1, 5, 12, 25}).Draw(t, "max pods"),
			},
			Controllers: sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
		}
		res := run(t, s, cfg)
		runs++
		from := res.DeadlineFreeFrom
		if from == 0 {
			if res.Summary.Outcome == sim.OutcomeComplete {
				completeUnproved++
			}
			return
		}
		proved++
		if from > d || res.Summary.Outcome != sim.OutcomeComplete {
			t.Fatalf("DeadlineFreeFrom = %d with deadline %d, outcome %q", from, d, res.Summary.Outcome)
		}
		other := rapid.OneOf(
			rapid.Just(from),
			rapid.Int32Range(from, from+30),
			rapid.Int32Range(from, max(from, d)*3),
			rapid.Just(int32(rollout.Unlimited-1)),
		).Draw(t, "other deadline")
		s2 := s
		s2.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(other)
		res2 := run(t, s2, cfg)
		if res2.Final.Now.Before(res.Final.Now) && other > d {
			t.Errorf("Final.Now = %v with deadline %d, earlier than %v with %d", res2.Final.Now, other, res.Final.Now, d)
		}
		if diff := cmp.Diff(withoutDeadlineEchoes(res), withoutDeadlineEchoes(res2), cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("deadline %d (proved from %d) and deadline %d give different Results (-%d +%d):\n%s", d, from, other, d, other, diff)
		}
	})
	// About half the draws complete after more than their deadline (their
	// pending re-check fires first) or never (a quota, a deadline
	// exceeded); the rest are proved: 35 to 55 of 100 over 60 seeds.
	gen.Covered(t, "proved independent of the deadline", proved, runs, 0.3)
}

// TestDeadlineFreeFromIsTight: below DeadlineFreeFrom the run reads the
// deadline. A rollout of 6 replicas at maxSurge 1, pods ready after 10 s,
// takes about 60 s; its first re-check, planned at the start, is pending
// until the rollout completes, so a deadline below the rollout's length
// fires it while the rollout goes on (or times the rollout out), and the
// Result changes.
func TestDeadlineFreeFromIsTight(t *testing.T) {
	s := rollingState(t, 6, rolling(surge.Count(1), surge.Count(0)))
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(600)
	cfg := sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 10 * time.Second, Terminating: 30 * time.Second}}
	res := run(t, s, cfg)
	from := res.DeadlineFreeFrom
	if from == 0 || res.Summary.Outcome != sim.OutcomeComplete {
		t.Fatalf("DeadlineFreeFrom = 0, outcome %q: want a proved run", res.Summary.Outcome)
	}
	if lo, hi := res.Summary.Duration-10*time.Second, res.Summary.Duration+10*time.Second; time.Duration(from)*time.Second < lo || time.Duration(from)*time.Second > hi {
		t.Errorf("DeadlineFreeFrom = %ds, want within 10s of the rollout's %v", from, res.Summary.Duration)
	}
	below := s
	below.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(from - 1)
	res2 := run(t, below, cfg)
	if diff := cmp.Diff(withoutDeadlineEchoes(res), withoutDeadlineEchoes(res2), cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff == "" {
		t.Errorf("deadline %d, one below DeadlineFreeFrom, gives the same Result", from-1)
	}
	for _, d := range []int32{from, from + 1, 600, 10000, math.MaxInt32 - 1} {
		same := s
		same.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(d)
		if d < from {
			continue
		}
		got := run(t, same, cfg)
		if diff := cmp.Diff(withoutDeadlineEchoes(res), withoutDeadlineEchoes(got), cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Errorf("deadline %d gives another Result than 600 (-600 +%d):\n%s", d, d, diff)
		}
	}
}
