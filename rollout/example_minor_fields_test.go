package rollout_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// ExampleFeatureGates_evictionResponders reads a manifest that uses
// spec.evictionResponders, a field only v1.37 has, behind its alpha gate
// EvictionRequestAPI (off by default): a v1.36 server refuses it as an
// unknown field; a v1.37 server accepts it and drops the field, so the
// ReplicaSet is named after a template without it; with the gate on the
// field is stored and the name changes. Both names are the real v1.37.2
// controller's for what that server stores (the manifest is
// testdata/apiserver/versions/version-eviction-responders.json, whose
// vectors-1.37 hold them, and TestVersionVectors compares them).
func ExampleFeatureGates_evictionResponders() {
	manifest := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},
	  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
	  "spec":{"evictionResponders":[{"name":"example.com/drainer","priority":10000},{"name":"example.com/backup","priority":5000}],
	  "containers":[{"name":"web","image":"nginx:1.27"}]}}}}`)
	for _, o := range []rollout.DecodeOptions{
		{Validate: true, Version: rollout.V1_36},
		{Validate: true, Version: rollout.V1_37},
		{Validate: true, Version: rollout.V1_37, FeatureGates: rollout.FeatureGates{EvictionRequestAPI: rollout.GateOn}},
	} {
		objs, err := o.Decode(manifest)
		if err != nil {
			fmt.Printf("%s: %v\n", o.Version, err)
			continue
		}
		d := objs.Deployments[0]
		fmt.Printf("%s gate=%d: ReplicaSet web-%s, warnings %q\n", o.Version, o.FeatureGates.EvictionRequestAPI,
			rollout.PodTemplateHashFor(d, rollout.V1_37), objs.Warnings)
	}
	// Output:
	// 1.36: Deployment "web": spec.template.spec.evictionResponders: unknown field
	// 1.37 gate=0: ReplicaSet web-5c8597c5fb, warnings ["Deployment \"web\": spec.template.spec: the API server drops the fields of feature gate EvictionRequestAPI, which is off"]
	// 1.37 gate=1: ReplicaSet web-6f4b6797c6, warnings []
}
