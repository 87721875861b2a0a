package check

import (
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
// spec in Final.
func TestStrategyOfIsWhatTheRunReads(t *testing.T) {
	const manifest = `{"apiVersion":"apps/v1","kind":"Deployment",
"metadata":{"name":"web","namespace":"ns","uid":"web-uid","labels":{"app":"web"}},
"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},
"spec":{"containers":[{"name":"web","image":"web:1"}]}}}}`
	objs, err := rollout.Decode([]byte(manifest))
	if err != nil || len(objs.Deployments) != 1 {
		t.Fatalf("Decode() = %v, %v", objs, err)
	}
	epoch := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	differ := 0
	rapid.Check(t, func(t *rapid.T) {
		d := objs.Deployments[0]
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
			Controllers: sim.Controllers{QPS: rapid.SampledFrom([]float64{0, 0, 2, -1}).Draw(t, "qps"), Burst: rapid.IntRange(0, 3).Draw(t, "burst")},
		}
		results := make([]sim.Result, 2)
		for i, dd := range []rollout.Deployment{d, resolved} {
			s, err := sim.WithImage(sim.FromDeployment(dd, epoch), "web", "web:2")
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
