package check_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// A gate over 'kubectl apply': each manifest is created on a cluster that
// has none of them; the one the API server refuses is a finding of rule
// input at its file and line, and the other is still checked.
func ExampleApplied() {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: web:1}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: app, image: api:1}]}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	manifests := check.Load("deploy.yaml", docs, check.LoadOptions{SkipValidation: true})
	live := check.Load("cluster", nil, check.LoadOptions{})
	var (
		created []rollout.Deployment
		where   []manifest.Document
		refused []check.Finding
	)
	for i, doc := range manifests.Documents() {
		r, err := apply.Create(doc.JSON, apply.Options{Namespace: "default"})
		if err != nil {
			refused = append(refused, check.ApplyProblem(doc, fmt.Sprintf("Deployment %s: %v", manifests.Objects().Deployments[i].Name, err)))
			continue
		}
		created = append(created, r.After)
		where = append(where, doc)
	}
	report := check.Run(check.Applied(manifests, live, created, where, nil, refused...), check.Config{})
	fmt.Println("ok:", report.OK, "checked:", len(report.Deployments))
	for _, f := range report.Findings {
		fmt.Println(f.Rule, f.ProblemText())
	}
	// Output:
	// ok: false checked: 1
	// input deploy.yaml:11: Deployment api: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`
}
