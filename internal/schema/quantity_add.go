package schema

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
