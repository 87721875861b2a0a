package schema

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestParseQuantity pins ParseQuantity on cases checked against upstream's
// resource.ParseQuantity (internal/upstream/difftest runs 200,000 more):
// the canonical form, and whether the canonical input is cached (which the
// hash sees).
func TestParseQuantity(t *testing.T) {
	for _, tc := range []struct {
		in, canonical string
		cached        bool
	}{
		{"0", "0", true},
		{"100m", "100m", true},
		{"0.5", "500m", false},
		{"1", "1", true},
		{"1000m", "1", false},
		{"1.5Gi", "1536Mi", false},
		{"1536Mi", "1536Mi", false}, // 1536 & 7 == 0: upstream does not cache it
		{"1Gi", "1Gi", true},
		{"1e3", "1e3", true},
		{"2k", "2k", true},
		{"1n", "1n", true},
		{"0.0000000001", "1n", false},
		{"12345678901234567890123", "12345678901234567890123", false},
		{"1000E", "1", false}, // upstream has no suffix for 10^21 and drops the exponent
		{"1e-9999999", "1e-9", false},
		{"-3e-99999999", "-1e-9", false},
		{"1e2345678901232", "10e626757615", false}, // the exponent wraps at int32, as upstream's
		{".5", "500m", false},
		{"-", "0", false},
	} {
		q, err := ParseQuantity(tc.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tc.in, err)
			continue
		}
		if got := q.String(); got != tc.canonical {
			t.Errorf("ParseQuantity(%q).String() = %q, want %q", tc.in, got, tc.canonical)
		}
		if got := q.s != ""; got != tc.cached {
			t.Errorf("ParseQuantity(%q) caches its string: %v, want %v", tc.in, got, tc.cached)
		}
	}
}

func TestParseQuantityErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"", ErrQuantityFormat},
		{"abc", ErrQuantityFormat},
		{"1Gb", ErrQuantityFormat},
		{"1K", ErrQuantitySuffix},
		{"e-100", ErrQuantityNumeric},
		{"1234567890123456789e99999999", ErrQuantityTooLarge},
	} {
		if _, err := ParseQuantity(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("ParseQuantity(%q) = %v, want %v", tc.in, err, tc.want)
		}
	}
}

// TestQuantityCmp: formats do not matter, values do.
func TestQuantityCmp(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1Gi", "1073741824", 0},
		{"1", "1000m", 0},
		{"1e3", "1k", 0},
		{"1", "2", -1},
		{"1e626757616", "1e3", 1},
		{"-1", "1n", -1},
		{"12345678901234567890123", "12345678901234567890124", -1},
	} {
		a, b := MustParseQuantity(tc.a), MustParseQuantity(tc.b)
		if got := a.Cmp(b); got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestEndsWith000 checks endsWith000 against the concatenation it
// stands for.
func TestEndsWith000(t *testing.T) {
	parts := []string{"", "0", "00", "000", "0000", "1", "10", "100", "1000", "10000", "01", "001", "0010", "5000"}
	for _, a := range parts {
		for _, b := range parts {
			if got, want := endsWith000(a, b), strings.HasSuffix(a+b, "000"); got != want {
				t.Errorf("endsWith000(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestCanonicalFastPath: Canonical, which skips the parse for binary
// quantities it can tell are unchanged by it, gives what parsing the
// canonical form gives, for quantities around every suffix and the limits
// of the parser's int64 precision, as written and after rounding.
func TestCanonicalFastPath(t *testing.T) {
	var inputs []string
	for _, suffix := range []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "k", "M", "m", "e3"} {
		for _, m := range []int64{1, 7, 8, 16, 24, 512, 1000, 1023, 1024, 1536, 4096, 8192, 99999992, 999999999992, 1 << 40, 1<<40 + 8, 123456789012344} {
			inputs = append(inputs, strconv.FormatInt(m, 10)+suffix, "-"+strconv.FormatInt(m, 10)+suffix, strconv.FormatInt(m, 10)+".5"+suffix)
		}
	}
	for n := int64(1); n < 1<<20; n = n*3 + 8 {
		inputs = append(inputs, strconv.FormatInt(n*1024, 10), strconv.FormatInt(n, 10)+"Ki")
	}
	var qs []Quantity
	for _, in := range inputs {
		q, err := ParseQuantity(in)
		if err != nil {
			continue
		}
		qs = append(qs, q, q.Canonical())
	}
	// Binary quantities m×1024^e in int64 form, with m of every length
	// (multiples of 8 and not), around the parser's precision limit.
	for e := range 7 {
		for m, digits := int64(1), 1; digits <= 18; m, digits = m*10, digits+1 {
			for _, mm := range []int64{m, m + 8, 8*m + 8, m + 1, m*9 + 8} {
				if mm > (1<<63-1)>>(10*e) {
					continue
				}
				v := mm << (10 * e)
				qs = append(qs, Quantity{i: int64Amount{value: v}, Format: BinarySI}, Quantity{i: int64Amount{value: -v}, Format: BinarySI})
			}
		}
	}
	fast := 0
	for _, q := range qs {
		q.s = "" // as after RoundUp
		if q.binaryFixedPoint() {
			fast++
		}
		if got, want := q.Canonical(), q.canonicalByParsing(); !sameQuantity(got, want) {
			t.Errorf("%s: Canonical() = %#v, want %#v", q.String(), got, want)
		}
	}
	if fast == 0 {
		t.Error("no quantity took the fast path")
	}
}

// sameQuantity reports whether a and b hold the same internal form, their
// decimal amounts compared by value.
func sameQuantity(a, b Quantity) bool {
	if a.i != b.i || a.s != b.s || a.Format != b.Format || (a.d == nil) != (b.d == nil) {
		return false
	}
	return a.d == nil || a.d.cmp(b.d) == 0 && a.d.scale == b.d.scale
}

// plainSuffixes are the suffixes parsePlain takes, and others that it
// must leave to the long way.
var plainSuffixes = []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
	"K", "i", "e3", "E3", "mi", "Kii", " ", ".", ".5", "x"}

// TestParsePlainAgreesWithLong: where parsePlain answers, its quantity and
// its judgment of the canonical form are those of parseQuantityLong, on
// numbers of every length from 1 to 20 digits (leading zeros, the 18-digit
// limit, the binary precision limits and int64 overflow among them) with
// every suffix; and it answers for the plain forms within those limits.
func TestParsePlainAgreesWithLong(t *testing.T) {
	var numbers []string
	for n := 1; n <= 20; n++ {
		for _, lead := range []string{"0", "1", "5", "9"} {
			for _, fill := range []string{"0", "7", "9"} {
				numbers = append(numbers, lead+strings.Repeat(fill, n-1), lead+strings.Repeat(fill, max(n-4, 0))+"1000"[:min(n-1, 4)])
			}
		}
	}
	answered := 0
	for _, num := range numbers {
		for _, suf := range plainSuffixes {
			str := num + suf
			q, canonical, ok := parsePlain(str)
			if !ok {
				continue
			}
			answered++
			lq, lcanonical, err := parseQuantityLong(str)
			if err != nil || q != lq || canonical != lcanonical {
				t.Fatalf("%q: parsePlain = %+v, %v; parseQuantityLong = %+v, %v, %v", str, q, canonical, lq, lcanonical, err)
			}
		}
	}
	// The forms it must answer for: no leading zero, at most 15 digits,
	// a suffix from the table, Ki up to 11 digits and Ti up to 2 (the
	// parser's precision).
	for _, str := range []string{"1", "250m", "512Mi", "999999999999999999", "12345678901Ki", "99Ti", "7E"} {
		if _, _, ok := parsePlain(str); !ok {
			t.Errorf("parsePlain(%q) leaves it to the long way", str)
		}
	}
	for _, str := range []string{"0", "01", "1e3", "1.5", "-1", "+1", "1000000000000000000", "123456789012Ki", "1Pi", "1Ei", "1K", ""} {
		if _, _, ok := parsePlain(str); ok {
			t.Errorf("parsePlain(%q) answers", str)
		}
	}
	if answered < 500 {
		t.Fatalf("only %d inputs compared", answered)
	}
}

// TestParsePlainProperty: on any whole number and suffix, parsePlain
// agrees with parseQuantityLong where it answers.
func TestParsePlainProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Int64Min(0).Draw(t, "v") >> rapid.IntRange(0, 62).Draw(t, "shift")
		str := strconv.FormatInt(v, 10) + rapid.SampledFrom(plainSuffixes).Draw(t, "suffix")
		q, canonical, ok := parsePlain(str)
		if !ok {
			return
		}
		lq, lcanonical, err := parseQuantityLong(str)
		if err != nil || q != lq || canonical != lcanonical {
			t.Fatalf("%q: parsePlain = %+v, %v; parseQuantityLong = %+v, %v, %v", str, q, canonical, lq, lcanonical, err)
		}
	})
}

// TestAppendCanonicalBinaryWholeUnits: appendCanonical's shortcut for a
// binary quantity of at least 1024 whole units writes what the long way
// writes, for every power of two and their neighbours, multiples of every
// power of 1024, and random amounts.
func TestAppendCanonicalBinaryWholeUnits(t *testing.T) {
	check := func(v int64) {
		q := Quantity{i: int64Amount{value: v}, Format: BinarySI}
		got, want := string(q.appendCanonical(nil)), string(q.appendCanonicalLong(nil))
		if got != want {
			t.Fatalf("%d: appendCanonical = %s, appendCanonicalLong = %s", v, got, want)
		}
	}
	for shift := range 63 {
		p := int64(1) << shift
		for _, v := range []int64{p - 1, p, p + 1, 3 * p, 1000 * p, 1023 * p, 1025 * p} {
			if v > 0 {
				check(v)
			}
		}
	}
	check(math.MaxInt64)
	rapid.Check(t, func(t *rapid.T) {
		check(rapid.Int64Min(1).Draw(t, "v") << (10 * rapid.IntRange(0, 6).Draw(t, "e")) >> rapid.IntRange(0, 10).Draw(t, "drop"))
	})
}

// TestDecodeQuantityAsParseQuantity: the decoder reads a quantity, by its
// fast path or the long way, as ParseQuantity parses its text (trimmed),
// cached canonical string included, whether it is written right after
// the colon or after a space, and to the end of its string.
func TestDecodeQuantityAsParseQuantity(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, text string) {
		want, werr := ParseQuantity(strings.TrimSpace(text))
		for _, prefix := range []string{"", " "} {
			doc := prefix + `"` + text + `",`
			d := newDecoder([]byte(doc), DecodeOptions{})
			var q Quantity
			d.quantity(&q)
			if (len(d.errs) > 0) != (werr != nil) || werr == nil && !sameQuantity(q, want) || werr == nil && d.pos != len(doc)-1 {
				t.Fatalf("%s: decoded %+v (%v) at %d; ParseQuantity: %+v, %v", doc, q, d.errs, d.pos, want, werr)
			}
		}
	}
	for _, num := range []string{"0", "1", "250", "1000", "07", "999999999999999999", "1000000000000000000", "12345678901", "123456789012"} {
		for _, suf := range plainSuffixes {
			check(t, num+suf)
		}
	}
	for _, text := range []string{"", " 1", "1 ", "-1", "+1", "1.5Gi", "0.1", "1e3", " 2 "} {
		check(t, text)
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, rapid.StringMatching(`[ +-]?[0-9]{0,20}(\.[0-9]{0,3})?([numkMGTPE]|[KMGTPE]i|e[0-9])? ?`).Draw(t, "text"))
	})
}
