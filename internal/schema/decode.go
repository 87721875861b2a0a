package schema

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// DecodeOptions say how strictly to decode.
type DecodeOptions struct {
	// Lenient drops unknown and duplicate fields with a warning instead of
	// refusing them, as kubectl apply --validate=false does. A repeated
	// member is decoded onto the first, as upstream's decoder does: objects
	// and maps merge, and for scalars and lists the last one wins.
	Lenient bool
	// Version is the Kubernetes minor whose API is read: a field that
	// the minor does not have is unknown. The zero value is the newest
	// minor; a Version that is not Valid is read as the newest.
	Version kubeversion.Version
	// EveryMinor reads the fields of every minor the schema models,
	// whatever Version says: for reading back what this package wrote.
	EveryMinor bool
	// Strings, if not nil, gives the decoded object the table's copy of
	// each string it keeps (see StringTable); otherwise its strings share
	// the memory of one copy of the whole input.
	Strings *StringTable
}

// A decoder reads JSON into the schema's types as the API server's strict
// decoder does: field names match exactly (case included), unknown and
// duplicate fields are errors, and a value of the wrong type is an error
// naming its path. It keeps going after an error, so that one pass reports
// every problem; only malformed JSON stops it.
type decoder struct {
	data     string // the input, copied once: values are substrings of it
	pos      int
	opts     DecodeOptions
	minor    Minors // the minor read: MinorsOf(opts.Version)
	path     path
	errs     field.ErrorList
	warnings []string
	broken   bool // malformed JSON: stop

	resources  chunks[ResourceEntry] // the entries of resource lists
	listChunks                       // the elements of the lists of small structs (generated)
}

// chunks holds the blocks in which a decoder builds the lists of one
// element type, one list at a time (start, grow, keep), so that the short
// lists of one object (a container's ports, each container's environment)
// cost one allocation between them rather than one each. A list it keeps
// has no capacity beyond its length, so that appending to it never writes
// into another's elements; the lists of one object so share blocks, and
// keep each other's memory alive, as parts of one object do anyway.
type chunks[T any] struct {
	free []T // what is left of the last block
	last int // the last block's length
}

// The lengths of the blocks: each at least twice the last (up to
// maxChunk), and never less than minChunk or the list it is made for.
const (
	minChunk = 4
	maxChunk = 64
)

// start returns an empty list at the start of the free part of the block,
// for a list to be built in place (see grow and keep).
func (c *chunks[T]) start() []T { return c.free[:0] }

// grow moves l, a list being built at the start of the free part of the
// block and as long as its capacity, to a new block with room for more.
func (c *chunks[T]) grow(l []T) []T {
	size := max(2*len(l), min(2*c.last, maxChunk), minChunk)
	b := make([]T, size)
	copy(b, l)
	c.free, c.last = b, size
	return b[:len(l)]
}

// keep ends l, a list built in place from start, and returns it: its
// elements are no longer free, and its capacity ends at its length. A
// list of none is empty, not nil.
func (c *chunks[T]) keep(l []T) []T {
	if len(l) == 0 {
		return []T{}
	}
	c.free = c.free[len(l):]
	return l[:len(l):len(l)]
}

// segment is one step of the path being decoded: a field name, or an
// index when named is false.
type segment struct {
	name  string
	named bool
	index int
}

// path is the stack of segments leading to the value being decoded. The
// innermost one, which every key and element changes, is held apart (cur),
// and the others below it, the first of them in the decoder itself, which
// lives on the caller's stack, so that decoding an ordinary object
// allocates nothing for its bookkeeping; only a path deeper than that
// spills to the heap.
type path struct {
	cur   segment     // segment depth-1, when depth > 0
	near  [16]segment // segments 0..15, below cur
	far   []segment   // the segments after near's
	depth int
}

// push adds a segment at the end of the path.
func (p *path) push(s segment) {
	if p.depth > 0 {
		if i := p.depth - 1; i < len(p.near) {
			p.near[i] = p.cur
		} else {
			p.far = append(p.far[:i-len(p.near)], p.cur)
		}
	}
	p.cur = s
	p.depth++
}

// pop removes the path's last segment.
func (p *path) pop() {
	p.depth--
	if p.depth > 0 {
		p.cur = *p.below(p.depth - 1)
	}
}

// below returns segment i, which is below cur.
func (p *path) below(i int) *segment {
	if i < len(p.near) {
		return &p.near[i]
	}
	return &p.far[i-len(p.near)]
}

// at returns the path's segment i.
func (p *path) at(i int) *segment {
	if i == p.depth-1 {
		return &p.cur
	}
	return p.below(i)
}

// last returns the path's last segment.
func (p *path) last() *segment { return &p.cur }

func newDecoder(data []byte, opts DecodeOptions) *decoder {
	minor := readMinor(opts.Version)
	if opts.EveryMinor {
		minor = AllMinors
	}
	return &decoder{data: string(data), opts: opts, minor: minor}
}

// keep returns s, a string the decoded object keeps: the table's copy
// when the options give a table (see StringTable), else s itself.
func (d *decoder) keep(s string) string {
	if d.opts.Strings == nil {
		return s
	}
	return d.opts.Strings.Intern(s)
}

// finish checks that nothing but white space follows the value.
func (d *decoder) finish() {
	if d.broken {
		return
	}
	d.space()
	if d.pos < len(d.data) {
		d.syntax("unexpected data after the top-level value")
	}
}

// pathString renders the current path: spec.template.spec.containers[0].image.
func (d *decoder) pathString() string {
	var b strings.Builder
	for i := range d.path.depth {
		s := d.path.at(i)
		if !s.named {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

func (d *decoder) fail(t field.Type, value, detail string) {
	d.errs = append(d.errs, &field.Error{Type: t, Field: d.pathString(), Value: value, Detail: detail})
}

// syntax records malformed JSON and stops decoding.
func (d *decoder) syntax(detail string) {
	if d.broken {
		return
	}
	d.broken = true
	p := d.pathString()
	if p == "" {
		p = "<input>"
	}
	d.errs = append(d.errs, &field.Error{Type: field.Invalid, Field: p,
		Detail: "malformed JSON at byte " + strconv.Itoa(d.pos) + ": " + detail})
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the first byte of the next value, or 0 at the end.
func (d *decoder) peek() byte {
	// Compact JSON has no white space: that case is inlined.
	if d.pos < len(d.data) && d.data[d.pos] > ' ' {
		return d.data[d.pos]
	}
	d.space()
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

// literal consumes null, true or false if it is next.
func (d *decoder) literal(word string) bool {
	if strings.HasPrefix(d.data[d.pos:], word) {
		d.pos += len(word)
		return true
	}
	return false
}

// null consumes a null if it is next.
func (d *decoder) null() bool {
	if d.peek() == 'n' {
		if d.literal("null") {
			return true
		}
		d.syntax("invalid literal")
		return true
	}
	return false
}

// kindOf names the JSON kind of the next value, for type errors.
func (d *decoder) kindOf() string {
	switch c := d.peek(); {
	case c == '{':
		return "an object"
	case c == '[':
		return "a list"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || isDigit(c):
		return "a number"
	}
	return "null"
}

// mismatch records a value of the wrong type and skips it.
func (d *decoder) mismatch(want string) {
	start := d.pos
	got := d.kindOf()
	d.skip()
	if d.broken {
		return
	}
	v := d.data[start:d.pos]
	if len(v) > 64 {
		v = v[:61] + "..."
	}
	d.fail(field.Invalid, v, "must be "+want+", not "+got)
}

// colonSpace consumes the one space that indented JSON, as kubectl and
// encoding/json's indenting write it, puts after a member's colon, so that
// the fast paths of the readers of values find their value where they
// look for it; any other white space is left to their slow paths.
func (d *decoder) colonSpace() {
	if d.pos < len(d.data) && d.data[d.pos] == ' ' {
		d.pos++
	}
}

// beginObject consumes the { of an object and reports true; for null it
// reports false, and for another kind of value it records the error, skips
// the value and reports false.
func (d *decoder) beginObject() bool {
	d.colonSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '{' {
		d.pos++
		d.path.push(segment{}) // replaced by each key
		return true
	}
	return d.beginObjectSlow()
}

// beginObjectSlow is beginObject for any JSON.
func (d *decoder) beginObjectSlow() bool {
	switch d.peek() {
	case '{':
		d.pos++
		d.path.push(segment{}) // replaced by each key
		return true
	case 'n':
		d.null()
		return false
	}
	d.mismatch("an object")
	return false
}

// nextKey reads the next member's key into the path and its colon, and
// reports true; at the closing } it consumes it, pops the path and reports
// false. The generated decoders of structs read their keys with a matcher
// of their own instead (schemagen's emitKeyMatcher), which compares the
// keys they know where they start.
func (d *decoder) nextKey() bool {
	p, ended := d.nextKeyQuote()
	if ended {
		return false
	}
	if p >= 0 {
		d.pos = p
	} else if !d.keyStart() {
		return false
	}
	_, ok := d.keyName()
	return ok
}

// nextKeyQuote is the start of nextKey, as the generated matchers have it
// too (keyQuote inline, then keyQuoteSlow): at the end of the object it
// consumes the } and pops the path, and reports ended; else it returns the
// position of the next key's quote in compact or indented JSON, or -1 when
// keyStart must read on.
func (d *decoder) nextKeyQuote() (p int, ended bool) {
	if p = d.keyQuote(); p >= 0 {
		return p, false
	}
	return d.keyQuoteSlow()
}

// keyQuoteSlow is nextKeyQuote where keyQuote found no key in compact
// JSON: the end of the object, or a key in indented JSON.
func (d *decoder) keyQuoteSlow() (p int, ended bool) {
	if d.objectEnd() || d.objectEndSpaced() {
		return -1, true
	}
	return d.keyQuoteSpaced(), false
}

// keyQuote returns the position of the quote that starts the next
// member's key in compact JSON: at once, or after the comma that follows
// a member. For anything else (the end of the object, white space,
// malformed JSON) it returns -1, and the caller reads on with objectEnd,
// objectEndSpaced, keyQuoteSpaced and at last keyStart.
func (d *decoder) keyQuote() int {
	p := d.pos
	if d.path.cur.named {
		if p >= len(d.data) || d.data[p] != ',' {
			return -1
		}
		p++
	}
	if p >= len(d.data) || d.data[p] != '"' || d.broken {
		return -1
	}
	return p
}

// objectEnd consumes the } that ends an object at once after a member or
// at its start, and pops the path; it reports false, consuming nothing,
// for anything else.
func (d *decoder) objectEnd() bool {
	if d.pos < len(d.data) && d.data[d.pos] == '}' && !d.broken {
		d.pos++
		d.path.pop()
		return true
	}
	return false
}

// objectEndSpaced is objectEnd after white space, which it consumes.
func (d *decoder) objectEndSpaced() bool {
	d.space()
	return d.objectEnd()
}

// keyQuoteSpaced is keyQuote for indented JSON, as kubectl writes it:
// white space before and after the comma. It skips the white space before
// the comma (which whatever reads on would skip too), and returns the
// position of the key's quote, or -1.
func (d *decoder) keyQuoteSpaced() int {
	d.space()
	p := d.pos
	if d.path.cur.named {
		if p >= len(d.data) || d.data[p] != ',' {
			return -1
		}
		p++
	}
	for p < len(d.data) && isSpace(d.data[p]) {
		p++
	}
	if p >= len(d.data) || d.data[p] != '"' || d.broken {
		return -1
	}
	return p
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// keyStart moves to the quote that starts the next member's key: past the
// comma after the previous member, if any, and white space. At the end of
// the object, and when the JSON is malformed, it consumes what it read,
// pops the path and reports false.
func (d *decoder) keyStart() bool {
	if d.broken {
		d.path.pop()
		return false
	}
	named := d.path.cur.named
	c := d.peek()
	switch {
	case c == '}':
		d.pos++
		d.path.pop()
		return false
	case !named:
	case c == ',':
		d.pos++
		c = d.peek()
	default:
		d.syntax("expected , or } after an object member")
		d.path.pop()
		return false
	}
	if c != '"' {
		d.syntax("expected a member name")
		d.path.pop()
		return false
	}
	return true
}

// keyName reads the key that starts at the current quote, and its colon,
// into the path, and returns it; for malformed JSON it pops the path and
// reports false.
func (d *decoder) keyName() (string, bool) {
	key, ok := d.stringValue()
	if ok && d.peek() != ':' {
		d.syntax("expected : after a member name")
		ok = false
	}
	if !ok {
		d.path.pop()
		return "", false
	}
	d.pos++
	d.path.cur.name, d.path.cur.named = key, true
	return key, true
}

// knownKey records that the key whose quote is at p is name, followed at
// once by its colon (a generated matcher has compared them), and returns
// i, the member's index.
func (d *decoder) knownKey(p int, name string, i int) int {
	d.pos = p + len(name) + 3
	d.path.cur.name, d.path.cur.named = name, true
	return i
}

// knownKeyIn is knownKey for a member that only the minors ms have: for
// another minor the key is unknown (and read, so that the error names it).
func (d *decoder) knownKeyIn(p int, name string, i int, ms Minors) int {
	i = d.knownKey(p, name, i)
	if d.minor&ms == 0 {
		return unknownMember
	}
	return i
}

// readKeyIn is readKey for a struct some of whose members only some
// minors have: minors[i] are the minors that have keys[i].
func (d *decoder) readKeyIn(keys []string, minors []Minors) int {
	i := d.readKey(keys)
	if i >= 0 && d.minor&minors[i] == 0 {
		return unknownMember
	}
	return i
}

// readKey is a generated matcher's slow path: it reads the next key as
// keyStart and keyName do, and returns its index in keys, the struct's
// keys in byte order, or unknownMember, or endOfObject.
func (d *decoder) readKey(keys []string) int {
	if !d.keyStart() {
		return endOfObject
	}
	key, ok := d.keyName()
	if !ok {
		return endOfObject
	}
	if i, found := slices.BinarySearch(keys, key); found {
		return i
	}
	return unknownMember
}

// The indexes that the generated matchers of keys return besides those of
// members.
const (
	endOfObject   = -1 // no member: the end of the object, or malformed JSON
	unknownMember = -2 // a key the struct does not have
)

// key returns the current member's name.
func (d *decoder) key() string { return d.path.last().name }

// member records field i of the object in seen, and a repeated field as
// an error (a warning when lenient). A repeated member is decoded all the
// same, onto what the first one set, as upstream's decoder does, so that
// the problems inside it are reported too.
func (d *decoder) member(seen []uint64, i int) {
	w, bit := &seen[i>>6], uint64(1)<<(uint(i)&63)
	if *w&bit != 0 {
		d.duplicate()
	}
	*w |= bit
}

// duplicate records a repeated member at the current path.
func (d *decoder) duplicate() { d.strict(field.DuplicateKey, "") }

// strict records an unknown or a duplicate member at the current path: an
// error, or a warning when lenient; once per path and kind, as upstream's
// strict decoder reports them (a member repeated, or met again in a
// repeated object, is one problem).
func (d *decoder) strict(t field.Type, detail string) {
	path := d.pathString()
	if d.opts.Lenient {
		w := path + ": " + string(t)
		if detail != "" {
			w += " (" + detail + ")"
		}
		if !slices.Contains(d.warnings, w) {
			d.warnings = append(d.warnings, w)
		}
		return
	}
	if !slices.ContainsFunc(d.errs, func(e *field.Error) bool { return e.Type == t && e.Field == path }) {
		d.errs = append(d.errs, &field.Error{Type: t, Field: path, Detail: detail})
	}
}

// unknown records a member the type does not have and skips its value.
// known lists the type's JSON names, for a hint when only the case differs.
func (d *decoder) unknown(known []string) {
	detail := ""
	k := d.key()
	for _, name := range known {
		if strings.EqualFold(name, k) {
			detail = "did you mean " + strconv.Quote(name) + "?"
			break
		}
	}
	d.strict(field.Unknown, detail)
	d.skip()
}

// beginArray consumes the [ of a list and reports true; for null it reports
// false, and for another kind it records the error and reports false.
func (d *decoder) beginArray() bool {
	switch d.peek() {
	case '[':
		d.pos++
		d.path.push(segment{index: -1})
		return true
	case 'n':
		d.null()
		return false
	}
	d.mismatch("a list")
	return false
}

// nextElem moves to the next element and reports true, or consumes the
// closing ] and reports false.
func (d *decoder) nextElem() bool {
	if d.broken {
		d.path.pop()
		return false
	}
	last := d.path.last()
	c := d.peek()
	if last.index >= 0 {
		switch c {
		case ',':
			d.pos++
			c = d.peek()
		case ']':
			d.pos++
			d.path.pop()
			return false
		default:
			d.syntax("expected , or ] after a list element")
			d.path.pop()
			return false
		}
	} else if c == ']' {
		d.pos++
		d.path.pop()
		return false
	}
	if c == 0 || c == ']' {
		d.syntax("expected a list element")
		d.path.pop()
		return false
	}
	last.index++
	return true
}

// countElems counts the elements of the list being decoded from the one
// that starts at the current position (just after the [, or at an element
// that nextElem moved to) to the end, without consuming them: a capacity
// for the slice they are decoded into. It judges them by their brackets
// and strings only, as the decoding that follows reads and checks them;
// for malformed JSON the count may be wrong, never more than the commas
// that follow.
func (d *decoder) countElems() int {
	data := d.data
	n, depth, empty := 0, 0, true
	for p := d.pos; p < len(data); p++ {
		switch data[p] {
		case '"':
			for p++; p < len(data) && data[p] != '"'; p++ {
				if data[p] == '\\' {
					p++
				}
			}
			empty = false
		case '{', '[':
			depth++
			empty = false
		case '}', ']':
			if depth == 0 { // the end of the list
				if empty {
					return 0
				}
				return n + 1
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		case ' ', '\t', '\n', '\r':
		default:
			empty = false
		}
	}
	return 0
}

// skip consumes one value of any kind.
func (d *decoder) skip() {
	switch c := d.peek(); {
	case c == '{':
		d.pos++
		first := true
		for !d.broken {
			c := d.peek()
			if c == '}' {
				d.pos++
				return
			}
			if !first {
				if c != ',' {
					d.syntax("expected , or } after an object member")
					return
				}
				d.pos++
				d.space()
			}
			first = false
			if d.peek() != '"' {
				d.syntax("expected a member name")
				return
			}
			if _, ok := d.stringValue(); !ok {
				return
			}
			if d.peek() != ':' {
				d.syntax("expected : after a member name")
				return
			}
			d.pos++
			d.skip()
		}
	case c == '[':
		d.pos++
		first := true
		for !d.broken {
			c := d.peek()
			if c == ']' {
				d.pos++
				return
			}
			if !first {
				if c != ',' {
					d.syntax("expected , or ] after a list element")
					return
				}
				d.pos++
			}
			first = false
			d.skip()
		}
	case c == '"':
		d.stringValue()
	case c == 't':
		if !d.literal("true") {
			d.syntax("invalid literal")
		}
	case c == 'f':
		if !d.literal("false") {
			d.syntax("invalid literal")
		}
	case c == 'n':
		d.null()
	case c == '-' || isDigit(c):
		d.number()
	default:
		d.syntax("expected a value")
	}
}

// number consumes a JSON number and returns its text.
func (d *decoder) number() string {
	start := d.pos
	p := d.pos
	data := d.data
	if p < len(data) && data[p] == '-' {
		p++
	}
	switch {
	case p < len(data) && data[p] == '0':
		p++
	case p < len(data) && '1' <= data[p] && data[p] <= '9':
		for p < len(data) && isDigit(data[p]) {
			p++
		}
	default:
		d.pos = p
		d.syntax("invalid number")
		return ""
	}
	if p < len(data) && data[p] == '.' {
		p++
		if p >= len(data) || !isDigit(data[p]) {
			d.pos = p
			d.syntax("invalid number")
			return ""
		}
		for p < len(data) && isDigit(data[p]) {
			p++
		}
	}
	if p < len(data) && (data[p] == 'e' || data[p] == 'E') {
		p++
		if p < len(data) && (data[p] == '+' || data[p] == '-') {
			p++
		}
		if p >= len(data) || !isDigit(data[p]) {
			d.pos = p
			d.syntax("invalid number")
			return ""
		}
		for p < len(data) && isDigit(data[p]) {
			p++
		}
	}
	d.pos = p
	return data[start:p]
}

// stringValue consumes a JSON string and returns its contents, decoded as
// encoding/json decodes them (invalid UTF-8 and lone surrogates become
// U+FFFD). A string without escapes is a substring of the input.
func (d *decoder) stringValue() (string, bool) {
	start := d.pos + 1
	if end := stringEnd(d.data, start); end >= 0 {
		d.pos = end + 1
		return d.data[start:end], true
	}
	return d.escapedString(start)
}

// escapedString is stringValue's slow path, for a string whose contents,
// from start, hold escapes or bytes outside ASCII, or that ends in the last
// bytes of the input, which stringEnd does not read.
func (d *decoder) escapedString(start int) (string, bool) {
	data := d.data
	p := plainEnd(data, start)
	out := make([]byte, 0, p-start+16)
	out = append(out, data[start:p]...)
	for p < len(data) {
		c := data[p]
		switch {
		case c == '"':
			d.pos = p + 1
			return string(out), true
		case c < 0x20:
			d.pos = p
			d.syntax("control character in a string")
			return "", false
		case c == '\\':
			if p+1 >= len(data) {
				d.pos = p
				d.syntax("unterminated string")
				return "", false
			}
			switch e := data[p+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(data[p+2:])
				if r < 0 {
					d.pos = p
					d.syntax("invalid \\u escape")
					return "", false
				}
				p += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p+1 < len(data) && data[p] == '\\' && data[p+1] == 'u' {
						r2 = hex4(data[p+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						p += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				d.pos = p
				d.syntax("invalid escape")
				return "", false
			}
			p += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			p++
		default:
			r, size := utf8.DecodeRuneInString(data[p:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, data[p:p+size]...)
			}
			p += size
		}
	}
	d.pos = p
	d.syntax("unterminated string")
	return "", false
}

// plainString tells the bytes that a JSON string holds as they are: not
// the closing quote, a backslash, a control character or the start of a
// multi-byte sequence (which must be checked for valid UTF-8).
var plainString = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hex4(b string) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// --- scalars ---

// str decodes a string; null leaves *p unchanged, as encoding/json does.
// Its fast path reads a string without escapes that starts right here.
func (d *decoder) str(p *string) {
	d.colonSpace()
	// stringEnd, by hand: the compiler does not inline it.
	if data, start := d.data, d.pos+1; start <= len(data) && data[start-1] == '"' {
		for i := start; i+8 <= len(data); i += 8 {
			if mark := plainMarks(word(data, i)); mark != 0 {
				if end := i + firstMarked(mark); data[end] == '"' {
					*p = d.keep(data[start:end])
					d.pos = end + 1
					return
				}
				break
			}
		}
	}
	d.strSlow(p)
}

// strSlow is str for any JSON.
func (d *decoder) strSlow(p *string) {
	switch d.peek() {
	case '"':
		if v, ok := d.stringValue(); ok {
			*p = d.keep(v)
		}
	case 'n':
		d.null()
	default:
		d.mismatch("a string")
	}
}

func (d *decoder) boolean(p *bool) {
	switch d.peek() {
	case 't':
		if d.literal("true") {
			*p = true
			return
		}
		d.syntax("invalid literal")
	case 'f':
		if d.literal("false") {
			*p = false
			return
		}
		d.syntax("invalid literal")
	case 'n':
		d.null()
	default:
		d.mismatch("a boolean")
	}
}

// integer decodes a JSON number that is an integer within [lo, hi].
func (d *decoder) integer(bits int) (int64, bool) {
	switch c := d.peek(); {
	case c == '-' || isDigit(c):
		n := d.number()
		if d.broken {
			return 0, false
		}
		if v, ok := shortUint(n); ok {
			return v, true
		}
		v, err := strconv.ParseInt(n, 10, bits)
		if err != nil {
			detail := "must be an integer"
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				detail = "must fit in " + strconv.Itoa(bits) + " bits"
			}
			d.fail(field.Invalid, n, detail)
			return 0, false
		}
		return v, true
	case c == 'n':
		d.null()
	default:
		d.mismatch("a number")
	}
	return 0, false
}

// shortUint reads n, a JSON number, when it is a non-negative integer of
// at most nine digits, which fits in any of integer's sizes; anything else
// it leaves to strconv.
func shortUint(n string) (int64, bool) {
	if len(n) > 9 {
		return 0, false
	}
	v := int64(0)
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, len(n) > 0
}

func (d *decoder) int32(p *int32) {
	if v, ok := d.integer(32); ok {
		*p = int32(v)
	}
}

func (d *decoder) int64(p *int64) {
	if v, ok := d.integer(64); ok {
		*p = v
	}
}

// quantity decodes a quantity written as a string or a number, as
// resource.Quantity's UnmarshalJSON does (null is zero). Its fast path
// reads a string in the plain form that parsePlain reads ("250m",
// "512Mi") right here.
func (d *decoder) quantity(p *Quantity) {
	d.colonSpace()
	if data, start := d.data, d.pos+1; start <= len(data) && data[start-1] == '"' {
		if end := stringEnd(data, start); end > start {
			if q, canonical, ok := parsePlain(data[start:end]); ok {
				q.cache(canonical, d.keep(data[start:end]))
				*p = q
				d.pos = end + 1
				return
			}
		}
	}
	d.quantitySlow(p)
}

// quantitySlow is quantity for any JSON.
func (d *decoder) quantitySlow(p *Quantity) {
	var text string
	switch c := d.peek(); {
	case c == '"':
		v, ok := d.stringValue()
		if !ok {
			return
		}
		text = v
	case c == '-' || isDigit(c):
		text = d.number()
		if d.broken {
			return
		}
	case c == 'n':
		d.null()
		*p = Quantity{}
		return
	default:
		d.mismatch("a quantity (a string or a number)")
		return
	}
	trimmed := text
	if text != "" && (maybeSpace(text[0]) || maybeSpace(text[len(text)-1])) {
		trimmed = strings.TrimSpace(text)
	}
	q, err := ParseQuantity(d.keep(trimmed))
	if err != nil {
		d.fail(field.Invalid, strconv.Quote(text), err.Error())
		return
	}
	*p = q
}

// maybeSpace reports whether c may be (the first or last byte of) what
// strings.TrimSpace removes: ASCII white space, or a byte of a multi-byte
// sequence.
func maybeSpace(c byte) bool { return c <= ' ' || c >= utf8.RuneSelf }

// intOrString decodes an int or a string, as intstr.IntOrString does.
func (d *decoder) intOrString(p *IntOrString) {
	switch c := d.peek(); {
	case c == '"':
		if v, ok := d.stringValue(); ok {
			*p = FromString(d.keep(v))
		}
	case c == '-' || isDigit(c):
		if v, ok := d.integer(32); ok {
			*p = FromInt(int32(v))
		}
	case c == 'n':
		d.null()
		*p = IntOrString{}
	default:
		d.mismatch("an integer or a string")
	}
}

// time decodes an RFC 3339 time, as metav1.Time does (null is zero).
func (d *decoder) time(p *Time) {
	switch d.peek() {
	case '"':
		v, ok := d.stringValue()
		if !ok {
			return
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			d.fail(field.Invalid, strconv.Quote(v), "must be a time in RFC 3339 form, as 2006-01-02T15:04:05Z")
			return
		}
		*p = Time{t.UTC().Truncate(time.Second)}
	case 'n':
		d.null()
		*p = Time{}
	default:
		d.mismatch("a time (a string)")
	}
}

// fieldsV1 keeps any JSON value as it is written, compacted.
func (d *decoder) fieldsV1(p *FieldsV1) {
	if d.null() {
		return
	}
	d.space()
	start := d.pos
	d.skip()
	if d.broken {
		return
	}
	*p = FieldsV1{Raw: compactJSON(d.data[start:d.pos])}
}

// compactJSON removes the white space outside strings of valid JSON.
func compactJSON(b string) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
			out = append(out, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			out = append(out, c)
		}
	}
	return out
}

// mapString decodes an object of strings.
func (d *decoder) mapString(p *map[string]string) {
	if !d.beginObject() {
		*p = nil
		return
	}
	m := map[string]string{}
	for d.nextKey() {
		k := d.key()
		mapKey(d, m, k)
		var v string
		d.str(&v)
		m[d.keep(k)] = v
	}
	*p = mergeMap(*p, m)
}

// resourceList decodes an object of quantities (a ResourceList) into its
// sorted entries, built in place in the decoder's block of them. A
// repeated member is decoded onto the first, as upstream's decoder stores
// a repeated map member: the second object adds to the first.
func (d *decoder) resourceList(p *ResourceList) {
	if !d.beginObject() {
		*p = nil
		return
	}
	// The entries are built where the list stays, in the decoder's block
	// of them, in order of their names.
	l := d.resources.start()
	for {
		k, ok := d.resourceName()
		if !ok {
			break
		}
		i, dup := len(l), false
		if i > 0 && l[i-1].Name >= k { // out of order, or repeated
			i, dup = ResourceList(l).search(k)
		}
		if dup {
			// The value replaces the first, zero when it does not parse.
			d.duplicate()
			var v Quantity
			d.quantity(&v)
			l[i].Quantity = v
			continue
		}
		if len(l) == cap(l) {
			l = d.resources.grow(l)
		}
		l = l[:len(l)+1] // a zero entry, never handed out
		copy(l[i+1:], l[i:])
		l[i] = ResourceEntry{Name: d.keep(k)}
		d.quantity(&l[i].Quantity)
	}
	if *p != nil {
		// A repeated member: its entries are added to the first's, and
		// the block's free part, scratch here, stays free.
		for _, e := range l {
			p.Set(e.Name, e.Quantity)
		}
		clear(l)
		return
	}
	*p = d.resources.keep(l)
}

// resourceName reads the next key of a resource list, as nextKey does,
// and returns it; a common resource's name is compared where it starts
// and not scanned.
func (d *decoder) resourceName() (string, bool) {
	p, ended := d.nextKeyQuote()
	if ended {
		return "", false
	}
	if p >= 0 {
		switch k := d.data[p+1:]; {
		case len(k) >= 5 && k[:5] == `cpu":`:
			d.knownKey(p, "cpu", 0)
			return "cpu", true
		case len(k) >= 8 && k[:8] == `memory":`:
			d.knownKey(p, "memory", 0)
			return "memory", true
		}
		d.pos = p
	} else if !d.keyStart() {
		return "", false
	}
	return d.keyName()
}

// mapKey records k, a key of the object being decoded into m, as a
// duplicate when m holds it already. Its value is decoded all the same
// and replaces the first, as upstream's decoder does, so that the
// problems inside it are reported too.
func mapKey[V any](d *decoder, m map[string]V, k string) {
	if _, dup := m[k]; dup {
		d.strict(field.DuplicateKey, "")
	}
}

// mergeMap returns the entries of a decoded object m added to the map
// already there, as upstream's decoder stores a repeated map member: the
// second object adds to the first (duplicates are counted per object).
func mergeMap[V any](old, m map[string]V) map[string]V {
	if old == nil {
		return m
	}
	maps.Copy(old, m)
	return old
}

func (d *decoder) sliceString(p *[]string) { decodeSlice(d, p, d.str) }
func (d *decoder) sliceInt32(p *[]int32)   { decodeSlice(d, p, d.int32) }
func (d *decoder) sliceInt64(p *[]int64)   { decodeSlice(d, p, d.int64) }

// decodeSlice decodes a list of scalars, each with elem: null is nil, []
// is empty.
func decodeSlice[T any](d *decoder, p *[]T, elem func(*T)) {
	if !d.beginArray() {
		*p = nil
		return
	}
	s := []T{}
	for d.nextElem() {
		var v T
		elem(&v)
		s = append(s, v)
	}
	*p = s
}
