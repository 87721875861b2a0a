package rollout_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// ExampleFeatureGates validates the same manifest as three API servers do:
// v1.35, whose StrictIPCIDRValidation gate is off by default, accepts a
// host alias IP with a leading zero; v1.36 refuses it; v1.35 with the gate
// turned on refuses it too.
func ExampleFeatureGates() {
	manifest := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
	  "spec":{"hostAliases":[{"ip":"010.0.0.1","hostnames":["db"]}],"containers":[{"name":"web","image":"nginx"}]}}}}`)
	for _, o := range []rollout.DecodeOptions{
		{Validate: true, Version: rollout.V1_35},
		{Validate: true, Version: rollout.V1_36},
		{Validate: true, Version: rollout.V1_35, FeatureGates: rollout.FeatureGates{StrictIPCIDRValidation: rollout.GateOn}},
	} {
		_, err := o.Decode(manifest)
		fmt.Printf("%s strict=%d: %v\n", o.Version, o.FeatureGates.StrictIPCIDRValidation, err)
	}
	// Output:
	// 1.35 strict=0: <nil>
	// 1.36 strict=0: Deployment "web": spec.template.spec.hostAliases[0].ip: Invalid value: "010.0.0.1": must not have leading 0s
	// 1.35 strict=1: Deployment "web": spec.template.spec.hostAliases[0].ip: Invalid value: "010.0.0.1": must not have leading 0s
}
