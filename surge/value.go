package surge

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// A Value is either a count of replicas or a percentage of the desired
// replica count: the API's int-or-string for maxSurge and maxUnavailable.
//
// The zero Value is Count(0). Values are comparable with ==: two Values are
// equal when they are the same kind and carry the same number, so Count(5)
// != Percent(5).
//
// A Value can hold numbers the API server refuses (a negative count, a
// negative percent, a maxUnavailable above 100%) so that [Validate] can
// report them; [Resolve] treats them as described there.
type Value struct {
	percent bool
	n       int64
}

// Count returns the plain count n. A negative n is representable; [Validate]
// reports it.
func Count(n int32) Value { return Value{n: int64(n)} }

// Percent returns p percent. A negative p is representable; [Validate]
// reports it. A p above 100 is valid for maxSurge only.
func Percent(p int64) Value { return Value{percent: true, n: p} }

// IsPercent reports whether v is a percentage.
func (v Value) IsPercent() bool { return v.percent }

// Int returns the count, or the percent number (25 for 25%).
func (v Value) Int() int64 { return v.n }

// IsZero reports whether v is the count 0 or 0%: what the API server calls
// zero in its rule that maxSurge and maxUnavailable may not both be zero.
func (v Value) IsZero() bool { return v.n == 0 }

// String returns v as Parse reads it: "3", "-3" or "25%". For every Value
// whose number Parse accepts (any count, a percent >= 0),
// Parse(v.String()) == v.
func (v Value) String() string {
	return string(v.appendText(nil))
}

func (v Value) appendText(b []byte) []byte {
	b = strconv.AppendInt(b, v.n, 10)
	if v.percent {
		b = append(b, '%')
	}
	return b
}

// ErrSyntax reports that an input is neither a count nor a percent string.
var ErrSyntax = errors.New("invalid syntax")

// ErrRange reports that an input's digits do not fit the type: an int32 for
// a count, an int64 for a percent.
var ErrRange = errors.New("value out of range")

// PercentSyntaxDetail is the API server's detail message for a string that is
// not a valid percent. Callers that report a [ParseError] in the API's words
// can use it.
const PercentSyntaxDetail = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%', or '93%', regex used for validation is '[0-9]+%')"

// A ParseError records a failed conversion, like [strconv.NumError]. Err is
// [ErrSyntax] or [ErrRange]; errors.Is sees it through Unwrap.
type ParseError struct {
	Input string // the input that failed: the string for Parse, the decoded string or raw JSON text for UnmarshalJSON
	Err   error  // ErrSyntax or ErrRange
}

// Error returns `surge: parsing "<input>": <err>`, with the input Go-quoted.
func (e *ParseError) Error() string {
	return "surge: parsing " + strconv.Quote(e.Input) + ": " + e.Err.Error()
}

// Unwrap returns e.Err.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads a count or a percent.
//
// A count is an optional '-' and one or more ASCII digits ("3", "-3", "007")
// and must fit an int32. A percent follows the API server's grammar,
// ^[0-9]+%$ ("25%", "025%", "150%"), and its digits must fit an int64.
// Anything else, including "", "%", "+5%", "-5%", "25 %", "5.5%", "25%%" and
// "+3", is a *ParseError wrapping [ErrSyntax]; digits out of range give a
// *ParseError wrapping [ErrRange].
func Parse(s string) (Value, error) {
	if n := len(s); n > 0 && s[n-1] == '%' {
		p, err := parseDigits(s[:n-1], math.MaxInt64)
		if err != nil {
			return Value{}, &ParseError{Input: s, Err: err}
		}
		return Percent(p), nil
	}
	digits, neg := s, false
	if len(s) > 0 && s[0] == '-' {
		digits, neg = s[1:], true
	}
	// The magnitude limit is MaxInt32+1 for a negative count (MinInt32).
	limit := uint64(math.MaxInt32)
	if neg {
		limit++
	}
	m, err := parseDigits(digits, limit)
	if err != nil {
		return Value{}, &ParseError{Input: s, Err: err}
	}
	if neg {
		m = -m
	}
	return Count(int32(m)), nil
}

// parseDigits reads one or more ASCII digits as a number no larger than
// limit (at most MaxInt64). A syntax error wins over a range error, as in
// strconv, so "99999999999x" is ErrSyntax.
func parseDigits(s string, limit uint64) (int64, error) {
	if s == "" {
		return 0, ErrSyntax
	}
	var n uint64
	overflow := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, ErrSyntax
		}
		if overflow {
			continue
		}
		d := uint64(c - '0')
		if n > (limit-d)/10 {
			overflow = true
			continue
		}
		n = n*10 + d
	}
	if overflow {
		return 0, ErrRange
	}
	return int64(n), nil
}

// MarshalJSON writes a count as a JSON number (3) and a percent as a JSON
// string ("25%"), the API's encoding. It never fails; a negative percent is
// written as "-5%", which [Value.UnmarshalJSON] refuses as the API server
// does.
func (v Value) MarshalJSON() ([]byte, error) {
	if !v.percent {
		return v.appendText(nil), nil
	}
	b := append([]byte{'"'}, v.appendText(nil)...)
	return append(b, '"'), nil
}

// UnmarshalJSON reads the API's encoding. A JSON number must be an integer
// literal (no fraction or exponent) that fits an int32 and becomes a Count.
// A JSON string must be a valid percent per [Parse] ("25%"); a string that
// is not a percentage, such as "25", is an error, as it is for the API
// server. Anything else, including null, is an error.
//
// Every error is a *ParseError; its Input is the decoded string for a JSON
// string and the JSON text otherwise. On error, v is unchanged.
//
// A null is refused rather than read as "unset": the API defaults both
// fields before the controller sees them. Use a *Value field where absence
// must be represented; encoding/json leaves it nil for null.
func (v *Value) UnmarshalJSON(b []byte) error {
	if !json.Valid(b) {
		return &ParseError{Input: string(b), Err: ErrSyntax}
	}
	b = bytes.Trim(b, " \t\r\n") // JSON whitespace only
	switch c := b[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return &ParseError{Input: string(b), Err: ErrSyntax}
		}
		if s == "" || s[len(s)-1] != '%' {
			return &ParseError{Input: s, Err: ErrSyntax}
		}
		p, err := Parse(s)
		if err != nil {
			return err
		}
		*v = p
		return nil
	case c == '-' || ('0' <= c && c <= '9'):
		// A valid JSON number; Parse refuses fractions and exponents.
		n, err := Parse(string(b))
		if err != nil {
			return err
		}
		*v = n
		return nil
	default:
		return &ParseError{Input: string(b), Err: ErrSyntax}
	}
}
