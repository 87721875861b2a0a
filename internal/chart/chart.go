// Package chart holds the geometry of the rollout chart that
// rollout/sim/render draws: the columns it plots (one per step), the round
// ticks of its pod axis and the step of its time axis. It is separate so
// that the command's tests and render's read one picture of the axes.
package chart

import (
	"math"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// CharWidth is the width, in SVG user units, of a 12px sans-serif digit or
// letter, about: what the chart allows for a label per character.
const CharWidth = 7

// A Step is what one column of the chart shows: a step's pods, or the
// input's before the start. At is in seconds after the start; Available
// counts the available pods of every ReplicaSet.
type Step struct {
	At             float64
	Sets           []sim.SetCount
	Floor, Ceiling int64
	Available      int64
}

// Set returns the counts of the named ReplicaSet in st, zero when it has
// none.
func (st Step) Set(name string) sim.SetCount {
	for _, c := range st.Sets {
		if c.Name == name {
			return c
		}
	}
	return sim.SetCount{}
}

// Steps returns one Step for the input's state, at inputAt seconds, then
// one for every step of res, at its time after start: len(res.Steps)+1 in
// all. Each Step shares its Sets with res; Steps modifies nothing.
func Steps(start time.Time, res sim.Result, inputAt float64) []Step {
	out := make([]Step, 0, len(res.Steps)+1)
	add := func(st sim.Step, at float64) {
		_, avail := st.Pods()
		out = append(out, Step{At: at, Sets: st.Sets, Floor: int64(st.Floor), Ceiling: st.Ceiling, Available: avail})
	}
	add(res.Start, inputAt)
	for _, st := range res.Steps {
		add(st, st.At.Sub(start).Seconds())
	}
	return out
}

// YScale returns a round step for about five ticks up to top, and the top
// of the axis: the first tick at or above top (22 gives 25, not 50), one
// step more when top would touch it (yMax >= 1.05*top). The chart
// calls it with top at least 1; YScale(0) is (1, 0).
func YScale(top float64) (step, yMax float64) {
	step = NiceStep(top / 5)
	yMax = math.Ceil(top/step) * step
	if yMax < top*1.05 { // room above the highest line
		yMax += step
	}
	return step, yMax
}

// NiceStep rounds v up to a whole 1, 2, 2.5 or 5 times a power of ten,
// at least 1: pods come whole.
func NiceStep(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v && m*p == math.Trunc(m*p) {
			return m * p
		}
	}
	return 10 * p
}

// A Tick is a labelled value of the pod axis.
type Tick struct {
	V    float64
	Text string
}

// Ticks returns the ticks 0, step, 2*step, ... up to top, each labelled
// with [Count].
func Ticks(step, top float64) []Tick {
	var out []Tick
	for v := 0.0; v <= top+step/1e6; v += step {
		out = append(out, Tick{v, Count(v)})
	}
	return out
}

// Count prints a pod count compactly: 950, 25k, 1.5M, 2.1G.
func Count(v float64) string {
	for _, u := range []struct {
		suffix string
		size   float64
	}{{"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if v >= 10*u.size || (v >= u.size && math.Mod(v, u.size/10) == 0) {
			return strconv.FormatFloat(v/u.size, 'f', -1, 64) + u.suffix
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// TimeStep returns a round time step, in seconds, for a time axis of end
// seconds over width units: at most 10 labels, each with room for the
// widest (the label of end) and a gap.
func TimeStep(end, width float64) float64 {
	const minute, hour, day = 60, 3600, 86400
	for _, s := range []float64{1, 2, 5, 10, 15, 30, minute, 2 * minute, 5 * minute, 10 * minute, 15 * minute, 30 * minute,
		hour, 2 * hour, 3 * hour, 6 * hour, 12 * hour, day, 2 * day, 7 * day, 14 * day, 30 * day, 90 * day, 365 * day} {
		label := len(words.Duration(time.Duration(end * float64(time.Second)))) // the widest, about
		if n := end / s; n <= 10 && n*float64(CharWidth*label+16) <= width {
			return s
		}
	}
	return NiceStep(end / 8)
}
