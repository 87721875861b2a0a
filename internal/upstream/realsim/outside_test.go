package realsim_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestOutsideFile (with -long or REALSIM_LONG=1) re-measures the cases
// that rollout/sim's TestControllersAgainstRealOutsideFile carries: 20 to
// 75 replicas at 25%/25%, maxSurge 2 maxUnavailable 3 and 50%/0, ready at
// once and after 1s, 5 runs each, then the steps of 5 to 200 pods that
// pin where the gate counts the first new pod (rollout/sim's
// leadingStep), ready at once, 8 runs each. Each run is checked as the
// families' runs are; the log has each run's completion with its
// conflicts, and per case the real ranges beside the model's figures, to
// update that table from.
func TestOutsideFile(t *testing.T) {
	if !*long {
		t.Skip("with -long or REALSIM_LONG=1: 246 runs")
	}
	type shape struct {
		n           int32
		surge, unav string
		ready       time.Duration
		runs        int
	}
	var shapes []shape
	for _, st := range [][2]string{{"25%", "25%"}, {"2", "3"}, {"50%", "0"}} {
		for _, ready := range []time.Duration{0, time.Second} {
			for _, n := range []int32{20, 30, 40, 50, 75} {
				shapes = append(shapes, shape{n, st[0], st[1], ready, 5})
			}
		}
	}
	shapes = append(shapes,
		shape{12, "25%", "25%", 0, 8}, shape{16, "25%", "25%", 0, 8}, shape{30, "3", "3", 0, 8}, shape{40, "4", "4", 0, 8},
		shape{100, "2", "3", 0, 8}, shape{60, "10%", "10%", 0, 8}, shape{100, "10%", "10%", 0, 8}, shape{20, "5", "5", 0, 8},
		shape{24, "25%", "25%", 0, 8}, shape{40, "5", "5", 0, 8}, shape{200, "25%", "25%", 0, 8}, shape{400, "25%", "25%", 0, 8})
	var b strings.Builder
	for _, s := range shapes {
		c := realsim.Case{Name: fmt.Sprintf("%d/%s-%s/ready-%v", s.n, s.surge, s.unav, s.ready), Replicas: s.n, MaxSurge: s.surge, MaxUnavailable: s.unav, ReadyAfter: s.ready}
		var complete []float64
		var peak, minAv []int32
		for range s.runs {
			m, err := realsim.Run(t, c)
			if err != nil {
				t.Fatal(err)
			}
			checkMeasurement(t, c, m)
			t.Logf("%s: complete %v, conflicts %v", c.Name, m.Complete, m.Conflicts)
			complete = append(complete, m.Complete.Seconds())
			peak = append(peak, m.PeakPods)
			minAv = append(minAv, m.MinAvailable)
		}
		slices.Sort(complete)
		f, err := realfig.Simulate(realfig.Case{Name: c.Name, Replicas: s.n, MaxSurge: s.surge, MaxUnavailable: s.unav, ReadyAfterSeconds: s.ready.Seconds()})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%-24s complete %v (median %g) model %g | peak %d to %d model %d | fewest available %d to %d (at the floor in %d) model %d\n",
			c.Name, complete, complete[len(complete)/2], f.Complete.Seconds(),
			slices.Min(peak), slices.Max(peak), f.PeakPods, slices.Min(minAv), slices.Max(minAv), countFloor(minAv, c), f.MinAvailable)
	}
	t.Logf("real v1.36.3 controllers against rollout/sim, outside the recorded file:\n%s", b.String())
}

// countFloor counts the runs whose fewest available was c's floor,
// replicas - maxUnavailable, for counts and percentages (rounded down).
func countFloor(minAv []int32, c realsim.Case) int {
	unav := c.MaxUnavailable
	var u int64
	if p, ok := strings.CutSuffix(unav, "%"); ok {
		v, _ := strconv.ParseInt(p, 10, 64)
		u = int64(c.Replicas) * v / 100
	} else {
		u, _ = strconv.ParseInt(unav, 10, 64)
	}
	n := 0
	for _, a := range minAv {
		if int64(a) == int64(c.Replicas)-u {
			n++
		}
	}
	return n
}
