package gen

import (
	"math"
	"testing"
)

// unlucky is the chance below which Covered calls a shortfall a fault
// rather than luck: one run in a million.
const unlucky = 1e-6

// Covered fails t when a property test met the case it exists for in
// only hits of its runs draws, where its generators meet that case at
// least at rate (a figure measured over many seeds, rounded down). It
// fails only when a test meeting the case at that rate would see as few
// hits in less than one run in a million, so that luck never fails it:
// under -short, with few draws, it asks for little or nothing, and
// the full run keeps the guard against generators that stopped reaching
// the case.
func Covered(t testing.TB, what string, hits, runs int, rate float64) {
	t.Helper()
	if p := binomialAtMost(hits, runs, rate); p < unlucky {
		t.Errorf("only %d of %d draws %s, where drawing it at a rate of %g gives so few in %.2g of runs: a weak test", hits, runs, what, rate, p)
	}
}

// binomialAtMost is the chance of at most k successes in n trials, each
// a success with probability p.
func binomialAtMost(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n || p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	lgamma := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	lp, lq := math.Log(p), math.Log1p(-p)
	sum := 0.0
	for i := 0; i <= k; i++ {
		fi, fn := float64(i), float64(n)
		sum += math.Exp(lgamma(fn+1) - lgamma(fi+1) - lgamma(fn-fi+1) + fi*lp + (fn-fi)*lq)
	}
	return min(sum, 1)
}
