package revision_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/revision"
)

func benchRevs(n int) []revision.Rev {
	revs := make([]revision.Rev, n)
	for i := range revs {
		revs[i] = revision.Rev{N: int64((i * 7919) % n), Valid: i%13 != 0}
	}
	return revs
}

func benchSets(n int) []revision.Set {
	revs := benchRevs(n)
	sets := make([]revision.Set, n)
	for i := range sets {
		sets[i] = revision.Set{
			Name:    "rs-" + strconv.Itoa(i),
			Created: t0.Add(time.Duration(i%10) * time.Second),
			Rev:     revs[i],
			Idle:    i%3 != 0,
		}
	}
	return sets
}

func BenchmarkMax(b *testing.B) {
	revs := benchRevs(100)
	b.ReportAllocs()
	for b.Loop() {
		revision.Max(revs)
	}
}

func BenchmarkPrune(b *testing.B) {
	sets := benchSets(100)
	b.ReportAllocs()
	for b.Loop() {
		revision.Prune(sets, 10)
	}
}

func TestAllocs(t *testing.T) {
	revs := benchRevs(100)
	tests := []struct {
		name string
		f    func()
	}{
		{"Max", func() { revision.Max(revs) }},
		{"Last", func() { revision.Last(revs) }},
		{"Next", func() { _, _ = revision.Next(revs) }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s allocates %v times per run, want 0", tt.name, n)
		}
	}
}
