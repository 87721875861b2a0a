package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A block is a stretch of a file's source that coverage counts as one: it
// runs whole or not at all.
type block struct {
	file                                 string // the file's base name
	startLine, startCol, endLine, endCol int
}

// holds reports whether the position line:col is in b.
func (b block) holds(file string, line, col int) bool {
	switch {
	case file != b.file, line < b.startLine, line > b.endLine:
		return false
	case line == b.startLine && col < b.startCol, line == b.endLine && col >= b.endCol:
		return false
	}
	return true
}

// coverage is, for each test of a package (top-level tests, examples and
// fuzz targets' seeds), the blocks of the package it runs. A mutant can
// only change the outcome of the tests that run the block it is in, so
// only those need to run against it.
type coverage struct {
	tests  []string
	blocks map[string][]block // the blocks each test runs
	all    []block            // every block, run or not
}

// coverage runs each test of the package alone with coverage on.
func (r *runner) coverage(ctx context.Context) (*coverage, error) {
	work := filepath.Join(r.tmp, "cover")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	bin := filepath.Join(work, "cover.test")
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-cover", "-covermode=set", "-o", bin, ".")
	cmd.Dir = r.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the tests with coverage: %v\n%s", err, out)
	}
	out, err := r.exec(ctx, bin, nil, time.Minute, "-test.list", ".")
	if err != nil {
		return nil, fmt.Errorf("listing the tests: %v\n%s", err, out)
	}
	c := &coverage{blocks: map[string][]block{}}
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "Test") || strings.HasPrefix(name, "Example") || strings.HasPrefix(name, "Fuzz") {
			c.tests = append(c.tests, name)
		}
	}
	for i, name := range c.tests {
		profile := filepath.Join(work, fmt.Sprintf("%d.out", i))
		if out, err := r.exec(ctx, bin, nil, r.timeout, "-test.run", "^"+name+"$", "-test.coverprofile", profile); err != nil {
			return nil, fmt.Errorf("%s alone fails: %v\n%s", name, err, out)
		}
		b, err := os.ReadFile(profile)
		if err != nil {
			return nil, err
		}
		all, ran, err := parseProfile(b)
		if err != nil {
			return nil, fmt.Errorf("%s's profile: %v", name, err)
		}
		c.blocks[name], c.all = ran, all
	}
	return c, nil
}

// profileLine is a line of a coverage profile: file:sl.sc,el.ec stmts count.
var profileLine = regexp.MustCompile(`^(.+):(\d+)\.(\d+),(\d+)\.(\d+) \d+ (\d+)$`)

// parseProfile returns the blocks of a coverage profile, and those that
// ran.
func parseProfile(b []byte) (all, ran []block, err error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") || line == "" {
			continue
		}
		m := profileLine.FindStringSubmatch(line)
		if m == nil {
			return nil, nil, fmt.Errorf("unexpected line %q", line)
		}
		n := make([]int, 4)
		for i := range n {
			n[i], _ = strconv.Atoi(m[i+2]) // digits by the regexp
		}
		b := block{path.Base(m[1]), n[0], n[1], n[2], n[3]}
		all = append(all, b)
		if m[6] != "0" {
			ran = append(ran, b)
		}
	}
	return all, ran, sc.Err()
}

// testsFor returns the tests that run the code m changes, in the order
// the binary lists them; nil, meaning every test, for a mutant of a
// package-level declaration, which runs (or is compiled in) before any
// test, and for one that no block holds (coverage does not count a
// switch's case expressions, for one).
func (c *coverage) testsFor(m Mutant) []string {
	file := path.Base(m.File)
	if m.Func == "-" || !slices.ContainsFunc(c.all, func(b block) bool { return b.holds(file, m.Line, m.LineCol) }) {
		return nil
	}
	out := []string{} // not nil: no test at all
	for _, t := range c.tests {
		for _, b := range c.blocks[t] {
			if b.holds(file, m.Line, m.LineCol) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}
