package surge_test

import (
	"encoding/json"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/surge"
)

// anyValue draws counts and percents over their full ranges, negatives
// included, with small numbers common.
func anyValue(label string) *rapid.Generator[surge.Value] {
	return rapid.Custom(func(t *rapid.T) surge.Value {
		if rapid.Bool().Draw(t, label+" is percent") {
			p := rapid.OneOf(rapid.Int64Range(0, 200), rapid.Int64()).Draw(t, label+"%")
			return surge.Percent(p)
		}
		n := rapid.OneOf(rapid.Int32Range(0, 100), rapid.Int32()).Draw(t, label)
		return surge.Count(n)
	})
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

func anyDesired(t *rapid.T) int32 {
	return rapid.OneOf(rapid.Int32Range(0, 1000), rapid.Int32()).Draw(t, "desired")
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

func TestResolveProperties(t *testing.T) {
	t.Run("matches math/big", rapid.MakeCheck(func(t *rapid.T) {
		s := anyValue("maxSurge").Draw(t, "maxSurge")
		u := anyValue("maxUnavailable").Draw(t, "maxUnavailable")
		desired := anyDesired(t)
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
		s := anyValue("maxSurge").Draw(t, "maxSurge")
		u := anyValue("maxUnavailable").Draw(t, "maxUnavailable")
		desired := anyDesired(t)
		got := surge.Resolve(s, u, desired)
		if got.Surge < 0 || got.Unavailable < 0 {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, has a negative", s, u, desired, got)
		}
		if int64(got.Surge)+int64(got.Unavailable) < 1 {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, Surge+Unavailable < 1", s, u, desired, got)
		}
	}))
	t.Run("unavailable within desired for percent <= 100", rapid.MakeCheck(func(t *rapid.T) {
		s := anyValue("maxSurge").Draw(t, "maxSurge")
		u := surge.Percent(rapid.Int64Range(0, 100).Draw(t, "maxUnavailable%"))
		desired := rapid.Int32Range(1, math.MaxInt32).Draw(t, "desired")
		if got := surge.Resolve(s, u, desired); got.Unavailable > desired {
			t.Fatalf("Resolve(%v, %v, %d) = %+v, Unavailable > desired", s, u, desired, got)
		}
	}))
}

func TestClampedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := anyValue("maxSurge").Draw(t, "maxSurge")
		u := anyValue("maxUnavailable").Draw(t, "maxUnavailable")
		desired := anyDesired(t)
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

func TestScaleProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := anyValue("v").Draw(t, "v")
		total := anyDesired(t)
		wantUp, wantDown := wantScale(v, total)
		if got := v.ScaleUp(total); got != wantUp {
			t.Fatalf("%v.ScaleUp(%d) = %d, want %d", v, total, got, wantUp)
		}
		if got := v.ScaleDown(total); got != wantDown {
			t.Fatalf("%v.ScaleDown(%d) = %d, want %d", v, total, got, wantDown)
		}
	})
}

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
		s := anyValue("maxSurge").Draw(t, "maxSurge")
		u := anyValue("maxUnavailable").Draw(t, "maxUnavailable")
		valid := s.Int() >= 0 && u.Int() >= 0 &&
			!(u.IsPercent() && u.Int() > 100) &&
			!(s.IsZero() && u.IsZero())
		if err := surge.Validate(s, u); (err == nil) != valid {
			t.Fatalf("Validate(%v, %v) = %v, want valid=%v", s, u, err, valid)
		}
	}))
}
