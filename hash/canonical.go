package hash

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// maxDepth is encoding/json's nesting limit. Using the same limit keeps the
// rule "Canonical succeeds exactly when json.Valid reports true".
const maxDepth = 10000

// Canonical appends to dst the canonical encoding of the JSON value src and
// returns the extended slice. The canonical encoding
//
//   - has no insignificant whitespace;
//   - sorts object members by key, comparing the decoded keys byte-wise;
//   - keeps only the last of several members with the same key (encoding/json
//     decodes duplicates that way);
//   - drops object members whose value is null or an empty array, because
//     the API decodes an absent field, a null and an empty list alike;
//   - keeps empty objects (a set pointer to an empty struct differs from an
//     absent one), and keeps null and [] elements inside arrays;
//   - writes every string as encoding/json does with HTML escaping off
//     (\" \\ \b \f \n \r \t, \u00XX for other control characters, \u2028 and
//     \u2029, everything else verbatim, invalid UTF-8 replaced by U+FFFD);
//   - keeps numbers as their literal text, so 1, 1.0 and 1e0 stay different.
//
// Empty src, or src of only JSON whitespace (space, tab, CR, LF), encodes as
// {}. Canonical succeeds exactly when src is blank or json.Valid(src) is
// true. Otherwise it returns dst unchanged and an error that names the offset
// of the problem and wraps the *json.SyntaxError encoding/json reports.
//
// Canonical is idempotent: Canonical(nil, Canonical(nil, x)) equals
// Canonical(nil, x), and [IsCanonical] reports true for its result. The
// result decodes (with encoding/json and UseNumber) to the same value as src
// once null and empty-array members are removed from both. dst and src must
// not overlap.
func Canonical(dst, src []byte) ([]byte, error) {
	p := parser{src: src}
	p.skipSpace()
	if p.pos == len(src) {
		return append(dst, "{}"...), nil
	}
	out, ok := p.value(dst, 0)
	if ok {
		p.skipSpace()
		ok = p.pos == len(src)
	}
	if !ok {
		return dst, syntaxError(src, p.pos)
	}
	return out, nil
}

// syntaxError builds the error Canonical returns for invalid src. The message
// and offset come from encoding/json so that users see the familiar text.
func syntaxError(src []byte, pos int) error {
	var raw json.RawMessage
	err := json.Unmarshal(src, &raw)
	if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
		return fmt.Errorf("hash: invalid JSON at offset %d: %w", se.Offset, err)
	}
	// Not reached while this parser and encoding/json agree (FuzzCanonical
	// checks that they do).
	return fmt.Errorf("hash: invalid JSON at offset %d", pos)
}

// A parser reads one JSON value from src and writes its canonical encoding.
// Every method reports false on invalid input; the caller turns that into
// an error.
type parser struct {
	src []byte
	pos int
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value encodes the value at p.pos, which is not whitespace.
func (p *parser) value(dst []byte, depth int) ([]byte, bool) {
	if p.pos >= len(p.src) {
		return dst, false
	}
	switch c := p.src[p.pos]; c {
	case '{':
		return p.object(dst, depth+1)
	case '[':
		return p.array(dst, depth+1)
	case '"':
		return p.string(dst)
	case 't':
		return p.literal(dst, "true")
	case 'f':
		return p.literal(dst, "false")
	case 'n':
		return p.literal(dst, "null")
	default:
		end, ok := scanNumber(p.src, p.pos)
		if !ok {
			return dst, false
		}
		dst = append(dst, p.src[p.pos:end]...)
		p.pos = end
		return dst, true
	}
}

func (p *parser) literal(dst []byte, lit string) ([]byte, bool) {
	if !hasPrefix(p.src[p.pos:], lit) {
		return dst, false
	}
	p.pos += len(lit)
	return append(dst, lit...), true
}

func hasPrefix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[:len(s)]) == s
}

// A member records where one object member was written in dst: the key
// (with quotes) is dst[key:colon], the value dst[colon+1:end].
type member struct {
	key, colon, end int
}

func (p *parser) object(dst []byte, depth int) ([]byte, bool) {
	if depth > maxDepth {
		return dst, false
	}
	p.pos++ // '{'
	start := len(dst)
	dst = append(dst, '{')
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return append(dst, '}'), true
	}
	var stack [8]member
	members := stack[:0]
	inOrder := true // keys strictly increasing and no member to drop
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return dst, false
		}
		m := member{key: len(dst)}
		var ok bool
		if dst, ok = p.string(dst); !ok {
			return dst, false
		}
		m.colon = len(dst)
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return dst, false
		}
		p.pos++
		dst = append(dst, ':')
		p.skipSpace()
		if dst, ok = p.value(dst, depth); !ok {
			return dst, false
		}
		m.end = len(dst)
		if dropped(dst[m.colon+1 : m.end]) {
			inOrder = false
		}
		if n := len(members); n > 0 && compareKeys(keyOf(dst, members[n-1]), keyOf(dst, m)) >= 0 {
			inOrder = false
		}
		members = append(members, m)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return dst, false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			dst = append(dst, ',')
			continue
		case '}':
			p.pos++
		default:
			return dst, false
		}
		break
	}
	if inOrder {
		return append(dst, '}'), true
	}
	return reorder(dst, start, members), true
}

// reorder rewrites the members written after dst[start] = '{' in canonical
// order and closes the object.
func reorder(dst []byte, start int, members []member) []byte {
	// A stable sort keeps duplicates in input order, so the last of each run
	// of equal keys is the one encoding/json would keep.
	slices.SortStableFunc(members, func(a, b member) int {
		return compareKeys(keyOf(dst, a), keyOf(dst, b))
	})
	body := slices.Clone(dst[start:])
	dst = dst[:start+1]
	first := true
	for i, m := range members {
		if i+1 < len(members) && compareKeys(keyOf(body, shift(m, start)), keyOf(body, shift(members[i+1], start))) == 0 {
			continue
		}
		m = shift(m, start)
		if dropped(body[m.colon+1 : m.end]) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, body[m.key:m.end]...)
	}
	return append(dst, '}')
}

func shift(m member, by int) member {
	return member{m.key - by, m.colon - by, m.end - by}
}

// keyOf returns the escaped key of m without its quotes.
func keyOf(b []byte, m member) []byte {
	return b[m.key+1 : m.colon-1]
}

// dropped reports whether an object member with this canonical value is
// left out of the canonical encoding.
func dropped(v []byte) bool {
	return string(v) == "null" || string(v) == "[]"
}

func (p *parser) array(dst []byte, depth int) ([]byte, bool) {
	if depth > maxDepth {
		return dst, false
	}
	p.pos++ // '['
	dst = append(dst, '[')
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return append(dst, ']'), true
	}
	for {
		p.skipSpace()
		var ok bool
		if dst, ok = p.value(dst, depth); !ok {
			return dst, false
		}
		p.skipSpace()
		if p.pos >= len(p.src) {
			return dst, false
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			dst = append(dst, ',')
		case ']':
			p.pos++
			return append(dst, ']'), true
		default:
			return dst, false
		}
	}
}

// scanNumber returns the end of the JSON number that starts at b[i].
// The grammar is -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func scanNumber(b []byte, i int) (int, bool) {
	digits := func(i int) int {
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(i + 1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}
