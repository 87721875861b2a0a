package apiserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// benchTemplate is the 1.7 KB template of the side-by-side benchmarks in
// internal/upstream/difftest.
func benchTemplate(b *testing.B) []byte {
	data, err := os.ReadFile(filepath.Join("..", "upstream", "difftest", "testdata", "bench-template.json"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkNormalize is the "ours" half of the side-by-side benchmark in
// internal/upstream/difftest, on the same template, so that the
// normalization can be measured and profiled without the Kubernetes
// module: strict decoding, the defaults and conversions, and the stored
// form's canonical JSON, with the output buffer reused.
func BenchmarkNormalize(b *testing.B) {
	data := benchTemplate(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		t, res := schema.DecodePodTemplateSpec(data, schema.DecodeOptions{Version: kubeversion.V1_36})
		if len(res.Errs) > 0 {
			b.Fatal(res.Errs)
		}
		DefaultPodTemplateSpec(t, v136)
		buf = schema.AppendPodTemplateSpec(buf[:0], t, schema.Stored)
	}
}

// BenchmarkNormalizeSteps splits BenchmarkNormalize: decoding alone (with
// everything it allocates), the defaults and conversions on a template
// that has them already (the same work, nothing to change), and writing
// the stored form.
func BenchmarkNormalizeSteps(b *testing.B) {
	data := benchTemplate(b)
	normalized := func(b *testing.B) *schema.PodTemplateSpec {
		t, res := schema.DecodePodTemplateSpec(data, schema.DecodeOptions{Version: kubeversion.V1_36})
		if len(res.Errs) > 0 {
			b.Fatal(res.Errs)
		}
		DefaultPodTemplateSpec(t, v136)
		return t
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			schema.DecodePodTemplateSpec(data, schema.DecodeOptions{Version: kubeversion.V1_36})
		}
	})
	b.Run("default", func(b *testing.B) {
		t := normalized(b)
		b.ReportAllocs()
		for b.Loop() {
			DefaultPodTemplateSpec(t, v136)
		}
	})
	b.Run("encode", func(b *testing.B) {
		t := normalized(b)
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf = schema.AppendPodTemplateSpec(buf[:0], t, schema.Stored)
		}
	})
}
