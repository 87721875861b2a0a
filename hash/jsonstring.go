package hash

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON strings: reading them as encoding/json does, writing them in the
// canonical escaping, checking that escaping, and ordering escaped keys.

// string decodes the string at p.pos as encoding/json does and writes it
// back in canonical escaping.
func (p *parser) string(dst []byte) ([]byte, bool) {
	src := p.src
	i := p.pos + 1
	dst = append(dst, '"')
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return append(dst, '"'), true
		case c < 0x20:
			return dst, false
		case c == '\\':
			if i+1 >= len(src) {
				return dst, false
			}
			switch e := src[i+1]; e {
			case '"', '\\', '/':
				dst = appendASCII(dst, e)
			case 'b':
				dst = appendASCII(dst, '\b')
			case 'f':
				dst = appendASCII(dst, '\f')
			case 'n':
				dst = appendASCII(dst, '\n')
			case 'r':
				dst = appendASCII(dst, '\r')
			case 't':
				dst = appendASCII(dst, '\t')
			case 'u':
				r := hex4(src[i+2:])
				if r < 0 {
					return dst, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// A valid pair is one character; anything else makes
					// this half U+FFFD and leaves the next escape alone.
					if i+1 < len(src) && src[i] == '\\' && src[i+1] == 'u' {
						if pair := utf16.DecodeRune(r, hex4(src[i+2:])); pair != utf8.RuneError {
							r = pair
							i += 6
						}
					}
					if utf16.IsSurrogate(r) {
						r = utf8.RuneError
					}
				}
				dst = appendRune(dst, r)
				continue
			default:
				return dst, false
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			dst = appendRune(dst, r) // an invalid byte decodes as U+FFFD
			i += size
		}
	}
	return dst, false
}

// hex4 returns the value of the four hex digits at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

const hexDigits = "0123456789abcdef"

// appendRune writes r in canonical escaping.
func appendRune(dst []byte, r rune) []byte {
	switch {
	case r < utf8.RuneSelf:
		return appendASCII(dst, byte(r))
	case r == '\u2028', r == '\u2029':
		return append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
	default:
		return utf8.AppendRune(dst, r)
	}
}

// appendASCII writes the ASCII character c in canonical escaping.
func appendASCII(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	if c < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
	return append(dst, c)
}

// scanCanonicalString returns the end of the string that starts at b[i] and
// whether it is written in canonical escaping (see appendASCII, appendRune).
func scanCanonicalString(b []byte, i int) (int, bool) {
	i++ // '"'
	for i < len(b) {
		// Fast path: the printable ASCII bytes that stand for themselves.
		for i < len(b) && b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			if i+1 >= len(b) {
				return i, false
			}
			switch b[i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !canonicalUnicodeEscape(b[i+2:i+6]) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return i, false
			}
			i += size
		}
	}
	return i, false
}

// canonicalUnicodeEscape reports whether \u followed by the four bytes h is
// an escape that appendRune writes: 2028, 2029, or 00XX (lower-case hex) for
// a control character without a short escape.
func canonicalUnicodeEscape(h []byte) bool {
	if string(h) == "2028" || string(h) == "2029" {
		return true
	}
	if h[0] != '0' || h[1] != '0' || (h[2] != '0' && h[2] != '1') {
		return false
	}
	lo := strings.IndexByte(hexDigits, h[3])
	if lo < 0 {
		return false
	}
	switch c := (h[2]-'0')<<4 | byte(lo); c {
	case '\b', '\f', '\n', '\r', '\t':
		return false
	}
	return true
}

// compareKeys compares two canonically escaped strings (without quotes) by
// their decoded bytes, as bytes.Compare would compare the decoded strings.
func compareKeys(a, b []byte) int {
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return bytes.Compare(a, b)
	}
	ua, ub := unescaper{s: a}, unescaper{s: b}
	for {
		ca, okA := ua.next()
		cb, okB := ub.next()
		switch {
		case !okA && !okB:
			return 0
		case !okA:
			return -1
		case !okB:
			return 1
		case ca < cb:
			return -1
		case ca > cb:
			return 1
		}
	}
}

// An unescaper yields the decoded bytes of a canonically escaped string one
// at a time. On input that is not canonical it yields some bytes and never
// panics; callers only compare strings that they have checked or written.
type unescaper struct {
	s      []byte
	buf    [utf8.UTFMax]byte // a character decoded from \u2028 or \u2029
	pos, n int               // buf[pos:n] is still to be yielded
}

func (u *unescaper) next() (byte, bool) {
	if u.pos < u.n {
		c := u.buf[u.pos]
		u.pos++
		return c, true
	}
	if len(u.s) == 0 {
		return 0, false
	}
	c := u.s[0]
	if c != '\\' || len(u.s) < 2 {
		u.s = u.s[1:]
		return c, true
	}
	e := u.s[1]
	u.s = u.s[2:]
	switch e {
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
		r := hex4(u.s)
		if r < 0 {
			return e, true
		}
		u.s = u.s[4:]
		if r < utf8.RuneSelf {
			return byte(r), true
		}
		u.n = utf8.EncodeRune(u.buf[:], r)
		u.pos = 1
		return u.buf[0], true
	default: // '"' or '\\'
		return e, true
	}
}
