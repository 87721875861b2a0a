package check

import (
	"math"
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

// TestStrategyOfIsWhatTheRunReads: a run of a RollingUpdate rollout
// without replica changes reads maxSurge and maxUnavailable only as the
// counts they resolve to at its replicas, the strategy a rollout's shape
// holds (strategyOf): the run of any drawn strategy (counts and
// percentages, both zero refused) and the run of its resolved counts have
// the same Result, every step included, but for the Deployment's own
// spec in Final, under the controllers model and the simple one.
func TestStrategyOfIsWhatTheRunReads(t *testing.T) {
	base := shapeTestDeployment(t)
	differ := 0
	rapid.Check(t, func(t *rapid.T) {
		d := base
		d.Spec.Replicas = rapid.Int32Range(1, 40).Draw(t, "replicas")
		d.Spec.MinReadySeconds = rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
		d.Spec.ProgressDeadlineSeconds = rollout.Int32(rapid.Int32Range(20, 900).Draw(t, "deadline"))
		d.Spec.Strategy = gen.Strategy().Filter(func(s rollout.Strategy) bool { return s.Type == rollout.RollingUpdateStrategy }).Draw(t, "strategy")
		resolved := d
		resolved.Spec.Strategy = (&checker{}).strategyOf(d)
		if resolved.Spec.Strategy != d.Spec.Strategy {
			differ++
		}
		sec := func(label string, hi int64) time.Duration {
			return time.Duration(rapid.Int64Range(0, hi).Draw(t, label)) * time.Second
		}
		cfg := sim.Config{
			MaxWork: 3000,
			Pods: sim.PodModel{
				ReadyAfter:  sec("ready after", 30),
				Terminating: sec("terminating", 30),
				MaxPods:     rapid.SampledFrom([]int32{0, 0, 0, 3, 12, 45}).Draw(t, "max pods"),
			},
			Model:       drawModel(t),
			Controllers: sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
		}
		results := make([]sim.Result, 2)
		for i, dd := range []rollout.Deployment{d, resolved} {
			s, err := sim.WithImage(sim.FromDeployment(dd, shapeTestEpoch), "web", "web:2")
			if err != nil {
				t.Fatalf("WithImage() error: %v", err)
			}
			if results[i], err = sim.Run(s, cfg); err != nil {
				t.Fatalf("Run() error: %v", err)
			}
			results[i].Final.Deployment.Spec.Strategy = rollout.Strategy{}
		}
		if diff := cmp.Diff(results[0], results[1], cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("strategy %+v and its resolved counts %+v give different Results (-written +resolved):\n%s",
				d.Spec.Strategy.RollingUpdate, resolved.Spec.Strategy.RollingUpdate, diff)
		}
	})
	if differ == 0 {
		t.Error("no drawn strategy differed from its resolved counts: a weak test")
	}
}

// shapeTestEpoch is when the runs of the shape tests start.
var shapeTestEpoch = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

// shapeTestDeployment is a Deployment of one container, "web:1", for the
// shape tests to draw the rest of.
func shapeTestDeployment(t *testing.T) rollout.Deployment {
	t.Helper()
	const manifest = `{"apiVersion":"apps/v1","kind":"Deployment",
"metadata":{"name":"web","namespace":"ns","uid":"web-uid","labels":{"app":"web"}},
"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},
"spec":{"containers":[{"name":"web","image":"web:1"}]}}}}`
	objs, err := rollout.Decode([]byte(manifest))
	if err != nil || len(objs.Deployments) != 1 {
		t.Fatalf("Decode() = %v, %v", objs, err)
	}
	return objs.Deployments[0]
}

// TestUnreachedQuotaIsNotRead: a run of a rollout started from its
// manifest alone, without replica changes, is the same run under every
// pod quota above unreachedQuota(replicas), which a shape holds as one:
// two drawn quotas above it (up to math.MaxInt32) give the same Result,
// every step included, for any strategy (Recreate too), pod times and
// client limits, under the controllers model and the simple one; and no order of the run holds more than 2 × replicas + 1
// pods (PeakPodsHigh), the margin unreachedQuota leaves.
func TestUnreachedQuotaIsNotRead(t *testing.T) {
	base := shapeTestDeployment(t)
	rapid.Check(t, func(t *rapid.T) {
		d := base
		d.Spec.Replicas = rapid.Int32Range(1, 40).Draw(t, "replicas")
		d.Spec.MinReadySeconds = rapid.Int32Range(0, 10).Draw(t, "minReadySeconds")
		d.Spec.ProgressDeadlineSeconds = rollout.Int32(rapid.Int32Range(20, 900).Draw(t, "deadline"))
		d.Spec.Strategy = gen.Strategy().Draw(t, "strategy")
		bound := unreachedQuota(d.Spec.Replicas)
		quota := func(label string) int32 {
			return rapid.OneOf(rapid.Int32Range(int32(bound)+1, int32(bound)+3), rapid.Int32Range(int32(bound)+1, math.MaxInt32), rapid.Just(int32(math.MaxInt32))).Draw(t, label)
		}
		sec := func(label string, hi int64) time.Duration {
			return time.Duration(rapid.Int64Range(0, hi).Draw(t, label)) * time.Second
		}
		cfg := sim.Config{
			MaxWork: 3000,
			Pods: sim.PodModel{
				ReadyAfter:  sec("ready after", 30),
				Terminating: sec("terminating", 30),
			},
			Model:       drawModel(t),
			Controllers: sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
		}
		s, err := sim.WithImage(sim.FromDeployment(d, shapeTestEpoch), "web", "web:2")
		if err != nil {
			t.Fatalf("WithImage() error: %v", err)
		}
		results := make([]sim.Result, 2)
		for i, label := range []string{"quota", "other quota"} {
			c := cfg
			c.Pods.MaxPods = quota(label)
			if results[i], err = sim.Run(s, c); err != nil {
				t.Fatalf("Run() error: %v", err)
			}
		}
		if diff := cmp.Diff(results[0], results[1], cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("two quotas above %d give different Results:\n%s", bound, diff)
		}
		if high := results[0].Summary.PeakPodsHigh; high > 2*int64(d.Spec.Replicas)+1 {
			t.Fatalf("PeakPodsHigh = %d of %d replicas, above 2 × replicas + 1", high, d.Spec.Replicas)
		}
	})
}

// drawModel draws the model a shape test runs under: the controllers
// model (check's default) in most draws, the simple one otherwise, which
// check runs under --model too; the interval is the zero Config's.
func drawModel(t *rapid.T) sim.Model {
	return rapid.SampledFrom([]sim.Model{sim.ModelControllers, sim.ModelControllers, sim.ModelSimple}).Draw(t, "model")
}
