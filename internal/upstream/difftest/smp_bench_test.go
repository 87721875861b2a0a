package difftest

import (
	"testing"

	smp "github.com/rolloutmath/rolloutmath/internal/strategicpatch"
)

// benchApplyInputs is the named cases' Deployment, live after an
// autoscaler and kubectl rollout restart, and a manifest with a new image
// and env var.
func benchApplyInputs(b *testing.B) (live, manifest []byte) {
	last := parseDoc(baseManifest)
	live = liveAfter(b, last, true, func(d doc) {
		d.set("spec.replicas", 7)
		d.set(tpl+".metadata.annotations", map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:04:05Z"})
	})
	m := last.clone()
	m.set(app+".image", "nginx:1.26")
	m.set(app+".env", append(m.list(app+".env"), map[string]any{"name": "C", "value": "3"}))
	return live, m.bytes()
}

// BenchmarkApplyUpstream is kubectl apply with the real code
// (GetModifiedConfiguration, GetOriginalConfiguration,
// CreateThreeWayMergePatch, StrategicMergePatch).
func BenchmarkApplyUpstream(b *testing.B) {
	live, manifest := benchApplyInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := realApply(live, manifest, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyOurs is the same with internal/strategicpatch.Apply.
func BenchmarkApplyOurs(b *testing.B) {
	live, manifest := benchApplyInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := smp.Apply(live, manifest, "default", ourSchema, true); err != nil {
			b.Fatal(err)
		}
	}
}
