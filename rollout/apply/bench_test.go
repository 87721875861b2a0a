package apply_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// BenchmarkApply measures one kubectl apply of an image bump onto a live
// two-container Deployment: the three-way patch, the merge, decoding,
// defaulting, validation, the stored form and the diff.
func BenchmarkApply(b *testing.B) {
	created, err := apply.Create([]byte(base), apply.Options{})
	if err != nil {
		b.Fatal(err)
	}
	live := []byte(stamp(string(created.Stored)))
	next := []byte(replace(base, `"web:1"`, `"web:2"`))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := apply.Apply(live, next, apply.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
