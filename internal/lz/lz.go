// Package lz writes texts as copies from a dictionary, a text like them,
// and literal bytes: for keeping many similar texts (the manifests of an
// input, the stored JSON of their pod specs) in a fraction of their size,
// and reading one back in about a microsecond a kilobyte.
//
// A packed text is a sequence of operations, each a uvarint h: a literal
// run of h>>1 bytes, which follow, when h is even; a copy of h>>1+minCopy
// bytes of the dictionary, from the offset (a uvarint) that follows, when
// h is odd. [Dict.Pack] finds copies greedily, by a hash of four bytes, so
// it packs in one pass over the text, and [Dict.Unpack] of what it packs
// gives the text back, byte for byte.
package lz

import (
	"encoding/binary"
	"errors"
)

const (
	minCopy   = 4  // the shortest copy: the length of a hashed sequence
	tableBits = 14 // the hash table has 1<<tableBits entries
)

// A Dict is a dictionary: the text that packed texts copy from, and a
// hash table of where each four-byte sequence of it last starts. It is
// read only once made, and safe for concurrent use.
type Dict struct {
	text  []byte
	table []int32 // hash -> position+1 in text; 0: none
}

// NewDict returns the dictionary of text, which it keeps: the caller must
// not modify text afterwards. A nil or short text is a dictionary from
// which nothing is copied.
func NewDict(text []byte) *Dict {
	d := &Dict{text: text, table: make([]int32, 1<<tableBits)}
	for i := 0; i+minCopy <= len(text) && i < 1<<31-1; i++ {
		d.table[hash4(text[i:])] = int32(i + 1)
	}
	return d
}

// hash4 hashes the first four bytes of b.
func hash4(b []byte) uint32 {
	return (binary.LittleEndian.Uint32(b) * 2654435761) >> (32 - tableBits)
}

// Pack appends text, packed, to dst and returns the result. Unpack of it
// with d gives text.
func (d *Dict) Pack(dst, text []byte) []byte {
	lit := 0 // start of the pending literal run
	flush := func(end int) {
		if end > lit {
			dst = binary.AppendUvarint(dst, uint64(end-lit)<<1)
			dst = append(dst, text[lit:end]...)
		}
	}
	for i := 0; i+minCopy <= len(text); {
		c := int(d.table[hash4(text[i:])]) - 1
		if c < 0 || string(d.text[c:c+minCopy]) != string(text[i:i+minCopy]) {
			i++
			continue
		}
		// Extend forward, then back into the pending literal run.
		n := minCopy
		for i+n < len(text) && c+n < len(d.text) && text[i+n] == d.text[c+n] {
			n++
		}
		for i > lit && c > 0 && text[i-1] == d.text[c-1] {
			i, c, n = i-1, c-1, n+1
		}
		flush(i)
		dst = binary.AppendUvarint(dst, uint64(n-minCopy)<<1|1)
		dst = binary.AppendUvarint(dst, uint64(c))
		i += n
		lit = i
	}
	flush(len(text))
	return dst
}

// ErrCorrupt is the error of Unpack when its input is not a text packed
// with the dictionary.
var ErrCorrupt = errors.New("lz: corrupt packed text")

// Unpack appends the text that packed holds to dst and returns the
// result, or ErrCorrupt when packed is not a text Pack made with d.
func (d *Dict) Unpack(dst, packed []byte) ([]byte, error) {
	for len(packed) > 0 {
		h, k := binary.Uvarint(packed)
		if k <= 0 {
			return dst, ErrCorrupt
		}
		packed = packed[k:]
		n := h >> 1
		if h&1 == 0 {
			if n > uint64(len(packed)) {
				return dst, ErrCorrupt
			}
			dst = append(dst, packed[:n]...)
			packed = packed[n:]
			continue
		}
		off, k := binary.Uvarint(packed)
		if k <= 0 {
			return dst, ErrCorrupt
		}
		packed = packed[k:]
		n += minCopy
		if off > uint64(len(d.text)) || n > uint64(len(d.text))-off {
			return dst, ErrCorrupt
		}
		dst = append(dst, d.text[off:off+n]...)
	}
	return dst, nil
}
