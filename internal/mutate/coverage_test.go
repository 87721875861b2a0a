package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTestsFor: a mutant runs the tests whose profile ran its block; a
// mutant in no block (a switch's case expression) and one at package level
// run every test; one in a block no test ran runs none.
func TestTestsFor(t *testing.T) {
	profile := func(counts ...string) []byte {
		return []byte("mode: set\n" +
			"example.com/m/p/p.go:3.20,5.2 2 " + counts[0] + "\n" +
			"example.com/m/p/p.go:7.14,9.3 1 " + counts[1] + "\n")
	}
	c := &coverage{tests: []string{"TestA", "TestB"}, blocks: map[string][]block{}}
	for i, counts := range [][]string{{"1", "0"}, {"1", "1"}} {
		all, ran, err := parseProfile(profile(counts...))
		if err != nil {
			t.Fatal(err)
		}
		c.blocks[c.tests[i]], c.all = ran, all
	}
	m := func(fn string, line, col int) Mutant {
		return Mutant{File: "p/p.go", Func: fn, Line: line, LineCol: col}
	}
	tests := []struct {
		name string
		m    Mutant
		want []string
	}{
		{"in the first block", m("f", 4, 1), []string{"TestA", "TestB"}},
		{"at the start of a block", m("f", 3, 20), []string{"TestA", "TestB"}},
		{"in the second block", m("g", 8, 5), []string{"TestB"}},
		{"at the end of the second block, exclusive", m("g", 9, 3), nil},
		{"between blocks", m("g", 6, 1), nil},
		{"package level", m("-", 4, 1), nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, c.testsFor(tt.m)); diff != "" {
			t.Errorf("%s: testsFor() mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	c.blocks["TestB"] = c.blocks["TestA"] // now no test runs the second block
	if got := c.testsFor(m("g", 8, 5)); got == nil || len(got) != 0 {
		t.Errorf("testsFor() = %#v for a block no test runs, want an empty list", got)
	}
}
