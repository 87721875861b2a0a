package schema

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Quantity is resource.Quantity: a decimal or binary amount such as 100m,
// 1.5Gi or 2e3, kept in the same internal form as upstream's, because the
// pod-template-hash is computed over that form.
//
// A value fits an int64 mantissa with a base-10 scale (i), or, when it does
// not, is an arbitrary-precision decimal (d, which is then non-nil). s
// caches the canonical string when parsing found the input already
// canonical, exactly where upstream's parser caches it. Format is how the
// value is written: DecimalSI, BinarySI or DecimalExponent.
//
// The zero Quantity is zero, with no format.
type Quantity struct {
	i      int64Amount
	d      *decAmount
	s      string
	Format string
}

// The formats of a Quantity.
const (
	DecimalExponent = "DecimalExponent" // 12e6
	BinarySI        = "BinarySI"        // 12Mi (12 × 2^20)
	DecimalSI       = "DecimalSI"       // 12M (12 × 10^6)
)

// The scales of the SI suffixes, as powers of ten.
const (
	scaleNano  int32 = -9
	scaleMilli int32 = -3
)

// int64Amount is mantissa × 10^scale.
type int64Amount struct {
	value int64
	scale int32
}

// decAmount is unscaled × 10^-scale, as gopkg.in/inf.v0's Dec (note the
// sign of its scale, the opposite of int64Amount's).
type decAmount struct {
	unscaled big.Int
	scale    int32
}

// Errors of ParseQuantity, worded as upstream's.
var (
	ErrQuantityFormat  = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	ErrQuantitySuffix  = errors.New("unable to parse quantity's suffix")
	// ErrQuantityTooLarge is ours: a quantity with more than 18 significant
	// digits and a decimal exponent over 1000, whose canonical form
	// upstream's code takes minutes to hours, or all memory, to compute.
	ErrQuantityTooLarge = errors.New("quantity too large: more than 18 significant digits with an exponent over 1000")
)

// maxDecimalExponent bounds the exponent of a quantity that does not fit
// an int64 mantissa (see ErrQuantityTooLarge).
const maxDecimalExponent = 1000

// MustParseQuantity is ParseQuantity for quantities written in the program;
// it panics on a malformed one.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic("schema: MustParseQuantity(" + strconv.Quote(s) + "): " + err.Error())
	}
	return q
}

// ParseQuantity parses a quantity as upstream's resource.ParseQuantity
// does, leaving the same internal form: the int64 form when the mantissa and
// scale fit, else the decimal form rounded up to nano units (and capped at
// MaxInt64 for BinarySI).
func ParseQuantity(str string) (Quantity, error) {
	q, canonical, err := parseQuantity(str)
	q.cache(canonical, str)
	return q, err
}

// cache keeps str, the text q was parsed from, as q's string when str is
// q's canonical form, as ParseQuantity and the decoder keep it.
func (q *Quantity) cache(canonical bool, str string) {
	if canonical {
		q.s = str
	}
}

// parseQuantity is ParseQuantity without the cache: it reports whether
// str is the canonical form that ParseQuantity keeps in s, and keeps no
// reference to str, so that a caller can parse a string on its stack.
func parseQuantity(str string) (q Quantity, canonical bool, err error) {
	if str == "" {
		return Quantity{}, false, ErrQuantityFormat
	}
	if str == "0" {
		return Quantity{Format: DecimalSI}, true, nil
	}
	if q, canonical, ok := parsePlain(str); ok {
		return q, canonical, nil
	}
	return parseQuantityLong(str)
}

// parseQuantityLong is parseQuantity for any quantity: upstream's steps.
func parseQuantityLong(str string) (q Quantity, canonical bool, err error) {
	positive, value, num, denom, suf, err := splitQuantity(str)
	if err != nil {
		return Quantity{}, false, err
	}
	base, exponent, format, ok := interpretSuffix(suf)
	if !ok {
		return Quantity{}, false, ErrQuantitySuffix
	}

	precision, scale, mantissa := int32(0), int32(0), int64(1)
	switch format {
	case DecimalExponent, DecimalSI:
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	case BinarySI:
		if exponent >= 0 && denom == "" {
			mantissa <<= uint(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	}

	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= scaleNano {
			// A non-negative precision leaves at most 18 digits, which
			// fit an int64.
			v := appendDigits(appendDigits(0, num), denom)
			if result, ok := mulInt64(v, mantissa); ok {
				if !positive {
					result = -result
				}
				q := Quantity{i: int64Amount{value: result, scale: scale}, Format: format}
				// The input is kept when it is already canonical.
				switch format {
				case BinarySI:
					canonical = exponent%10 == 0 && v&0x07 != 0
				default:
					// The digits, num's then denom's, neither start with 0
					// nor end with 000.
					canonical = scale%3 == 0 && num[0] != '0' && !endsWith000(num, denom)
				}
				return q, canonical, nil
			}
		}
	}

	amount, ok := parseDec(value)
	if !ok {
		return Quantity{}, false, ErrQuantityNumeric
	}
	if base == 10 {
		// An exponent this large would have upstream multiply by a power
		// of ten with billions of digits, which never finishes.
		if int64(amount.scale)-int64(exponent) < -maxDecimalExponent {
			return Quantity{}, false, ErrQuantityTooLarge
		}
		amount.scale -= exponent
	} else {
		amount.unscaled.Lsh(&amount.unscaled, uint(exponent))
	}
	sign := amount.unscaled.Sign()
	if sign < 0 {
		amount.unscaled.Neg(&amount.unscaled)
	}
	// Round anything but zero up to nano units: asking for a tiny amount
	// still gets some.
	if amount.unscaled.Sign() != 0 {
		amount.roundUp(-scaleNano)
	}
	if format == BinarySI && amount.cmp(&decAmount{unscaled: *big.NewInt(1<<63 - 1)}) > 0 {
		amount = &decAmount{unscaled: *big.NewInt(1<<63 - 1)}
	}
	if format == BinarySI && amount.cmp(&decAmount{unscaled: *big.NewInt(1)}) < 0 && amount.unscaled.Sign() > 0 {
		format = DecimalSI
	}
	if sign < 0 {
		amount.unscaled.Neg(&amount.unscaled)
	}
	return Quantity{d: amount, Format: format}, false, nil
}

// parsePlain is parseQuantity for the form most quantities take, worked
// out directly: a whole number without sign or leading zero, of at most
// 18 digits, then one of the SI or binary suffixes or none ("250m",
// "512Mi", "2"), when it fits the int64 form. It reports false for any
// other quantity, which parseQuantity reads the long way (a test holds
// the two equal).
func parsePlain(str string) (q Quantity, canonical, ok bool) {
	n, v := 0, int64(0)
	for ; n < len(str) && isDigit(str[n]); n++ {
		if n == 18 {
			return Quantity{}, false, false
		}
		v = v*10 + int64(str[n]-'0')
	}
	if n == 0 || str[0] == '0' {
		return Quantity{}, false, false
	}
	var exponent int32
	switch len(str) - n {
	case 0:
	case 1:
		switch str[n] {
		case 'n':
			exponent = -9
		case 'u':
			exponent = -6
		case 'm':
			exponent = -3
		case 'k':
			exponent = 3
		case 'M':
			exponent = 6
		case 'G':
			exponent = 9
		case 'T':
			exponent = 12
		case 'P':
			exponent = 15
		case 'E':
			exponent = 18
		default:
			return Quantity{}, false, false
		}
	case 2:
		if str[n+1] == 'i' {
			return parsePlainBinary(str, n, v)
		}
		return Quantity{}, false, false
	default:
		return Quantity{}, false, false
	}
	// The SI suffixes are powers of 1000, so that only trailing zeros keep
	// the form from being canonical.
	return Quantity{i: int64Amount{value: v, scale: exponent}, Format: DecimalSI}, !strings.HasSuffix(str[:n], "000"), true
}

// parsePlainBinary is parsePlain for a binary suffix (str[n] and an i),
// after the n digits of v.
func parsePlainBinary(str string, n int, v int64) (q Quantity, canonical, ok bool) {
	// The power of 1024, k, and the most digits parseQuantity takes in the
	// int64 form with it: its precision, 15 - n - 3k - 1, must not be
	// negative. So v < 10^(14-3k) and v·2^(10k) fits easily.
	var k int
	switch str[n] {
	case 'K':
		k = 1
	case 'M':
		k = 2
	case 'G':
		k = 3
	case 'T':
		k = 4
	default: // Pi and Ei leave no digit; any other is no suffix
		return Quantity{}, false, false
	}
	if n > 14-3*k {
		return Quantity{}, false, false
	}
	return Quantity{i: int64Amount{value: v << (10 * k)}, Format: BinarySI}, v&0x07 != 0, true
}

// splitQuantity scans a quantity into its sign, its numeric part (value,
// with sign and fraction), the digits before the point with leading zeros
// removed (num), the digits after it (denom) and the suffix.
func splitQuantity(str string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(str)
	if str[0] == '-' || str[0] == '+' {
		positive = str[0] == '+'
		pos++
	}
	for pos < end && str[pos] == '0' {
		pos++
	}
	if pos >= end {
		return positive, "0", "0", "", "", nil
	}
	start := pos
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	num = str[start:pos]
	if pos >= end {
		return positive, str, num, "", "", nil
	}
	if num == "" {
		num = "0"
	}
	if str[pos] == '.' {
		pos++
		start = pos
		for pos < end && isDigit(str[pos]) {
			pos++
		}
		denom = str[start:pos]
		if pos >= end {
			return positive, str, num, denom, "", nil
		}
	}
	value = str[:pos]
	suffixStart := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", str[pos]) >= 0 {
		pos++
	}
	if pos >= end {
		return positive, value, num, denom, str[suffixStart:], nil
	}
	if str[pos] == '-' || str[pos] == '+' {
		pos++
	}
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	if pos < end {
		return positive, value, num, denom, "", ErrQuantityFormat
	}
	return positive, value, num, denom, str[suffixStart:], nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// appendDigits returns v followed by the decimal digits of s: v×10^len(s)
// plus their value. The caller makes sure that the result fits an int64.
func appendDigits(v int64, s string) int64 {
	for i := 0; i < len(s); i++ {
		v = v*10 + int64(s[i]-'0')
	}
	return v
}

// endsWith000 reports whether the digits of a followed by those of b end
// with 000.
func endsWith000(a, b string) bool {
	if len(b) >= 3 {
		return strings.HasSuffix(b, "000")
	}
	return b == "00"[:len(b)] && strings.HasSuffix(a, "000"[len(b):])
}

// interpretSuffix returns the base and exponent a suffix stands for and the
// format it implies.
func interpretSuffix(s string) (base, exponent int32, format string, ok bool) {
	switch s {
	case "":
		return 10, 0, DecimalSI, true
	case "n":
		return 10, -9, DecimalSI, true
	case "u":
		return 10, -6, DecimalSI, true
	case "m":
		return 10, -3, DecimalSI, true
	case "k":
		return 10, 3, DecimalSI, true
	case "M":
		return 10, 6, DecimalSI, true
	case "G":
		return 10, 9, DecimalSI, true
	case "T":
		return 10, 12, DecimalSI, true
	case "P":
		return 10, 15, DecimalSI, true
	case "E":
		return 10, 18, DecimalSI, true
	case "Ki":
		return 2, 10, BinarySI, true
	case "Mi":
		return 2, 20, BinarySI, true
	case "Gi":
		return 2, 30, BinarySI, true
	case "Ti":
		return 2, 40, BinarySI, true
	case "Pi":
		return 2, 50, BinarySI, true
	case "Ei":
		return 2, 60, BinarySI, true
	}
	if len(s) > 1 && (s[0] == 'E' || s[0] == 'e') {
		e, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, DecimalExponent, false
		}
		return 10, int32(e), DecimalExponent, true
	}
	return 0, 0, DecimalExponent, false
}

// decimalSuffix and binarySuffix are the suffixes a canonical form uses.
func decimalSuffix(exponent int32) (string, bool) {
	switch exponent {
	case -9:
		return "n", true
	case -6:
		return "u", true
	case -3:
		return "m", true
	case 0:
		return "", true
	case 3:
		return "k", true
	case 6:
		return "M", true
	case 9:
		return "G", true
	case 12:
		return "T", true
	case 15:
		return "P", true
	case 18:
		return "E", true
	}
	return "", false
}

// binarySuffixes are the binary suffixes by their power of 1024.
var binarySuffixes = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

func binarySuffix(exponent int32) (string, bool) {
	switch exponent {
	case 0:
		return "", true
	case 10:
		return "Ki", true
	case 20:
		return "Mi", true
	case 30:
		return "Gi", true
	case 40:
		return "Ti", true
	case 50:
		return "Pi", true
	case 60:
		return "Ei", true
	}
	return "", false
}

// parseDec parses an optionally signed decimal number with an optional
// fraction, as inf.Dec's SetString does.
func parseDec(s string) (*decAmount, bool) {
	digits := make([]byte, 0, len(s))
	point, seenDigit := -1, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case (c == '+' || c == '-') && i == 0:
		case c == '.' && point < 0:
			point = len(digits)
			continue
		case isDigit(c):
			seenDigit = true
		default:
			return nil, false
		}
		digits = append(digits, c)
	}
	if !seenDigit {
		return nil, false
	}
	d := &decAmount{}
	if point >= 0 {
		d.scale = int32(len(digits) - point)
	}
	if _, ok := d.unscaled.SetString(string(digits), 10); !ok {
		return nil, false
	}
	return d, true
}

// String returns the quantity's canonical form, as upstream's String does
// (without caching it).
func (q Quantity) String() string {
	if q.s != "" {
		return q.s
	}
	var buf [24]byte
	return string(q.appendCanonical(buf[:0]))
}

// appendCanonical appends the canonical form of q.
func (q *Quantity) appendCanonical(out []byte) []byte {
	if v := q.i.value; q.d == nil && q.i.scale == 0 && q.Format == BinarySI && v >= 1024 {
		// A whole number of bytes, the commonest memory size: v is
		// m×1024^e, written m with e's suffix, as appendCanonicalLong
		// writes it (removeFactors, by its bits).
		e := bits.TrailingZeros64(uint64(v)) / 10
		out = strconv.AppendInt(out, v>>(10*e), 10)
		return append(out, binarySuffixes[e]...)
	}
	return q.appendCanonicalLong(out)
}

// appendCanonicalLong is appendCanonical for any quantity: upstream's
// steps.
func (q *Quantity) appendCanonicalLong(out []byte) []byte {
	if q.IsZero() {
		return append(out, '0')
	}
	format := q.Format
	var rounded int64Amount
	var roundedDec *decAmount
	switch format {
	case DecimalExponent, DecimalSI:
	case BinarySI:
		if q.cmpInt64(-1024) > 0 && q.cmpInt64(1024) < 0 {
			format = DecimalSI
		} else if q.d != nil {
			roundedDec = q.d.roundedUp(0)
			if roundedDec.cmp(q.d) != 0 {
				format = DecimalSI
			}
		} else {
			var exact bool
			if rounded, exact = q.i.asScale(0); !exact {
				format = DecimalSI
			}
		}
	default:
		format = DecimalExponent
	}
	var number []byte
	var exponent int32
	if format == BinarySI {
		if roundedDec != nil {
			number, exponent = roundedDec.appendBase1024(out)
		} else {
			number, exponent = rounded.appendBase1024(out)
		}
		suffix, _ := binarySuffix(exponent * 10)
		return append(number, suffix...)
	}
	if q.d != nil {
		number, exponent = q.d.appendCanonical(out)
	} else {
		number, exponent = q.i.appendCanonical(out)
	}
	if format == DecimalExponent {
		if exponent != 0 {
			number = append(number, 'e')
			number = strconv.AppendInt(number, int64(exponent), 10)
		}
		return number
	}
	suffix, ok := decimalSuffix(exponent)
	if !ok {
		// Upstream looks the suffix up and finds none: the number alone.
		return number
	}
	return append(number, suffix...)
}

// IsZero reports whether q is zero.
func (q *Quantity) IsZero() bool {
	if q.d != nil {
		return q.d.unscaled.Sign() == 0
	}
	return q.i.value == 0
}

// Sign returns -1, 0 or 1 as q is negative, zero or positive.
func (q *Quantity) Sign() int {
	if q.d != nil {
		return q.d.unscaled.Sign()
	}
	switch {
	case q.i.value > 0:
		return 1
	case q.i.value < 0:
		return -1
	}
	return 0
}

// Cmp compares the values of q and y: -1, 0 or 1. Formats are ignored, so
// 1Gi and 1073741824 are equal, as upstream's Semantic equality finds them.
func (q *Quantity) Cmp(y Quantity) int {
	if q.d == nil && y.d == nil {
		return q.i.cmp(y.i)
	}
	return q.asDec().cmp(y.asDec())
}

func (q *Quantity) cmpInt64(v int64) int {
	if q.d != nil {
		return q.d.cmp(&decAmount{unscaled: *big.NewInt(v)})
	}
	return q.i.cmp(int64Amount{value: v})
}

// asDec returns q's value as a decimal, without changing q.
func (q *Quantity) asDec() *decAmount {
	if q.d != nil {
		return q.d
	}
	return q.i.asDec()
}

// RoundUp rounds q up (away from zero) to a multiple of 10^scale, as
// upstream's RoundUp does; SetDefaults_ResourceList rounds to milli units.
// It reports whether the value was exact.
func (q *Quantity) RoundUp(scale int32) bool {
	if q.d != nil {
		q.s = ""
		r := q.d.roundedUp(-scale)
		exact := r.cmp(q.d) == 0
		q.d = r
		return exact
	}
	if q.i.scale >= scale {
		return true
	}
	q.s = ""
	i, exact := q.i.asScale(scale)
	q.i = i
	return exact
}

// ScaledValue returns ceil(q / 10^scale) as an int64, as upstream's does.
func (q *Quantity) ScaledValue(scale int32) int64 {
	if q.d == nil {
		v, _ := q.i.asScaledInt64(scale)
		return v
	}
	return q.d.scaledValue(scale)
}

// Value returns q rounded up to an integer.
func (q *Quantity) Value() int64 { return q.ScaledValue(0) }

// MilliValue returns q × 1000 rounded up.
func (q *Quantity) MilliValue() int64 { return q.ScaledValue(scaleMilli) }

// Canonical returns the quantity the controller reads back after the API
// server stored q: its canonical form, parsed again.
func (q Quantity) Canonical() Quantity {
	q.canonicalize()
	return q
}

// canonicalize sets q to its Canonical form, writing q only when that
// differs, so that the stored form of a value that a reader shares is
// computed without writing to it.
func (q *Quantity) canonicalize() {
	// A quantity parsed from its canonical form (s), or a binary one that
	// its form parses back to, is its own.
	if q.s != "" || q.binaryFixedPoint() {
		return
	}
	if c := q.canonicalByParsing(); c != *q {
		*q = c
	}
}

// HasScale reports whether q is held in units of 10^scale or coarser, in
// the int64 form, so that RoundUp(scale) leaves it as it is.
func (q *Quantity) HasScale(scale int32) bool { return q.d == nil && q.i.scale >= scale }

// binaryFixedPoint reports that q is a binary quantity in whole units that
// parsing its canonical form gives back unchanged, without writing and
// parsing the form: m×1024^e (e ≥ 1) as m with a suffix such as Mi, where
// m is a multiple of 8, so that the parser does not keep the form (as for
// 512Mi, the commonest kind of memory size), and short enough for the
// parser to stay in int64 (precision 14 - len(m) - 3e ≥ 0). For any other
// quantity it reports false, and Canonical parses.
func (q *Quantity) binaryFixedPoint() bool {
	v := q.i.value
	if q.d != nil || q.i.scale != 0 || q.Format != BinarySI || v < 1024 {
		return false
	}
	e := bits.TrailingZeros64(uint64(v)) / 10 // v's factors of 1024
	m := v >> (10 * e)
	digits := 1
	for n := m; n >= 10; n /= 10 {
		digits++
	}
	return e >= 1 && m&7 == 0 && digits+3*e <= 14
}

// canonicalByParsing is Canonical the long way: q's canonical form, parsed.
func (q Quantity) canonicalByParsing() Quantity {
	// The canonical form is written on the stack and parsed from there;
	// only a form that the parse keeps is copied to the heap.
	var buf [32]byte
	text := q.appendCanonical(buf[:0])
	c, canonical, err := parseQuantity(string(text))
	if err != nil {
		return q // a canonical form always parses
	}
	if canonical {
		c.s = string(text)
	}
	return c
}

// --- int64Amount ---

func (a int64Amount) asDec() *decAmount {
	d := &decAmount{scale: -a.scale}
	d.unscaled.SetInt64(a.value)
	return d
}

func (a int64Amount) cmp(b int64Amount) int {
	switch {
	case a.scale == b.scale:
	case a.scale > b.scale:
		result, remainder, exact := divideByScale(b.value, a.scale-b.scale)
		if !exact {
			return a.asDec().cmp(b.asDec())
		}
		if result == a.value {
			switch {
			case remainder == 0:
				return 0
			case remainder > 0:
				return -1
			default:
				return 1
			}
		}
		b.value = result
	default:
		result, remainder, exact := divideByScale(a.value, b.scale-a.scale)
		if !exact {
			return a.asDec().cmp(b.asDec())
		}
		if result == b.value {
			switch {
			case remainder == 0:
				return 0
			case remainder > 0:
				return 1
			default:
				return -1
			}
		}
		a.value = result
	}
	switch {
	case a.value == b.value:
		return 0
	case a.value < b.value:
		return -1
	}
	return 1
}

func (a int64Amount) asScale(scale int32) (int64Amount, bool) {
	if a.scale >= scale {
		return a, true
	}
	v, exact := scaleDown(a.value, scale-a.scale)
	return int64Amount{value: v, scale: scale}, exact
}

func (a int64Amount) asScaledInt64(scale int32) (int64, bool) {
	if a.scale < scale {
		v, _ := scaleDown(a.value, scale-a.scale)
		return v, true
	}
	return scaleUp(a.value, a.scale-scale)
}

func (a int64Amount) appendCanonical(out []byte) ([]byte, int32) {
	amount, times := removeFactors(a.value, 10)
	exponent := a.scale + times
	var ok bool
	switch exponent % 3 {
	case 1, -2:
		if amount, ok = mulInt64(amount, 10); !ok {
			return a.asDec().appendCanonical(out)
		}
		exponent--
	case 2, -1:
		if amount, ok = mulInt64(amount, 100); !ok {
			return a.asDec().appendCanonical(out)
		}
		exponent -= 2
	}
	return strconv.AppendInt(out, amount, 10), exponent
}

func (a int64Amount) appendBase1024(out []byte) ([]byte, int32) {
	v, ok := a.asScaledInt64(0)
	if !ok {
		return a.asDec().appendBase1024(out)
	}
	amount, exponent := removeFactors(v, 1024)
	return strconv.AppendInt(out, amount, 10), exponent
}

// mulInt64 returns a × b and whether it did not overflow.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 || a == 1 || b == 1 {
		return a * b, true
	}
	if a == -1<<63 || b == -1<<63 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

// scaleUp returns base × 10^scale and whether it fits, as upstream's
// positiveScaleInt64: for the scales 1, 2, 3, 6 and 9 an overflow returns
// the wrapped product with false, for the others 0 and false.
func scaleUp(base int64, scale int32) (int64, bool) {
	mul := func(a, b int64) (int64, bool) {
		if a == 0 || a == 1 {
			return a * b, true
		}
		if a == -1<<63 && b != 1 {
			return 0, false
		}
		c := a * b
		return c, c/b == a
	}
	switch scale {
	case 0:
		return base, true
	case 1:
		return mul(base, 10)
	case 2:
		return mul(base, 100)
	case 3:
		return mul(base, 1000)
	case 6:
		return mul(base, 1000000)
	case 9:
		return mul(base, 1000000000)
	}
	v := base
	for range scale {
		var ok bool
		if v, ok = mul(v, 10); !ok {
			return 0, false
		}
	}
	return v, true
}

// scaleDown returns base / 10^scale rounded away from zero, and whether
// it was exact.
func scaleDown(base int64, scale int32) (int64, bool) {
	if scale == 0 {
		return base, true
	}
	v, fraction := base, false
	for range scale {
		if v%10 != 0 {
			fraction = true
		}
		v /= 10
		if v == 0 {
			if !fraction {
				return 0, true
			}
			if base > 0 {
				return 1, false
			}
			return -1, false
		}
	}
	if fraction {
		if base > 0 {
			v++
		} else {
			v--
		}
	}
	return v, !fraction
}

// divideByScale returns base / 10^scale and base % 10^scale, and false
// when 10^scale does not fit an int64.
func divideByScale(base int64, scale int32) (quo, rem int64, ok bool) {
	if scale == 0 {
		return base, 0, true
	}
	if scale >= 18 {
		return 0, base, false
	}
	d := int64(1)
	for range scale {
		d *= 10
	}
	return base / d, base % d, true
}

// removeFactors divides factor out of v as often as it goes, keeping the
// sign: it returns the rest and how many times factor went.
func removeFactors(v, factor int64) (int64, int32) {
	neg := v < 0
	if neg {
		v = -v
	}
	var times int32
	for v >= factor && v%factor == 0 {
		times++
		v /= factor
	}
	if neg {
		v = -v
	}
	return v, times
}

// --- decAmount ---

var bigTen = big.NewInt(10)

func pow10(n int32) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// rescaled returns d at another scale, truncating toward zero when the
// scale decreases, as inf's rescale does.
func (d *decAmount) rescaled(scale int32) *decAmount {
	r := &decAmount{scale: scale}
	switch shift := scale - d.scale; {
	case shift < 0:
		r.unscaled.Quo(&d.unscaled, pow10(-shift))
	case shift > 0:
		r.unscaled.Mul(&d.unscaled, pow10(shift))
	default:
		r.unscaled.Set(&d.unscaled)
	}
	return r
}

func (d *decAmount) cmp(o *decAmount) int {
	// Signs, then magnitudes, decide most comparisons without scaling a
	// number by a power of ten that may have millions of digits.
	if sd, so := d.unscaled.Sign(), o.unscaled.Sign(); sd != so || sd == 0 {
		switch {
		case sd < so:
			return -1
		case sd > so:
			return 1
		}
		return 0
	}
	if md, mo := d.magnitude(), o.magnitude(); md != mo {
		if (md > mo) == (d.unscaled.Sign() > 0) {
			return 1
		}
		return -1
	}
	a, b := d, o
	if a.scale > b.scale {
		b = b.rescaled(a.scale)
	} else if a.scale < b.scale {
		a = a.rescaled(b.scale)
	}
	return a.unscaled.Cmp(&b.unscaled)
}

// magnitude is the power of ten of d's leading digit, plus one: the
// number of digits of |unscaled| less the scale.
func (d *decAmount) magnitude() int64 {
	return int64(len(new(big.Int).Abs(&d.unscaled).String())) - int64(d.scale)
}

// roundedUp returns d at the given (inf) scale, rounded away from zero.
func (d *decAmount) roundedUp(scale int32) *decAmount {
	r := &decAmount{scale: scale}
	x, y := new(big.Int).Set(&d.unscaled), big.NewInt(1)
	switch shift := scale - d.scale; {
	case shift > 0:
		x.Mul(x, pow10(shift))
	case shift < 0 && int64(-shift) <= int64(len(x.String()))+1:
		y.Mul(y, pow10(-shift))
	}
	if shift := scale - d.scale; shift < 0 && int64(-shift) > int64(len(x.String()))+1 {
		// The divisor has more digits than the dividend: the quotient is 0
		// and, unless the value is 0, rounding away from zero gives ±1.
		// Upstream computes this by dividing by the power of ten, which for
		// an exponent in the millions takes hours.
		r.unscaled.SetInt64(int64(x.Sign()))
		return r
	}
	var rem big.Int
	r.unscaled.QuoRem(x, y, &rem)
	if rem.Sign() != 0 {
		r.unscaled.Add(&r.unscaled, big.NewInt(int64(rem.Sign()*y.Sign())))
	}
	return r
}

// roundUp rounds d in place, as roundedUp.
func (d *decAmount) roundUp(scale int32) { *d = *d.roundedUp(scale) }

func (d *decAmount) appendCanonical(out []byte) ([]byte, int32) {
	amount := new(big.Int).Set(&d.unscaled)
	exponent := -d.scale
	var q, m big.Int
	for amount.Sign() != 0 {
		q.DivMod(amount, bigTen, &m)
		if m.Sign() != 0 {
			break
		}
		exponent++
		amount.Set(&q)
	}
	for exponent%3 != 0 {
		amount.Mul(amount, bigTen)
		exponent--
	}
	return append(out, amount.String()...), exponent
}

func (d *decAmount) appendBase1024(out []byte) ([]byte, int32) {
	r := d.roundedUp(0)
	amount := &r.unscaled
	var exponent int32
	var q, m big.Int
	k := big.NewInt(1024)
	for amount.Sign() != 0 {
		q.DivMod(amount, k, &m)
		if m.Sign() != 0 {
			break
		}
		exponent++
		amount.Set(&q)
	}
	return append(out, amount.String()...), exponent
}

// scaledValue returns d / 10^scale, rounded up, exactly as upstream's
// scaledValue computes it, quirks included: a value below MaxInt64 (every
// negative one) takes a fast path through big.Int's Int64, which keeps the
// low 64 bits of a number that does not fit; the rest divide with
// Euclidean division.
func (d *decAmount) scaledValue(scale int32) int64 {
	dif := int64(d.scale) - int64(-scale)
	switch {
	case dif == 0:
		return d.unscaled.Int64()
	case dif < 0:
		return d.unscaled.Int64() * int64(math.Pow10(int(-dif)))
	}
	if d.unscaled.Cmp(big.NewInt(math.MaxInt64)) < 0 && dif < 19 {
		divide := int64(math.Pow10(int(dif)))
		v := d.unscaled.Int64()
		if v%divide != 0 {
			return v/divide + 1
		}
		return v / divide
	}
	var q, m big.Int
	q.DivMod(&d.unscaled, pow10(int32(dif)), &m)
	if m.Sign() != 0 {
		return q.Int64() + 1
	}
	return q.Int64()
}
