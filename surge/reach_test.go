package surge_test

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/surge"
)

// scaleInput is a percent and the desired count it scales against, as the
// properties draw them.
type scaleInput struct {
	v     surge.Value
	total int32
}

// The classes of scaling that the properties must reach, each with the
// least share of draws, in percent, that must fall in it. With 4% or more,
// a property of 100 runs reaches a class with a probability above 98%.
var scaleEdges = []struct {
	name  string
	floor float64
	in    func(product *big.Int, in scaleInput) bool // product: p*total for a percent, nil otherwise
}{
	{"desired within 16 of MaxInt32", 10, func(_ *big.Int, in scaleInput) bool { return in.total >= math.MaxInt32-16 }},
	{"a count within 2 of MaxInt32", 4, func(_ *big.Int, in scaleInput) bool {
		return !in.v.IsPercent() && in.v.Int() >= math.MaxInt32-2
	}},
	{"p% of desired within 2 of MaxInt32 (saturation, either rounding)", 4, func(prod *big.Int, _ scaleInput) bool {
		if prod == nil {
			return false
		}
		q := new(big.Int).Quo(prod, big.NewInt(100))
		return new(big.Int).Abs(q.Sub(q, big.NewInt(math.MaxInt32))).Cmp(big.NewInt(2)) <= 0
	}},
	{"saturating with p*desired below 2^64 (no 128-bit bound involved)", 4, func(prod *big.Int, _ scaleInput) bool {
		return prod != nil && prod.Cmp(big.NewInt(100*math.MaxInt32)) >= 0 && prod.BitLen() <= 64
	}},
	{"p*desired needing 65 bits, below 99 * 2^64", 4, func(prod *big.Int, _ scaleInput) bool {
		return prod != nil && prod.BitLen() > 64 && new(big.Int).Rsh(prod, 64).Cmp(big.NewInt(99)) < 0
	}},
	{"p*desired at 99, 100 or 101 times 2^64 (the 128-bit bound)", 4, func(prod *big.Int, _ scaleInput) bool {
		if prod == nil {
			return false
		}
		hi := new(big.Int).Rsh(prod, 64)
		return hi.Cmp(big.NewInt(99)) >= 0 && hi.Cmp(big.NewInt(101)) <= 0
	}},
	{"a negative value", 4, func(_ *big.Int, in scaleInput) bool { return in.v.Int() < 0 }},
	{"a negative desired", 4, func(_ *big.Int, in scaleInput) bool { return in.total < 0 }},
}

// TestScaleReach measures, over 2000 draws of anyDesired and anyValue from
// fixed seeds, how often each scaling edge comes up, and fails when one
// falls below its floor: the edges are where the 128-bit arithmetic of
// ScaleUp and ScaleDown saturates or would wrap.
func TestScaleReach(t *testing.T) {
	draw := rapid.Custom(func(t *rapid.T) scaleInput {
		total := anyDesired(t)
		return scaleInput{anyValue("v", total).Draw(t, "v"), total}
	})
	const n = 2000
	hits := make([]int, len(scaleEdges))
	for seed := range n {
		in := draw.Example(seed)
		var prod *big.Int
		if in.v.IsPercent() && in.v.Int() > 0 && in.total > 0 {
			prod = new(big.Int).Mul(big.NewInt(in.v.Int()), big.NewInt(int64(in.total)))
		}
		for i, e := range scaleEdges {
			if e.in(prod, in) {
				hits[i]++
			}
		}
	}
	var report strings.Builder
	for i, e := range scaleEdges {
		share := 100 * float64(hits[i]) / n
		fmt.Fprintf(&report, "%5.1f%% (floor %4.1f%%) %s\n", share, e.floor, e.name)
		if share < e.floor {
			t.Errorf("%s: %.1f%% of %d draws, want at least %.1f%%", e.name, share, n, e.floor)
		}
	}
	t.Logf("reach over %d draws:\n%s", n, report.String())
}
