package apiserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// BenchmarkNormalize is the "ours" half of the side-by-side benchmark in
// internal/upstream/difftest, on the same 1.7 KB template, so that the
// normalization can be measured and profiled without the Kubernetes
// module: strict decoding, the defaults and conversions, and the stored
// form's canonical JSON, with the output buffer reused.
func BenchmarkNormalize(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "upstream", "difftest", "testdata", "bench-template.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		t, res := schema.DecodePodTemplateSpec(data, schema.DecodeOptions{})
		if len(res.Errs) > 0 {
			b.Fatal(res.Errs)
		}
		DefaultPodTemplateSpec(t, FeatureGates{})
		buf = schema.AppendPodTemplateSpec(buf[:0], t, schema.Stored)
	}
}
