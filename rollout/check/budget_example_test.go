package check_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// A CI job waits 5 minutes for the rollout of search (kubectl rollout
// status --timeout 300s). Its pods take 100s to become ready and it
// rolls out one pod at a time: six waves of 100s each, within its 120s
// progress deadline (which times each wave), but twice the CI's timeout.
func ExampleConfig_timeout() {
	docs, err := manifest.Parse("search.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: search
spec:
  replicas: 6
  progressDeadlineSeconds: 120
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector:
    matchLabels: {app: search}
  template:
    metadata:
      labels: {app: search}
    spec:
      containers:
      - name: search
        image: search:2.4
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          initialDelaySeconds: 100
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	report := check.Run(check.Load("search.yaml", docs, check.LoadOptions{}), check.Config{
		Timeout: 5 * time.Minute,
		Sim:     sim.Config{Model: sim.ModelControllers},
	})
	for _, f := range report.Findings {
		fmt.Printf("%s %s at +%gs: %s\n  %s\n", f.Severity, f.Rule, f.At, f.Message, f.Location)
	}
	// Output:
	// warning progress-deadline-margin at +0s: wave 1 waits 1m40s for progress, from +0s to +1m40s: 83% of progressDeadlineSeconds 120 (2m), above the 80% margin; pods a little slower than modelled exceed it
	//   search.yaml:7 spec.progressDeadlineSeconds
	// error timeout at +300s: the rollout is expected to take 10m0.002s, longer than the timeout 5m: kubectl rollout status --timeout gives up while the rollout goes on; helm upgrade --wait (Helm 3) waits only for 6 ready pods of the new ReplicaSet (spec.replicas - maxUnavailable): at +10m0.001s, after the timeout too; its slowest wave, 1, waits 1m40s for progress from +0s
	//   search.yaml:7 spec.progressDeadlineSeconds
}

// A node holding 2 of api's 6 pods is drained while api rolls out. Its
// PodDisruptionBudget keeps 4 ready; the rollout takes one pod down at a
// time, so the eviction API allows one eviction then, where it allows
// two at rest: the drain waits. The rollout itself is not gated by the
// budget, as the report's note says.
func ExampleConfig_drainPods() {
	docs, err := manifest.Parse("api.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 6
  strategy:
    rollingUpdate: {maxSurge: 0, maxUnavailable: 1}
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: api:3.1
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: api
spec:
  minAvailable: 4
  selector:
    matchLabels: {app: api}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	report := check.Run(check.Load("api.yaml", docs, check.LoadOptions{}), check.Config{
		DrainPods: 2,
		Sim:       sim.Config{Model: sim.ModelControllers},
	})
	for _, f := range report.Findings {
		fmt.Printf("%s %s: %s\n  %s\n", f.Severity, f.Rule, f.Message, f.Location)
	}
	for _, n := range report.Notes {
		fmt.Println("note:", n)
	}
	// Output:
	// warning pdb-drain-blocked: during the rollout the ready pods drop to 5 while PodDisruptionBudget api (minAvailable 4) keeps 4 of 6 pods ready: a drain of a node holding 2 of its pods is refused from +2ms to +952ms (at replicas 6): the budget allows 1 eviction then (2 with every replica ready), the drain takes 1 and leaves 4 ready, and waits; a drain that deletes pods without eviction (kubectl drain --disable-eviction, a node lost) leaves 3 ready, below the 4 it keeps
	//   api.yaml:8 spec.strategy.rollingUpdate.maxUnavailable
	// note: api: the rollout is not gated by PodDisruptionBudget api (the Deployment controller scales ReplicaSets and deletes pods without the eviction API); only evictions are, such as those of a node drain; a drain of a node holding 2 pods at the worst moment (+0s, at replicas 6) leaves 4 of the pods api selects ready (3 if it deletes them without eviction)
}
