package check_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// A Deployment whose pods want a node each, as many replicas as nodes,
// and a strategy that keeps every old pod until a new one is ready: on 3
// nodes the surge pod never gets a place (kubernetes#116891). With a
// fourth node, or maxUnavailable 1, the rollout finishes.
func ExampleConfig_nodes() {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  strategy:
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: web}}
            topologyKey: kubernetes.io/hostname
      containers:
      - name: app
        image: web:1.0
        resources: {requests: {cpu: 500m}}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	allocatable, err := check.ParseAllocatable("cpu=4,memory=16Gi")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, nodes := range []int{3, 4} {
		report := check.Run(in, check.Config{Nodes: nodes, NodeAllocatable: allocatable})
		fmt.Printf("%d nodes: ok %v\n", nodes, report.OK)
		for _, f := range report.Findings {
			if f.Rule == check.RuleNeverFinish {
				fmt.Printf("  %s at %s\n  %s\n", f.Rule, f.Location, f.Message)
			}
		}
	}
	// Output:
	// 3 nodes: ok false
	//   never-finishes at deploy.yaml:10 spec.strategy.rollingUpdate.maxUnavailable
	//   the rollout can never finish: required pod anti-affinity on kubernetes.io/hostname allows one pod per node: 3 nodes with room; so the nodes hold 3 pods of the Deployment at once, and no old pod leaves to make room for a surge pod while maxUnavailable is 0: set maxSurge 0 and maxUnavailable ≥1, or use Recreate (ReplicaSet web-86bc466 has 1 of 1 pods pending: no node has room for them)
	// 4 nodes: ok true
}

// ParseAllocatable reads what each of Config.Nodes offers; pods are 110
// unless given.
func ExampleParseAllocatable() {
	a, err := check.ParseAllocatable("memory=16Gi,cpu=4")
	fmt.Println(a, err)
	_, err = check.ParseAllocatable("cpu=four")
	fmt.Println(err)
	// Output:
	// cpu=4,memory=16Gi,pods=110 <nil>
	// check: node allocatable cpu="four": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
}

// Input.Placement says what the nodes leave a Deployment's pods, and
// Placement.Room hands it to a simulation of one rollout.
func ExampleInput_Placement() {
	docs, err := manifest.Parse("in.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:1.0
        ports: [{containerPort: 80, hostPort: 8080}]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	in := check.Load("in.yaml", docs, check.LoadOptions{})
	d := in.Objects().Deployments[0]
	p, err := in.Placement(d, 5, check.Allocatable{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Places, p.Why)
	room := p.Room(d.Spec.Replicas)
	fmt.Println("with 4 pods bound, room for", room(4))
	// Output:
	// 5 host port 8080/TCP takes one pod per node: 5 eligible nodes have room for 5 pods
	// with 4 pods bound, room for 1
}
