package main

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the differences between the lines a and b as a
// unified diff (three lines of context), headed by their names, or "" when
// they are equal. It finds a longest common subsequence of lines, which
// for pod templates (hundreds of lines) is quick.
func unifiedDiff(nameA, nameB string, a, b []string) string {
	for i := range a {
		a[i] = strings.TrimSuffix(a[i], "\n")
	}
	for i := range b {
		b[i] = strings.TrimSuffix(b[i], "\n")
	}
	ops := diffLines(a, b)
	const context = 3
	var out strings.Builder
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before this change to context lines
		// after the last change that is at most 2*context lines away.
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
		}
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, op := range ops[start:end] {
			fmt.Fprintf(&out, "%c%s\n", op.kind, op.text)
		}
		i = end
	}
	return out.String()
}

// hunkRange is a hunk's "start,length" (1-based; the line before an empty
// range).
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// diffOp is a line kept (' '), removed ('-') or added ('+'), with its
// index in a and b at that point.
type diffOp struct {
	kind rune
	text string
	a, b int
}

// diffLines returns the edit script from a to b along a longest common
// subsequence.
func diffLines(a, b []string) []diffOp {
	// lcs[i][j] is the length of the LCS of a[i:] and b[j:].
	n, m := len(a), len(b)
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], i, j})
			i, j = i+1, j+1
		case i < n && (j == m || *at(i+1, j) >= *at(i, j+1)):
			ops = append(ops, diffOp{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j], i, j})
			j++
		}
	}
	return ops
}
