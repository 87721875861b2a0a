// Package render draws a simulated rollout (a [sim.Result]) for people:
// as a timeline table of every sync with its actions and their reasons
// ([Table]), as an SVG chart of the pods that exist ([SVG]), as a summary
// ([Summary], and [SummaryLine] in one line). The command rolloutctl
// simulate and the browser playground (examples/playground) both print
// through it, so that one input reads the same in both.
//
// Every function is pure: its output depends on its arguments alone, and
// it modifies none of them.
package render
