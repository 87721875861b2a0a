package hash_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/hash"
)

// typical is a small Deployment template with a canonical spec.
var typical = hash.Template{
	Labels: map[string]string{"app": "web"},
	Spec:   []byte(`{"containers":[{"image":"nginx:1.9","name":"nginx"}]}`),
}

func BenchmarkSum(b *testing.B) {
	b.Run("canonical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			hash.Sum(typical)
		}
	})
	b.Run("indented", func(b *testing.B) {
		t := typical
		t.Spec = []byte("{\n  \"containers\": [\n    {\n      \"name\": \"nginx\",\n      \"image\": \"nginx:1.9\"\n    }\n  ]\n}")
		b.ReportAllocs()
		for b.Loop() {
			hash.Sum(t)
		}
	})
	b.Run("collisions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			hash.SumCollisions(typical, 3)
		}
	})
}

func BenchmarkEqual(b *testing.B) {
	rs := typical
	rs.Labels = map[string]string{"app": "web", hash.Label: "6f98bff6bb"}
	rs.Spec = append([]byte(nil), typical.Spec...)
	b.ReportAllocs()
	for b.Loop() {
		hash.Equal(typical, rs)
	}
}

func BenchmarkCanonical(b *testing.B) {
	src := []byte(`{"restartPolicy":"Always","containers":[{"name":"nginx","image":"nginx:1.9","ports":[{"containerPort":80}],"env":null}],"volumes":[],"dnsPolicy":"ClusterFirst"}`)
	dst := make([]byte, 0, 256)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		dst, _ = hash.Canonical(dst[:0], src)
	}
}
