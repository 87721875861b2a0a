package schema

import (
	"strings"
	"sync"
)

// A StringTable holds one copy of each string that the decoders given it
// (DecodeOptions.Strings) keep in the objects they decode. Objects decoded
// through one table share their equal strings (names, labels, images,
// "IfNotPresent"...), and none of them holds on to its input: without a
// table, a decoded object's strings are parts of one copy of its whole
// input, keys and white space included, which stays in memory as long as
// any of them does. The zero StringTable is empty and ready; it is safe
// for concurrent use. It holds every string it was given until it is
// dropped.
type StringTable struct {
	shards [16]struct {
		mu sync.Mutex
		m  map[string]string
	}
}

// Intern returns a string equal to s that the table holds: the copy it
// made of the first string equal to s it was given. The result never
// shares memory with s, unless s came from the table.
func (t *StringTable) Intern(s string) string {
	if s == "" {
		return ""
	}
	// Spread over shards by length and ends, so that decoders running
	// at once seldom wait for one another.
	sh := &t.shards[(len(s)+int(s[0])+int(s[len(s)-1]))%len(t.shards)]
	sh.mu.Lock()
	v, ok := sh.m[s]
	if !ok {
		if sh.m == nil {
			sh.m = map[string]string{}
		}
		v = strings.Clone(s)
		sh.m[v] = v
	}
	sh.mu.Unlock()
	return v
}
