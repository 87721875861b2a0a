package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// plainByte and safeByte are the byte-at-a-time definitions that the word
// scans stand for.
func plainByte(c byte) bool { return plainString[c] }
func safeByte(c byte) bool  { return safeJSON[c] }

// TestWordMarksEveryByte: for every byte value at every position of a
// word, after plain bytes and before any bytes at all, the lowest mark of
// plainMarks and unsafeMarks is that byte's exactly when the byte-at-a-time
// tables refuse it, and there is no mark below it.
func TestWordMarksEveryByte(t *testing.T) {
	for _, tc := range []struct {
		name  string
		marks func(uint64) uint64
		ok    func(byte) bool
	}{
		{"plainMarks", plainMarks, plainByte},
		{"unsafeMarks", unsafeMarks, safeByte},
	} {
		for c := range 256 {
			for pos := range 8 {
				// Bytes above pos are every kind, including ones that
				// stop the scan and ones that borrow: 0x00, 0x21, 0xff.
				for _, above := range []byte{'a', 0x00, 0x01, 0x21, '"', '\\', 0x80, 0xff} {
					var b [8]byte
					for i := range b {
						b[i] = 'a'
						if i > pos {
							b[i] = above
						}
					}
					b[pos] = byte(c)
					mark := tc.marks(word(string(b[:]), 0))
					if tc.ok(byte(c)) {
						// No mark at or below pos.
						if low := mark & (1<<(8*pos+8) - 1); low != 0 {
							t.Fatalf("%s: byte %#x at %d, above %#x: marked %#x", tc.name, c, pos, above, mark)
						}
						continue
					}
					if mark == 0 || firstMarked(mark) != pos {
						t.Fatalf("%s: byte %#x at %d, above %#x: first mark %d (%#x)", tc.name, c, pos, above, firstMarked(mark), mark)
					}
				}
			}
		}
	}
}

// scanBytes is the byte-at-a-time scan that plainEnd and safeEnd stand
// for.
func scanBytes(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

// TestStringScansProperty: plainEnd and the decoder's string reader
// agree with the byte-at-a-time scans, and the encoder's string writer
// with encoding/json, on any string, from any start.
func TestStringScansProperty(t *testing.T) {
	alphabet := []byte("ab/-_.:09 \"\\<>&\x00\x1f\x7f\x80\xc3\xa9\xe2\x80\xa8\xff")
	rapid.Check(t, func(t *rapid.T) {
		// Mostly plain bytes, some of any kind.
		n := rapid.IntRange(0, 40).Draw(t, "len")
		b := make([]byte, n)
		for i := range b {
			if rapid.IntRange(0, 9).Draw(t, "plain") > 0 {
				b[i] = 'a' + byte(rapid.IntRange(0, 25).Draw(t, "letter"))
			} else {
				b[i] = rapid.SampledFrom(alphabet).Draw(t, "byte")
			}
		}
		s := string(b)
		i := rapid.IntRange(0, n).Draw(t, "start")
		if got, want := plainEnd(s, i), scanBytes(s, i, plainByte); got != want {
			t.Fatalf("plainEnd(%q, %d) = %d, want %d", s, i, got, want)
		}
		// The encoder's word scan, where it lands in a buffer with spare
		// capacity of any content: encoding/json's escaping.
		escaped, _ := json.Marshal(s[i:])
		dst := append(make([]byte, 0, rapid.IntRange(0, 80).Draw(t, "cap")), "\xff\"<&"...)
		if got := appendJSONString(dst, s[i:]); string(got[4:]) != string(escaped) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s[i:], got[4:], escaped)
		}
		// stringEnd finds the closing quote when only plain bytes come
		// before it and it lies within the whole words from i, and says -1
		// otherwise (the slow paths read on).
		want := scanBytes(s, i, plainByte)
		if !(want < len(s) && s[want] == '"' && i+((want-i)/8+1)*8 <= len(s)) {
			want = -1
		}
		if got := stringEnd(s, i); got != want {
			t.Fatalf("stringEnd(%q, %d) = %d, want %d", s, i, got, want)
		}
	})
}

// TestDecodedStringsAnyLength: the decoder's string readers give the same
// strings whether they are read word by word or, near the end of the
// input, byte by byte.
func TestDecodedStringsAnyLength(t *testing.T) {
	for n := range 40 {
		v := strings.Repeat("x", n)
		for _, doc := range []string{
			`{"metadata":{"name":"` + v + `"}}`,
			`{"metadata":{"name":"` + v + `"` + strings.Repeat(" ", 20) + `}}`,
			`{"metadata":{"name":"` + v + `\u00e9"}}`,
		} {
			x, res := DecodePodTemplateSpec([]byte(doc), DecodeOptions{})
			if len(res.Errs) > 0 {
				t.Fatalf("%s: %v", doc, res.Errs)
			}
			want := v
			if strings.Contains(doc, `\u00e9`) {
				want += "é"
			}
			if x.Name != want {
				t.Fatalf("%s: name %q", doc, x.Name)
			}
		}
	}
}
