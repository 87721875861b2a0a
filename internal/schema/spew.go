package schema

import (
	"math/big"
	"slices"
	"strconv"
	"sync"

	"github.com/rolloutmath/rolloutmath/hash"
)

// A spewer renders values as upstream's pod-template-hash sees them: the
// go-spew "%#v" rendering of the v1 types with the configuration of
// k8s.io/utils/dump.ForHash (types shown, map keys sorted, methods not
// called, no pointer addresses), fed to a 32-bit FNV-1a hash as it is
// written, or appended to text when text is non-nil (for tests and
// diagnostics).
//
// The generated spew functions (zz_generated.spew.go) write a struct as
// {Field:(type)value Field:(type)value}, with the type of each field as
// reflect prints it; elements of lists and maps, and the value behind a
// pointer, are written without their type; nil pointers, lists and maps are
// <nil>; strings are written raw. Their constant text comes in numbered
// segments (segmentTexts), which the spewer hashes in one step each.
type spewer struct {
	h      hash.FNV32a
	text   *[]byte
	tables []*hash.Segment
}

// minSegment is the shortest segment worth a table: shorter ones are
// hashed byte by byte, which costs about as much as a table's look-up.
const minSegment = 12

// segmentTables holds the prepared segments, built on first use (about
// 2 ms) and read-only afterwards; nil entries are short segments.
var segmentTables = sync.OnceValue(func() []*hash.Segment {
	t := make([]*hash.Segment, len(segmentTexts))
	for i, s := range segmentTexts {
		if len(s) >= minSegment {
			t[i] = hash.NewSegment(s)
		}
	}
	return t
})

func newHashSpewer(h hash.FNV32a) spewer { return spewer{h: h, tables: segmentTables()} }

func newTextSpewer(buf *[]byte) spewer { return spewer{text: buf} }

// lit writes segment id.
func (w *spewer) lit(id int) {
	if w.text != nil {
		*w.text = append(*w.text, segmentTexts[id]...)
		return
	}
	if t := w.tables[id]; t != nil {
		w.h = w.h.WriteSegment(t)
		return
	}
	w.h = w.h.WriteString(segmentTexts[id])
}

// raw writes text that is not a segment.
func (w *spewer) raw(s string) {
	if w.text != nil {
		*w.text = append(*w.text, s...)
		return
	}
	w.h = w.h.WriteString(s)
}

func (w *spewer) str(s string) { w.raw(s) }

func (w *spewer) i64(v int64) {
	var buf [20]byte
	w.bytes(strconv.AppendInt(buf[:0], v, 10))
}

func (w *spewer) u64(v uint64) {
	var buf [20]byte
	w.bytes(strconv.AppendUint(buf[:0], v, 10))
}

func (w *spewer) bytes(b []byte) {
	if w.text != nil {
		*w.text = append(*w.text, b...)
		return
	}
	w.h = w.h.Write(b)
}

func (w *spewer) boolean(b bool) {
	if b {
		w.raw("true")
	} else {
		w.raw("false")
	}
}

// nat writes the magnitude of a big.Int as spew writes a big.nat: its
// words, least significant first, or <nil> for zero.
func (w *spewer) nat(x *big.Int) {
	words := new(big.Int).Abs(x).Bits()
	if len(words) == 0 {
		w.raw("<nil>")
		return
	}
	w.raw("[")
	for i, word := range words {
		if i > 0 {
			w.raw(" ")
		}
		w.u64(uint64(word))
	}
	w.raw("]")
}

// unixToInternal is the seconds from year 1 to 1970, time.Time's offset.
const unixToInternal = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 86400

// keys returns m's keys sorted, in buf when they fit.
func keys[V any](m map[string]V, buf []string) []string {
	ks := buf[:0]
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
