package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// Chart geometry, in SVG user units.
const (
	svgWidth, svgHeight = 1000, 440
	plotLeft, plotTop   = 60, 50
	plotRight           = 640 // the legend is to the right of it
	plotBottom          = 380
)

// newFill is the new ReplicaSet's color.
const newFill = "#31a354"

// svgSeries is one ReplicaSet's desired count at each step.
type svgSeries struct {
	name, revision string
	isNew          bool
	desired        []int32
}

// writeSVG draws a simulation as a self-contained SVG chart: each
// ReplicaSet's desired count over time as stacked step areas (oldest at
// the bottom), a line for the available pods, dashed lines for the
// availability floor and the surge ceiling, axes with labels, and a
// legend.
func writeSVG(w io.Writer, title string, s rollout.State, res sim.Result) {
	steps := res.Steps
	offsets := make([]float64, len(steps))
	for i, st := range steps {
		offsets[i] = st.At.Sub(s.Now).Seconds()
	}
	series := svgCollect(steps)
	avail := make([]int64, len(steps))
	var top int64 = 1
	for i, st := range steps {
		var stacked int64
		for _, c := range st.Sets {
			avail[i] += int64(c.Available)
			stacked += int64(c.Desired)
		}
		top = max(top, stacked, avail[i])
	}
	sm := res.Summary
	top = max(top, sm.Ceiling, int64(sm.Floor), sm.PeakPods)
	yMax := niceCeil(float64(top) * 1.1)
	// The last step lasts as long as the mean step, or 10% of the run.
	end := 1.0
	if n := len(offsets); n > 0 {
		end = offsets[n-1]
		if n > 1 {
			end += offsets[n-1] / float64(n-1)
		} else {
			end += max(sm.Duration.Seconds(), 1)
		}
	}
	xStep := timeStep(end)
	xMax := math.Ceil(end/xStep) * xStep
	x := func(sec float64) float64 { return plotLeft + (plotRight-plotLeft)*sec/xMax }
	y := func(v float64) float64 { return plotBottom - (plotBottom-plotTop)*v/yMax }
	// stepEnd is when step i's values stop holding.
	stepEnd := func(i int) float64 {
		if i+1 < len(offsets) {
			return offsets[i+1]
		}
		return end
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(title))
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="14" font-weight="bold">%s</text>`+"\n", plotLeft, esc(title))

	// Grid and axes.
	b.WriteString(`<g class="axes" stroke="#999" stroke-width="1">` + "\n")
	for _, v := range ticks(yMax) {
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#eee"/>`+"\n", f(plotLeft), f(y(v)), f(plotRight), f(y(v)))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end" stroke="none" fill="#333">%s</text>`+"\n", f(plotLeft-6), f(y(v)+4), f(v))
	}
	for v := 0.0; v <= xMax+xStep/1e6; v += xStep {
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(x(v)), f(plotBottom), f(x(v)), f(plotBottom+5))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" stroke="none" fill="#333">%s</text>`+"\n", f(x(v)), f(plotBottom+18), esc(fmtDuration(time.Duration(v*float64(time.Second)))))
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", plotLeft, plotBottom, plotRight, plotBottom)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", plotLeft, plotTop, plotLeft, plotBottom)
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<text class="x-label" x="%d" y="%d" text-anchor="middle">time since the start</text>`+"\n", (plotLeft+plotRight)/2, plotBottom+40)
	fmt.Fprintf(&b, `<text class="y-label" x="16" y="%d" text-anchor="middle" transform="rotate(-90 16 %d)">pods</text>`+"\n", (plotTop+plotBottom)/2, (plotTop+plotBottom)/2)

	// Stacked areas, oldest ReplicaSet at the bottom.
	base := make([]float64, len(steps))
	for k, sr := range series {
		var upper, lower []string
		for i := range steps {
			v := base[i] + float64(sr.desired[i])
			upper = append(upper, pt(x(offsets[i]), y(v)), pt(x(stepEnd(i)), y(v)))
		}
		for i := len(steps) - 1; i >= 0; i-- {
			lower = append(lower, pt(x(stepEnd(i)), y(base[i])), pt(x(offsets[i]), y(base[i])))
			base[i] += float64(sr.desired[i])
		}
		fmt.Fprintf(&b, `<polygon class="replicaset" data-name="%s" points="%s" fill="%s" fill-opacity="0.85" stroke="white" stroke-width="0.5"/>`+"\n",
			esc(sr.name), strings.Join(append(upper, lower...), " "), fill(series, k))
	}

	// Available pods, as a step line.
	if len(steps) > 0 {
		var pts []string
		for i := range steps {
			pts = append(pts, pt(x(offsets[i]), y(float64(avail[i]))), pt(x(stepEnd(i)), y(float64(avail[i]))))
		}
		fmt.Fprintf(&b, `<polyline class="available" points="%s" fill="none" stroke="#d62728" stroke-width="2"/>`+"\n", strings.Join(pts, " "))
	}
	// Floor and ceiling.
	hline := func(class string, v float64, dash, label string) {
		fmt.Fprintf(&b, `<line class="%s" x1="%d" y1="%s" x2="%d" y2="%s" stroke="#333" stroke-width="1.5" stroke-dasharray="%s"/>`+"\n",
			class, plotLeft, f(y(v)), plotRight, f(y(v)), dash)
		fmt.Fprintf(&b, `<text x="%d" y="%s" text-anchor="end" font-size="11" fill="#333">%s</text>`+"\n", plotRight-4, f(y(v)-4), esc(label))
	}
	hline("floor", float64(sm.Floor), "6 4", fmt.Sprintf("floor %d (min available)", sm.Floor))
	hline("ceiling", float64(sm.Ceiling), "2 3", fmt.Sprintf("ceiling %d (replicas + maxSurge)", sm.Ceiling))

	// Legend.
	ly := plotTop
	b.WriteString(`<g class="legend">` + "\n")
	legend := func(mark, label string) {
		b.WriteString(mark + "\n")
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", plotRight+48, ly+10, esc(label))
		ly += 20
	}
	swatch := func(color string) string {
		return fmt.Sprintf(`<rect x="%d" y="%d" width="20" height="12" fill="%s"/>`, plotRight+20, ly, color)
	}
	sample := func(color, width, dash string) string {
		return fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%s" stroke-dasharray="%s"/>`,
			plotRight+20, ly+6, plotRight+40, ly+6, color, width, dash)
	}
	for k := len(series) - 1; k >= 0; k-- { // top of the stack first
		sr := series[k]
		label := fmt.Sprintf("%s (rev %s)", sr.name, sr.revision)
		if sr.isNew {
			label += " new"
		}
		legend(swatch(fill(series, k)), label)
	}
	legend(sample("#d62728", "2", "none"), "available pods")
	legend(sample("#333", "1.5", "6 4"), "availability floor")
	legend(sample("#333", "1.5", "2 3"), "surge ceiling")
	outcome := "complete"
	if sm.Outcome != sim.OutcomeComplete {
		outcome = "not complete"
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#333">%s after %s, %s</text>`+"\n", plotRight+20, ly+16, esc(outcome), esc(fmtDuration(sm.Duration)), plural(sm.Syncs, "sync"))
	b.WriteString("</g>\n</svg>\n")
	w.Write(b.Bytes())
}

// svgCollect gathers each ReplicaSet's desired count per step, ordered by
// revision (then name), the new ReplicaSet last.
func svgCollect(steps []sim.Step) []svgSeries {
	index := map[string]int{}
	var series []svgSeries
	for i, st := range steps {
		for _, c := range st.Sets {
			k, ok := index[c.Name]
			if !ok {
				k = len(series)
				index[c.Name] = k
				series = append(series, svgSeries{name: c.Name, desired: make([]int32, len(steps))})
			}
			series[k].revision, series[k].isNew = c.Revision, c.New
			series[k].desired[i] = c.Desired
		}
	}
	slices.SortStableFunc(series, func(a, b svgSeries) int {
		if a.isNew != b.isNew {
			if a.isNew {
				return 1
			}
			return -1
		}
		ra, _ := strconv.ParseInt(a.revision, 10, 64)
		rb, _ := strconv.ParseInt(b.revision, 10, 64)
		if ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return series
}

// fill returns the color of series[k]: newFill for the new ReplicaSet,
// and for old ones a color by their place, oldest first.
func fill(series []svgSeries, k int) string {
	if series[k].isNew {
		return newFill
	}
	old := [...]string{"#9ecae1", "#fdae6b", "#bcbddc", "#c7e9c0", "#fdd0a2", "#d9d9d9"}
	return old[k%len(old)]
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// timeStep returns a round time step, in seconds, that cuts 0..end into
// at most eight parts.
func timeStep(end float64) float64 {
	for _, s := range []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 3 * 3600, 6 * 3600, 12 * 3600} {
		if end/s <= 8 {
			return s
		}
	}
	return niceCeil(end / 8)
}

// ticks returns about five round values from 0 to top.
func ticks(top float64) []float64 {
	step := niceCeil(top / 5)
	var out []float64
	for v := 0.0; v <= top+step/1e6; v += step {
		out = append(out, v)
	}
	return out
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func pt(x, y float64) string { return f(math.Round(x*10)/10) + "," + f(math.Round(y*10)/10) }

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
