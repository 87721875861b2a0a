package surge_test

import (
	"encoding/json"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/surge"
)

// anyValue draws a count or a percent over their full ranges, negatives
// included, to be scaled against desired:
//
//   - a small number (a count up to 100, a percent up to 200) in about 1
//     of 4 draws;
//   - any int32 count or int64 percent in about 1 of 4;
//   - an edge in about 1 of 2: a count within 2 of math.MaxInt32, or, for
//     desired > 0, a percent within 2 of where p% of desired reaches
//     math.MaxInt32 (saturation, with either rounding), of where p*desired
//     needs more than 64 bits (the saturating window below the 128-bit
//     bound), or of where p*desired reaches 99, 100 or 101 times 2^64
//     (the 128-bit division's bound).
//
// TestScaleReach measures how often each edge comes up.
func anyValue(label string, desired int32) *rapid.Generator[surge.Value] {
	return rapid.Custom(func(t *rapid.T) surge.Value {
		switch rapid.IntRange(0, 3).Draw(t, label+" kind") {
		case 0:
			if rapid.Bool().Draw(t, label+" is percent") {
				return surge.Percent(rapid.Int64Range(0, 200).Draw(t, label+"%"))
			}
			return surge.Count(rapid.Int32Range(0, 100).Draw(t, label))
		case 1:
			if rapid.Bool().Draw(t, label+" is percent") {
				return surge.Percent(rapid.Int64().Draw(t, label+"%"))
			}
			return surge.Count(rapid.Int32().Draw(t, label))
		}
		if desired <= 0 || rapid.IntRange(0, 5).Draw(t, label+" edge") == 0 {
			return surge.Count(math.MaxInt32 - rapid.Int32Range(0, 2).Draw(t, label+" below MaxInt32"))
		}
		delta := rapid.Int64Range(-2, 2).Draw(t, label+" edge delta")
		var edge *big.Int
		switch rapid.IntRange(0, 2).Draw(t, label+" edge kind") {
		case 0: // p*desired/100 at MaxInt32
			edge = new(big.Int).Mul(big.NewInt(100), big.NewInt(math.MaxInt32))
		case 1: // p*desired at 2^64
			edge = new(big.Int).Lsh(big.NewInt(1), 64)
		default: // p*desired at 99..101 times 2^64
			k := rapid.Int64Range(99, 101).Draw(t, label+" edge multiple")
			edge = new(big.Int).Lsh(big.NewInt(k), 64)
		}
		d := big.NewInt(int64(desired))
		p := edge.Add(edge, new(big.Int).Sub(d, big.NewInt(1))).Quo(edge, d) // ceil(edge/desired)
		p.Add(p, big.NewInt(delta))
		if !p.IsInt64() {
			return surge.Percent(math.MaxInt64)
		}
		return surge.Percent(p.Int64())
	})
}

// anyDesired draws a replica count over the whole int32 range, negatives
// included: up to 1000 in about 2 of 5 draws, within 16 of math.MaxInt32
// in about 1 of 5, any int32 otherwise.
func anyDesired(t *rapid.T) int32 {
	return rapid.OneOf(
		rapid.Int32Range(0, 1000), rapid.Int32Range(0, 1000),
		rapid.Int32Range(math.MaxInt32-16, math.MaxInt32),
		rapid.Int32(), rapid.Int32(),
	).Draw(t, "desired")
}

// parsableValue draws Values whose number Parse accepts: any count, a
// percent >= 0.
func parsableValue(label string) *rapid.Generator[surge.Value] {
	return rapid.Custom(func(t *rapid.T) surge.Value {
		if rapid.Bool().Draw(t, label+" is percent") {
			p := rapid.OneOf(rapid.Int64Range(0, 200), rapid.Int64Range(0, math.MaxInt64)).Draw(t, label+"%")
			return surge.Percent(p)
		}
		return surge.Count(rapid.Int32().Draw(t, label))
	})
}

// wantScale is the model for ScaleUp/ScaleDown: math/big for a percent,
// negatives as 0, saturation at MaxInt32.
func wantScale(v surge.Value, total int32) (up, down int32) {
	if v.Int() <= 0 {
		return 0, 0
	}
	if !v.IsPercent() {
		n := int32(min(v.Int(), math.MaxInt32))
		return n, n
	}
	u, d := bigScale(v.Int(), int64(max(total, 0)))
	return int32(u), int32(d)
}

// TestResolveProperties checks Resolve over anyDesired and anyValue, whose
// reach TestScaleReach pins: every run meets desired near MaxInt32,
// percents at the saturation point and in the saturating window below and
// at the 128-bit bound, counts near MaxInt32, and negative values and
// desired counts, for both fields.
func TestResolveProperties(t *testing.T) {
	t.Run("matches math/big", rapid.MakeCheck(func(t *rapid.T) {
		desired := anyDesired(t)
		s := anyValue("maxSurge", desired).Draw(t, "maxSurge")
		u := anyValue("maxUnavailable", desired).Draw(t, "maxUnavailable")
		got := surge.Resolve(s, u, desired)
		wantS, _ := wantScale(s, desired)
		_, wantU := wantScale(u, desired)
		if wantS == 0 && wantU == 0 {
			wantU = 1
		}
		if want := (surge.Limits{Surge: wantS, Unavailable: wantU}); got != want {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, want %+v", s, u, desired, got, want)
		}
	}))
	t.Run("never negative, always progress", rapid.MakeCheck(func(t *rapid.T) {
		desired := anyDesired(t)
		s := anyValue("maxSurge", desired).Draw(t, "maxSurge")
		u := anyValue("maxUnavailable", desired).Draw(t, "maxUnavailable")
		got := surge.Resolve(s, u, desired)
		if got.Surge < 0 || got.Unavailable < 0 {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, has a negative", s, u, desired, got)
		}
		if int64(got.Surge)+int64(got.Unavailable) < 1 {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, Surge+Unavailable < 1", s, u, desired, got)
		}
	}))
	t.Run("unavailable within desired for percent <= 100", rapid.MakeCheck(func(t *rapid.T) {
		desired := rapid.OneOf(rapid.Int32Range(1, math.MaxInt32), rapid.Int32Range(math.MaxInt32-16, math.MaxInt32)).Draw(t, "desired")
		s := anyValue("maxSurge", desired).Draw(t, "maxSurge")
		u := surge.Percent(rapid.Int64Range(0, 100).Draw(t, "maxUnavailable%"))
		if got := surge.Resolve(s, u, desired); got.Unavailable > desired {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, Unavailable > desired", s, u, desired, got)
		}
	}))
}

// TestClampedProperties checks Limits.Clamped over the same draws as
// TestResolveProperties: desired near MaxInt32 and negative, values that
// saturate.
func TestClampedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		desired := anyDesired(t)
		s := anyValue("maxSurge", desired).Draw(t, "maxSurge")
		u := anyValue("maxUnavailable", desired).Draw(t, "maxUnavailable")
		l := surge.Resolve(s, u, desired)
		got := l.Clamped(desired)
		if got.Surge != l.Surge {
			t.Fatalf("Clamped(%d) changed Surge: %+v -> %+v", desired, l, got)
		}
		if got.Unavailable < 0 || (desired >= 0 && got.Unavailable > desired) || (desired <= 0 && got.Unavailable != 0) {
			t.Fatalf("Clamped(%d) of %+v = %+v, Unavailable outside [0, desired]", desired, l, got)
		}
		if got.Unavailable != min(l.Unavailable, max(desired, 0)) {
			t.Fatalf("Clamped(%d) of %+v = %+v, want the minimum", desired, l, got)
		}
	})
}

// TestScaleProperties checks ScaleUp and ScaleDown against math/big over
// the draws whose reach TestScaleReach pins: every edge of the 128-bit
// arithmetic (saturation with either rounding, the window below 2^64, the
// bound at 100 * 2^64) comes up in every run.
func TestScaleProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		total := anyDesired(t)
		v := anyValue("v", total).Draw(t, "v")
		wantUp, wantDown := wantScale(v, total)
		if got := v.ScaleUp(total); got != wantUp {
			t.Fatalf("%v.ScaleUp(%d) = %d, want %d", v, total, got, wantUp)
		}
		if got := v.ScaleDown(total); got != wantDown {
			t.Fatalf("%v.ScaleDown(%d) = %d, want %d", v, total, got, wantDown)
		}
	})
}

// TestParseProperties checks the text and JSON forms: round trips over
// every count and every percent Parse accepts (up to MaxInt64), and
// Validate over anyValue's counts near MaxInt32 and negative values.
func TestParseProperties(t *testing.T) {
	t.Run("String round trip", rapid.MakeCheck(func(t *rapid.T) {
		v := parsableValue("v").Draw(t, "v")
		got, err := surge.Parse(v.String())
		if err != nil || got != v {
			t.Fatalf("Parse(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
	}))
	t.Run("JSON round trip", rapid.MakeCheck(func(t *rapid.T) {
		v := parsableValue("v").Draw(t, "v")
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%v) error: %v", v, err)
		}
		var got surge.Value
		if err := json.Unmarshal(b, &got); err != nil || got != v {
			t.Fatalf("json.Unmarshal(%s) = %v, %v; want %v", b, got, err, v)
		}
	}))
	t.Run("Validate accepts what the API accepts", rapid.MakeCheck(func(t *rapid.T) {
		s := anyValue("maxSurge", 0).Draw(t, "maxSurge")
		u := anyValue("maxUnavailable", 0).Draw(t, "maxUnavailable")
		valid := s.Int() >= 0 && u.Int() >= 0 &&
			!(u.IsPercent() && u.Int() > 100) &&
			!(s.IsZero() && u.IsZero())
		if err := surge.Validate(s, u); (err == nil) != valid {
			t.Fatalf("Validate(%v, %v) = %v, want valid=%v", s, u, err, valid)
		}
	}))
}
