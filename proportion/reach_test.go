package proportion_test

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// fractionInput is one draw of the properties of Fraction and Proportion.
type fractionInput struct {
	s             proportion.Set
	r             proportion.Resize
	toAdd, added  int64
	product       *big.Int // s.Replicas * r.MaxReplicas
	left          *big.Int // toAdd - added, exactly
	fractionValue int64
}

// The classes the properties must reach, with the least share of draws
// (in percent) in each: 4% or more gives a property of 100 runs a
// probability above 98% of meeting each.
var fractionEdges = []struct {
	name  string
	floor float64
	in    func(in fractionInput) bool
}{
	{"a size within 4 of an int32 bound", 10, func(in fractionInput) bool {
		return in.s.Replicas >= math.MaxInt32-4 || in.s.Replicas <= math.MinInt32+4
	}},
	{"r.MaxReplicas within 4 of an int64 bound", 10, func(in fractionInput) bool {
		return in.r.MaxReplicas >= math.MaxInt64-4 || in.r.MaxReplicas <= math.MinInt64+4
	}},
	{"a product needing more than 64 bits", 10, func(in fractionInput) bool { return in.product.BitLen() > 64 }},
	{"Fraction saturating at an int64 bound", 4, func(in fractionInput) bool {
		return in.fractionValue == math.MaxInt64 || in.fractionValue == math.MinInt64
	}},
	{"a product past 2^64 whose Fraction fits int64 unsaturated", 4, func(in fractionInput) bool {
		return in.product.BitLen() > 64 && in.fractionValue != math.MaxInt64 && in.fractionValue != math.MinInt64
	}},
	{"toAdd - added leaving int64 (the budget saturates)", 4, func(in fractionInput) bool { return !in.left.IsInt64() }},
}

// TestFractionReach measures, over 2000 draws of the generators of
// TestFractionProperties and TestProportionProperties from fixed seeds,
// how often the edges of the 128-bit and int64 arithmetic come up, and
// fails when one falls below its floor.
func TestFractionReach(t *testing.T) {
	draw := rapid.Custom(func(t *rapid.T) fractionInput {
		in := fractionInput{
			s:     proportion.Set{Replicas: anyInt32().Draw(t, "s.Replicas"), MaxReplicas: anyInt32().Draw(t, "s.MaxReplicas")},
			r:     genResize().Draw(t, "r"),
			toAdd: anyInt64().Draw(t, "toAdd"),
			added: anyInt64().Draw(t, "added"),
		}
		in.product = new(big.Int).Mul(big.NewInt(int64(in.s.Replicas)), big.NewInt(in.r.MaxReplicas))
		in.left = new(big.Int).Sub(big.NewInt(in.toAdd), big.NewInt(in.added))
		in.fractionValue = proportion.Fraction(in.s, in.r)
		return in
	})
	const n = 2000
	hits := make([]int, len(fractionEdges))
	for seed := range n {
		in := draw.Example(seed)
		for i, e := range fractionEdges {
			if e.in(in) {
				hits[i]++
			}
		}
	}
	var report strings.Builder
	for i, e := range fractionEdges {
		share := 100 * float64(hits[i]) / n
		fmt.Fprintf(&report, "%5.1f%% (floor %4.1f%%) %s\n", share, e.floor, e.name)
		if share < e.floor {
			t.Errorf("%s: %.1f%% of %d draws, want at least %.1f%%", e.name, share, n, e.floor)
		}
	}
	t.Logf("reach over %d draws:\n%s", n, report.String())
}
