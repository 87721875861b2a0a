package proportion

import (
	"math"
	"math/bits"
	"time"
)

// A Set is one ReplicaSet as proportional scaling sees it.
//
// The zero Set is an empty ReplicaSet with no max-replicas annotation,
// created at the zero time, with the empty name.
type Set struct {
	Name        string    // tie-break for equal sizes and creation times
	Created     time.Time // creation timestamp
	Replicas    int32     // spec.replicas
	MaxReplicas int32     // the max-replicas annotation value; 0 when missing, invalid or "0" (upstream treats all three alike)
}

// Resize describes the Deployment being resized.
//
// The zero Resize is a Deployment scaled to 0, for which every set's
// [Fraction] is minus its size.
type Resize struct {
	Replicas       int32 // the Deployment's spec.replicas (after the change)
	MaxReplicas    int64 // Replicas + resolved maxSurge (int64: the sum may exceed int32)
	StatusReplicas int32 // the Deployment's status.replicas: the fallback denominator when a set has no MaxReplicas
}

// Fraction returns how much s should grow (positive) or shrink (negative)
// when the Deployment is resized as r says, before the budget limits of
// [Proportion] apply (R-SCALE-6, upstream's getReplicaSetFraction):
//
//   - -s.Replicas when r.Replicas == 0 (everything goes);
//   - else, with oldMax = s.MaxReplicas if it is > 0, else r.StatusReplicas:
//     0 when oldMax <= 0 (no usable denominator);
//   - else round(s.Replicas * r.MaxReplicas / oldMax) - s.Replicas, rounding
//     half away from zero (2.5 → 3, -2.5 → -3).
//
// The quotient is computed exactly, in 128-bit integers (quotient and
// remainder, no float64), so the result is exact for every int32 and int64
// input whose result fits in int64. That includes every s.Replicas >= 0 with
// 0 <= r.MaxReplicas <= 2^32 (the most an int32 replica count plus an int32
// surge can reach). A result outside int64 saturates at math.MinInt64 or
// math.MaxInt64, which keeps [Proportion]'s min and max exact. Fraction does
// not allocate.
//
// Differences from upstream, on purpose:
//
//   - Upstream multiplies s.Replicas by r.MaxReplicas in int32 and wraps
//     spec 40000, Deployment replicas 60000, annotation 50000 gives
//     -77899 upstream (a negative target size that validation rejects, so the
//     sync fails forever); Fraction gives the exact +8000.
//   - A negative r.StatusReplicas (which validation forbids) counts as no
//     denominator and gives 0; upstream would divide by it. A negative
//     s.MaxReplicas (which the annotation parser cannot produce) counts as
//     missing.
func Fraction(s Set, r Resize) int64 {
	size := int64(s.Replicas)
	if r.Replicas == 0 {
		return -size // R-SCALE-6 step 1
	}
	oldMax := s.MaxReplicas
	if oldMax <= 0 {
		oldMax = r.StatusReplicas // R-SCALE-6 step 3: missing, invalid or "0"
	}
	if oldMax <= 0 {
		return 0
	}
	return roundedScaleDelta(size, r.MaxReplicas, uint64(oldMax))
}

// Proportion returns the change in s's size when toAdd replicas are being
// distributed and added of them have already gone to sets earlier in the
// scaling order (R-SCALE-5, upstream's GetReplicaSetProportion):
//
//   - 0 when s.Replicas == 0, toAdd == 0 or toAdd == added;
//   - min([Fraction](s, r), toAdd-added) when toAdd > 0;
//   - max(Fraction(s, r), toAdd-added) when toAdd < 0.
//
// So a set never takes more than what is left of the budget, but it may move
// against the direction of toAdd: a set whose s.MaxReplicas exceeds
// r.MaxReplicas shrinks in a scale-up. toAdd-added is computed without
// wrap-around (saturating at the int64 bounds), which leaves the min and max
// exact. Proportion does not allocate.
func Proportion(s Set, r Resize, toAdd, added int64) int64 {
	if s.Replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := Fraction(s, r)
	left := subSat(toAdd, added)
	if toAdd > 0 {
		return min(f, left)
	}
	return max(f, left)
}

// roundedScaleDelta returns round(a*m/d) - a, rounding half away from zero,
// computed exactly in 128-bit two's complement and saturated to int64. |a*m|
// is below 2^94 for an int32 a, so neither the product nor the result can
// overflow 128 bits. d must be > 0.
func roundedScaleDelta(a, m int64, d uint64) int64 {
	negative := (a < 0) != (m < 0)
	ua, um := uint64(a), uint64(m)
	if a < 0 {
		ua = -ua // two's complement: the magnitude, even for math.MinInt64
	}
	if m < 0 {
		um = -um
	}
	// |a*m| = hi·2^64 + lo; divide it by d in two steps so that Div64's
	// precondition (high word < divisor) holds.
	hi, lo := bits.Mul64(ua, um)
	qhi, rhi := hi/d, hi%d
	qlo, rem := bits.Div64(rhi, lo, d)
	if rem >= d-rem { // 2·rem >= d: the fraction is at least one half
		var carry uint64
		qlo, carry = bits.Add64(qlo, 1, 0)
		qhi += carry
	}
	if negative { // negate the 128-bit magnitude
		var borrow uint64
		qlo, borrow = bits.Sub64(0, qlo, 0)
		qhi, _ = bits.Sub64(0, qhi, borrow)
	}
	// Subtract a, sign-extended to 128 bits.
	ahi := uint64(a >> 63)
	rlo, borrow := bits.Sub64(qlo, uint64(a), 0)
	rhi, _ = bits.Sub64(qhi, ahi, borrow)
	switch {
	case rhi == uint64(int64(rlo)>>63): // the high word is only sign: fits int64
		return int64(rlo)
	case int64(rhi) < 0:
		return math.MinInt64
	default:
		return math.MaxInt64
	}
}

// addSat returns a+b, saturated at the int64 bounds instead of wrapping.
func addSat(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// subSat returns a-b, saturated at the int64 bounds instead of wrapping.
func subSat(a, b int64) int64 {
	s := a - b
	switch {
	case a >= 0 && b < 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b > 0 && s >= 0:
		return math.MinInt64
	}
	return s
}
