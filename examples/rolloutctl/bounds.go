package main

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const boundsHelp = `rolloutctl bounds [-f FILE]... [--replicas MIN..MAX] [--step N]
       [--nodes N [--node-allocatable cpu=..,memory=..,pods=..]] [-o text|json|yaml]

For each Deployment in the input, what its strategy allows at replica
counts in a range: SURGE (maxSurge, rounded up) and UNAVAILABLE
(maxUnavailable, rounded down; 1 when both come to 0) pods, the PEAK PODS
the ReplicaSets of a rollout from a complete state may size (replicas +
surge, the new ReplicaSet growing to at most replicas; the pods that
exist pass it while old pods await deletion, as simulate and check count
them), the MIN AVAILABLE it keeps (replicas - unavailable) and the fewest
syncs (MIN STEPS) a rollout takes.
CHANGE marks a row where rounding changes the surge or unavailable pods
from the row before (RollingUpdate only); "spec.replicas" marks the
Deployment's own count, which is always shown.

The default range is the minReplicas..maxReplicas of the
HorizontalPodAutoscaler that scales the Deployment, if the input has one,
and otherwise 1..max(10, 2 x spec.replicas). A range of more than
1000 counts is sampled at a round step (every 2nd, 5th, 10th, ... count,
and its last), unless --step says otherwise: --step 1 shows every count.
Rows are written as they are computed, so memory does not grow with the
range; more than 1000 rows report their progress on stderr.

With Nodes in the input (kubectl get nodes -o yaml) or --nodes N
identical ones, PLACES is how many of the Deployment's pods the nodes hold
at once, by the placement rules of 'rolloutctl check -h', and PLACEMENT
what that means for a rollout at the count, from the arithmetic alone:
"fits" (the peak has places), "waits" (surge pods wait pending for old
pods to leave: the rollout finishes, later) or "never-finishes" (fewer
places than replicas, or no place for a surge pod while maxUnavailable is
0). 'rolloutctl check' simulates the rollout on the nodes.
`

// Bounds shows every count of a range up to boundsAllRows, samples wider
// ranges, and reports progress from boundsProgressRows rows.
const (
	boundsAllRows      = 1000
	boundsProgressRows = 1000
)

// boundsRow is one row of bounds -o json.
type boundsRow struct {
	Replicas     int32 `json:"replicas"`
	Surge        int32 `json:"surge"`
	Unavailable  int32 `json:"unavailable"`
	PeakPods     int64 `json:"peakPods"`
	MinAvailable int32 `json:"minAvailable"`
	MinSteps     int   `json:"minSteps"`
	// Changed is true where surge or unavailable differs from the row
	// before: a rounding flip (never on the first row, nor for Recreate).
	Changed bool `json:"changed"`
	// Places and Placement are set when the pods are placed on nodes
	// (see placementVerdict).
	Places    *int64 `json:"places,omitempty"`
	Placement string `json:"placement,omitempty"`
}

// boundsHead is one Deployment in bounds -o json, before its rows.
type boundsHead struct {
	Deployment     string `json:"deployment"`
	Strategy       string `json:"strategy"`
	MaxSurge       string `json:"maxSurge,omitempty"`
	MaxUnavailable string `json:"maxUnavailable,omitempty"`
	SpecReplicas   int32  `json:"specReplicas"`
	Step           int64  `json:"step"`
	// Nodes says what decides the places at spec.replicas, when the pods
	// are placed on nodes.
	Nodes string `json:"nodes,omitempty"`
}

func runBounds(e *env, args []string) int {
	var (
		input    inputFlags
		outputs  outputFlags
		replicas replicasFlag
		step     int64
		place    placeFlags
	)
	fs := newFlagSet("bounds")
	input.add(fs, "", false)
	fs.Var(&replicas, "replicas", "replica counts: `MIN..MAX` or N (default: an HPA's range, or 1..max(10, 2 x spec.replicas))")
	place.add(fs)
	fs.Int64Var(&step, "step", 0, "show every `N`th count of the range, and its last (default: 1 up to 1000 counts, else a round step)")
	outputs.addOutputs(fs, "text", "json", "yaml")
	if code := parse(e, fs, boundsHelp, args); code >= 0 {
		return code
	}
	outs, err := outputs.resolve(fs)
	if err != nil {
		return fail(e, "bounds", err)
	}
	if step < 0 {
		return fail(e, "bounds", fmt.Errorf("--step %d: must be positive", step))
	}
	if err := place.check(); err != nil {
		return fail(e, "bounds", err)
	}
	in, err := input.load(e, "bounds")
	if err != nil {
		return fail(e, "bounds", err)
	}
	e.memory.keep() // its rows are written as computed: it holds its input
	return writeReports(e, "bounds", outs, func(format string, w io.Writer) error {
		return writeBounds(e, w, format, in, replicas, step, place)
	})
}

// writeBounds writes the rows of every Deployment of in, in a format,
// row by row.
func writeBounds(e *env, w io.Writer, format string, in *check.Input, replicas replicasFlag, step int64, place placeFlags) error {
	deps := in.Objects().Deployments
	switch format {
	case "json":
		io.WriteString(w, "[")
	case "yaml":
		if len(deps) == 0 {
			io.WriteString(w, "[]\n")
		}
	}
	for i, d := range deps {
		lo, hi := replicas.min, replicas.max
		if !replicas.set {
			lo, hi = 1, int32(max(10, min(2*int64(d.Spec.Replicas), math.MaxInt32)))
			if _, min, max, ok := in.HPA(d); ok {
				lo, hi = min, max
			}
		}
		by := step
		if by == 0 {
			by = sampleStep(int64(hi) - int64(lo) + 1)
			if by > 1 {
				fmt.Fprintf(e.stderr, "bounds: %s: %d counts: showing every %dth and the last (--step 1 shows all)\n",
					check.Qualified(d), int64(hi)-int64(lo)+1, by)
			}
		}
		head := boundsHead{Deployment: check.Qualified(d), Strategy: string(d.Spec.Strategy.Type), SpecReplicas: d.Spec.Replicas, Step: by}
		if d.Spec.Strategy.Type == rollout.RollingUpdateStrategy {
			head.MaxSurge = d.Spec.Strategy.RollingUpdate.MaxSurge.String()
			head.MaxUnavailable = d.Spec.Strategy.RollingUpdate.MaxUnavailable.String()
		}
		pl, err := in.Placement(d, place.nodes, place.allocatable.v)
		if err != nil {
			return fmt.Errorf("%s: %w", check.Qualified(d), err)
		}
		var places func(int32) int64
		if pl.Nodes {
			head.Nodes, places = pl.Why, pl.PlacesAt
		}
		rows := boundsRows(d.Spec.Strategy, lo, hi, by, d.Spec.Replicas, places)
		progress := newProgress(e.stderr, "bounds: "+check.Qualified(d)+":", "rows", shownRows(lo, hi, by, d.Spec.Replicas), boundsProgressRows)
		switch format {
		case "json":
			if i > 0 {
				io.WriteString(w, ",")
			}
			writeBoundsJSON(w, head, rows, progress)
		case "yaml":
			writeBoundsYAML(w, head, rows, progress)
		default:
			if i > 0 {
				io.WriteString(w, "\n")
			}
			// No count in the range exceeds 2 x hi + 2, but a maxSurge
			// count may.
			widest := len(strconv.FormatInt(max(2*int64(hi)+2, int64(sim.ComputeBounds(d.Spec.Strategy, hi).Surge)), 10))
			writeBoundsTable(w, head, widest, rows, progress)
		}
	}
	if format == "json" {
		io.WriteString(w, "\n]\n")
	}
	return nil
}

// sampleStep returns 1 for a range of at most boundsAllRows counts, and
// otherwise the smallest of 2, 5, 10, 20, 50, ... that shows at most that
// many.
func sampleStep(n int64) int64 {
	for s := int64(1); ; s *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if n <= boundsAllRows*s*m {
				return s * m
			}
		}
	}
}

// boundsRows yields the rows of lo, the multiples of step after it, and
// hi, with spec (when in the range) among them, one at a time, marking
// where rounding flips from the row before (RollingUpdate only: Recreate's
// unavailable pods are all of them, no rounding).
func boundsRows(st rollout.Strategy, lo, hi int32, step int64, spec int32, places func(int32) int64) iter.Seq[boundsRow] {
	return func(yield func(boundsRow) bool) {
		var prev sim.Bounds
		first := true
		emit := func(r int64) bool {
			b := sim.ComputeBounds(st, int32(r))
			row := boundsRow{Replicas: b.Replicas, Surge: b.Surge, Unavailable: b.Unavailable,
				PeakPods: b.PeakPods, MinAvailable: b.MinAvailable, MinSteps: b.MinSteps}
			row.Changed = !first && st.Type == rollout.RollingUpdateStrategy && (prev.Surge != b.Surge || prev.Unavailable != b.Unavailable)
			if places != nil {
				p := places(b.Replicas)
				row.Places, row.Placement = &p, placementVerdict(b, p)
			}
			prev, first = b, false
			return yield(row)
		}
		for r := range boundsCounts(lo, hi, step, spec) {
			if !emit(r) {
				return
			}
		}
	}
}

// placementVerdict says what places mean for a rollout within bounds b,
// from the arithmetic alone: "never-finishes" with fewer places than
// replicas, or with exactly the replicas and maxUnavailable 0 (no old pod
// leaves to make room for a surge pod); "fits" when the peak has places;
// "waits" otherwise (surge pods pending until old pods leave).
func placementVerdict(b sim.Bounds, places int64) string {
	switch {
	case places < int64(b.Replicas), places == int64(b.Replicas) && b.Unavailable == 0 && b.PeakPods > places:
		return "never-finishes"
	case b.PeakPods <= places:
		return "fits"
	default:
		return "waits"
	}
}

// boundsCounts yields lo, the multiples of step after it, and hi, with
// spec among them when it is in the range: the replica counts bounds
// shows.
func boundsCounts(lo, hi int32, step int64, spec int32) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		s, end := int64(spec), int64(hi)
		for r := int64(lo); r <= end; {
			next := min((r/step+1)*step, end)
			if r == end {
				next = end + 1
			}
			if !yield(r) {
				return
			}
			if s > r && s < next && !yield(s) {
				return
			}
			r = next
		}
	}
}

// shownRows counts the rows boundsRows yields.
func shownRows(lo, hi int32, step int64, spec int32) int64 {
	var n int64
	for range boundsCounts(lo, hi, step, spec) {
		n++
	}
	return n
}

// writeBoundsYAML writes a Deployment's bounds as an item of a YAML list,
// each row a flow mapping on its line.
func writeBoundsYAML(w io.Writer, head boundsHead, rows iter.Seq[boundsRow], progress *progress) {
	var h map[string]any
	b, _ := json.Marshal(head)
	json.Unmarshal(b, &h)
	y, _ := yaml.Marshal(h)
	for i, l := range strings.Split(strings.TrimSuffix(string(y), "\n"), "\n") {
		prefix := "  "
		if i == 0 {
			prefix = "- "
		}
		fmt.Fprintf(w, "%s%s\n", prefix, l)
	}
	io.WriteString(w, "  rows:\n")
	for row := range rows {
		r, _ := json.Marshal(row) // a flow mapping is YAML as JSON writes it
		fmt.Fprintf(w, "  - %s\n", r)
		progress.add(1)
	}
}

func writeBoundsJSON(w io.Writer, head boundsHead, rows iter.Seq[boundsRow], progress *progress) {
	h, _ := json.Marshal(head)
	fmt.Fprintf(w, "\n  %s, \"rows\": [", h[:len(h)-1])
	sep := "\n    "
	for row := range rows {
		b, _ := json.Marshal(row)
		fmt.Fprintf(w, "%s%s", sep, b)
		sep = ",\n    "
		progress.add(1)
	}
	io.WriteString(w, "\n  ]}")
}

// writeBoundsTable writes the rows as they come, in columns as wide as the
// widest cell any row may have.
func writeBoundsTable(w io.Writer, head boundsHead, widest int, rows iter.Seq[boundsRow], progress *progress) {
	if head.Strategy == string(rollout.RollingUpdateStrategy) {
		fmt.Fprintf(w, "%s: RollingUpdate, maxSurge %s, maxUnavailable %s, spec.replicas %d\n", head.Deployment, head.MaxSurge, head.MaxUnavailable, head.SpecReplicas)
	} else {
		fmt.Fprintf(w, "%s: %s, spec.replicas %d\n", head.Deployment, head.Strategy, head.SpecReplicas)
	}
	headers := []string{"REPLICAS", "SURGE", "UNAVAILABLE", "PEAK PODS", "MIN AVAILABLE", "MIN STEPS", "CHANGE"}
	if head.Nodes != "" {
		fmt.Fprintf(w, "placement: %s\n", head.Nodes)
		headers = slices.Insert(headers, 6, "PLACES", "PLACEMENT")
	}
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = max(len(h), widest)
	}
	if head.Nodes != "" {
		widths[7] = max(widths[7], len("never-finishes"))
	}
	line := func(cells ...string) {
		var b strings.Builder
		for i, c := range cells {
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", max(widths[i]-len(c), 0)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(headers...)
	var prev boundsRow
	for r := range rows {
		var note string
		if r.Changed {
			if prev.Surge != r.Surge {
				note = fmt.Sprintf("surge %d->%d", prev.Surge, r.Surge)
			}
			if prev.Unavailable != r.Unavailable {
				if note != "" {
					note += ", "
				}
				note += fmt.Sprintf("unavailable %d->%d", prev.Unavailable, r.Unavailable)
			}
			note = "* " + note
		}
		if r.Replicas == head.SpecReplicas {
			if note != "" {
				note += "; "
			}
			note += "<- spec.replicas"
		}
		cells := []string{fmt.Sprint(r.Replicas), fmt.Sprint(r.Surge), fmt.Sprint(r.Unavailable), fmt.Sprint(r.PeakPods),
			fmt.Sprint(r.MinAvailable), fmt.Sprint(r.MinSteps), note}
		if head.Nodes != "" {
			cells = slices.Insert(cells, 6, fmt.Sprint(*r.Places), r.Placement)
		}
		line(cells...)
		prev = r
		progress.add(1)
	}
}
