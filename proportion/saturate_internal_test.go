package proportion

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// int64Edges are the int64 values where a sum or difference starts or
// stops wrapping around.
var int64Edges = []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 2, -2, -1, 0, 1, 2, math.MaxInt64 - 2, math.MaxInt64 - 1, math.MaxInt64}

// clamp64 is x saturated at the int64 bounds.
func clamp64(x *big.Int) int64 {
	switch {
	case x.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return math.MaxInt64
	case x.Cmp(big.NewInt(math.MinInt64)) < 0:
		return math.MinInt64
	}
	return x.Int64()
}

// TestAddSubSat: addSat and subSat are the exact sum and difference,
// saturated at the int64 bounds, for every pair of edge values (where
// wrap-around starts, both ways) and for any int64 pair, edges drawn often.
// Distribute's sums and Proportion's budget rely on them.
func TestAddSubSat(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, a, b int64) {
		x, y := big.NewInt(a), big.NewInt(b)
		if got, want := addSat(a, b), clamp64(new(big.Int).Add(x, y)); got != want {
			t.Fatalf("addSat(%d, %d) = %d, want %d", a, b, got, want)
		}
		if got, want := subSat(a, b), clamp64(new(big.Int).Sub(x, y)); got != want {
			t.Fatalf("subSat(%d, %d) = %d, want %d", a, b, got, want)
		}
	}
	for _, a := range int64Edges {
		for _, b := range int64Edges {
			check(t, a, b)
		}
	}
	anyInt64 := rapid.OneOf(rapid.Int64(), rapid.SampledFrom(int64Edges), rapid.Int64Range(math.MaxInt64-1<<20, math.MaxInt64), rapid.Int64Range(math.MinInt64, math.MinInt64+1<<20))
	rapid.Check(t, func(t *rapid.T) {
		check(t, anyInt64.Draw(t, "a"), anyInt64.Draw(t, "b"))
	})
}
