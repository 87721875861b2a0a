package schema

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// An encoder writes the schema's types as canonical JSON: the JSON the API
// server writes (the same members, omitempty as its struct tags say, and
// empty lists and maps absent, as a stored object reads back), with the
// members of every object in byte order of their names and no null
// members. Two values the API server stores alike encode to the same bytes.
//
// In the comparison form (cmp), quantities are written by value, in
// exponent form, so that two values upstream's Semantic equality finds
// equal (1Gi and 1073741824) encode to the same bytes.
type encoder struct {
	buf []byte
	cmp bool
}

// The generated writers of structs write each member after a comma
// (`,"name":value`), whether it is the first or not, and end turns the
// first comma into the object's opening brace.

// end closes the object whose members start at start.
func (e *encoder) end(start int) {
	if len(e.buf) == start {
		e.buf = append(e.buf, '{', '}')
		return
	}
	e.buf[start] = '{'
	e.buf = append(e.buf, '}')
}

// strMember writes a member whose value is the string s: its key and the
// opening quote (given as `,"name":"`), then s escaped and the closing
// quote.
func (e *encoder) strMember(keyQuote, s string) {
	e.buf = appendStringBody(append(e.buf, keyQuote...), s)
}

func (e *encoder) str(s string) { e.buf = appendJSONString(e.buf, s) }

func (e *encoder) boolean(b bool) { e.buf = strconv.AppendBool(e.buf, b) }

func (e *encoder) int32(v int32) { e.buf = strconv.AppendInt(e.buf, int64(v), 10) }

func (e *encoder) int64(v int64) { e.buf = strconv.AppendInt(e.buf, v, 10) }

func (e *encoder) quantity(q *Quantity) {
	e.buf = append(e.buf, '"')
	if e.cmp {
		// By value: the exponent form is the one canonical form that names
		// every value (DecimalSI drops an exponent it has no suffix for).
		c := *q
		c.Format, c.s = DecimalExponent, ""
		e.buf = c.appendCanonical(e.buf)
	} else if q.s != "" {
		e.buf = append(e.buf, q.s...)
	} else {
		e.buf = q.appendCanonical(e.buf)
	}
	e.buf = append(e.buf, '"')
}

func (e *encoder) intOrString(v *IntOrString) {
	if v.Type == StringType {
		e.str(v.StrVal)
		return
	}
	e.int32(v.IntVal)
}

func (e *encoder) time(t *Time) {
	e.buf = append(e.buf, '"')
	e.buf = t.UTC().AppendFormat(e.buf, time.RFC3339)
	e.buf = append(e.buf, '"')
}

func (e *encoder) fieldsV1(f *FieldsV1) {
	if len(f.Raw) == 0 {
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, f.Raw...)
}

func (e *encoder) sliceString(s []string) { encodeSlice(e, s, e.str) }
func (e *encoder) sliceInt32(s []int32)   { encodeSlice(e, s, e.int32) }
func (e *encoder) sliceInt64(s []int64)   { encodeSlice(e, s, e.int64) }

// encodeSlice writes a list of scalars, each with elem.
func encodeSlice[T any](e *encoder, s []T, elem func(T)) {
	e.buf = append(e.buf, '[')
	for i, v := range s {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		elem(v)
	}
	e.buf = append(e.buf, ']')
}

func (e *encoder) mapString(m map[string]string) { encodeMap(e, m, e.str) }

// resourceList writes a ResourceList, whose entries are in order already.
func (e *encoder) resourceList(l ResourceList) {
	e.buf = append(e.buf, '{')
	for i := range l {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(l[i].Name)
		e.buf = append(e.buf, ':')
		e.quantity(&l[i].Quantity)
	}
	e.buf = append(e.buf, '}')
}

// encodeMap writes an object, its keys in byte order, each value with
// elem.
func encodeMap[V any](e *encoder, m map[string]V, elem func(V)) {
	var scratch [smallMap]entry[V]
	e.buf = append(e.buf, '{')
	for i, en := range sortedEntries(scratch[:0], m) {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(en.k)
		e.buf = append(e.buf, ':')
		elem(en.v)
	}
	e.buf = append(e.buf, '}')
}

// smallMap is how many members the encoders sort in a buffer of their
// own, on the stack; a larger map's go to the heap.
const smallMap = 8

// entry is a member of a map being written.
type entry[V any] struct {
	k string
	v V
}

// sortedEntries appends the members of m to dst and returns them in byte
// order of their keys. The encoders pass a buffer on their stack, so that
// writing a map costs no allocation unless it is larger than the buffer,
// and they read each value with its key rather than look it up again.
func sortedEntries[V any](dst []entry[V], m map[string]V) []entry[V] {
	for k, v := range m {
		dst = append(dst, entry[V]{k, v})
	}
	if len(dst) > smallMap {
		slices.SortFunc(dst, func(a, b entry[V]) int { return strings.Compare(a.k, b.k) })
		return dst
	}
	for i := 1; i < len(dst); i++ { // an insertion sort: few members
		for j := i; j > 0 && dst[j].k < dst[j-1].k; j-- {
			dst[j], dst[j-1] = dst[j-1], dst[j]
		}
	}
	return dst
}

// safeJSON tells the bytes that encoding/json writes in a string as they
// are: not a control character, a quote, a backslash, one of the HTML
// characters <, > and &, or a byte of a multi-byte sequence (which it
// checks for valid UTF-8, U+2028 and U+2029).
var safeJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, rune(c))
	}
	return t
}()

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it (HTML characters and U+2028, U+2029 included).
func appendJSONString(dst []byte, s string) []byte {
	return appendStringBody(append(dst, '"'), s)
}

// appendStringBody appends the contents of a JSON string of s, escaped as
// appendJSONString says, and its closing quote.
func appendStringBody(dst []byte, s string) []byte {
	n := len(dst)
	if len(s) < 16 && cap(dst)-n > len(s) {
		// A short string: copied and checked byte by byte, in one pass.
		b := dst[n : n+len(s)+1]
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !safeJSON[c] {
				return appendEscaped(dst, s, i)
			}
			b[i] = c
		}
		b[len(s)] = '"'
		return dst[:n+len(s)+1]
	}
	// Any other is copied first and checked where it landed, a word at a
	// time: the last word may run into the spare capacity, made at least
	// a word long, whose bytes count for nothing.
	dst = append(slices.Grow(dst, len(s)+8), s...)
	b := dst[n:cap(dst)]
	for i := 0; i < len(s); i += 8 {
		if mark := unsafeMarks(word(b, i)); mark != 0 {
			if j := i + firstMarked(mark); j < len(s) {
				return appendEscaped(dst[:n], s, j)
			}
			break
		}
	}
	return append(dst, '"')
}

// appendEscaped is appendStringBody for a string whose byte i is the first
// that encoding/json does not write as it is.
func appendEscaped(dst []byte, s string, i int) []byte {
	const hexDigits = "0123456789abcdef"
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if safeJSON[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
