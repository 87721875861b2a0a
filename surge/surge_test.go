package surge_test

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/surge"
)

// upstreamNil marks an input that is a nil *IntOrString upstream.
// ResolveFenceposts treats nil as the integer 0, so it maps to Count(0).
// Parse refuses "nil", so the marker cannot hide a real input.
const upstreamNil = "nil"

// equateValues lets cmp compare Values, whose fields are unexported, with ==.
var equateValues = cmp.Comparer(func(a, b surge.Value) bool { return a == b })

func parseOrNil(s string) (surge.Value, error) {
	if s == upstreamNil {
		return surge.Count(0), nil
	}
	return surge.Parse(s)
}

// errText returns err's message, or "" for nil, so tables can compare errors
// with cmp.Diff.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestResolveFenceposts(t *testing.T) {
	// Upstream: TestResolveFenceposts (B.5). All upstream values are strings
	// or nil. Upstream returns (0, 0, error) for "oops" and "urg"; here the
	// error comes from Parse, and Resolve never sees the value.
	tests := []struct {
		name                     string
		maxSurge, maxUnavailable string
		desired                  int32
		want                     surge.Limits
		wantErr                  string
	}{
		{name: "0%/0% of 0", maxSurge: "0%", maxUnavailable: "0%", desired: 0, want: surge.Limits{Surge: 0, Unavailable: 1}},
		{name: "39%/39% of 10", maxSurge: "39%", maxUnavailable: "39%", desired: 10, want: surge.Limits{Surge: 4, Unavailable: 3}},
		{name: "oops/39% of 10", maxSurge: "oops", maxUnavailable: "39%", desired: 10, wantErr: `surge: parsing "oops": invalid syntax`},
		{name: "55%/urg of 10", maxSurge: "55%", maxUnavailable: "urg", desired: 10, wantErr: `surge: parsing "urg": invalid syntax`},
		{name: "nil/39% of 10", maxSurge: upstreamNil, maxUnavailable: "39%", desired: 10, want: surge.Limits{Surge: 0, Unavailable: 3}},
		{name: "39%/nil of 10", maxSurge: "39%", maxUnavailable: upstreamNil, desired: 10, want: surge.Limits{Surge: 4, Unavailable: 0}},
		{name: "nil/nil of 10", maxSurge: upstreamNil, maxUnavailable: upstreamNil, desired: 10, want: surge.Limits{Surge: 0, Unavailable: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errS := parseOrNil(tt.maxSurge)
			u, errU := parseOrNil(tt.maxUnavailable)
			if err := errors.Join(errS, errU); err != nil {
				if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
					t.Errorf("Parse() error mismatch (-want +got):\n%s", diff)
				}
				if !errors.Is(err, surge.ErrSyntax) {
					t.Errorf("Parse() error %v is not ErrSyntax", err)
				}
				return
			}
			if tt.wantErr != "" {
				t.Fatalf("Parse() succeeded, want error %q", tt.wantErr)
			}
			got := surge.Resolve(s, u, tt.desired)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveClamped(t *testing.T) {
	// Upstream: D.1, computed by running ResolveFenceposts, MaxSurge,
	// MaxUnavailable and MinAvailable (RollingUpdate). MaxSurge is
	// Resolve().Surge, MaxUnavailable is Clamped().Unavailable and
	// MinAvailable is desired minus that.
	tests := []struct {
		name                     string
		maxSurge, maxUnavailable surge.Value
		desired                  int32
		want                     surge.Limits // ResolveFenceposts
		wantClamped              surge.Limits // MaxSurge, MaxUnavailable
		wantMinAvailable         int32
	}{
		{"25%/25% of 10", surge.Percent(25), surge.Percent(25), 10, surge.Limits{Surge: 3, Unavailable: 2}, surge.Limits{Surge: 3, Unavailable: 2}, 8},
		{"25%/25% of 1", surge.Percent(25), surge.Percent(25), 1, surge.Limits{Surge: 1, Unavailable: 0}, surge.Limits{Surge: 1, Unavailable: 0}, 1},
		{"25%/25% of 0", surge.Percent(25), surge.Percent(25), 0, surge.Limits{Surge: 0, Unavailable: 1}, surge.Limits{Surge: 0, Unavailable: 0}, 0},
		{"int 0/25% of 3", surge.Count(0), surge.Percent(25), 3, surge.Limits{Surge: 0, Unavailable: 1}, surge.Limits{Surge: 0, Unavailable: 1}, 2},
		{"0%/0% of 5", surge.Percent(0), surge.Percent(0), 5, surge.Limits{Surge: 0, Unavailable: 1}, surge.Limits{Surge: 0, Unavailable: 1}, 4},
		{"1%/1% of 2", surge.Percent(1), surge.Percent(1), 2, surge.Limits{Surge: 1, Unavailable: 0}, surge.Limits{Surge: 1, Unavailable: 0}, 2},
		{"100%/100% of 7", surge.Percent(100), surge.Percent(100), 7, surge.Limits{Surge: 7, Unavailable: 7}, surge.Limits{Surge: 7, Unavailable: 7}, 0},
		{"int 3/int 0 of 10", surge.Count(3), surge.Count(0), 10, surge.Limits{Surge: 3, Unavailable: 0}, surge.Limits{Surge: 3, Unavailable: 0}, 10},
		{"30%/30% of 7", surge.Percent(30), surge.Percent(30), 7, surge.Limits{Surge: 3, Unavailable: 2}, surge.Limits{Surge: 3, Unavailable: 2}, 5},
		// Upstream (spec §2.5 worked values): 0%/0% of 0 gives 0, 1 unclamped.
		{"0%/0% of 0", surge.Percent(0), surge.Percent(0), 0, surge.Limits{Surge: 0, Unavailable: 1}, surge.Limits{Surge: 0, Unavailable: 0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := surge.Resolve(tt.maxSurge, tt.maxUnavailable, tt.desired)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve() mismatch (-want +got):\n%s", diff)
			}
			clamped := got.Clamped(tt.desired)
			if diff := cmp.Diff(tt.wantClamped, clamped); diff != "" {
				t.Errorf("Clamped() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantMinAvailable, tt.desired-clamped.Unavailable); diff != "" {
				t.Errorf("MinAvailable mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMaxUnavailableMinAvailable(t *testing.T) {
	// Upstream: TestMaxUnavailable (B.11) and TestMinAvailable (B.12), both
	// RollingUpdate with maxSurge int 1. The Recreate rows (result 0) are
	// R-FENCE-5, decided by the strategy, not by this package.
	maxSurge := surge.Count(1)
	tests := []struct {
		name               string
		desired            int32
		maxUnavailable     surge.Value
		wantMaxUnavailable int32 // B.11
		wantMinAvailable   int32 // B.12
	}{
		{name: "less than replicas", desired: 10, maxUnavailable: surge.Count(5), wantMaxUnavailable: 5, wantMinAvailable: 5},
		{name: "equal replicas", desired: 10, maxUnavailable: surge.Count(10), wantMaxUnavailable: 10, wantMinAvailable: 0},
		{name: "greater than replicas", desired: 5, maxUnavailable: surge.Count(10), wantMaxUnavailable: 5, wantMinAvailable: 0},
		{name: "replicas 0", desired: 0, maxUnavailable: surge.Count(10), wantMaxUnavailable: 0, wantMinAvailable: 0},
		{name: "percent less", desired: 10, maxUnavailable: surge.Percent(50), wantMaxUnavailable: 5, wantMinAvailable: 5},
		{name: "percent equal", desired: 10, maxUnavailable: surge.Percent(100), wantMaxUnavailable: 10, wantMinAvailable: 0},
		{name: "percent greater", desired: 5, maxUnavailable: surge.Percent(100), wantMaxUnavailable: 5, wantMinAvailable: 0},
		// B.12 only.
		{name: "percent 60% of 10", desired: 10, maxUnavailable: surge.Percent(60), wantMaxUnavailable: 6, wantMinAvailable: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := surge.Resolve(maxSurge, tt.maxUnavailable, tt.desired).Clamped(tt.desired)
			if diff := cmp.Diff(tt.wantMaxUnavailable, got.Unavailable); diff != "" {
				t.Errorf("Clamped().Unavailable mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantMinAvailable, tt.desired-got.Unavailable); diff != "" {
				t.Errorf("MinAvailable mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClamped(t *testing.T) {
	tests := []struct {
		name    string
		limits  surge.Limits
		desired int32
		want    surge.Limits
	}{
		{name: "below desired", limits: surge.Limits{Surge: 9, Unavailable: 2}, desired: 10, want: surge.Limits{Surge: 9, Unavailable: 2}},
		{name: "above desired", limits: surge.Limits{Surge: 9, Unavailable: 12}, desired: 10, want: surge.Limits{Surge: 9, Unavailable: 10}},
		{name: "desired 0", limits: surge.Limits{Surge: 0, Unavailable: 1}, desired: 0, want: surge.Limits{Surge: 0, Unavailable: 0}},
		{name: "negative desired", limits: surge.Limits{Surge: 4, Unavailable: 1}, desired: -3, want: surge.Limits{Surge: 4, Unavailable: 0}},
		{name: "max desired", limits: surge.Limits{Surge: math.MaxInt32, Unavailable: math.MaxInt32}, desired: math.MaxInt32, want: surge.Limits{Surge: math.MaxInt32, Unavailable: math.MaxInt32}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.limits.Clamped(tt.desired)); diff != "" {
				t.Errorf("Clamped() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPercentScaling(t *testing.T) {
	// Upstream: D.2, GetScaledValueFromIntOrPercent with total 10. Upstream
	// reads an IntOrString, so the inputs here are its JSON form. Rows with
	// a reason are ones our strict grammar refuses: the API server refuses
	// them too, so the controller never sees them.
	tests := []struct {
		name     string
		json     string
		want     surge.Value
		wantUp   int32
		wantDown int32
		reason   string // why UnmarshalJSON refuses the input, where upstream scales it
		wantErr  string
	}{
		{name: `"+25%"`, json: `"+25%"`, reason: "upstream Atoi accepts a sign; the API server's ^[0-9]+%$ does not", wantErr: `surge: parsing "+25%": invalid syntax`},
		{name: `"25" (string)`, json: `"25"`, reason: "upstream also refuses: string is not a percentage", wantErr: `surge: parsing "25": invalid syntax`},
		{name: `" 25%"`, json: `" 25%"`, reason: "upstream also refuses: Atoi rejects the space", wantErr: `surge: parsing " 25%": invalid syntax`},
		{name: `"025%"`, json: `"025%"`, want: surge.Percent(25), wantUp: 3, wantDown: 2},
		{name: `"-5%"`, json: `"-5%"`, reason: "upstream scales it to 0/-1; the API server refuses it (not [0-9]+%)", wantErr: `surge: parsing "-5%": invalid syntax`},
		{name: `"25%%"`, json: `"25%%"`, reason: "upstream also refuses: Atoi rejects the second %", wantErr: `surge: parsing "25%%": invalid syntax`},
		{name: `"%"`, json: `"%"`, reason: "upstream also refuses: no digits", wantErr: `surge: parsing "%": invalid syntax`},
		{name: `"33%"`, json: `"33%"`, want: surge.Percent(33), wantUp: 4, wantDown: 3},
		{name: `"150%"`, json: `"150%"`, want: surge.Percent(150), wantUp: 15, wantDown: 15},
		// Upstream passes -3 through; we resolve negatives as 0 (Validate
		// reports them, as the API server does).
		{name: "int -3", json: `-3`, want: surge.Count(-3), wantUp: 0, wantDown: 0},
		{name: "nil", json: `null`, reason: "upstream also refuses: nil value for IntOrString", wantErr: `surge: parsing "null": invalid syntax`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got surge.Value
			err := got.UnmarshalJSON([]byte(tt.json))
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Fatalf("UnmarshalJSON() error mismatch (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, got, equateValues); diff != "" {
				t.Errorf("UnmarshalJSON() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantUp, got.ScaleUp(10)); diff != "" {
				t.Errorf("ScaleUp(10) mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDown, got.ScaleDown(10)); diff != "" {
				t.Errorf("ScaleDown(10) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScaleRange(t *testing.T) {
	tests := []struct {
		name     string
		v        surge.Value
		total    int32
		wantUp   int32
		wantDown int32
		reason   string
	}{
		{name: "count ignores total", v: surge.Count(7), total: 1000, wantUp: 7, wantDown: 7},
		{name: "count with total 0", v: surge.Count(7), total: 0, wantUp: 7, wantDown: 7},
		{name: "negative count", v: surge.Count(-3), total: 10, wantUp: 0, wantDown: 0, reason: "invalid; resolves as 0"},
		{name: "min count", v: surge.Count(math.MinInt32), total: 10, wantUp: 0, wantDown: 0},
		{name: "max count", v: surge.Count(math.MaxInt32), total: 10, wantUp: math.MaxInt32, wantDown: math.MaxInt32},
		{name: "negative percent", v: surge.Percent(-5), total: 10, wantUp: 0, wantDown: 0, reason: "upstream gives 0/-1; invalid, resolves as 0"},
		{name: "negative total", v: surge.Percent(50), total: -10, wantUp: 0, wantDown: 0, reason: "a negative total counts as 0"},
		{name: "percent of 0", v: surge.Percent(50), total: 0, wantUp: 0, wantDown: 0},
		{name: "1% of 1", v: surge.Percent(1), total: 1, wantUp: 1, wantDown: 0},
		{name: "100% of max", v: surge.Percent(100), total: math.MaxInt32, wantUp: math.MaxInt32, wantDown: math.MaxInt32},
		{name: "99% of max", v: surge.Percent(99), total: math.MaxInt32, wantUp: 2126008811, wantDown: 2126008810},
		{name: "101% of max", v: surge.Percent(101), total: math.MaxInt32, wantUp: math.MaxInt32, wantDown: math.MaxInt32, reason: "saturates"},
		{name: "100000000000% of 10", v: surge.Percent(100000000000), total: 10, wantUp: math.MaxInt32, wantDown: math.MaxInt32, reason: "upstream truncates 10^10 to int32 1410065408; we saturate"},
		{name: "max percent of max", v: surge.Percent(math.MaxInt64), total: math.MaxInt32, wantUp: math.MaxInt32, wantDown: math.MaxInt32, reason: "product needs 94 bits"},
		{name: "max percent of 1", v: surge.Percent(math.MaxInt64), total: 1, wantUp: math.MaxInt32, wantDown: math.MaxInt32},
		// Just below and at the saturation point: ceil crosses it, floor does not.
		{name: "ceil reaches max", v: surge.Percent(214748364701), total: 1, wantUp: math.MaxInt32, wantDown: math.MaxInt32},
		{name: "just below max", v: surge.Percent(214748364650), total: 1, wantUp: math.MaxInt32, wantDown: math.MaxInt32 - 1},
		// Around the bound of the 128-bit product: p*total at 99, 100 and
		// 101 times 2^64, where the high word reaches the divisor 100.
		{name: "product 99 * 2^64", v: surge.Percent(850403525005), total: math.MaxInt32, wantUp: math.MaxInt32, wantDown: math.MaxInt32, reason: "saturates"},
		{name: "product 100 * 2^64", v: surge.Percent(858993459601), total: math.MaxInt32, wantUp: math.MaxInt32, wantDown: math.MaxInt32, reason: "the quotient needs 65 bits"},
		{name: "product 101 * 2^64", v: surge.Percent(867583394197), total: math.MaxInt32, wantUp: math.MaxInt32, wantDown: math.MaxInt32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.wantUp, tt.v.ScaleUp(tt.total)); diff != "" {
				t.Errorf("ScaleUp(%d) mismatch (-want +got):\n%s", tt.total, diff)
			}
			if diff := cmp.Diff(tt.wantDown, tt.v.ScaleDown(tt.total)); diff != "" {
				t.Errorf("ScaleDown(%d) mismatch (-want +got):\n%s", tt.total, diff)
			}
		})
	}
}

// TestScaleExhaustive checks every desired in [0, 100] against every percent
// in [0, 100] with math/big.
func TestScaleExhaustive(t *testing.T) {
	for d := int32(0); d <= 100; d++ {
		for p := int64(0); p <= 100; p++ {
			up, down := bigScale(p, int64(d))
			v := surge.Percent(p)
			if got := v.ScaleUp(d); int64(got) != up {
				t.Errorf("Percent(%d).ScaleUp(%d) = %d, want %d", p, d, got, up)
			}
			if got := v.ScaleDown(d); int64(got) != down {
				t.Errorf("Percent(%d).ScaleDown(%d) = %d, want %d", p, d, got, down)
			}
			for q := int64(0); q <= 100; q += 5 {
				want := surge.Limits{Surge: int32(up), Unavailable: surge.Percent(q).ScaleDown(d)}
				if want.Surge == 0 && want.Unavailable == 0 {
					want.Unavailable = 1
				}
				if got := surge.Resolve(v, surge.Percent(q), d); got != want {
					t.Errorf("Resolve(%d%%, %d%%, %d) = %+v, want %+v", p, q, d, got, want)
				}
			}
		}
	}
}

// bigScale returns ceil and floor of p*total/100, saturated at MaxInt32,
// computed with math/big.Rat.
func bigScale(p, total int64) (up, down int64) {
	r := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(p), big.NewInt(total)), big.NewInt(100))
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int)) // floor for a positive denominator
	fl := new(big.Int).Set(q)
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	sat := func(x *big.Int) int64 {
		if x.Cmp(big.NewInt(math.MaxInt32)) > 0 {
			return math.MaxInt32
		}
		return x.Int64()
	}
	return sat(q), sat(fl)
}

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    surge.Value
		wantErr error // ErrSyntax or ErrRange
		reason  string
	}{
		{in: "0", want: surge.Count(0)},
		{in: "3", want: surge.Count(3)},
		{in: "-3", want: surge.Count(-3), reason: "representable so Validate can report it"},
		{in: "-0", want: surge.Count(0)},
		{in: "007", want: surge.Count(7)},
		{in: "2147483647", want: surge.Count(math.MaxInt32)},
		{in: "-2147483648", want: surge.Count(math.MinInt32)},
		{in: "2147483648", wantErr: surge.ErrRange},
		{in: "-2147483649", wantErr: surge.ErrRange},
		{in: "99999999999999999999", wantErr: surge.ErrRange},
		{in: "0%", want: surge.Percent(0)},
		{in: "25%", want: surge.Percent(25)},
		{in: "05%", want: surge.Percent(5), reason: "leading zeros match [0-9]+%"},
		{in: "150%", want: surge.Percent(150), reason: "valid for maxSurge"},
		{in: "9223372036854775807%", want: surge.Percent(math.MaxInt64)},
		{in: "9223372036854775808%", wantErr: surge.ErrRange},
		{in: "99999999999999999999%", wantErr: surge.ErrRange},
		{in: "", wantErr: surge.ErrSyntax},
		{in: "%", wantErr: surge.ErrSyntax},
		{in: "-", wantErr: surge.ErrSyntax},
		{in: "+5%", wantErr: surge.ErrSyntax, reason: "the API server's grammar has no sign"},
		{in: "-5%", wantErr: surge.ErrSyntax, reason: "the API server's grammar has no sign"},
		{in: "+3", wantErr: surge.ErrSyntax, reason: "a count has only a minus sign, as in JSON"},
		{in: "25 %", wantErr: surge.ErrSyntax},
		{in: " 25%", wantErr: surge.ErrSyntax},
		{in: "25% ", wantErr: surge.ErrSyntax},
		{in: " 3", wantErr: surge.ErrSyntax},
		{in: "5.5%", wantErr: surge.ErrSyntax},
		{in: "1.0", wantErr: surge.ErrSyntax},
		{in: "1e2", wantErr: surge.ErrSyntax},
		{in: "25%%", wantErr: surge.ErrSyntax},
		{in: "%25", wantErr: surge.ErrSyntax},
		{in: "0x10", wantErr: surge.ErrSyntax},
		{in: "٣", wantErr: surge.ErrSyntax, reason: "ASCII digits only"},
		{in: "oops", wantErr: surge.ErrSyntax},
		{in: "99999999999999999999x%", wantErr: surge.ErrSyntax, reason: "syntax wins over range, as in strconv"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := surge.Parse(tt.in)
			if tt.wantErr != nil {
				var pe *surge.ParseError
				if !errors.As(err, &pe) || pe.Input != tt.in || !errors.Is(err, tt.wantErr) {
					t.Fatalf("Parse(%q) error = %v, want *ParseError{Input: %q, Err: %v}", tt.in, err, tt.in, tt.wantErr)
				}
				if got != (surge.Value{}) {
					t.Errorf("Parse(%q) = %v on error, want the zero Value", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got, equateValues); diff != "" {
				t.Errorf("Parse() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"25 %", `surge: parsing "25 %": invalid syntax`},
		{"+5%", `surge: parsing "+5%": invalid syntax`},
		{"2147483648", `surge: parsing "2147483648": value out of range`},
		{"\x00%", `surge: parsing "\x00%": invalid syntax`},
	}
	for _, tt := range tests {
		_, err := surge.Parse(tt.in)
		if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
			t.Errorf("Parse(%q) error mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestValueAccessors(t *testing.T) {
	tests := []struct {
		name        string
		v           surge.Value
		wantString  string
		wantPercent bool
		wantInt     int64
		wantZero    bool
	}{
		{name: "zero Value", v: surge.Value{}, wantString: "0", wantZero: true},
		{name: "Count(0)", v: surge.Count(0), wantString: "0", wantZero: true},
		{name: "Percent(0)", v: surge.Percent(0), wantString: "0%", wantPercent: true, wantZero: true},
		{name: "Count(3)", v: surge.Count(3), wantString: "3", wantInt: 3},
		{name: "Count(-3)", v: surge.Count(-3), wantString: "-3", wantInt: -3},
		{name: "Percent(25)", v: surge.Percent(25), wantString: "25%", wantPercent: true, wantInt: 25},
		{name: "Percent(-5)", v: surge.Percent(-5), wantString: "-5%", wantPercent: true, wantInt: -5},
		{name: "Percent(max)", v: surge.Percent(math.MaxInt64), wantString: "9223372036854775807%", wantPercent: true, wantInt: math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type props struct {
				String  string
				Percent bool
				Int     int64
				Zero    bool
			}
			want := props{tt.wantString, tt.wantPercent, tt.wantInt, tt.wantZero}
			got := props{tt.v.String(), tt.v.IsPercent(), tt.v.Int(), tt.v.IsZero()}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("accessors mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if (surge.Value{}) != surge.Count(0) {
		t.Errorf("zero Value != Count(0)")
	}
	if surge.Count(5) == surge.Percent(5) {
		t.Errorf("Count(5) == Percent(5)")
	}
}

func TestMarshalJSON(t *testing.T) {
	tests := []struct {
		v    surge.Value
		want string
	}{
		{surge.Value{}, `0`},
		{surge.Count(3), `3`},
		{surge.Count(-3), `-3`},
		{surge.Count(math.MinInt32), `-2147483648`},
		{surge.Percent(0), `"0%"`},
		{surge.Percent(25), `"25%"`},
		{surge.Percent(-5), `"-5%"`}, // written, but UnmarshalJSON refuses it
	}
	for _, tt := range tests {
		got, err := tt.v.MarshalJSON()
		if err != nil {
			t.Fatalf("%v.MarshalJSON() error: %v", tt.v, err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("%v.MarshalJSON() mismatch (-want +got):\n%s", tt.v, diff)
		}
	}
}

func TestUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    surge.Value
		wantErr string
	}{
		{name: "count", in: `3`, want: surge.Count(3)},
		{name: "negative count", in: `-3`, want: surge.Count(-3)},
		{name: "minus zero", in: `-0`, want: surge.Count(0)},
		{name: "surrounding whitespace", in: " \t\n3\r ", want: surge.Count(3)},
		{name: "max count", in: `2147483647`, want: surge.Count(math.MaxInt32)},
		{name: "count starting with 9", in: `97`, want: surge.Count(97)},
		{name: "percent", in: `"25%"`, want: surge.Percent(25)},
		{name: "escaped percent", in: `"\u0032\u0035\u0025"`, want: surge.Percent(25)},
		{name: "count out of range", in: `2147483648`, wantErr: `surge: parsing "2147483648": value out of range`},
		{name: "percent out of range", in: `"9223372036854775808%"`, wantErr: `surge: parsing "9223372036854775808%": value out of range`},
		{name: "fraction", in: `3.0`, wantErr: `surge: parsing "3.0": invalid syntax`},
		{name: "exponent", in: `1e2`, wantErr: `surge: parsing "1e2": invalid syntax`},
		{name: "leading zero", in: `03`, wantErr: `surge: parsing "03": invalid syntax`},
		{name: "string count", in: `"25"`, wantErr: `surge: parsing "25": invalid syntax`},
		{name: "empty string", in: `""`, wantErr: `surge: parsing "": invalid syntax`},
		{name: "bad percent", in: `"25 %"`, wantErr: `surge: parsing "25 %": invalid syntax`},
		{name: "null", in: `null`, wantErr: `surge: parsing "null": invalid syntax`},
		{name: "bool", in: `true`, wantErr: `surge: parsing "true": invalid syntax`},
		{name: "object", in: `{"intVal":3}`, wantErr: `surge: parsing "{\"intVal\":3}": invalid syntax`},
		{name: "array", in: `[3]`, wantErr: `surge: parsing "[3]": invalid syntax`},
		{name: "empty", in: ``, wantErr: `surge: parsing "": invalid syntax`},
		{name: "not JSON", in: `25%`, wantErr: `surge: parsing "25%": invalid syntax`},
		{name: "two values", in: `3 4`, wantErr: `surge: parsing "3 4": invalid syntax`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := surge.Percent(77) // unchanged on error
			err := got.UnmarshalJSON([]byte(tt.in))
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Fatalf("UnmarshalJSON() error mismatch (-want +got):\n%s", diff)
			}
			if err != nil {
				var pe *surge.ParseError
				if !errors.As(err, &pe) {
					t.Errorf("UnmarshalJSON() error %T is not a *ParseError", err)
				}
				if got != surge.Percent(77) {
					t.Errorf("UnmarshalJSON() changed the Value to %v on error", got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got, equateValues); diff != "" {
				t.Errorf("UnmarshalJSON() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	// Messages: the API server's (§1.4), relative to the rollingUpdate field.
	tests := []struct {
		name                     string
		maxSurge, maxUnavailable surge.Value
		want                     string // "" for valid
	}{
		{name: "defaults 25%/25%", maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25)},
		{name: "maxSurge 150% allowed", maxSurge: surge.Percent(150), maxUnavailable: surge.Percent(0)},
		{name: "maxUnavailable 100%", maxSurge: surge.Count(0), maxUnavailable: surge.Percent(100)},
		{name: "maxUnavailable count above 100", maxSurge: surge.Count(0), maxUnavailable: surge.Count(150)},
		{name: "1/0", maxSurge: surge.Count(1), maxUnavailable: surge.Count(0)},
		{name: "0/1", maxSurge: surge.Count(0), maxUnavailable: surge.Count(1)},
		{name: "0%/1%", maxSurge: surge.Percent(0), maxUnavailable: surge.Percent(1)},
		{name: "maxUnavailable 125%", maxSurge: surge.Count(1), maxUnavailable: surge.Percent(125),
			want: `maxUnavailable: Invalid value: "125%": must not be greater than 100%`},
		{name: "maxUnavailable 101%", maxSurge: surge.Count(1), maxUnavailable: surge.Percent(101),
			want: `maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{name: "negative maxSurge", maxSurge: surge.Count(-1), maxUnavailable: surge.Count(1),
			want: `maxSurge: Invalid value: -1: must be greater than or equal to 0`},
		{name: "negative maxUnavailable", maxSurge: surge.Count(1), maxUnavailable: surge.Count(-2),
			want: `maxUnavailable: Invalid value: -2: must be greater than or equal to 0`},
		{name: "negative maxSurge percent", maxSurge: surge.Percent(-5), maxUnavailable: surge.Count(1),
			want: `maxSurge: Invalid value: "-5%": must be greater than or equal to 0`},
		{name: "both negative", maxSurge: surge.Count(-1), maxUnavailable: surge.Count(-2),
			want: "maxSurge: Invalid value: -1: must be greater than or equal to 0\n" +
				"maxUnavailable: Invalid value: -2: must be greater than or equal to 0"},
		{name: "negative maxSurge, 200% maxUnavailable", maxSurge: surge.Count(-1), maxUnavailable: surge.Percent(200),
			want: "maxSurge: Invalid value: -1: must be greater than or equal to 0\n" +
				`maxUnavailable: Invalid value: "200%": must not be greater than 100%`},
		{name: "negative maxSurge, 0 maxUnavailable", maxSurge: surge.Count(-1), maxUnavailable: surge.Count(0),
			want: `maxSurge: Invalid value: -1: must be greater than or equal to 0`},
		{name: "both zero 0/0", maxSurge: surge.Count(0), maxUnavailable: surge.Count(0),
			want: "maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{name: "both zero 0%/0%", maxSurge: surge.Percent(0), maxUnavailable: surge.Percent(0),
			want: "maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		{name: "both zero 0/0%", maxSurge: surge.Count(0), maxUnavailable: surge.Percent(0),
			want: "maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		{name: "both zero 0%/0", maxSurge: surge.Percent(0), maxUnavailable: surge.Count(0),
			want: "maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{name: "zero Values", maxSurge: surge.Value{}, maxUnavailable: surge.Value{},
			want: "maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := surge.Validate(tt.maxSurge, tt.maxUnavailable)
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("Validate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateErrorShape(t *testing.T) {
	err := surge.Validate(surge.Count(1), surge.Percent(125))
	ie, ok := err.(*surge.InvalidError)
	if !ok {
		t.Fatalf("Validate() = %T, want a single *InvalidError", err)
	}
	want := surge.InvalidError{Field: "maxUnavailable", Value: surge.Percent(125), Detail: "must not be greater than 100%"}
	if *ie != want {
		t.Errorf("Validate() = %+v, want %+v", *ie, want)
	}

	err = surge.Validate(surge.Count(-1), surge.Count(-2))
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("Validate() = %T, want errors.Join of two", err)
	}
	var fields []string
	for _, e := range joined.Unwrap() {
		var ie *surge.InvalidError
		if !errors.As(e, &ie) {
			t.Fatalf("joined error %T is not an *InvalidError", e)
		}
		fields = append(fields, ie.Field)
	}
	if diff := cmp.Diff([]string{"maxSurge", "maxUnavailable"}, fields); diff != "" {
		t.Errorf("Validate() fields mismatch (-want +got):\n%s", diff)
	}
}
