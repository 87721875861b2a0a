package schema

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"
)

// TestStringTableIntern: Intern gives back an equal string, the same copy
// for every string equal to it, and never the memory it was given.
func TestStringTableIntern(t *testing.T) {
	var table StringTable
	if got := table.Intern(""); got != "" {
		t.Errorf(`Intern("") = %q`, got)
	}
	input := []byte(`"app-1","app-1","IfNotPresent"`)
	a, b, c := string(input[1:6]), string(input[9:14]), string(input[17:29]) // copies: strings of their own
	first := table.Intern(a)
	if first != a || unsafe.StringData(first) == unsafe.StringData(a) {
		t.Errorf("Intern(%q) = %q at %p: want an equal copy, not %p", a, first, unsafe.StringData(first), unsafe.StringData(a))
	}
	if again := table.Intern(b); again != b || unsafe.StringData(again) != unsafe.StringData(first) {
		t.Errorf("Intern(%q) the second time gave another copy", b)
	}
	if other := table.Intern(c); other != c || unsafe.StringData(other) == unsafe.StringData(first) {
		t.Errorf("Intern(%q) = %q", c, other)
	}
}

// TestStringTableConcurrent: decoders running at once share one table
// (run with -race): each string has one copy whatever the order.
func TestStringTableConcurrent(t *testing.T) {
	var table StringTable
	const workers, strings = 4, 500
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range strings {
				got[w] = append(got[w], table.Intern(fmt.Sprintf("s-%d", (i*(w+1))%strings)))
			}
		}()
	}
	wg.Wait()
	copies := map[string]*byte{}
	for _, list := range got {
		for _, s := range list {
			if p, seen := copies[s]; seen && p != unsafe.StringData(s) {
				t.Fatalf("two copies of %q", s)
			}
			copies[s] = unsafe.StringData(s)
		}
	}
}
