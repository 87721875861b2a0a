package difftest

import (
	"encoding/json"
	"os"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// benchTemplate is the three-container, 1.7 KB template of rollout's
// benchmarks, as stored (testdata/bench-template.json).
func benchTemplate(b *testing.B) []byte {
	data, err := os.ReadFile("testdata/bench-template.json")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkHash compares upstream's ComputeHash with ours on the same
// template, in one run.
func BenchmarkHash(b *testing.B) {
	data := benchTemplate(b)
	b.Run("upstream", func(b *testing.B) {
		var t v1.PodTemplateSpec
		if err := json.Unmarshal(data, &t); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			controller.ComputeHash(&t, nil)
		}
	})
	b.Run("ours", func(b *testing.B) {
		t, res := schema.DecodePodTemplateSpec(data, schema.DecodeOptions{Version: kubeversion.V1_36})
		if len(res.Errs) > 0 {
			b.Fatal(res.Errs)
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = hash.Encode(uint32(schema.SpewPodTemplateSpec(hash.NewFNV32a(), t, kubeversion.V1_36)))
		}
	})
	// The sum alone: the label's string is the one allocation above.
	b.Run("ours-sum", func(b *testing.B) {
		t, res := schema.DecodePodTemplateSpec(data, schema.DecodeOptions{Version: kubeversion.V1_36})
		if len(res.Errs) > 0 {
			b.Fatal(res.Errs)
		}
		b.ReportAllocs()
		var sum hash.FNV32a
		for b.Loop() {
			sum ^= schema.SpewPodTemplateSpec(hash.NewFNV32a(), t, kubeversion.V1_36)
		}
		_ = sum
	})
}

// BenchmarkNormalize compares normalizing the 1.7 KB template as the API
// server does, ours (strict decoding, defaults, conversions, stored form,
// canonical JSON) against a typed round trip through k8s.io/api (decoding,
// the real defaulters, marshalling), in one run.
func BenchmarkNormalize(b *testing.B) {
	data := benchTemplate(b)
	b.SetBytes(int64(len(data)))
	b.Run("upstream", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var t v1.PodTemplate
			if err := json.Unmarshal(data, &t.Template); err != nil {
				b.Fatal(err)
			}
			legacyscheme.Scheme.Default(&t)
			if _, err := json.Marshal(&t.Template); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ours", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			t, res := schema.DecodePodTemplateSpec(data, schema.DecodeOptions{Version: kubeversion.V1_36})
			if len(res.Errs) > 0 {
				b.Fatal(res.Errs)
			}
			apiserver.DefaultPodTemplateSpec(t, v136)
			buf = schema.AppendPodTemplateSpec(buf[:0], t, schema.Stored)
		}
	})
}
