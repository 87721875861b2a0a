package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rolloutmath/rolloutmath/internal/jsonscan"
)

// The JSON of an input is split by scanning for the ends of values by
// their brackets and strings (package jsonscan), which needs no decoding
// and never fails on bad input; json.Valid then checks each object
// (several at once), and rollout.Decode decodes it.

// topLevel returns the kind of an object ("" when it has none or it is
// not a string), its items (nil when none) and their offset, and false
// when obj is not an object at its top level.
func topLevel(obj []byte) (kind string, items []byte, itemsAt int, ok bool) {
	ok = jsonscan.Members(obj, func(key []byte, start, end int) {
		switch string(key) {
		case "kind":
			kind = ""
			_ = json.Unmarshal(obj[start:end], &kind)
		case "items":
			items, itemsAt = obj[start:end], start
		}
	})
	return kind, items, itemsAt, ok
}

// convertedTopLevel is topLevel of the JSON a YAML conversion writes,
// whose keys are unique and sorted (as encoding/json sorts a map's): it
// reads no member after kind, since items sorts before it, and so skips
// the metadata, spec and status that follow.
func convertedTopLevel(obj []byte) (kind string, items []byte, itemsAt int, ok bool) {
	ok = jsonscan.MembersWhile(obj, func(key []byte, start, end int) bool {
		switch string(key) {
		case "kind":
			_ = json.Unmarshal(obj[start:end], &kind)
		case "items":
			items, itemsAt = obj[start:end], start
		}
		return string(key) < "kind"
	})
	return kind, items, itemsAt, ok
}

// kindOf returns the kind of a valid JSON object, looking no further than
// its kind member when that comes before any key with an escape.
func kindOf(obj []byte) string {
	for i := jsonscan.SkipSpace(obj, 1); i < len(obj) && obj[i] == '"'; {
		kend, _ := jsonscan.StringEnd(obj, i+1)
		key := obj[i+1 : kend]
		if bytes.IndexByte(key, '\\') >= 0 {
			break
		}
		i = jsonscan.SkipSpace(obj, jsonscan.SkipSpace(obj, kend+1)+1) // past the colon
		vend, _ := jsonscan.ValueEnd(obj, i)
		if string(key) == "kind" {
			var kind string
			_ = json.Unmarshal(obj[i:vend], &kind)
			return kind
		}
		i = jsonscan.SkipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = jsonscan.SkipSpace(obj, i+1)
		}
	}
	kind, _, _, _ := topLevel(obj)
	return kind
}

// keysOf lists the keys of a valid JSON object, sorted, each as display
// shows it.
func keysOf(obj []byte) string {
	var keys []string
	jsonscan.Members(obj, func(key []byte, _, _ int) { keys = append(keys, display(string(key))) })
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
