package check_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// What `rolloutctl simulate -f web.yaml --image web:2.0 --ready-after 10s
// --model interval` runs: the Deployment fully rolled out on its template,
// then the image change, pods ready 10 seconds after they are created.
func ExampleSimulate() {
	docs, err := manifest.Parse("web.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
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
	in := check.Load("web.yaml", docs, check.LoadOptions{})
	d, err := in.Pick("")
	if err != nil {
		fmt.Println(err)
		return
	}
	run, err := check.Simulate(in, d, check.Change{
		Images:     []check.Image{{Image: "web:2.0"}},
		Config:     sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Pods: sim.PodModel{ReadyAfter: 10 * time.Second}},
		FixedReady: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	sm := run.Result.Summary
	fmt.Println(run.Title)
	fmt.Println(run.Times)
	fmt.Printf("%s after %s, peak %d pods, min %d available\n", sm.Outcome, sm.Duration, sm.PeakPods, sm.MinAvailable)
	// Output:
	// web: fully rolled out on its template, then image app=web:2.0
	// [terminating at once: no preStop sleep; the containers are taken to exit on the stop signal (at most terminationGracePeriodSeconds 30)]
	// complete after 2m30s, peak 5 pods, min 3 available
}
