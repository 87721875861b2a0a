package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestPeakAboveKeepsReports: check lets the race order where deletions
// go last end once its pods are proved to stay within --max-pods
// (sim.Config.PeakPodsAbove), and the one where they go first once its
// steps to come cannot change the drains (sim.Config.DeletesFirstDone,
// drainsSettled), for the rollouts whose runs it does not share. Its
// report is the one of runs with every order computed to its end, on
// Deployments of 1 to 20 replicas (the racing peak from 15 on),
// maxUnavailable 0 and 1, with PodDisruptionBudgets of four kinds, HPA
// ranges and a pod quota, under --max-pods below, within and above
// their peaks, with and without a small work budget, drains of 1 and 2
// pods; and the cut runs compute less.
func TestPeakAboveKeepsReports(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d%02d", "namespace": "ns%d"}, "spec": {"replicas": %d,
			"strategy": {"rollingUpdate": {"maxSurge": %s, "maxUnavailable": %d}}, "minReadySeconds": %d, "progressDeadlineSeconds": %d,
			"selector": {"matchLabels": {"app": "a%d"}}, "template": {"metadata": {"labels": {"app": "a%d"}},
			"spec": {"terminationGracePeriodSeconds": %d, "containers": [{"name": "app", "image": "app:%d", "resources": {"requests": {"cpu": "100m"}},
			"readinessProbe": {"httpGet": {"path": "/", "port": 80}, "initialDelaySeconds": %d, "periodSeconds": 1}}]}}}}`+"\n",
			i, i%3, 1+i*7%20, []string{`"25%"`, `1`, `"50%"`, `2`}[i%4], i%3/2, i*5%13, 30+600*(i%2), i, i, i*11%40, i, 1+i*13%30)
		pdb := []string{`"maxUnavailable": 1`, `"minAvailable": "80%"`, `"maxUnavailable": 0`, `"minAvailable": 2`}[i%4]
		fmt.Fprintf(&b, `{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p%02d", "namespace": "ns%d"}, "spec": {%s, "selector": {"matchLabels": {"app": "a%d"}}}}`+"\n", i, i%3, pdb, i)
		if i%5 == 0 {
			fmt.Fprintf(&b, `{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h%02d", "namespace": "ns%d"},
				"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d%02d"}, "minReplicas": 2, "maxReplicas": 9}}`+"\n", i, i%3, i)
		}
	}
	b.WriteString(`{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "ns2"}, "spec": {"hard": {"pods": "40"}}}` + "\n")
	d := indexed(t, b.String())
	less := false
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"no max pods", Config{}},
		{"no max pods, drains of 2 pods", Config{DrainPods: 2}},
		{"max pods 12", Config{MaxPods: 12}},
		{"max pods 30", Config{MaxPods: 30}},
		{"max pods 100", Config{MaxPods: 100}},
		{"max pods 12, work 300", Config{MaxPods: 12, Sim: sim.Config{MaxWork: 300}}},
		{"no max pods, work 150", Config{Sim: sim.Config{MaxWork: 150}}},
		{"replicas 1 to 24, max pods 30, work 2000", Config{MaxPods: 30, MinReplicas: 1, MaxReplicas: 24, ReplicasSet: true, Sim: sim.Config{MaxWork: 2000}}},
	} {
		outs := map[bool]Report{}
		worked := map[bool]int64{}
		for _, whole := range []bool{true, false} {
			cfg := c.cfg
			cfg.Workers = 2
			f := newChecker(cfg)
			f.wholeOrders = whole
			fresh := d.Input // policy caches are made per run
			fresh.quotas = nil
			outs[whole], _ = f.run(&fresh)
			worked[whole] = f.worked.Load()
		}
		if diff := cmp.Diff(outs[true], outs[false]); diff != "" {
			t.Errorf("%q: ending the last order early changes the report (-whole +cut):\n%s", c.name, diff)
		}
		if len(outs[true].Findings) == 0 {
			t.Errorf("%q: no violations, a weak comparison", c.name)
		}
		t.Logf("%q: %d units of work with every order whole, %d cut", c.name, worked[true], worked[false])
		less = less || worked[false] < worked[true]
	}
	if !less {
		t.Error("no check computed less with the last order ended early: a weak test")
	}
}
