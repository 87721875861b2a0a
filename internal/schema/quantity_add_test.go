package schema

import (
	"testing"

	"pgregory.net/rapid"
)

// TestQuantityAdd: sums as upstream's Add gives them (the difftest module
// checks every pair of its pools against upstream itself).
func TestQuantityAdd(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"1", "500m", "1500m"},
		{"0", "1Gi", "1Gi"}, // zero takes the other's format
		{"1Gi", "1Gi", "2Gi"},
		{"9223372036854775807", "1", "9223372036854775808"}, // past int64: decimal
		{"1e18", "1n", "1000000000000000000000000001e-9"},   // keeps 1e18's DecimalExponent
		{"-1", "1", "0"},
	} {
		q := MustParseQuantity(c.a)
		q.Add(MustParseQuantity(c.b))
		if got := q.String(); got != c.want {
			t.Errorf("%s + %s = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// TestScaledValue: upstream's ScaledValue, overflow included.
func TestScaledValue(t *testing.T) {
	for _, c := range []struct {
		q     string
		scale int32
		want  int64
	}{
		{"1", -3, 1000},
		{"1500m", 0, 2},
		{"-1500m", 0, -2},
		{"999999999999999999", -3, 3875820019684211736}, // wrapped, as upstream's
		{"9223372036854775807", -1, -10},                // wrapped
		{"9223372036854775807", -4, -10000},             // 19 digits: the decimal form wraps
		{"999999999999999999", -4, 0},                   // by 10^4 in the int64 form: zero on overflow
		{"1e19", 0, 0},
		{"12345678901234567890123", -3, -7484280360333952776}, // the low 64 bits, times 1000
	} {
		q := MustParseQuantity(c.q)
		if got := q.ScaledValue(c.scale); got != c.want {
			t.Errorf("%s scaled to %d = %d, want %d", c.q, c.scale, got, c.want)
		}
	}
}

// TestQuantityAddProperties: adding is commutative in value, adding zero
// changes nothing, and the sum of two int64-sized amounts compares above
// each when the other is positive.
func TestQuantityAddProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := testQuantity(rapid.Int64().Draw(t, "x"), rapid.Int32Range(-9, 9).Draw(t, "xs"))
		y := testQuantity(rapid.Int64().Draw(t, "y"), rapid.Int32Range(-9, 9).Draw(t, "ys"))
		xy, yx := x, y
		xy.Add(y)
		yx.Add(x)
		if xy.Cmp(yx) != 0 {
			t.Fatalf("%s + %s = %s but %s + %s = %s", x, y, xy, y, x, yx)
		}
		x0 := x
		x0.Add(Quantity{})
		if x0.Cmp(x) != 0 {
			t.Fatalf("%s + 0 = %s", x, x0)
		}
		if y.Sign() > 0 && xy.Cmp(x) <= 0 {
			t.Fatalf("%s + %s = %s, not above %s", x, y, xy, x)
		}
	})
}

// testQuantity is value × 10^scale in the int64 form.
func testQuantity(value int64, scale int32) Quantity {
	return Quantity{i: int64Amount{value: value, scale: scale}, Format: DecimalSI}
}
