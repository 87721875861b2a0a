package sim_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestRunFirst checks RunFirst against Run over drawn rollouts under
// both models (the controllers' with quotas, client limits and replica
// changes): a run of at most keep syncs is Run's Result; a longer one
// keeps Run's first keep steps, as Observe sees them, and the rest of
// its Result is that of the run with OmitSteps, whose Summary is Run's
// but for FastForwarded; left counts the steps left out.
func TestRunFirst(t *testing.T) {
	var runs, cut int
	rapid.Check(t, func(t *rapid.T) {
		d := drawRollout(t, 1)
		cfg := d.cfg
		if rapid.Bool().Draw(t, "controllers") {
			cfg.Interval = 0
			cfg.Model = sim.ModelControllers
			cfg.Controllers = sim.Controllers{QPS: rapid.SampledFrom([]float64{0, -1, 5}).Draw(t, "qps")}
			cfg.Pods.Terminating = time.Duration(rapid.Int64Range(0, 30).Draw(t, "terminating seconds")) * time.Second
			cfg.Pods.MaxPods = rapid.SampledFrom([]int32{0, d.bounds.Replicas + 1}).Draw(t, "maxPods")
			if rapid.Bool().Draw(t, "replica change") {
				cfg.Changes = []sim.ReplicaChange{{After: time.Duration(rapid.Int64Range(0, 30).Draw(t, "after seconds")) * time.Second,
					Replicas: rapid.Int32Range(0, 60).Draw(t, "changed replicas")}}
			}
		}
		full := run(t, d.state, cfg)
		keep := rapid.IntRange(1, len(full.Steps)+2).Draw(t, "keep")
		var seen []sim.Step
		observed := cfg
		observed.Observe = func(st sim.Step) { seen = append(seen, st) }
		got, left, err := sim.RunFirst(d.state, observed, keep)
		if err != nil {
			t.Fatalf("RunFirst: %v", err)
		}
		opts := []cmp.Option{cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})}
		runs++
		if len(full.Steps) <= keep {
			if left != 0 {
				t.Fatalf("%d steps kept of %d, left %d", keep, len(full.Steps), left)
			}
			if diff := cmp.Diff(full, got, opts...); diff != "" {
				t.Fatalf("a run of %d syncs, keep %d: not Run's Result (-Run +RunFirst):\n%s", len(full.Steps), keep, diff)
			}
			return
		}
		cut++
		if diff := cmp.Diff(full.Steps[:keep], got.Steps, opts...); diff != "" {
			t.Fatalf("keep %d of %d: not Run's first steps (-Run +RunFirst):\n%s", keep, len(full.Steps), diff)
		}
		if diff := cmp.Diff(got.Steps, seen, opts...); diff != "" {
			t.Fatalf("keep %d: Observe saw other steps than those kept (-kept +seen):\n%s", keep, diff)
		}
		if left != len(full.Steps)-keep {
			t.Fatalf("keep %d of %d: left %d", keep, len(full.Steps), left)
		}
		quiet := cfg
		quiet.OmitSteps = true
		omitted := run(t, d.state, quiet)
		omitted.Steps = got.Steps
		if diff := cmp.Diff(omitted, got, opts...); diff != "" {
			t.Fatalf("keep %d of %d: not the run with OmitSteps (-OmitSteps +RunFirst):\n%s", keep, len(full.Steps), diff)
		}
		want := full.Summary
		want.FastForwarded = got.Summary.FastForwarded
		if diff := cmp.Diff(want, got.Summary, opts...); diff != "" {
			t.Fatalf("keep %d of %d: Summary not Run's (-Run +RunFirst):\n%s", keep, len(full.Steps), diff)
		}
	})
	gen.Covered(t, "runs cut short", cut, runs, 0.8) // 250 of 301 draws
}
