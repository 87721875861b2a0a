package check_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// A gate over 'kubectl apply': ApplyAll creates each manifest on a cluster that
// has none of them; the one the API server refuses is a finding of rule
// input at its file and line, and the other is still checked.
func ExampleApplyAll() {
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
	done, refused := check.ApplyAll(manifests, live, check.ApplyOptions{})
	var (
		created []rollout.Deployment
		where   []manifest.Document
	)
	for _, a := range done {
		fmt.Printf("%s: %s\n", a.Name, a.Result.Summary())
		created = append(created, a.Result.After)
		where = append(where, a.Manifest)
	}
	report := check.Run(check.Applied(manifests, live, created, where, nil, refused...), check.Config{})
	fmt.Println("ok:", report.OK, "checked:", len(report.Deployments))
	for _, f := range report.Findings {
		fmt.Println(f.Rule, f.ProblemText())
	}
	// Output:
	// default/web: rollout: a new Deployment
	// ok: false checked: 1
	// input deploy.yaml:11: Deployment default/api: kubectl apply (a first apply: cluster has no such Deployment): spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`
}
