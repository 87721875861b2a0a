package manifest_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// A CI check: every Deployment under testdata/ci must keep a pod available
// during its rollouts. Each finding names the file and line.
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
				fmt.Printf("%s: Deployment %s: a rollout may take every pod down (maxUnavailable %s)\n",
					doc, d.Name, d.Spec.Strategy.RollingUpdate.MaxUnavailable)
			}
		}
	}
	// Output:
	// testdata/ci/apps/api.yaml:10: document 2: Deployment api: a rollout may take every pod down (maxUnavailable 100%)
}
