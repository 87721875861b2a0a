package schema

import (
	"math"
	"math/big"
)

// The arithmetic a ResourceQuota needs besides Add: a pod's usage times a
// number of pods, a quota's hard value less its usage, and how many pods
// fit in what is left. Upstream's quota code adds and subtracts
// resource.Quantity values; it has no product or quotient, so these give
// exact values in the forms Add leaves.

// Neg returns -q, in q's format.
func (q Quantity) Neg() Quantity {
	if q.d != nil {
		d := &decAmount{scale: q.d.scale}
		d.unscaled.Neg(&q.d.unscaled)
		return Quantity{d: d, Format: q.Format}
	}
	if q.i.value == math.MinInt64 {
		d := q.i.asDec()
		d.unscaled.Neg(&d.unscaled)
		return Quantity{d: d, Format: q.Format}
	}
	return Quantity{i: int64Amount{value: -q.i.value, scale: q.i.scale}, Format: q.Format}
}

// Sub subtracts y from q in place, as upstream's Sub does: Add of -y.
func (q *Quantity) Sub(y Quantity) { q.Add(y.Neg()) }

// Times returns q × n, exactly: in the int64 form while the product fits,
// else as a decimal. The format is q's.
func (q Quantity) Times(n int64) Quantity {
	if q.d == nil {
		if v, ok := mulInt64(q.i.value, n); ok {
			return Quantity{i: int64Amount{value: v, scale: q.i.scale}, Format: q.Format}
		}
	}
	x := q.asDec()
	d := &decAmount{scale: x.scale}
	d.unscaled.Mul(&x.unscaled, big.NewInt(n))
	return Quantity{d: d, Format: q.Format}
}

// Quotient returns how many whole times y fits in q: floor(q / y) for a
// positive y, at most math.MaxInt64, and 0 when q is not positive. It is
// math.MaxInt64 for a y that is not positive (anything fits).
func (q *Quantity) Quotient(y Quantity) int64 {
	if y.Sign() <= 0 {
		return math.MaxInt64
	}
	if q.Sign() <= 0 {
		return 0
	}
	a, b := q.asDec(), y.asDec()
	scale := max(a.scale, b.scale)
	var z big.Int
	z.Quo(&a.rescaled(scale).unscaled, &b.rescaled(scale).unscaled)
	if !z.IsInt64() {
		return math.MaxInt64
	}
	return z.Int64()
}
