package surge

import (
	"math"
	"math/bits"
)

// Limits are a rolling update's resolved bounds, in replicas: how many pods
// may exist above the desired count (Surge) and how many of the desired pods
// may be unavailable (Unavailable). [Resolve] and [Limits.Clamped] never
// return a negative field. The zero Limits allow no surge and no unavailable
// pods; Resolve never returns it.
type Limits struct {
	Surge, Unavailable int32
}

// Resolve scales maxSurge (rounding up) and maxUnavailable (rounding down)
// against desired (R-FENCE-1). If both resolve to zero, Unavailable is 1, so a
// rollout can always make progress: Surge+Unavailable >= 1.
//
// For a percent p the results are exactly ceil(p*desired/100) and
// floor(p*desired/100), and a count is taken as it is. Results above
// math.MaxInt32 saturate at math.MaxInt32. A negative value resolves as 0 and
// a negative desired is treated as 0 (both are invalid; [Validate] reports
// the values). Unavailable is not limited to desired here; see
// [Limits.Clamped]. Resolve does not allocate.
func Resolve(maxSurge, maxUnavailable Value, desired int32) Limits {
	desired = max(desired, 0)
	l := Limits{
		Surge:       maxSurge.scale(desired, ceil),
		Unavailable: maxUnavailable.scale(desired, floor),
	}
	// R-FENCE-1 step 3: after rounding, so 0% and 25% of 3 gives 0, 1.
	if l.Surge == 0 && l.Unavailable == 0 {
		l.Unavailable = 1
	}
	return l
}

// Clamped returns l with Unavailable limited to desired, and 0 when
// desired <= 0, as the controller's MaxUnavailable does (R-FENCE-3). Surge is
// unchanged. For Limits from Resolve and desired >= 0,
// 0 <= Clamped(desired).Unavailable <= desired, so desired minus it is the
// minimum number of available pods (R-FENCE-4). A negative Unavailable, which
// Resolve never returns, is kept.
func (l Limits) Clamped(desired int32) Limits {
	l.Unavailable = min(l.Unavailable, max(desired, 0))
	return l
}

// ScaleUp returns v scaled against total, rounding up: ceil(p*total/100) for
// a percent p, the count itself otherwise (R-INT-1 with roundUp). A negative
// v or total counts as 0 and a result above math.MaxInt32 saturates, so the
// result is in [0, math.MaxInt32].
func (v Value) ScaleUp(total int32) int32 { return v.scale(total, ceil) }

// ScaleDown is like [Value.ScaleUp] but rounds a percent down:
// floor(p*total/100).
func (v Value) ScaleDown(total int32) int32 { return v.scale(total, floor) }

// rounding is the direction in which scale rounds a percentage.
type rounding bool

const (
	floor rounding = false
	ceil  rounding = true
)

// scale computes v of total in exact 128-bit integer arithmetic (upstream
// uses float64, exact only for realistic magnitudes: Q-4).
func (v Value) scale(total int32, r rounding) int32 {
	if v.n <= 0 {
		return 0
	}
	if !v.percent {
		return int32(min(v.n, math.MaxInt32))
	}
	if total <= 0 {
		return 0
	}
	// p*total < 2^63 * 2^31, so hi < 2^30 and the quotient needs hi < 100
	// to fit 64 bits; anything larger saturates anyway.
	hi, lo := bits.Mul64(uint64(v.n), uint64(total))
	if hi >= 100 {
		return math.MaxInt32
	}
	q, rem := bits.Div64(hi, lo, 100)
	if q >= math.MaxInt32 {
		return math.MaxInt32
	}
	if r == ceil && rem != 0 {
		q++
	}
	return int32(q)
}
