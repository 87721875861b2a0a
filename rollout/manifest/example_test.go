package manifest_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// A CI check: every Deployment under testdata/ci must keep a pod available
// during its rollouts. Each finding names the file and the line of the
// field to change.
func Example() {
	docs, err := manifest.Read(manifest.Options{}, "testdata/ci")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, doc := range docs {
		objs, err := doc.Decode()
		if err != nil {
			fmt.Println(err)
			continue
		}
		for _, d := range objs.Deployments {
			rolling := d.Spec.Strategy.Type == rollout.RollingUpdateStrategy
			if rolling && d.Spec.Replicas > 0 && rollout.MinAvailable(d) == 0 {
				const field = "spec.strategy.rollingUpdate.maxUnavailable"
				line, _ := doc.FieldLine(field)
				fmt.Printf("%s:%d: Deployment %s: %s %s lets a rollout take every pod down\n",
					doc.Source, line, d.Name, field, d.Spec.Strategy.RollingUpdate.MaxUnavailable)
			}
		}
	}
	// Output:
	// testdata/ci/apps/api.yaml:19: Deployment api: spec.strategy.rollingUpdate.maxUnavailable 100% lets a rollout take every pod down
}

// A program that keeps the place of many decoded objects packs their
// documents against the first: each keeps a small part of its text, and
// still says where its fields are.
func ExamplePacker() {
	input := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 5
`
	docs, err := manifest.Parse("deploy.yaml", []byte(input))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := manifest.NewPacker(docs[0])
	for _, d := range docs {
		packed := p.Pack(d)
		line, _ := packed.FieldLine("spec.replicas")
		fmt.Println(packed, packed.JSON == nil, line)
	}
	// Output:
	// deploy.yaml:1: document 1 true 6
	// deploy.yaml:8: document 2 true 13
}
