package apply_test

import (
	"encoding/json"
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// An autoscaler scaled the Deployment to 7 after the last kubectl apply,
// which set replicas: 3. The new manifest bumps the image and, as the
// autoscaling documentation advises, no longer sets replicas. kubectl's
// three-way merge deletes spec.replicas, the API server defaults it to 1,
// and the rollout starts at one pod.
func Example() {
	last := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
	  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"web:1"}]}}}}`
	created, err := apply.Create([]byte(last), apply.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// What kubectl get -o json prints after the autoscaler's write.
	var live map[string]any
	if err := json.Unmarshal(created.Stored, &live); err != nil {
		fmt.Println(err)
		return
	}
	meta := live["metadata"].(map[string]any)
	meta["uid"], meta["resourceVersion"] = "7f4b", "2001"
	live["spec"].(map[string]any)["replicas"] = 7
	liveJSON, err := json.Marshal(live)
	if err != nil {
		fmt.Println(err)
		return
	}

	next := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},
	  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"web:2"}]}}}}`
	r, err := apply.Apply(liveJSON, []byte(next), apply.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Summary())
	for _, c := range r.Changes {
		fmt.Println(c)
	}
	fmt.Println("new ReplicaSet:", rollout.NewReplicaSetName(r.After))
	// Output:
	// rollout: spec.template.spec.containers[name=app].image changed; also spec.replicas changed: 7 -> 1
	// spec.replicas changed: 7 -> 1
	// spec.template.spec.containers[name=app].image changed: "web:1" -> "web:2"
	// new ReplicaSet: web-6885566bdf
}
