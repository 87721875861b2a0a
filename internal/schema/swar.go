package schema

import "math/bits"

// Eight bytes at a time: the string scans of the decoder and the encoder
// test a whole 64-bit word for the bytes that stop them, and look at
// single bytes only near such a byte and at the end of their input.

const (
	lsbs = 0x0101010101010101 // the lowest bit of every byte
	msbs = 0x8080808080808080 // the highest bit of every byte
)

// word reads the eight bytes of s at i, the first the lowest (the
// compiler makes one load of it). The caller makes sure that i+8 <=
// len(s).
func word[S string | []byte](s S, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// A word's marks are the highest bits of the bytes that a test picks
// out. The tests are the classic ones: (x - lsbs) & ^x marks the bytes of
// x that are zero, so with x = w ^ c·lsbs the bytes of w equal to c, and
// (w - n·lsbs) & ^w the bytes of w below n (n <= 0x80). The borrow of the
// subtraction runs upward, so a byte above a marked one may be marked
// wrongly: only the lowest mark is sure, and firstMarked reads only that.

// firstMarked is the index of the lowest marked byte of a non-zero mark.
func firstMarked(mark uint64) int { return bits.TrailingZeros64(mark) / 8 }

// plainEnd returns the first index at or after i of a byte of s that a JSON
// string does not hold as it is (a quote, a backslash, a control character
// or a byte of a multi-byte sequence), or len(s).
func plainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if mark := plainMarks(word(s, i)); mark != 0 {
			return i + firstMarked(mark)
		}
	}
	for i < len(s) && plainString[s[i]] {
		i++
	}
	return i
}

// plainMarks marks the bytes of w that a JSON string does not hold as
// they are (see plainEnd): a control character or a quote (0x22), which
// are the bytes below 0x21 once bit 1 is flipped; a backslash; a byte of a
// multi-byte sequence.
func plainMarks(w uint64) uint64 {
	x, y := w^(lsbs*0x02), w^(lsbs*'\\')
	return ((x-lsbs*0x21)&^x | (y-lsbs)&^y | w) & msbs
}

// stringEnd returns the index of the quote that ends the string whose
// contents start at s[i], when no byte before it is one that plainEnd
// stops at, or -1. It reads whole words only: the decoder's string readers
// leave the last bytes of the input, and everything else, to their slow
// paths.
func stringEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if mark := plainMarks(word(s, i)); mark != 0 {
			if i += firstMarked(mark); s[i] == '"' {
				return i
			}
			return -1
		}
	}
	return -1
}

// unsafeMarks marks the bytes of w that safeJSON does not tell safe: a
// control character or a quote (see plainMarks), an ampersand, < or >
// (0x3c, 0x3e: the same once bit 1 is set), a backslash, a byte of a
// multi-byte sequence.
func unsafeMarks(w uint64) uint64 {
	x, a, g, b := w^(lsbs*0x02), w^(lsbs*'&'), (w|lsbs*0x02)^(lsbs*'>'), w^(lsbs*'\\')
	return ((x-lsbs*0x21)&^x | (a-lsbs)&^a | (g-lsbs)&^g | (b-lsbs)&^b | w) & msbs
}
