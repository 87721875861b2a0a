package difftest

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"
)

// One named case per rule of upstream's volume validation: each states
// the problems the API server reports (or none), and the test requires
// both the real code and ours to report exactly those, so that it fails
// when either side changes. Fields are relative to spec.template.spec.

func volProblem(typ, f string) Problem { return Problem{Type: typ, Field: "spec.template.spec." + f} }
func volRequired(f string) Problem     { return volProblem("Required value", f) }
func volInvalid(f string) Problem      { return volProblem("Invalid value", f) }
func volUnsupported(f string) Problem  { return volProblem("Unsupported value", f) }
func volForbidden(f string) Problem    { return volProblem("Forbidden", f) }
func volDuplicate(f string) Problem    { return volProblem("Duplicate value", f) }
func volNotFound(f string) Problem     { return volProblem("Not found", f) }
func volTooLong(f string) Problem      { return volProblem("Too long", f) }

// volumeCase is a Deployment whose pod has the volumes vols (a JSON
// array), its container the mounts (a JSON array, or none), created under
// the gates of gated (the projected clusterTrustBundle and podCertificate
// sources on) or v1.36's defaults.
type volumeCase struct {
	name   string
	vols   string
	mounts string
	gated  bool
	want   []Problem
}

func (c volumeCase) deployment() []byte {
	mounts := ""
	if c.mounts != "" {
		mounts = `,"volumeMounts":` + c.mounts
	}
	return []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},` +
		`"template":{"metadata":{"labels":{"app":"web"}},"spec":{"volumes":` + c.vols +
		`,"containers":[{"name":"app","image":"nginx:1.27"` + mounts + `}]}}}}`)
}

// checkVolumeCase runs one case both ways against its expectation.
func checkVolumeCase(t *testing.T, c volumeCase, gates apiserver.FeatureGates) {
	t.Helper()
	data := c.deployment()
	real, _ := RealCreateDeployment(data)
	ours := oursCreateDeploymentGates(data, gates)
	want := slices.Clone(c.want)
	sortProblems(want)
	if real.Decode != "" || ours.Decode != "" {
		t.Fatalf("decode: real %q, ours %q", real.Decode, ours.Decode)
	}
	if !slices.Equal(real.Problems, want) {
		t.Errorf("real: %v, want %v", real.Problems, want)
	}
	if !slices.Equal(ours.Problems, want) {
		t.Errorf("ours: %v, want %v", ours.Problems, want)
	}
	if len(want) == 0 && !bytes.Equal(real.Stored, ours.Stored) {
		t.Errorf("stored differ:\nreal %s\nours %s", real.Stored, ours.Stored)
	}
}

// TestVolumeRules checks every rule of the volumes and their sources under
// v1.36's default gates.
func TestVolumeRules(t *testing.T) {
	for _, c := range volumeRuleCases() {
		if c.gated {
			continue
		}
		t.Run(c.name, func(t *testing.T) { checkVolumeCase(t, c, v136) })
	}
}

// TestVolumeRulesGated checks the rules of the projected sources that
// only exist with their gates on.
func TestVolumeRulesGated(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.ClusterTrustBundle:           true,
		features.ClusterTrustBundleProjection: true,
		features.PodCertificateRequest:        true,
	})
	gates := apiserver.FeatureGates{Version: v136.Version, Gates: apiserver.Gates{ClusterTrustBundleProjection: apiserver.GateOn, PodCertificateRequest: apiserver.GateOn}}
	for _, c := range volumeRuleCases() {
		if c.gated {
			t.Run(c.name, func(t *testing.T) { checkVolumeCase(t, c, gates) })
		}
	}
}

// projected returns a projected volume named v with the sources (JSON
// objects).
func projected(sources ...string) string {
	return `[{"name":"v","projected":{"sources":[` + strings.Join(sources, ",") + `]}}]`
}

// claim returns an ephemeral volume named v whose claim template has the
// metadata and spec (JSON objects).
func claim(meta, spec string) string {
	return `[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":` + meta + `,"spec":` + spec + `}}}]`
}

// goodClaim is a claim spec with nothing wrong, to which fields are added.
func goodClaim(more string) string {
	if more != "" {
		more = "," + more
	}
	return `{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}` + more + `}`
}

// downward returns a downwardAPI volume named v with the items.
func downward(items ...string) string {
	return `[{"name":"v","downwardAPI":{"items":[` + strings.Join(items, ",") + `]}}]`
}

// one returns a volume named v with one source, the JSON member src.
func one(src string) string { return `[{"name":"v",` + src + `}]` }

// volumeRuleCases are the named cases of every file of rules.
func volumeRuleCases() []volumeCase {
	return slices.Concat(volumeSourceRules, volumeDiskRules, volumeFileRules, volumeProjectedRules, volumeClaimRules)
}
