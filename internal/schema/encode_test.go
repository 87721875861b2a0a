package schema

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"testing"
)

// TestAppendJSONString: strings are escaped exactly as encoding/json
// escapes them, for every ASCII byte, HTML characters, U+2028 and U+2029,
// and invalid UTF-8.
func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", "a\"b\\c", "<a&b>", "\u2028\u2029", "é日本", "\xff", "a\xc3", "\xed\xa0\x80"}
	for c := range 128 {
		cases = append(cases, string(rune(c)), "x"+string(rune(c))+"y")
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestSortedEntries: a map's members come out in byte order of their
// keys, with their values, for maps smaller and larger than the encoders'
// stack buffer.
func TestSortedEntries(t *testing.T) {
	for _, n := range []int{0, 1, 2, smallMap - 1, smallMap, smallMap + 1, 100} {
		m := map[string]int{}
		for i := range n {
			m[strconv.Itoa(i*7919%1000)] = i
		}
		var scratch [smallMap]entry[int]
		got := sortedEntries(scratch[:0], m)
		keys := slices.Sorted(maps.Keys(m))
		if len(got) != len(keys) {
			t.Fatalf("n=%d: %d entries, want %d", n, len(got), len(keys))
		}
		for i, k := range keys {
			if got[i].k != k || got[i].v != m[k] {
				t.Fatalf("n=%d: entry %d is %v, want %s: %d", n, i, got[i], k, m[k])
			}
		}
	}
}
