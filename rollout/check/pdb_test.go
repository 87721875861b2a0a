package check_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

// TestDrainJudgedAtTheReplicasOfItsMoment: a drain is judged, and
// worded, against what the budget keeps of the replicas the Deployment
// has at that moment, which a change of the run (an HPA's) may have set.
// After a scale-down from 6 to 2, 2 ready pods leave an eviction to
// minAvailable 50% (it keeps 1 of 2): the fewest available between
// syncs (2) were judged against 3 of 6 and made a false warning. After
// a scale-up from 6 to 12 the 6 ready pods are all the budget keeps (6
// of 12), and the warning says so.
func TestDrainJudgedAtTheReplicasOfItsMoment(t *testing.T) {
	const pdb = "\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 50%\n  selector:\n    matchLabels: {app: web}\n"
	for _, tc := range []struct {
		name   string
		change sim.ReplicaChange
		want   string // the pdb-drain-blocked finding's message; "": none
		note   string // the drain note's worst moment
	}{
		{"a scale-down to 2 at +30s", sim.ReplicaChange{After: 30 * time.Second, Replicas: 2}, "",
			"a drain of a node holding 1 pod at the worst moment (+30.002s, at replicas 6, scaled to 2 by then) leaves 1 of the pods web selects ready"},
		{"a scale-down to 2 at +4m", sim.ReplicaChange{After: 4 * time.Minute, Replicas: 2}, "",
			"a drain of a node holding 1 pod at the worst moment (+4m0.002s, at replicas 6, scaled to 2 by then) leaves 1 of the pods web selects ready"},
		{"a scale-up to 12 at +10s", sim.ReplicaChange{After: 10 * time.Second, Replicas: 12},
			"during the rollout the ready pods drop to 6 while PodDisruptionBudget web (minAvailable 50%) keeps 6 of 12 pods ready: a node drain is refused from +10s to +10.003s (at replicas 6, scaled to 12 by then): the budget allows 0 evictions then",
			"a drain of a node holding 1 pod at the worst moment (+0s, at replicas 6) leaves 5 of the pods web selects ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pastCase{src: pastManifest(6, "1", "0", 1000) + pdb, pods: sim.PodModel{ReadyAfter: time.Minute},
				changes: []sim.ReplicaChange{tc.change}}
			r, _ := c.run(t, 0)
			fs := ruleFindings(r, check.RulePDBDrain)
			switch {
			case tc.want == "" && len(fs) > 0:
				t.Errorf("pdb-drain-blocked findings %+v, want none", fs)
			case tc.want != "" && (len(fs) != 1 || !strings.HasPrefix(fs[0].Message, tc.want)):
				t.Errorf("pdb-drain-blocked findings %+v, want one saying %q", fs, tc.want)
			}
			if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want one saying %q", notes, tc.note)
			}
		})
	}
}

// TestDrainFindingOverARangeNamesItsCount: checked over replicas 1..12,
// a budget of maxUnavailable 1 blocks drains during the rollouts of 4 to
// 12 replicas; the one warning gives the figures of the first (3 of 4
// pods kept, the replica count of the finding) and says which count they
// are of among those where drains are refused, not "at replicas 4..12"
// beside figures of one count.
func TestDrainFindingOverARangeNamesItsCount(t *testing.T) {
	const src = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: web:1.0}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: web}}
`
	docs, err := manifest.Parse("in.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cfg := check.Config{MinReplicas: 1, MaxReplicas: 12, ReplicasSet: true, Sim: sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 5 * time.Second}}}
	r := check.Run(check.Load("in.yaml", docs, check.LoadOptions{}), cfg)
	var drains []check.Finding
	for _, f := range r.Findings {
		if f.Rule == check.RulePDBDrain {
			drains = append(drains, f)
		}
	}
	if len(drains) != 1 {
		t.Fatalf("pdb-drain-blocked findings: %+v", drains)
	}
	f := drains[0]
	for _, want := range []string{"keeps 3 of 4 pods ready: a node drain is refused ", " (at replicas 4, the first of the counts 4..12 where it is refused): "} {
		if f.Replicas != 4 || !strings.Contains(f.Message, want) {
			t.Errorf("finding at replicas %d: %s\nwant replicas 4 and %q", f.Replicas, f.Message, want)
		}
	}
}
