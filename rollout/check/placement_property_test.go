package check_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// drawPlaced draws a Deployment for placement: 1 to 12 replicas, a
// rolling strategy of counts, requests of 0 to 2 cpus and, perhaps,
// required anti-affinity on the hostname.
func drawPlaced(t *rapid.T) (src string, replicas, maxSurge, maxUnavailable int, antiAffinity bool) {
	replicas = rapid.IntRange(1, 12).Draw(t, "replicas")
	maxSurge = rapid.IntRange(0, 3).Draw(t, "maxSurge")
	maxUnavailable = rapid.IntRange(boolInt(maxSurge == 0), 3).Draw(t, "maxUnavailable") // not both 0: the API server refuses it
	cpu := rapid.SampledFrom([]string{"0", "250m", "1", "2"}).Draw(t, "cpu")
	antiAffinity = rapid.Bool().Draw(t, "anti-affinity")
	spec := ""
	if antiAffinity {
		spec = hostnameAntiAffinity
	}
	src = fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: %d
  strategy: {rollingUpdate: {maxSurge: %d, maxUnavailable: %d}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:1.0
        resources: {requests: {cpu: "%s"}}
%s`, replicas, maxSurge, maxUnavailable, cpu, spec)
	return src, replicas, maxSurge, maxUnavailable, antiAffinity
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func loadPlaced(t *rapid.T, src string) *check.Input {
	docs, err := manifest.Parse("in.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return check.Load("in.yaml", docs, check.LoadOptions{})
}

// TestPlacementProperties checks what placement guarantees over drawn
// Deployments and nodes, under both models.
func TestPlacementProperties(t *testing.T) {
	model := func(t *rapid.T) sim.Config {
		return sim.Config{Model: rapid.SampledFrom([]sim.Model{sim.ModelSimple, sim.ModelControllers}).Draw(t, "model")}
	}
	t.Run("nodes with room for every pod change nothing", rapid.MakeCheck(func(t *rapid.T) {
		src, _, _, _, _ := drawPlaced(t)
		in := loadPlaced(t, src)
		cfg := check.Config{Sim: model(t)}
		want := check.Run(in, cfg)
		cfg.Nodes = 40 // 12 replicas + 3 surge, a node each at most
		got := check.Run(in, cfg)
		if diff := cmp.Diff(want.Findings, got.Findings); diff != "" {
			t.Fatalf("findings with 40 nodes (-without +with):\n%s", diff)
		}
		w, g := want.Deployments[0], got.Deployments[0]
		if w.PeakPods != g.PeakPods || w.MinAvailable != g.MinAvailable || w.Longest != g.Longest {
			t.Fatalf("without nodes %+v, with 40 %+v", w, g)
		}
	}))
	t.Run("placement never raises the peak", rapid.MakeCheck(func(t *rapid.T) {
		src, _, _, _, _ := drawPlaced(t)
		in := loadPlaced(t, src)
		cfg := check.Config{Sim: model(t)}
		free := check.Run(in, cfg).Deployments[0]
		cfg.Nodes = rapid.IntRange(1, 8).Draw(t, "nodes")
		cfg.NodeAllocatable = mustAllocatable(t, rapid.SampledFrom([]string{"", "cpu=2", "cpu=4", "cpu=1,pods=3"}).Draw(t, "allocatable"))
		placed := check.Run(in, cfg).Deployments[0]
		if placed.PeakPods > free.PeakPods {
			t.Fatalf("peak %d on %d nodes, %d without", placed.PeakPods, cfg.Nodes, free.PeakPods)
		}
	}))
	t.Run("one pod per node never finishes exactly without a spare node or maxUnavailable", rapid.MakeCheck(func(t *rapid.T) {
		src, replicas, maxSurge, maxUnavailable, antiAffinity := drawPlaced(t)
		if !antiAffinity {
			t.Skip("no anti-affinity")
		}
		in := loadPlaced(t, src)
		nodes := rapid.IntRange(1, 14).Draw(t, "nodes")
		r := check.Run(in, check.Config{Nodes: nodes, Sim: model(t)})
		never := false
		for _, f := range r.Findings {
			never = never || f.Rule == check.RuleNeverFinish
		}
		want := nodes < replicas || (nodes == replicas && maxUnavailable == 0)
		if never != want {
			t.Fatalf("%d nodes, %d replicas, maxSurge %d, maxUnavailable %d: never-finishes %v, want %v: %+v",
				nodes, replicas, maxSurge, maxUnavailable, never, want, r.Findings)
		}
	}))
}
