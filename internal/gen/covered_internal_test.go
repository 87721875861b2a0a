package gen

import (
	"math"
	"testing"
)

// TestBinomialAtMost holds the tail to figures worked by hand and to
// the sum of the whole distribution.
func TestBinomialAtMost(t *testing.T) {
	for _, c := range []struct {
		k, n int
		p    float64
		want float64
	}{
		{0, 20, 0.2, math.Pow(0.8, 20)},     // 0.0115: what failed CI
		{1, 3, 0.5, 0.5},                    // 1/8 + 3/8
		{2, 4, 0.5, 11.0 / 16},              // (1+4+6)/16
		{-1, 10, 0.5, 0},                    // fewer than none
		{10, 10, 0.3, 1},                    // every outcome
		{0, 10, 0, 1},                       // never drawn
		{9, 10, 1, 0},                       // always drawn
		{0, 100, 0.15, math.Pow(0.85, 100)}, // 8.7e-8
		{1, 100, 0.15, math.Pow(0.85, 100) * (1 + 100*0.15/0.85)}, // 1.6e-6
	} {
		if got := binomialAtMost(c.k, c.n, c.p); math.Abs(got-c.want) > 1e-9*c.want+1e-15 {
			t.Errorf("binomialAtMost(%d, %d, %g) = %g, want %g", c.k, c.n, c.p, got, c.want)
		}
	}
}

// TestCovered: a shortfall luck explains passes, one it does not fails.
func TestCovered(t *testing.T) {
	for _, c := range []struct {
		hits, runs int
		rate       float64
		fails      bool
	}{
		{0, 20, 0.15, false}, // -short's draws: 0 of 20 comes once in 26 runs
		{0, 100, 0.15, true}, // once in 11 million runs
		{1, 100, 0.15, false},
		{2, 300, 0.15, true},
		{30, 300, 0.15, false},
	} {
		ft := &fakeTB{}
		Covered(ft, "met the case", c.hits, c.runs, c.rate)
		if ft.failed != c.fails {
			t.Errorf("Covered(%d of %d at rate %g) failed = %v, want %v", c.hits, c.runs, c.rate, ft.failed, c.fails)
		}
	}
}

type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Errorf(string, ...any) { f.failed = true }
