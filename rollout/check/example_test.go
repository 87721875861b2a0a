package check_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// A gate in a CI job: no rollout of web may run more than 11 pods, or
// leave fewer than 9 available, and it must finish within 5 minutes.
func Example() {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 10
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	report := check.Run(in, check.Config{
		MaxPods:          11,
		MinAvailable:     surge.Count(9),
		MinAvailableRule: true,
		MaxDuration:      5 * time.Minute,
		Sim:              sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second},
	})
	fmt.Println("ok:", report.OK)
	for _, f := range report.Findings {
		fmt.Printf("%s %s at +%gs: %s\n  %s\n", f.Severity, f.Rule, f.At, f.Message, f.Location)
	}
	// Output:
	// ok: false
	// error max-pods at +30s: 13 pods exist, above the max-pods limit 11 (peak 13)
	//   deploy.yaml:9 spec.strategy.rollingUpdate.maxSurge
	// error min-available at +60s: 8 pods available, below the min-available limit 9 (lowest 8)
	//   deploy.yaml:10 spec.strategy.rollingUpdate.maxUnavailable
}

// The replica counts of a range share one work budget: with a budget of
// 30,000 units for 1..2000 replicas (128 counts sampled), the smaller
// counts are computed to the end and the larger ones stop at the limit,
// each with its projection; Projected names them.
func ExampleResult_projected() {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	report := check.Run(in, check.Config{
		MinReplicas: 1, MaxReplicas: 2000, ReplicasSet: true,
		Sim: sim.Config{MaxWork: 30_000},
	})
	r := report.Deployments[0]
	p := r.Projected
	fmt.Printf("%d rollouts: %d computed, %d projected, from %d to %d replicas\n",
		r.Rollouts, r.Rollouts-int64(len(p)), len(p), p[0], p[len(p)-1])
	// Output:
	// 128 rollouts: 36 computed, 92 projected, from 135 to 2000 replicas
}

// A check of the rollout an image change makes, as Simulate makes it:
// the progress deadline's finding names the ReplicaSet of web:2's
// template, the one Simulate creates for the same change, where a check
// without Images rolls out a restart and names that one.
func ExampleConfig_images() {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  progressDeadlineSeconds: 60
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	d, _ := in.Pick("web")
	pods := sim.Config{Pods: sim.PodModel{ReadyAfter: 2 * time.Minute}}
	images := []check.Image{{Container: "app", Image: "web:2"}}
	run, err := check.Simulate(in, d, check.Change{Images: images, Config: pods, FixedReady: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("simulated:", run.Result.Final.ReplicaSets[len(run.Result.Final.ReplicaSets)-1].Name)
	for _, imgs := range [][]check.Image{images, nil} {
		report := check.Run(in, check.Config{Images: imgs, Sim: pods, ReadyAfterFixed: true})
		for _, f := range report.Findings {
			if f.Rule == check.RuleDeadline {
				msg, _, _ := strings.Cut(f.Message, ";")
				fmt.Printf("images %v: %s\n", imgs, msg)
			}
		}
	}
	// Output:
	// simulated: web-6885566bdf
	// images [app=web:2]: progress deadline exceeded: ReplicaSet "web-6885566bdf" has timed out progressing
	// images []: progress deadline exceeded: ReplicaSet "web-cb86489df" has timed out progressing
}
