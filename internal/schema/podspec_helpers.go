package schema

import (
	"math"
	"math/big"
)

// Add adds y to q in place, as upstream's Quantity.Add does: while both
// values are in the int64 form and the sum fits, the result stays in that
// form, at the finer of the two scales; otherwise it becomes an
// arbitrary-precision decimal. When q was zero it takes y's format.
// Pod-level resource validation sums the containers' requests and limits
// with it.
func (q *Quantity) Add(y Quantity) {
	q.s = ""
	if q.d == nil && y.d == nil {
		if q.i.value == 0 {
			q.Format = y.Format
		}
		if sum, ok := q.i.add(y.i); ok {
			q.i = sum
			return
		}
	} else if q.IsZero() {
		q.Format = y.Format
	}
	x := q.asDec()
	z := y.asDec()
	scale := max(x.scale, z.scale)
	sum := x.rescaled(scale)
	sum.unscaled.Add(&sum.unscaled, &z.rescaled(scale).unscaled)
	q.d = sum
	q.i = int64Amount{}
}

// add returns a + b at the finer scale, and false when it does not fit an
// int64 (then a is left as it was).
func (a int64Amount) add(b int64Amount) (int64Amount, bool) {
	switch {
	case b.value == 0:
		return a, true
	case a.value == 0:
		return b, true
	case a.scale == b.scale:
		c, ok := addInt64(a.value, b.value)
		return int64Amount{value: c, scale: a.scale}, ok
	case a.scale > b.scale:
		c, ok := scaleUp(a.value, a.scale-b.scale)
		if !ok {
			return a, false
		}
		c, ok = addInt64(c, b.value)
		return int64Amount{value: c, scale: b.scale}, ok
	default:
		c, ok := scaleUp(b.value, b.scale-a.scale)
		if !ok {
			return a, false
		}
		c, ok = addInt64(a.value, c)
		return int64Amount{value: c, scale: a.scale}, ok
	}
}

// addInt64 returns a + b and whether it did not overflow.
func addInt64(a, b int64) (int64, bool) {
	c := a + b
	switch {
	case a > 0 && b > 0 && c < 0:
		return 0, false
	case a < 0 && b < 0 && (c > 0 || a == -1<<63 && b == -1<<63):
		return 0, false
	}
	return c, true
}

// UpstreamScaledValue is ceil(q / 10^scale) exactly as upstream's
// ScaledValue computes it, overflow included, which validation's checks
// (a whole number of an integer resource, of hugepages) observe:
//
//   - in the int64 form, raising by 10, 100, 1000, 10^6 or 10^9 returns the
//     wrapped product when it overflows (0 for MinInt64); raising by any
//     other power returns 0;
//   - in the decimal form, raising multiplies the low 64 bits of the
//     unscaled value by int64(math.Pow10(n)); lowering truncates toward
//     zero then adds 1 when inexact, while the unscaled value is below
//     MaxInt64 and the power below 10^19, and otherwise divides
//     Euclidean-style then adds 1 when inexact.
//
// ScaledValue returns 0 where upstream wraps; it should become this.
func (q *Quantity) UpstreamScaledValue(scale int32) int64 {
	if q.d != nil {
		return q.d.upstreamScaledValue(scale)
	}
	a := q.i
	if a.scale < scale {
		v, _ := scaleDown(a.value, scale-a.scale)
		return v
	}
	switch by := a.scale - scale; by {
	case 0:
		return a.value
	case 1, 2, 3, 6, 9:
		if a.value == math.MinInt64 {
			return 0
		}
		return a.value * int64(math.Pow10(int(by)))
	default:
		v, ok := scaleUp(a.value, by)
		if !ok {
			return 0
		}
		return v
	}
}

func (d *decAmount) upstreamScaledValue(scale int32) int64 {
	dif := d.scale + scale
	switch {
	case dif == 0:
		return d.unscaled.Int64()
	case dif < 0:
		return d.unscaled.Int64() * int64(math.Pow10(int(-dif)))
	}
	if d.unscaled.Cmp(big.NewInt(math.MaxInt64)) < 0 && dif < 19 {
		divide := int64(math.Pow10(int(dif)))
		u := d.unscaled.Int64()
		if u%divide != 0 {
			return u/divide + 1
		}
		return u / divide
	}
	var quo, rem big.Int
	quo.DivMod(&d.unscaled, pow10(dif), &rem)
	if rem.Sign() != 0 {
		return quo.Int64() + 1
	}
	return quo.Int64()
}
