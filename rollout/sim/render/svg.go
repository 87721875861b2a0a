package render

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/chart"
	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// Chart geometry, in SVG user units. The legend is a row above the plot,
// so that the plot has the whole width.
const (
	svgWidth, svgHeight = 960, 500
	plotTop, plotBottom = 96, 440
	plotRightMargin     = 24
	charWidth           = chart.CharWidth
)

// Colors: the new ReplicaSet green, old ones in muted hues, terminating
// pods grey, pending ones dotted orange; the available pods a dark line,
// the floor and the ceiling dashed.
const (
	newColor         = "#2e8b3d"
	terminatingColor = "#9a9a9a"
	pendingColor     = "#d35400"
	availableColor   = "#c0392b"
	limitColor       = "#444"
)

// SVG draws a simulation as a self-contained SVG chart, 960 by 500 units, of the pods
// that exist: for each ReplicaSet, oldest at the bottom, its ready and its
// not yet ready pods, then the terminating pods of all; a line for the
// available pods; the availability floor and the ceiling of replicas +
// maxSurge, as they move; the input's state before the start; and the
// events: replica changes, pods the quota refused, the progress deadline,
// sync errors and the end. Runs longer than the chart is wide are sampled
// at one step per pixel. The title names the rollout and model the pod
// model, at the foot; a quota above 0 draws its line. The output is
// well-formed XML and depends on its arguments alone; SVG modifies
// neither s nor res.
func SVG(w io.Writer, title, model string, s rollout.State, res sim.Result, quota int) {
	sm := res.Summary
	end := sm.Duration.Seconds()
	if n := len(res.Steps); n > 0 {
		end = max(end, res.Steps[n-1].At.Sub(s.Now).Seconds())
	}
	end = max(end, 1) * 1.04 // the last step, visible
	before := end * 0.08     // room for the input, left of 0
	steps := chart.Steps(s.Now, res, -before)
	series := svgSeries(res)

	var top int64 = 1
	for _, st := range steps {
		var pods int64
		for _, c := range st.Sets {
			pods += int64(c.Current) + int64(c.Terminating)
		}
		top = max(top, pods, st.Ceiling, st.Floor)
	}
	if quota > 0 {
		top = max(top, int64(quota))
	}
	yStep, yMax := chart.YScale(float64(top))
	labels := chart.Ticks(yStep, yMax)
	plotLeft := 20.0 + float64(charWidth*max(len(labels[len(labels)-1].Text), 2))
	plotRight := float64(svgWidth - plotRightMargin)
	x := func(sec float64) float64 { return plotLeft + (plotRight-plotLeft)*(sec+before)/(end+before) }
	y := func(v float64) float64 { return plotBottom - (plotBottom-plotTop)*v/yMax }
	steps = sample(steps, int(plotRight-plotLeft), x)
	// until is when the values of steps[i] stop holding.
	until := func(i int) float64 {
		if i+1 < len(steps) {
			return steps[i+1].At
		}
		return end
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(title))
	b.WriteString(`<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="6" height="6" fill="white"/><line x1="0" y1="0" x2="0" y2="6" stroke="` + terminatingColor + `" stroke-width="3"/></pattern>`)
	// Pods waiting for a place on the nodes, dotted: only where a run has
	// some, so that the charts of the others stay as they were.
	pending := slices.ContainsFunc(steps, func(st chart.Step) bool {
		return slices.ContainsFunc(st.Sets, func(c sim.SetCount) bool { return c.Pending > 0 })
	})
	if pending {
		b.WriteString(`<pattern id="dots" width="6" height="6" patternUnits="userSpaceOnUse">` +
			`<rect width="6" height="6" fill="white"/><circle cx="3" cy="3" r="1.5" fill="` + pendingColor + `"/></pattern>`)
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	fmt.Fprintf(&b, `<text x="%s" y="24" font-size="15" font-weight="bold" fill="#222">%s</text>`+"\n", f(plotLeft), esc(title))
	fmt.Fprintf(&b, `<text x="%s" y="44" fill="#555">%s</text>`+"\n", f(plotLeft), esc(SummaryLine(s.Deployment, sm)))
	fmt.Fprintf(&b, `<text x="%s" y="%d" font-size="10" fill="#777">%s</text>`+"\n", f(plotLeft), svgHeight-6, esc(fitText(model, svgWidth-plotRightMargin-plotLeft)))

	// Grid and axes.
	b.WriteString(`<g class="axes" fill="#555" stroke="none">` + "\n")
	for _, t := range labels {
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e6e6e6"/>`+"\n", f(plotLeft), f(y(t.V)), f(plotRight), f(y(t.V)))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", f(plotLeft-8), f(y(t.V)+4), t.Text)
	}
	xStep := chart.TimeStep(end, plotRight-plotLeft)
	for v := 0.0; v <= end; v += xStep {
		fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#999"/>`+"\n", f(x(v)), plotBottom, f(x(v)), plotBottom+5)
		fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`+"\n", f(x(v)), plotBottom+19, esc(words.Duration(time.Duration(v*float64(time.Second)))))
	}
	fmt.Fprintf(&b, `<rect x="%s" y="%d" width="%s" height="%d" fill="#f3f3f3"/>`+"\n", f(plotLeft), plotTop, f(x(0)-plotLeft), plotBottom-plotTop)
	fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle" fill="#777">input</text>`+"\n", f((plotLeft+x(0))/2), plotTop+14)
	fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#999"/>`+"\n", f(plotLeft), plotBottom, f(plotRight), plotBottom)
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<text class="x-label" x="%s" y="%d" text-anchor="middle" fill="#555">time since the start</text>`+"\n", f((plotLeft+plotRight)/2), plotBottom+40)
	fmt.Fprintf(&b, `<text class="y-label" x="14" y="%d" text-anchor="middle" fill="#555" transform="rotate(-90 14 %d)">pods</text>`+"\n", (plotTop+plotBottom)/2, (plotTop+plotBottom)/2)

	// Stacked areas: each ReplicaSet's ready, not-ready and pending pods
	// (waiting for a place on the nodes), oldest first; then the
	// terminating pods.
	base := make([]float64, len(steps))
	area := func(class, name, fill string, value func(chart.Step) float64) {
		var upper, lower []string
		any := false
		for i, st := range steps {
			v := value(st)
			any = any || v > 0
			upper = append(upper, pt(x(st.At), y(base[i]+v)), pt(x(until(i)), y(base[i]+v)))
		}
		if !any {
			return
		}
		for i := len(steps) - 1; i >= 0; i-- {
			lower = append(lower, pt(x(until(i)), y(base[i])), pt(x(steps[i].At), y(base[i])))
			base[i] += value(steps[i])
		}
		fmt.Fprintf(&b, `<polygon class="%s" data-name="%s" points="%s" fill="%s"/>`+"\n", class, esc(name), strings.Join(append(upper, lower...), " "), fill)
	}
	for _, sr := range series {
		area("ready", sr.name, sr.color, func(st chart.Step) float64 { c := st.Set(sr.name); return float64(c.Ready) })
		area("not-ready", sr.name, sr.color+`" fill-opacity="0.35`, func(st chart.Step) float64 {
			c := st.Set(sr.name)
			return float64(c.Current - c.Ready - c.Pending)
		})
		area("pending", sr.name, "url(#dots)", func(st chart.Step) float64 { c := st.Set(sr.name); return float64(c.Pending) })
	}
	area("terminating", "terminating", "url(#hatch)", func(st chart.Step) float64 {
		var n int32
		for _, c := range st.Sets {
			n += c.Terminating
		}
		return float64(n)
	})

	// Lines that move over time: available pods, floor, ceiling.
	stepLine := func(class, color, width, dash string, value func(chart.Step) float64) {
		var pts []string
		for i, st := range steps {
			pts = append(pts, pt(x(st.At), y(value(st))), pt(x(until(i)), y(value(st))))
		}
		fmt.Fprintf(&b, `<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="%s" stroke-dasharray="%s"/>`+"\n",
			class, strings.Join(pts, " "), color, width, dash)
	}
	if len(steps) > 0 {
		stepLine("ceiling", limitColor, "1.5", "2 3", func(st chart.Step) float64 { return float64(st.Ceiling) })
		stepLine("floor", limitColor, "1.5", "7 4", func(st chart.Step) float64 { return float64(st.Floor) })
		stepLine("available", availableColor, "2", "none", func(st chart.Step) float64 { return float64(st.Available) })
		last := steps[len(steps)-1]
		cy, fy := y(float64(last.Ceiling))-5, y(float64(last.Floor))-5
		if fy-cy < 14 { // too close to read both: the floor's label goes below its line
			fy = y(float64(last.Floor)) + 14
		}
		label := `<text x="%s" y="%s" text-anchor="end" font-size="11" fill="` + limitColor + `" stroke="white" stroke-width="3" paint-order="stroke">%s %s</text>` + "\n"
		fmt.Fprintf(&b, label, f(plotRight-4), f(cy), "ceiling", grouped(last.Ceiling))
		fmt.Fprintf(&b, label, f(plotRight-4), f(fy), "floor", grouped(last.Floor))
	}
	if quota > 0 {
		qy := y(float64(quota))
		fmt.Fprintf(&b, `<line class="quota" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d35400" stroke-width="1.5" stroke-dasharray="10 3 2 3"/>`+"\n",
			f(plotLeft), f(qy), f(plotRight), f(qy))
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="11" fill="#d35400" stroke="white" stroke-width="3" paint-order="stroke">pod quota %s</text>`+"\n",
			f(x(0)+4), f(qy-5), grouped(int64(quota)))
	}
	writeEvents(&b, res, s.Now, x)
	writeLegend(&b, plotLeft, series, quota, pending)
	b.WriteString("</svg>\n")
	w.Write(b.Bytes())
}

// sample keeps, of the steps that fall in one pixel column, the last: a
// chart shows no more than it has pixels.
func sample(steps []chart.Step, width int, x func(float64) float64) []chart.Step {
	if len(steps) <= width {
		return steps
	}
	out := []chart.Step{steps[0]}
	lastCol := math.Inf(-1)
	for _, st := range steps[1:] {
		if col := math.Floor(x(st.At)); col != lastCol {
			out = append(out, st)
			lastCol = col
			continue
		}
		out[len(out)-1] = st
	}
	return out
}

// svgSeriesInfo is one ReplicaSet of the chart.
type svgSeriesInfo struct {
	name, revision, color string
	isNew                 bool
}

// svgSeries lists the ReplicaSets of a run by revision (then name), the
// new ReplicaSet last, each with its color.
func svgSeries(res sim.Result) []svgSeriesInfo {
	index := map[string]int{}
	var series []svgSeriesInfo
	for _, st := range append([]sim.Step{res.Start}, res.Steps...) {
		for _, c := range st.Sets {
			k, ok := index[c.Name]
			if !ok {
				k = len(series)
				index[c.Name] = k
				series = append(series, svgSeriesInfo{name: c.Name})
			}
			series[k].revision, series[k].isNew = c.Revision, c.New
		}
	}
	slices.SortStableFunc(series, func(a, b svgSeriesInfo) int {
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
	oldColors := [...]string{"#4c78a8", "#b279a2", "#e4a23b", "#72b7b2", "#9d755d"}
	for k := range series {
		series[k].color = oldColors[k%len(oldColors)]
		if series[k].isNew {
			series[k].color = newColor
		}
	}
	return series
}

// fitText shortens s, with an ellipsis, to about width units of 10px
// text.
func fitText(s string, width float64) string {
	most := int(width / 5.5)
	if len(s) <= most || most < 2 {
		return s
	}
	return s[:most-1] + "…"
}
