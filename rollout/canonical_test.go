package rollout_test

import (
	"encoding/json"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestPlanCanonicalizesHandBuiltTemplates: a template built in Go with its
// spec in another key order and spacing is the same template as the decoded
// one, so no new ReplicaSet is created for it.
func TestPlanCanonicalizesHandBuiltTemplates(t *testing.T) {
	for _, tc := range []struct{ name, dep, rs string }{
		{"deployment spec hand-built", `{ "containers": [ { "name": "c", "image": "img:v1" } ] }`, `{"containers":[{"image":"img:v1","name":"c"}]}`},
		{"replicaset spec hand-built", `{"containers":[{"image":"img:v1","name":"c"}]}`, `{ "containers": [ { "name": "c", "image": "img:v1" } ] }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := staleState(t)
			s.Options.RefreshStaleAnnotations = true
			s.ReplicaSets[0].Annotations[rollout.DesiredReplicasAnnotation] = "3"
			s.Deployment.Spec.Template.Spec = json.RawMessage(tc.dep)
			s.ReplicaSets[0].Spec.Template.Spec = json.RawMessage(tc.rs)
			actions, err := rollout.Plan(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range actions {
				if a.Type == rollout.CreateReplicaSet {
					t.Fatalf("Plan() creates %s: the templates are equal", a.ReplicaSet)
				}
			}
		})
	}
}
