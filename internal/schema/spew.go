package schema

import (
	"math/big"
	"strconv"
	"sync"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// The renderings of upstream's pod-template-hash: the go-spew "%#v"
// rendering of the v1 types with the configuration of
// k8s.io/utils/dump.ForHash (types shown, map keys sorted, methods not
// called, no pointer addresses).
//
// The generated spew functions (zz_generated.spew.go) write a struct as
// {Field:(type)value Field:(type)value}, with the type of each field as
// reflect prints it; elements of lists and maps, and the value behind a
// pointer, are written without their type; nil pointers, lists and maps are
// <nil>; strings are written raw. Their constant text comes in numbered
// segments (segmentTexts).
//
// They come in two variants: methods of *segTables feed the rendering to a
// 32-bit FNV-1a hash as they go, passing the state from call to call and
// reading each long segment in one step from its prepared table; methods of
// *spewer append the same rendering to text, for tests and diagnostics.

// A spewer appends the rendering to text.
type spewer struct {
	text  *[]byte
	minor Minors // the minor rendered
}

// readMinor is the minor that a decoder or a rendering for v reads or
// writes: v's, or the newest for a Version that is not Valid.
func readMinor(v kubeversion.Version) Minors {
	if !v.Valid() {
		v = kubeversion.Latest
	}
	return MinorsOf(v)
}

// minorTables holds the segment tables of each minor, built on first use (a
// few ms) and read-only afterwards: the prepared segments are shared, the
// minor differs.
var minorTables = sync.OnceValue(func() *[kubeversion.Newest + 1]segTables {
	var t [kubeversion.Newest + 1]segTables
	for i, s := range segmentTexts {
		if len(s) >= minSegment {
			t[kubeversion.Latest].seg[i] = hash.NewSegment(s)
		}
	}
	for _, v := range kubeversion.Supported() {
		t[v].seg = t[kubeversion.Latest].seg
		t[v].minor = MinorsOf(v)
	}
	t[kubeversion.Latest].minor = MinorsOf(kubeversion.Latest)
	return &t
})

// segmentTables returns the segment tables that render Kubernetes v (the
// newest minor for a Version that is not Valid).
func segmentTables(v kubeversion.Version) *segTables {
	if !v.Valid() {
		v = kubeversion.Latest
	}
	return &minorTables()[v]
}

// lit writes segment id.
func (w *spewer) lit(id int) { *w.text = append(*w.text, segmentTexts[id]...) }

// raw writes text that is not a segment.
func (w *spewer) raw(s string) { *w.text = append(*w.text, s...) }

func (w *spewer) str(s string) { w.raw(s) }

func (w *spewer) i64(v int64) { *w.text = strconv.AppendInt(*w.text, v, 10) }

func (w *spewer) u64(v uint64) { *w.text = strconv.AppendUint(*w.text, v, 10) }

func (w *spewer) boolean(b bool) { *w.text = strconv.AppendBool(*w.text, b) }

// nat writes the magnitude of a big.Int as spew writes a big.nat: its
// words, least significant first, or <nil> for zero.
func (w *spewer) nat(x *big.Int) { *w.text = appendNat(*w.text, x) }

func appendNat(buf []byte, x *big.Int) []byte {
	words := new(big.Int).Abs(x).Bits()
	if len(words) == 0 {
		return append(buf, "<nil>"...)
	}
	buf = append(buf, '[')
	for i, word := range words {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = strconv.AppendUint(buf, uint64(word), 10)
	}
	return append(buf, ']')
}

// hashInt returns the state after reading v in decimal.
func hashInt(h hash.FNV32a, v int64) hash.FNV32a {
	var buf [20]byte
	return h.Write(strconv.AppendInt(buf[:0], v, 10))
}

// hashUint returns the state after reading v in decimal.
func hashUint(h hash.FNV32a, v uint64) hash.FNV32a {
	var buf [20]byte
	return h.Write(strconv.AppendUint(buf[:0], v, 10))
}

// hashBool returns the state after reading b as spew writes it.
func hashBool(h hash.FNV32a, b bool) hash.FNV32a {
	if b {
		return h.WriteString("true")
	}
	return h.WriteString("false")
}

// hashNat returns the state after reading the magnitude of x as spew
// writes a big.nat (see appendNat).
func hashNat(h hash.FNV32a, x *big.Int) hash.FNV32a {
	var buf [64]byte
	return h.Write(appendNat(buf[:0], x))
}

// unixToInternal is the seconds from year 1 to 1970, time.Time's offset.
const unixToInternal = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 86400
