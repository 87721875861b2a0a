package difftest

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"
)

// The differential tests of the pod volumes' validation (upstream's
// ValidateVolumes and what it calls): random Deployments from volGen, run
// through the real create path and ours.

// oursCreateDeploymentGates is OursCreateDeployment under the gates g.
func oursCreateDeploymentGates(data []byte, g apiserver.FeatureGates) Outcome {
	d, res := schema.DecodeDeployment(data, schema.DecodeOptions{})
	if out, bad := decodeOutcome(res); bad {
		return out
	}
	if d.Namespace == "" {
		d.Namespace = "default"
	}
	errs := apiserver.CreateDeployment(d, g)
	return Outcome{Stored: Canonical(schema.AppendDeployment(nil, d, schema.Stored)), Problems: ourProblems(errs)}
}

// inVolumeArea reports whether a problem is one the volume validation
// decides: a problem of a volume, or a mount of a volume it did not keep.
func inVolumeArea(p Problem) bool {
	if strings.HasPrefix(p.Field, "spec.template.spec.volumes") {
		return true
	}
	return p.Type == "Not found" && strings.Contains(p.Field, ".volumeMounts[") && strings.HasSuffix(p.Field, "].name")
}

func volumeProblems(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if inVolumeArea(p) {
			out = append(out, p)
		}
	}
	return out
}

// compareCreateVolumes is compareCreate restricted to the volume area: the
// decode outcome and the volume problems agree, and when both sides
// accept, they store the same object. ours is the outcome of our side.
func compareCreateVolumes(data []byte, ours Outcome) error {
	real, _ := RealCreateDeployment(data)
	if (real.Decode != "") != (ours.Decode != "") {
		return fmt.Errorf("decode: real %q, ours %q", real.Decode, ours.Decode)
	}
	if real.Decode != "" {
		return nil
	}
	rv, ov := volumeProblems(real.Problems), volumeProblems(ours.Problems)
	if !slices.Equal(rv, ov) {
		return fmt.Errorf("volume problems differ:\nreal %v\nours %v", rv, ov)
	}
	if len(real.Problems) == 0 && len(ours.Problems) == 0 && !bytes.Equal(real.Stored, ours.Stored) {
		return fmt.Errorf("stored differ:\nreal %s\nours %s", real.Stored, ours.Stored)
	}
	return nil
}

// volumeCases is how many random cases a test runs: n, or
// $VOLUME_CASES when set (for a long run).
func volumeCases(t *testing.T, n int) int {
	if s := os.Getenv("VOLUME_CASES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("VOLUME_CASES=%q: want a positive count", s)
		}
		return v
	}
	if testing.Short() {
		return n / 10
	}
	return n
}

// runVolumeCases runs n random cases under the gates, starting at seed
// base, and reports every difference with the seed that reproduces it.
func runVolumeCases(t *testing.T, base uint64, n int, gates apiserver.FeatureGates, mk func(seed uint64) *volGen) {
	start := time.Now()
	bad, accepted := 0, 0
	for i := range n {
		seed := base + uint64(i)
		data := mk(seed).deployment()
		ours := oursCreateDeploymentGates(data, gates)
		if !ours.Refused() {
			accepted++
		}
		if err := compareCreateVolumes(data, ours); err != nil {
			bad++
			if bad <= 10 {
				t.Errorf("seed %d: %v\ninput %s", seed, err, data)
			}
		}
	}
	t.Logf("%d cases (%d accepted by ours), %d differ, in %v", n, accepted, bad, time.Since(start).Round(time.Millisecond))
}

// TestVolumesRandom compares random volumes under v1.36's default gates.
// VOLUME_CASES=20000 runs a long one.
func TestVolumesRandom(t *testing.T) {
	runVolumeCases(t, 1, volumeCases(t, 3000), v136, newVolGen)
}

// TestVolumesRandomGated compares random volumes, projected
// clusterTrustBundle and podCertificate sources among them, with the
// gates that keep those sources on (off by default in v1.36).
func TestVolumesRandomGated(t *testing.T) {
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides{
		features.ClusterTrustBundle:           true,
		features.ClusterTrustBundleProjection: true,
		features.PodCertificateRequest:        true,
	})
	gates := apiserver.FeatureGates{Version: v136.Version, Gates: apiserver.Gates{ClusterTrustBundleProjection: apiserver.GateOn, PodCertificateRequest: apiserver.GateOn}}
	runVolumeCases(t, 1<<40, volumeCases(t, 1500), gates, func(seed uint64) *volGen {
		g := newVolGen(seed)
		g.trustBundles, g.podCertificates = true, true
		return g
	})
}
