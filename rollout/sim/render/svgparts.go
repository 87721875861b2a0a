package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// SummaryLine is the outcome in one line, the chart's second: the
// strategy (see [StrategyLine]), " · " and the outcome (with " after " and
// the duration when complete, or ", complete after " and
// sim.Summary.CompleteAfterDeadline when the rollout completed past its
// progress deadline), then, when they fit the chart's width, the syncs,
// the peak pods and the fewest available.
func SummaryLine(d rollout.Deployment, sm sim.Summary) string {
	line := StrategyLine(d) + " · " + string(sm.Outcome)
	switch {
	case sm.Outcome == sim.OutcomeComplete:
		line += " after " + words.Duration(sm.Duration)
	case sm.CompleteAfterDeadline > 0:
		line += ", complete after " + words.Duration(sm.CompleteAfterDeadline)
	}
	more := fmt.Sprintf(" · %s · peak %s pods · min %s available", words.Plural(sm.Syncs, "sync"), grouped(sm.PeakPods), grouped(sm.MinAvailable))
	if charWidth*(len(line)+len(more)) < svgWidth-60 {
		line += more
	}
	return line
}

// grouped prints n with its thousands apart: 2,147,483,647.
func grouped[N int32 | int64](n N) string {
	s := strconv.FormatInt(int64(n), 10)
	if n < 0 {
		return "-" + grouped(-int64(n))
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writeLegend writes the legend as a row above the plot.
func writeLegend(b *bytes.Buffer, left float64, series []svgSeriesInfo, quota int, pending bool) {
	b.WriteString(`<g class="legend" fill="#333">` + "\n")
	lx, ly := left, 66.0
	item := func(mark, label string) {
		w := 26 + float64(charWidth*len(label)) + 18
		if lx+w > svgWidth-plotRightMargin {
			lx, ly = left, ly+18
		}
		fmt.Fprintf(b, mark+"\n", f(lx), f(ly-9), f(lx), f(ly-4), f(lx+20), f(ly-4))
		fmt.Fprintf(b, `<text x="%s" y="%s">%s</text>`+"\n", f(lx+26), f(ly), esc(label))
		lx += w
	}
	swatch := func(fill string) string {
		return `<rect x="%[1]s" y="%[2]s" width="20" height="11" fill="` + fill + `"/>`
	}
	sample := func(color, width, dash string) string {
		return `<line x1="%[3]s" y1="%[4]s" x2="%[5]s" y2="%[4]s" stroke="` + color + `" stroke-width="` + width + `" stroke-dasharray="` + dash + `"/>`
	}
	for k := len(series) - 1; k >= 0; k-- { // the new ReplicaSet first
		sr := series[k]
		label := fmt.Sprintf("%s (rev %s)", sr.name, sr.revision)
		if sr.isNew {
			label = "new " + label
		}
		item(swatch(sr.color), label)
	}
	item(`<rect x="%[1]s" y="%[2]s" width="20" height="11" fill="#888" fill-opacity="0.35"/>`, "not ready (lighter)")
	if pending {
		item(swatch("url(#dots)"), "pending (no place on the nodes)")
	}
	item(swatch("url(#hatch)"), "terminating")
	item(sample(availableColor, "2", "none"), "available")
	item(sample(limitColor, "1.5", "7 4"), "floor (min available)")
	item(sample(limitColor, "1.5", "2 3"), "ceiling (replicas + maxSurge)")
	if quota > 0 {
		item(sample("#d35400", "1.5", "10 3 2 3"), "pod quota")
	}
	b.WriteString("</g>\n")
}

// writeEvents marks, with a vertical line and a word, the syncs where
// something happened: the replicas changed, the quota refused pods, the
// progress deadline passed, a sync failed; and the end, with the completion
// of a run that went on past its progress deadline.
func writeEvents(b *bytes.Buffer, res sim.Result, start time.Time, x func(float64) float64) {
	var events []svgEvent
	replicas := res.Start.Replicas
	failing := false
	for _, st := range res.Steps {
		at := st.At.Sub(start).Seconds()
		if st.Replicas != replicas {
			events = append(events, svgEvent{at, fmt.Sprintf("replicas %d→%d", replicas, st.Replicas), "#555"})
			replicas = st.Replicas
		}
		status := rollout.DeploymentStatus{Conditions: st.Conditions}
		c, ok := rollout.GetDeploymentCondition(status, rollout.ReplicaFailure)
		if now := ok && c.Status == rollout.ConditionTrue; now != failing {
			failing = now
			if now {
				events = append(events, svgEvent{at, "pods refused (" + c.Reason + ")", "#d35400"})
			}
		}
		if c, ok := rollout.GetDeploymentCondition(status, rollout.Progressing); ok && c.Reason == rollout.ReasonProgressDeadlineExceeded &&
			!containsLabel(events, "deadline exceeded") {
			events = append(events, svgEvent{at, "deadline exceeded", availableColor})
		}
		if st.Err != nil && !containsLabel(events, "sync failed") {
			events = append(events, svgEvent{at, "sync failed", availableColor})
		}
	}
	switch sm := res.Summary; sm.Outcome {
	case sim.OutcomeComplete:
		events = append(events, svgEvent{sm.Duration.Seconds(), "complete", newColor})
	case sim.OutcomeDeadlineExceeded: // marked where the condition turned
		if sm.CompleteAfterDeadline > 0 { // and where the controllers, going on, completed the rollout
			events = append(events, svgEvent{sm.CompleteAfterDeadline.Seconds(), "complete", newColor})
		}
	default:
		events = append(events, svgEvent{sm.Duration.Seconds(), string(sm.Outcome), availableColor})
	}
	b.WriteString(`<g class="events" font-size="11">` + "\n")
	var rows []float64 // the right edge of the last label in each row
	labelled := map[string]bool{}
	for _, e := range events {
		ex := x(e.at)
		fmt.Fprintf(b, `<line class="event" x1="%s" y1="%d" x2="%s" y2="%d" stroke="%s" stroke-dasharray="3 3"/>`+"\n", f(ex), plotTop, f(ex), plotBottom, e.color)
		kind, _, _ := strings.Cut(e.label, " ")
		if labelled[kind] && kind != "replicas" {
			continue // the line alone says it again
		}
		labelled[kind] = true
		width := float64(charWidth * len(e.label))
		left, right, anchor, tx := ex+3, ex+3+width, "start", ex+3
		if right > svgWidth-plotRightMargin {
			left, right, anchor, tx = ex-3-width, ex-3, "end", ex-3
		}
		row := 0
		for row < len(rows) && rows[row] > left-6 {
			row++
		}
		if row == len(rows) {
			rows = append(rows, 0)
		}
		rows[row] = right
		fmt.Fprintf(b, `<text x="%s" y="%d" text-anchor="%s" fill="%s" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
			f(tx), plotTop+12+14*row, anchor, e.color, esc(e.label))
	}
	b.WriteString("</g>\n")
}

// svgEvent is a mark on the chart's time axis.
type svgEvent struct {
	at           float64
	label, color string
}

func containsLabel(events []svgEvent, label string) bool {
	for _, e := range events {
		if e.label == label {
			return true
		}
	}
	return false
}

func f(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

func pt(x, y float64) string { return f(x) + "," + f(y) }

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
