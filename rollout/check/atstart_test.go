package check_test

import (
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestFiguresAtTheStartAreJudged checks a rollout whose pods are ready at
// once, so that under sim.ModelControllers its whole rollout happens at
// +0s: 3 replicas at maxSurge 2 and maxUnavailable 2 peak at 5 pods with
// 1 available, both at +0s, while the ReplicaSets' statuses, which the
// syncs see, lag behind. check --max-pods 4 --min-available 3 (the case
// of issue 23) must fail on both; it passed with only the warning of the
// order that defers deletions, since the figures between syncs were
// judged only after +0s.
func TestFiguresAtTheStartAreJudged(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: three
spec:
  replicas: 3
  strategy: {rollingUpdate: {maxSurge: 2, maxUnavailable: 2}}
  selector:
    matchLabels: {app: three}
  template:
    metadata:
      labels: {app: three}
    spec:
      containers:
      - name: app
        image: three:1
`))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	report := check.Run(in, check.Config{MaxPods: 4, MinAvailable: surge.Count(3), MinAvailableRule: true, Sim: sim.Config{Model: sim.ModelControllers}})
	if len(report.Deployments) != 1 {
		t.Fatalf("%d results, want 1", len(report.Deployments))
	}
	r := report.Deployments[0]
	if r.PeakPods != 5 || r.MinAvailable != 1 {
		t.Fatalf("peak %d, min available %d: want 5 and 1 (the case no longer tests what it is named after)", r.PeakPods, r.MinAvailable)
	}
	want := map[string]string{
		check.RuleMaxPods:      "5 pods exist between syncs, above the max-pods limit 4",
		check.RuleMinAvailable: "1 pod available between syncs, below the min-available limit 3",
	}
	for _, f := range report.Findings {
		if w, ok := want[f.Rule]; ok && f.Severity == check.SeverityError && strings.Contains(f.Message, w) {
			delete(want, f.Rule)
		}
	}
	if len(want) > 0 || report.OK {
		t.Errorf("OK %v, no error finding saying %v:\n%+v", report.OK, want, report.Findings)
	}
}
