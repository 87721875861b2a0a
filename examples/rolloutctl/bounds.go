package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const boundsHelp = `rolloutctl bounds -f FILE [--replicas MIN..MAX] [-o table|json]

For each Deployment in FILE, what its strategy allows at each replica count
in the range: SURGE (maxSurge, rounded up) and UNAVAILABLE (maxUnavailable,
rounded down; 1 when both come to 0) pods, the PEAK PODS a rollout may
reach (replicas + surge), the MIN AVAILABLE it keeps (replicas -
unavailable) and the fewest syncs (MIN STEPS) a rollout takes. CHANGE
marks a row where rounding changes the surge or unavailable pods from the
row before (RollingUpdate only); "spec.replicas" marks the Deployment's own count. The default
range is 1..max(10, 2 x spec.replicas). A range of more than 1000 rows
reports its progress on stderr.
`

// boundsProgressRows is the range size from which bounds reports progress.
const boundsProgressRows = 1000

// boundsJSON is one Deployment in bounds -o json.
type boundsJSON struct {
	Deployment     string          `json:"deployment"`
	Strategy       string          `json:"strategy"`
	MaxSurge       string          `json:"maxSurge,omitempty"`
	MaxUnavailable string          `json:"maxUnavailable,omitempty"`
	SpecReplicas   int32           `json:"specReplicas"`
	Rows           []boundsRowJSON `json:"rows"`
}

type boundsRowJSON struct {
	Replicas     int32 `json:"replicas"`
	Surge        int32 `json:"surge"`
	Unavailable  int32 `json:"unavailable"`
	PeakPods     int64 `json:"peakPods"`
	MinAvailable int32 `json:"minAvailable"`
	MinSteps     int   `json:"minSteps"`
	// Changed is true where surge or unavailable differs from the row
	// before: a rounding flip (never on the first row, nor for Recreate).
	Changed bool `json:"changed"`
}

func runBounds(e *env, args []string) int {
	var (
		file, output string
		replicas     replicasFlag
	)
	fs := newFlagSet("bounds")
	fs.StringVar(&file, "f", "", "manifest `FILE` (YAML or JSON); - for standard input")
	fs.Var(&replicas, "replicas", "replica counts: `MIN..MAX` or N (default 1..max(10, 2 x spec.replicas))")
	fs.StringVar(&output, "o", "table", "output `format`: table or json")
	if code := parse(e, fs, boundsHelp, args); code >= 0 {
		return code
	}
	if output != "table" && output != "json" {
		return fail(e, "bounds", fmt.Errorf("-o %q: want table or json", output))
	}
	m, err := loadManifest(file, e.stdin)
	if err != nil {
		return fail(e, "bounds", err)
	}
	var all []boundsJSON
	for i, d := range m.objs.Deployments {
		lo, hi := replicas.min, replicas.max
		if !replicas.set {
			lo, hi = 1, int32(max(10, min(2*int64(d.Spec.Replicas), 1<<31-1)))
		}
		rows := boundsRows(e.stderr, qualified(d), d.Spec.Strategy, lo, hi)
		b := boundsJSON{Deployment: qualified(d), Strategy: string(d.Spec.Strategy.Type), SpecReplicas: d.Spec.Replicas, Rows: rows}
		if d.Spec.Strategy.Type == rollout.RollingUpdateStrategy {
			b.MaxSurge = d.Spec.Strategy.RollingUpdate.MaxSurge.String()
			b.MaxUnavailable = d.Spec.Strategy.RollingUpdate.MaxUnavailable.String()
		}
		if output == "table" {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			writeBoundsTable(e.stdout, b)
		}
		all = append(all, b)
	}
	if output == "json" {
		return writeJSON(e, "bounds", all)
	}
	return exitOK
}

// boundsRows computes the rows for lo..hi, in tenths with a progress line
// on progress when the range is wide, and marks where rounding flips (for
// RollingUpdate; Recreate's unavailable pods are all of them, no rounding).
func boundsRows(progress io.Writer, name string, st rollout.Strategy, lo, hi int32) []boundsRowJSON {
	n := int64(hi) - int64(lo) + 1
	chunks := int64(1)
	if n > boundsProgressRows {
		chunks = 10
	}
	rows := make([]boundsRowJSON, 0, n)
	for c := range chunks {
		a := int64(lo) + n*c/chunks
		b := int64(lo) + n*(c+1)/chunks - 1
		for x := range sim.BoundsRange(st, int32(a), int32(b)) {
			r := boundsRowJSON{Replicas: x.Replicas, Surge: x.Surge, Unavailable: x.Unavailable,
				PeakPods: x.PeakPods, MinAvailable: x.MinAvailable, MinSteps: x.MinSteps}
			if k := len(rows); k > 0 && st.Type == rollout.RollingUpdateStrategy {
				r.Changed = rows[k-1].Surge != r.Surge || rows[k-1].Unavailable != r.Unavailable
			}
			rows = append(rows, r)
		}
		if chunks > 1 {
			fmt.Fprintf(progress, "bounds: %s: %d%% (%d of %d rows)\n", name, (c+1)*100/chunks, len(rows), n)
		}
	}
	return rows
}

func writeBoundsTable(w io.Writer, b boundsJSON) {
	if b.Strategy == string(rollout.RollingUpdateStrategy) {
		fmt.Fprintf(w, "%s: RollingUpdate, maxSurge %s, maxUnavailable %s, spec.replicas %d\n", b.Deployment, b.MaxSurge, b.MaxUnavailable, b.SpecReplicas)
	} else {
		fmt.Fprintf(w, "%s: %s, spec.replicas %d\n", b.Deployment, b.Strategy, b.SpecReplicas)
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REPLICAS\tSURGE\tUNAVAILABLE\tPEAK PODS\tMIN AVAILABLE\tMIN STEPS\tCHANGE")
	for i, r := range b.Rows {
		var note string
		if r.Changed {
			prev := b.Rows[i-1]
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
		if r.Replicas == b.SpecReplicas {
			if note != "" {
				note += "; "
			}
			note += "<- spec.replicas"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%s\n", r.Replicas, r.Surge, r.Unavailable, r.PeakPods, r.MinAvailable, r.MinSteps, note)
	}
	tw.Flush()
	for line := range strings.Lines(buf.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
}
