package schema

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// rat is q's exact value.
func rat(q Quantity) *big.Rat {
	d := q.asDec()
	r := new(big.Rat).SetInt(&d.unscaled)
	if d.scale > 0 {
		return r.Quo(r, new(big.Rat).SetInt(pow10(d.scale)))
	}
	return r.Mul(r, new(big.Rat).SetInt(pow10(-d.scale)))
}

// quantities draws quantities as people write them, and some at the
// edges of the int64 form.
func quantities() *rapid.Generator[Quantity] {
	return rapid.Custom(func(t *rapid.T) Quantity {
		s := rapid.SampledFrom([]string{"0", "1", "100m", "250m", "1500m", "2", "24", "128Mi", "1Gi", "1.5Gi", "3e3",
			"9223372036854775807", "-5", "1n", "7k", "999999999999999999", "123456789012345678901234567890"}).Draw(t, "q")
		return MustParseQuantity(s)
	})
}

// TestQuantityArithmetic: Neg, Sub, Times and Quotient are exact, in
// every form: -q + q = 0, (q - y) = q + (-y), q × n = n additions of q,
// and Quotient(q, y) = floor(q / y) for positive values.
func TestQuantityArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q, y := quantities().Draw(t, "q"), quantities().Draw(t, "y")
		n := rapid.Int64Range(-3, 1<<40).Draw(t, "n")
		if got := rat(q.Neg()); got.Cmp(new(big.Rat).Neg(rat(q))) != 0 {
			t.Fatalf("-(%s) = %s", q, q.Neg())
		}
		diff := q
		diff.Sub(y)
		if want := new(big.Rat).Sub(rat(q), rat(y)); rat(diff).Cmp(want) != 0 {
			t.Fatalf("%s - %s = %s, want %s", q, y, diff, want.FloatString(9))
		}
		if want := new(big.Rat).Mul(rat(q), new(big.Rat).SetInt64(n)); rat(q.Times(n)).Cmp(want) != 0 {
			t.Fatalf("%s × %d = %s, want %s", q, n, q.Times(n), want.FloatString(9))
		}
		got := q.Quotient(y)
		switch {
		case y.Sign() <= 0:
			if got != math.MaxInt64 {
				t.Fatalf("%s / %s = %d, want MaxInt64", q, y, got)
			}
		case q.Sign() <= 0:
			if got != 0 {
				t.Fatalf("%s / %s = %d, want 0", q, y, got)
			}
		default:
			r := new(big.Rat).Quo(rat(q), rat(y))
			want := new(big.Int).Quo(r.Num(), r.Denom())
			if !want.IsInt64() {
				want.SetInt64(math.MaxInt64)
			}
			if got != want.Int64() {
				t.Fatalf("%s / %s = %d, want %d", q, y, got, want)
			}
		}
	})
}

func TestQuantityTimesForm(t *testing.T) {
	for _, c := range []struct {
		q    string
		n    int64
		want string
	}{
		{"500m", 13, "6500m"},
		{"128Mi", 3, "384Mi"},
		{"1Gi", 0, "0"},
		{"9223372036854775807", 2, "18446744073709551614"},
	} {
		if got := MustParseQuantity(c.q).Times(c.n).String(); got != c.want {
			t.Errorf("%s × %d = %s, want %s", c.q, c.n, got, c.want)
		}
	}
}
