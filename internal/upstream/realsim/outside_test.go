package realsim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestOutsideFile (with -long or REALSIM_LONG=1) re-measures the cases
// that rollout/sim's TestControllersAgainstRealOutsideFile carries: 20 to
// 75 replicas at 25%/25%, maxSurge 2 maxUnavailable 3 and 50%/0, ready at
// once and after 1s, 5 runs each. Each run is checked as the families'
// runs are; the log has each run's completion with its conflicts, and
// per case the real ranges beside the model's figures, to update that
// table from.
func TestOutsideFile(t *testing.T) {
	if !*long {
		t.Skip("with -long or REALSIM_LONG=1: 150 runs")
	}
	var b strings.Builder
	for _, st := range [][2]string{{"25%", "25%"}, {"2", "3"}, {"50%", "0"}} {
		for _, ready := range []time.Duration{0, time.Second} {
			for _, n := range []int32{20, 30, 40, 50, 75} {
				c := realsim.Case{Name: fmt.Sprintf("%d/%s-%s/ready-%v", n, st[0], st[1], ready), Replicas: n, MaxSurge: st[0], MaxUnavailable: st[1], ReadyAfter: ready}
				var complete []float64
				var peak, minAv []int32
				for range 5 {
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
				f, err := realfig.Simulate(realfig.Case{Name: c.Name, Replicas: n, MaxSurge: st[0], MaxUnavailable: st[1], ReadyAfterSeconds: ready.Seconds()})
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%-24s complete %v (median %g) model %g | peak %d to %d model %d | fewest available %d to %d model %d\n",
					c.Name, complete, complete[len(complete)/2], f.Complete.Seconds(),
					slices.Min(peak), slices.Max(peak), f.PeakPods, slices.Min(minAv), slices.Max(minAv), f.MinAvailable)
			}
		}
	}
	t.Logf("real v1.36.3 controllers against rollout/sim, outside the recorded file:\n%s", b.String())
}
