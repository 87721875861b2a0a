package surge_test

import (
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/surge"
)

var sinkLimits surge.Limits

func BenchmarkResolve(b *testing.B) {
	b.Run("percent", func(b *testing.B) {
		s, u := surge.Percent(25), surge.Percent(25)
		b.ReportAllocs()
		for b.Loop() {
			sinkLimits = surge.Resolve(s, u, 10)
		}
	})
	b.Run("count", func(b *testing.B) {
		s, u := surge.Count(3), surge.Count(0)
		b.ReportAllocs()
		for b.Loop() {
			sinkLimits = surge.Resolve(s, u, 10)
		}
	})
	b.Run("saturating", func(b *testing.B) {
		s, u := surge.Percent(math.MaxInt64), surge.Percent(99)
		b.ReportAllocs()
		for b.Loop() {
			sinkLimits = surge.Resolve(s, u, math.MaxInt32)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	for _, in := range []string{"3", "25%", "9223372036854775807%", "25 %"} {
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = surge.Parse(in)
			}
		})
	}
}

func TestResolveAllocs(t *testing.T) {
	s, u := surge.Percent(25), surge.Percent(math.MaxInt64)
	allocs := testing.AllocsPerRun(100, func() {
		sinkLimits = surge.Resolve(s, u, math.MaxInt32).Clamped(math.MaxInt32)
		_ = s.ScaleUp(10) + u.ScaleDown(10)
	})
	if allocs != 0 {
		t.Errorf("Resolve allocates %v times per run, want 0", allocs)
	}
}
