package proportion_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/proportion"
)

func BenchmarkFraction(b *testing.B) {
	b.ReportAllocs()
	s := proportion.Set{Replicas: 50, MaxReplicas: 110}
	r := proportion.Resize{Replicas: 120, MaxReplicas: 130}
	for b.Loop() {
		proportion.Fraction(s, r)
	}
}

// benchSets returns n sets of varied sizes, all annotated with their sum.
func benchSets(n int) []proportion.Set {
	t := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	sets := make([]proportion.Set, n)
	var total int32
	for i := range sets {
		sets[i] = proportion.Set{
			Name:     fmt.Sprintf("web-%d", i),
			Created:  t.Add(time.Duration(i%7) * time.Second),
			Replicas: int32(1 + i*37%11),
		}
		total += sets[i].Replicas
	}
	for i := range sets {
		sets[i].MaxReplicas = total
	}
	return sets
}

func BenchmarkDistribute(b *testing.B) {
	for _, n := range []int{10, 1000} {
		sets := benchSets(n)
		var total int64
		for _, s := range sets {
			total += int64(s.Replicas)
		}
		for _, dir := range []struct {
			name string
			max  int64
		}{{"up", 3 * total}, {"down", total / 3}} {
			r := proportion.Resize{Replicas: int32(dir.max), MaxReplicas: dir.max}
			b.Run(fmt.Sprintf("sets=%d/%s", n, dir.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					proportion.Distribute(sets, r)
				}
			})
		}
	}
}

func TestFractionAllocs(t *testing.T) {
	s := proportion.Set{Replicas: 40000, MaxReplicas: 50000}
	r := proportion.Resize{Replicas: 60000, MaxReplicas: 60000}
	if n := testing.AllocsPerRun(100, func() { proportion.Fraction(s, r) }); n != 0 {
		t.Errorf("Fraction allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { proportion.Proportion(s, r, 10000, 0) }); n != 0 {
		t.Errorf("Proportion allocates %v times, want 0", n)
	}
	sets := benchSets(10)
	if n := testing.AllocsPerRun(100, func() { proportion.Distribute(sets, r) }); n != 1 {
		t.Errorf("Distribute allocates %v times, want 1 (the result)", n)
	}
}
