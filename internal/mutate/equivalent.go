package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// An equivalent is a mutant listed as one no test can kill, with the
// reason why it changes no behaviour.
type equivalent struct {
	ID     string
	Reason string
	Line   int // in the list
}

// parseEquivalents reads a list of equivalent mutants: for each, a line
// "mutant: <ID>" as the tool prints it, then one or more lines
// "reason: ..." (continued by indented lines). Blank lines and lines
// starting with # are comments. Every mutant needs a reason.
func parseEquivalents(r io.Reader) ([]equivalent, error) {
	var out []equivalent
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasPrefix(line, "mutant: "):
			out = append(out, equivalent{ID: strings.TrimSpace(strings.TrimPrefix(line, "mutant: ")), Line: n})
		case strings.HasPrefix(line, "reason: "), strings.HasPrefix(line, " "), strings.HasPrefix(line, "\t"):
			if len(out) == 0 {
				return nil, fmt.Errorf("line %d: a reason before any mutant", n)
			}
			e := &out[len(out)-1]
			e.Reason = strings.TrimSpace(e.Reason + " " + strings.TrimSpace(strings.TrimPrefix(trimmed, "reason:")))
		default:
			return nil, fmt.Errorf("line %d: want \"mutant: <ID>\", \"reason: <why>\" or a comment, got %q", n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for _, e := range out {
		if e.Reason == "" {
			return nil, fmt.Errorf("line %d: mutant %s has no reason", e.Line, e.ID)
		}
		if prev, ok := seen[e.ID]; ok {
			return nil, fmt.Errorf("line %d: mutant %s already listed on line %d", e.Line, e.ID, prev)
		}
		seen[e.ID] = e.Line
	}
	return out, nil
}
