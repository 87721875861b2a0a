package surge_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/rolloutmath/rolloutmath/surge"
)

// parseSeeds are the table inputs of TestParse and D.2.
var parseSeeds = []string{
	"0", "3", "-3", "-0", "007", "2147483647", "-2147483648", "2147483648",
	"-2147483649", "0%", "25%", "05%", "025%", "150%", "9223372036854775807%",
	"9223372036854775808%", "", "%", "-", "+5%", "-5%", "+3", "25 %", " 25%",
	"5.5%", "1e2", "25%%", "oops", "urg",
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := surge.Parse(s)
		if err != nil {
			var pe *surge.ParseError
			if !errors.As(err, &pe) || pe.Input != s ||
				!(errors.Is(err, surge.ErrSyntax) || errors.Is(err, surge.ErrRange)) {
				t.Fatalf("Parse(%q) error %#v is not a *ParseError for the input", s, err)
			}
			return
		}
		got, err := surge.Parse(v.String())
		if err != nil || got != v {
			t.Fatalf("Parse(%q) = %v; Parse(String()) = %v, %v", s, v, got, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%v) error: %v", v, err)
		}
		var back surge.Value
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Fatalf("json.Unmarshal(%s) = %v, %v; want %v", b, back, err, v)
		}
	})
}

func FuzzUnmarshalJSON(f *testing.F) {
	for _, s := range []string{
		`0`, `3`, `-3`, `-0`, `2147483647`, `2147483648`, `3.0`, `1e2`, `03`,
		`"25%"`, `"025%"`, `"25"`, `""`, `"%"`, `"+25%"`, `"-5%"`, `" 25%"`,
		`"25%%"`, `"\u0032\u0035\u0025"`, `null`, `true`, `{}`, `[3]`, ``, ` 3 `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v surge.Value
		if err := v.UnmarshalJSON(b); err != nil {
			var pe *surge.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("UnmarshalJSON(%q) error %#v is not a *ParseError", b, err)
			}
			if v != (surge.Value{}) {
				t.Fatalf("UnmarshalJSON(%q) changed the Value to %v on error", b, v)
			}
			return
		}
		out, err := v.MarshalJSON()
		if err != nil {
			t.Fatalf("%v.MarshalJSON() error: %v", v, err)
		}
		var back surge.Value
		if err := back.UnmarshalJSON(out); err != nil || back != v {
			t.Fatalf("UnmarshalJSON(%s) = %v, %v; want %v", out, back, err, v)
		}
		if got, err := surge.Parse(v.String()); err != nil || got != v {
			t.Fatalf("Parse(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
	})
}
