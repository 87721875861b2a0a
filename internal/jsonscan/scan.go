// Package jsonscan finds the values of JSON text by their brackets and
// strings only: where a value ends, the members of an object, the
// elements of a list. It decodes nothing but keys, needs no allocation
// for the values it finds, and never fails on bad input; it judges
// nothing else, so a caller that needs valid JSON checks it (json.Valid,
// or a decoder that reads the values it finds).
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// SkipSpace returns the first offset at or after i that is not JSON white
// space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// ValueEnd returns the end of the JSON value that starts at b[i], judging
// by brackets and strings only.
func ValueEnd(b []byte, i int) (int, error) {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			j, ok := StringEnd(b, i+1)
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

// StringEnd returns the offset of the quote that ends the string whose
// contents start at b[i], and false when no quote does.
func StringEnd(b []byte, i int) (int, bool) {
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

// Members calls f with each member of the object obj (obj[0] is '{'):
// its key, its escapes decoded (without escapes it is obj's own bytes),
// and the offsets of its value. It reports false, after the members it
// could read, when obj is not an object at its top level; it judges
// values by their brackets and strings only.
func Members(obj []byte, f func(key []byte, start, end int)) bool {
	return EachMember(obj, func(key []byte, _, start, end int) { f(key, start, end) })
}

// EachMember is Members, also giving the offset of each key.
func EachMember(obj []byte, f func(key []byte, keyAt, start, end int)) bool {
	return eachMember(obj, func(key []byte, keyAt, start, end int) bool {
		f(key, keyAt, start, end)
		return true
	})
}

// MembersWhile is Members that stops, reporting true, after the first
// member for which f returns false: what a search for a member needs,
// which the rest of the object would only slow down (a Deployment's spec
// and status follow its kind and apiVersion).
func MembersWhile(obj []byte, f func(key []byte, start, end int) bool) bool {
	return eachMember(obj, func(key []byte, _, start, end int) bool { return f(key, start, end) })
}

// eachMember is EachMember, stopping when f returns false.
func eachMember(obj []byte, f func(key []byte, keyAt, start, end int) bool) bool {
	i := SkipSpace(obj, 1)
	if i < len(obj) && obj[i] == '}' {
		return SkipSpace(obj, i+1) == len(obj)
	}
	for i < len(obj) && obj[i] == '"' {
		keyAt := i
		kend, ok := StringEnd(obj, i+1)
		if !ok {
			return false
		}
		key := obj[i+1 : kend]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if json.Unmarshal(obj[i:kend+1], &k) != nil {
				return false
			}
			key = []byte(k)
		}
		i = SkipSpace(obj, kend+1)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = SkipSpace(obj, i+1)
		if i >= len(obj) {
			return false
		}
		vend, err := ValueEnd(obj, i)
		if err != nil {
			return false
		}
		if !f(key, keyAt, i, vend) {
			return true
		}
		i = SkipSpace(obj, vend)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = SkipSpace(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return SkipSpace(obj, i+1) == len(obj)
		default:
			return false
		}
	}
	return false
}

// Elements calls f with each element of the array arr (arr[0] is '[')
// and its offset, and reports false as Members does.
func Elements(arr []byte, f func(off int, v []byte)) bool {
	i := SkipSpace(arr, 1)
	if i < len(arr) && arr[i] == ']' {
		return SkipSpace(arr, i+1) == len(arr)
	}
	for i < len(arr) {
		end, err := ValueEnd(arr, i)
		if err != nil {
			return false
		}
		f(i, arr[i:end])
		i = SkipSpace(arr, end)
		switch {
		case i < len(arr) && arr[i] == ',':
			i = SkipSpace(arr, i+1)
		case i < len(arr) && arr[i] == ']':
			return SkipSpace(arr, i+1) == len(arr)
		default:
			return false
		}
	}
	return false
}
