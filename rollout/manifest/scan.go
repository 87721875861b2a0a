package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The JSON of an input is split by scanning for the ends of values by
// their brackets and strings, which needs no decoding and never fails on
// bad input; json.Valid then checks each object (several at once), and
// rollout.Decode decodes it.

// skipSpace returns the first offset at or after i that is not JSON white
// space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// valueEnd returns the end of the JSON value that starts at b[i], judging
// by brackets and strings only.
func valueEnd(b []byte, i int) (int, error) {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			j, ok := stringEnd(b, i+1)
			if !ok {
				return len(b), errors.New("unterminated string")
			}
			i = j
			if depth == 0 {
				return i + 1, nil
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
			if depth < 0 {
				return i, fmt.Errorf("unexpected %q", b[i])
			}
		case ' ', '\t', '\r', '\n', ',', ':':
		default:
			if depth == 0 { // a number or a literal
				j := i
				for j < len(b) && !bytes.ContainsRune([]byte(" \t\r\n,:{}[]\""), rune(b[j])) {
					j++
				}
				return j, nil
			}
		}
	}
	return len(b), errors.New("unexpected end of input")
}

// stringEnd returns the offset of the quote that ends the string whose
// contents start at b[i].
func stringEnd(b []byte, i int) (int, bool) {
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b), false
		}
		j := i + q
		// The quote is escaped if an odd number of backslashes precede it.
		k := j
		for k > i && b[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j, true
		}
		i = j + 1
	}
}

// members calls f with each member of the object obj (obj[0] is '{'):
// its key, decoded, and the offsets of its value. It reports false, after
// the members it could read, when obj is not an object at its top level;
// it judges values by their brackets and strings only.
func members(obj []byte, f func(key string, start, end int)) bool {
	return eachMember(obj, func(key string, _, start, end int) { f(key, start, end) })
}

// eachMember is members, also giving the offset of each key.
func eachMember(obj []byte, f func(key string, keyAt, start, end int)) bool {
	i := skipSpace(obj, 1)
	if i < len(obj) && obj[i] == '}' {
		return skipSpace(obj, i+1) == len(obj)
	}
	for i < len(obj) && obj[i] == '"' {
		keyAt := i
		kend, ok := stringEnd(obj, i+1)
		if !ok {
			return false
		}
		key := string(obj[i+1 : kend])
		if strings.IndexByte(key, '\\') >= 0 && json.Unmarshal(obj[i:kend+1], &key) != nil {
			return false
		}
		i = skipSpace(obj, kend+1)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipSpace(obj, i+1)
		if i >= len(obj) {
			return false
		}
		vend, err := valueEnd(obj, i)
		if err != nil {
			return false
		}
		f(key, keyAt, i, vend)
		i = skipSpace(obj, vend)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = skipSpace(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return skipSpace(obj, i+1) == len(obj)
		default:
			return false
		}
	}
	return false
}

// elements calls f with each element of the array arr (arr[0] is '[')
// and its offset, and reports false as members does.
func elements(arr []byte, f func(off int, v []byte)) bool {
	i := skipSpace(arr, 1)
	if i < len(arr) && arr[i] == ']' {
		return skipSpace(arr, i+1) == len(arr)
	}
	for i < len(arr) {
		end, err := valueEnd(arr, i)
		if err != nil {
			return false
		}
		f(i, arr[i:end])
		i = skipSpace(arr, end)
		switch {
		case i < len(arr) && arr[i] == ',':
			i = skipSpace(arr, i+1)
		case i < len(arr) && arr[i] == ']':
			return skipSpace(arr, i+1) == len(arr)
		default:
			return false
		}
	}
	return false
}

// topLevel returns the kind of an object ("" when it has none or it is
// not a string), its items (nil when none) and their offset, and false
// when obj is not an object at its top level.
func topLevel(obj []byte) (kind string, items []byte, itemsAt int, ok bool) {
	ok = members(obj, func(key string, start, end int) {
		switch key {
		case "kind":
			kind = ""
			_ = json.Unmarshal(obj[start:end], &kind)
		case "items":
			items, itemsAt = obj[start:end], start
		}
	})
	return kind, items, itemsAt, ok
}

// kindOf returns the kind of a valid JSON object, looking no further than
// its kind member when that comes before any key with an escape.
func kindOf(obj []byte) string {
	for i := skipSpace(obj, 1); i < len(obj) && obj[i] == '"'; {
		kend, _ := stringEnd(obj, i+1)
		key := obj[i+1 : kend]
		if bytes.IndexByte(key, '\\') >= 0 {
			break
		}
		i = skipSpace(obj, skipSpace(obj, kend+1)+1) // past the colon
		vend, _ := valueEnd(obj, i)
		if string(key) == "kind" {
			var kind string
			_ = json.Unmarshal(obj[i:vend], &kind)
			return kind
		}
		i = skipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	kind, _, _, _ := topLevel(obj)
	return kind
}

// keysOf lists the keys of a valid JSON object, sorted, each as display
// shows it.
func keysOf(obj []byte) string {
	var keys []string
	members(obj, func(key string, _, _ int) { keys = append(keys, display(key)) })
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// describeJSON names the kind of a JSON value that is not an object.
func describeJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// display returns s as it is when it is a plain name, and quoted
// otherwise.
func display(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r == '/' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return strconv.Quote(s)
		}
	}
	return s
}

// lineCounter turns offsets into line numbers, counting from where it
// last counted when offsets grow.
type lineCounter struct {
	data       []byte
	off, lines int // data[:off] holds lines-1 line breaks
}

func newLineCounter(data []byte) *lineCounter { return &lineCounter{data: data, lines: 1} }

// at returns the line of data[off], from 1.
func (c *lineCounter) at(off int) int {
	off = min(max(off, 0), len(c.data))
	if off < c.off {
		c.off, c.lines = 0, 1
	}
	c.lines += bytes.Count(c.data[c.off:off], []byte("\n"))
	c.off = off
	return c.lines
}
