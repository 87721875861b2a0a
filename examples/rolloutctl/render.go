package main

import (
	"fmt"
	"io"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

// The table, the chart and the summary are drawn by rollout/sim/render,
// which the playground (examples/playground) calls too; the command names
// its limits as its flags.

// tableHead is what a simulation's table says before its syncs (see
// render.Head).
type tableHead struct {
	title, version, model string
	times, notes          []string
}

// writeTable prints a simulation as a table (see render.Table), with the
// summary's limits named as the flags that set them, and after it, for a
// run whose steps stop before its end (sim.RunFirst), a line saying
// which syncs are not shown.
func writeTable(w io.Writer, head tableHead, s rollout.State, res sim.Result) {
	res.Summary.Detail = flagNames(res.Summary.Detail)
	render.Table(w, render.Head{Title: head.title, Version: head.version, Model: head.model, Times: head.times, Notes: head.notes}, s, res)
	if n, all := len(res.Steps), res.Summary.Syncs; n < all {
		fmt.Fprintf(w, "\nsyncs %d to %d are not shown (--max-steps %d); the summary is of all %d\n", n+1, all, n, all)
	}
}
