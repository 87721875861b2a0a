package sim

import (
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout"
	"pgregory.net/rapid"
)

// TestLatePodsRevealedWithinTheirInstant checks, over drawn strategies,
// replica counts, ready and termination times, minReadySeconds and client
// limits, in every race order, what late pods (see podModel.add) promise:
// once the run has moved past an instant, no pod that became ready by
// then is still late, so the lag is never longer than the instant (it
// fails if podEvents does not schedule the reveal).
func TestLatePodsRevealedWithinTheirInstant(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs, err := rollout.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment",
"metadata":{"name":"app","namespace":"default"},
"spec":{"replicas":1,"selector":{"matchLabels":{"app":"app"}},
"template":{"metadata":{"labels":{"app":"app"}},
"spec":{"containers":[{"name":"app","image":"app:1"}]}}}}`))
		if err != nil {
			t.Fatal(err)
		}
		d := objs.Deployments[0]
		d.Spec.Replicas = rapid.Int32Range(1, 60).Draw(t, "replicas")
		d.Spec.Strategy = gen.Strategy().Draw(t, "strategy")
		d.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 5, 10}).Draw(t, "minReadySeconds")
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		s, err := WithImage(FromDeployment(d, start), "app", "app:2")
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{
			Controllers: Controllers{QPS: rapid.SampledFrom([]float64{0, -1, 5}).Draw(t, "qps")},
			Pods: PodModel{
				ReadyAfter:  time.Duration(rapid.IntRange(1, 30).Draw(t, "readyAfter seconds")) * time.Second,
				Terminating: time.Duration(rapid.SampledFrom([]int{0, 0, 5, 30}).Draw(t, "terminating seconds")) * time.Second,
			},
			MaxWork: 20_000,
		}
		if err := validState(s); err != nil {
			t.Skip(err)
		}
		rc := race(rapid.IntRange(0, 2).Draw(t, "race"))
		r := newControllersRunner(s, cfg, rc, nil)
		c := r.ctl
		for _, rs := range r.sets() {
			r.enqueueSet(rs.Name, r.start)
		}
		r.enqueueDeployment(r.start)
		r.schedulePods(r.start)
		for !r.done && len(c.events) > 0 && r.work < cfg.MaxWork {
			e := c.events.pop()
			if e.at.After(r.last) {
				// The run moves past r.last: every pod ready by then is seen.
				for name, ps := range r.pods.sets {
					for _, co := range ps.cohorts {
						if co.late && !co.terminating() && !co.readyAt.After(r.last) {
							t.Fatalf("ReplicaSet %s: %d pods ready at %v still late at %v", name, co.n, co.readyAt.Sub(r.start), e.at.Sub(r.start))
						}
					}
				}
			}
			r.last = later(r.last, e.at)
			r.handle(e)
		}
	})
}
