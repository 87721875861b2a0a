package main

import (
	"time"

	"github.com/rolloutmath/rolloutmath/internal/chart"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// The chart's geometry moved with the chart to rollout/sim/render (its
// axes in internal/chart); these names keep svg_test.go's checks of the
// command's chart as they were written.

const charWidth = chart.CharWidth

type chartStep struct{ sets []sim.SetCount }

func chartSteps(start time.Time, res sim.Result, inputAt float64) []chartStep {
	var out []chartStep
	for _, st := range chart.Steps(start, res, inputAt) {
		out = append(out, chartStep{sets: st.Sets})
	}
	return out
}

func yScale(top float64) (step, yMax float64) { return chart.YScale(top) }

type tick struct {
	v    float64
	text string
}

func ticks(step, top float64) []tick {
	var out []tick
	for _, t := range chart.Ticks(step, top) {
		out = append(out, tick{t.V, t.Text})
	}
	return out
}

func timeStep(end, width float64) float64 { return chart.TimeStep(end, width) }
