package check_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestPDBDrainFollowsMinAvailable: with minReadySeconds 0 (available pods
// are ready pods), a PodDisruptionBudget keeping k of a Deployment's pods
// blocks drains during its rollout exactly when the min available the
// report states is at most k, under the interval model and under the
// controllers model, whose min available is the worse of the likelier
// race orders (the drain rule once judged only the in-order run).
func TestPDBDrainFollowsMinAvailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(2, 8).Draw(t, "replicas")
		surge := rapid.SampledFrom([]string{"0", "1", "25%"}).Draw(t, "maxSurge")
		unavailable := rapid.SampledFrom([]string{"1", "25%", "50%"}).Draw(t, "maxUnavailable")
		keep := rapid.IntRange(1, replicas-1).Draw(t, "minAvailable")
		model := rapid.SampledFrom([]sim.Model{sim.ModelSimple, sim.ModelControllers}).Draw(t, "model")
		src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: %d
  strategy: {rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: web:1.0}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec:
  minAvailable: %d
  selector: {matchLabels: {app: web}}
`, replicas, surge, unavailable, keep)
		docs, err := manifest.Parse("in.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := check.Run(check.Load("in.yaml", docs, check.LoadOptions{}), check.Config{Sim: sim.Config{Model: model}})
		if len(r.Deployments) != 1 {
			t.Fatalf("report: %+v", r)
		}
		blocked := false
		for _, f := range r.Findings {
			if f.Rule == check.RulePDBDrain {
				blocked = true
			}
		}
		low := r.Deployments[0].MinAvailable
		if want := low <= int64(keep); blocked != want {
			t.Fatalf("min available %d, budget keeps %d: pdb-drain-blocked %v, want %v; findings %+v", low, keep, blocked, want, r.Findings)
		}
	})
}
