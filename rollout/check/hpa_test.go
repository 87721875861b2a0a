package check_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestHPAReplicasFindingAtSpecReplicas checks that the hpa-replicas
// warning, which is about the manifest's spec.replicas, is given at that
// count (5), not at the HPA's minReplicas (2) where the range's
// rollouts start.
func TestHPAReplicasFindingAtSpecReplicas(t *testing.T) {
	docs, err := manifest.Parse("web.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx:1}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 6
`))
	if err != nil {
		t.Fatal(err)
	}
	report := check.Run(check.Load("web.yaml", docs, check.LoadOptions{}), check.Config{})
	var found bool
	for _, f := range report.Findings {
		if f.Rule != check.RuleHPAReplicas {
			continue
		}
		found = true
		if f.Replicas != 5 {
			t.Errorf("hpa-replicas finding at replicas %d, want 5 (spec.replicas): %+v", f.Replicas, f)
		}
	}
	if !found {
		t.Fatalf("no hpa-replicas finding:\n%+v", report.Findings)
	}
}
