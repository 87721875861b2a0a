package difftest

import (
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The container rules that only a gate off by default reaches: with
// ContainerStopSignals on, a stop signal is kept and must suit the pod's
// OS.

// ctrOursCreateWithGates is OursCreateDeployment under gates g.
func ctrOursCreateWithGates(data []byte, g apiserver.FeatureGates) Outcome {
	d, res := schema.DecodeDeployment(data, schema.DecodeOptions{Version: kubeversion.V1_36})
	if out, bad := decodeOutcome(res); bad {
		return out
	}
	if d.Namespace == "" {
		d.Namespace = "default"
	}
	errs := apiserver.CreateDeployment(d, g)
	return Outcome{Stored: Canonical(schema.AppendDeployment(nil, d, schema.Stored)), Problems: ourProblems(errs)}
}

// TestContainerStopSignals runs the stop signal rules with the
// ContainerStopSignals gate on, on both sides.
func TestContainerStopSignals(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.ContainerStopSignals, true)
	gates := apiserver.FeatureGates{Version: v136.Version, Gates: apiserver.Gates{ContainerStopSignals: apiserver.GateOn}}
	withOS := func(os string, signal string) func(ctrObj) {
		return func(s ctrObj) {
			if os != "" {
				s["os"] = ctrObj{"name": os}
			}
			ctrApp(s)["lifecycle"] = ctrObj{"stopSignal": signal}
		}
	}
	cases := []ctrRuleCase{
		{"stopSignal: needs the pod's OS", withOS("", "SIGTERM"), []string{"containers[0].lifecycle.stopSignal: Forbidden"}},
		{"stopSignal: a Linux signal", withOS("linux", "SIGRTMIN+15"), nil},
		{"stopSignal: unknown on Linux", withOS("linux", "SIGBOGUS"), []string{"containers[0].lifecycle.stopSignal: Unsupported value"}},
		{"stopSignal: SIGKILL or SIGTERM on Windows", withOS("windows", "SIGKILL"), nil},
		{"stopSignal: others unsupported on Windows", withOS("windows", "SIGUSR1"), []string{"containers[0].lifecycle.stopSignal: Unsupported value"}},
		{"stopSignal: sidecars too", func(s ctrObj) {
			s["os"] = ctrObj{"name": "linux"}
			ic := ctrAt(s, "initContainers", 0)
			ic["restartPolicy"] = "Always"
			ic["lifecycle"] = ctrObj{"stopSignal": "SIGBOGUS"}
		}, []string{"initContainers[0].lifecycle.stopSignal: Unsupported value"}},
	}
	ours := func(data []byte) Outcome { return ctrOursCreateWithGates(data, gates) }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkCtrRuleCase(t, tc, ours) })
	}
}
