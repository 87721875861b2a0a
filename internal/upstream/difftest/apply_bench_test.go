package difftest

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// BenchmarkApplyEndToEnd compares the whole of kubectl apply onto a live
// Deployment, in one run: upstream's kubectl patch, the patch handler's
// merge and the update path (decoding, defaults, the strategy, validation,
// storage's round trip), against apply.Apply (which also computes the
// changed fields and reads the result into rollout's types).
func BenchmarkApplyEndToEnd(b *testing.B) {
	liveJSON, manifest := benchApplyInputs(b)
	var live appsv1.Deployment
	if err := json.Unmarshal(liveJSON, &live); err != nil {
		b.Fatal(err)
	}
	live.ResourceVersion = "1000"
	liveJSON, err := json.Marshal(&live)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, result, err := realApply(liveJSON, manifest, true)
			if err != nil {
				b.Fatal(err)
			}
			if out, _ := RealUpdateDeployment(&live, result); out.Refused() {
				b.Fatal(out)
			}
		}
	})
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := apply.Apply(liveJSON, manifest, apply.Options{Version: rollout.V1_36}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
