package rollout_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// ExampleParseVersion reads the minors a command line names.
func ExampleParseVersion() {
	for _, s := range []string{"1.35", "v1.36.3", "", "1.34"} {
		v, err := rollout.ParseVersion(s)
		fmt.Printf("%q: %v %v\n", s, v, err)
	}
	// Output:
	// "1.35": 1.35 <nil>
	// "v1.36.3": 1.36 <nil>
	// "": 1.37 <nil>
	// "1.34": 1.37 kubernetes version "1.34": want one of 1.35, 1.36, 1.37
}

// ExampleFeatureGates validates the same manifest as three API servers do:
// v1.35, whose StrictIPCIDRValidation gate is off by default, accepts a
// host alias IP with a leading zero; v1.36 refuses it; v1.35 with the gate
// turned on refuses it too.
func ExampleFeatureGates() {
	manifest := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
	  "spec":{"hostAliases":[{"ip":"010.0.0.1","hostnames":["db"]}],"containers":[{"name":"web","image":"nginx"}]}}}}`)
	for _, g := range []rollout.FeatureGates{
		{Version: rollout.V1_35},
		{Version: rollout.V1_36},
		{Version: rollout.V1_35, StrictIPCIDRValidation: rollout.GateOn},
	} {
		_, err := rollout.DecodeOptions{Validate: true, FeatureGates: g}.Decode(manifest)
		fmt.Printf("%s strict=%d: %v\n", g.Version, g.StrictIPCIDRValidation, err)
	}
	// Output:
	// 1.35 strict=0: <nil>
	// 1.36 strict=0: Deployment "web": spec.template.spec.hostAliases[0].ip: Invalid value: "010.0.0.1": must not have leading 0s
	// 1.35 strict=1: Deployment "web": spec.template.spec.hostAliases[0].ip: Invalid value: "010.0.0.1": must not have leading 0s
}
