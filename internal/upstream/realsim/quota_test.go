package realsim_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// quotaOutside are the quota cases that rollout/sim's
// TestControllersAgainstRealQuota carries, outside the recorded file: a
// pod quota at and above the replicas, with pods gone at once or
// terminating for 5s or 30s, 10 to 200 replicas at 25%/25%, pods ready
// 5s after their creation (as the recorded quota family).
var quotaOutside = []struct {
	replicas, maxPods int32
	term              time.Duration
}{
	{10, 10, 5 * s}, {10, 11, 5 * s}, {10, 12, 5 * s},
	{20, 20, 0}, {20, 22, 0}, {20, 22, 5 * s},
	{50, 50, 0}, {50, 55, 0}, {50, 55, 5 * s},
	{200, 200, 0}, {200, 220, 0}, {200, 220, 5 * s},
	{100, 100, 5 * s}, {100, 110, 5 * s},
	{10, 11, 30 * s}, {10, 13, 30 * s}, {20, 25, 30 * s}, {50, 60, 30 * s}, {200, 250, 30 * s},
}

// TestQuotaOutsideFile (with -long or REALSIM_LONG=1) measures the quota
// cases of quotaOutside, 8 runs each, one subtest per case (-run picks
// some). Each run is checked as the families' runs are; the log has each
// run's figures and, per case, the real ranges beside the model's, to
// update rollout/sim's table from.
func TestQuotaOutsideFile(t *testing.T) {
	if !*long {
		t.Skip("with -long or REALSIM_LONG=1: 168 runs, some of 30 minutes of virtual time")
	}
	for _, q := range quotaOutside {
		c := realsim.Case{Name: fmt.Sprintf("quota/%d/max-%d/terminating-%v", q.replicas, q.maxPods, q.term),
			Replicas: q.replicas, MaxPods: q.maxPods, ReadyAfter: 5 * s, Terminating: q.term}
		t.Run(c.Name, func(t *testing.T) { measureQuota(t, c) })
	}
}

// measureQuota runs c 8 times and logs the real figures beside the
// model's.
func measureQuota(t *testing.T, c realsim.Case) {
	var complete []float64
	var peak, minAv []int32
	deadline := 0
	for range 8 {
		m, err := realsim.Run(t, c)
		if err != nil {
			t.Fatal(err)
		}
		checkMeasurement(t, c, m)
		t.Logf("%s: completed %v at %v, deadline exceeded %v, refused %d, peak %d, fewest available %d",
			c.Name, m.Completed, m.Complete, m.DeadlineExceeded, m.Refused, m.PeakPods, m.MinAvailable)
		if m.DeadlineExceeded {
			deadline++
		}
		if m.Completed {
			complete = append(complete, m.Complete.Seconds())
		}
		peak = append(peak, m.PeakPods)
		minAv = append(minAv, m.MinAvailable)
	}
	slices.Sort(complete)
	med := -1.0
	if len(complete) > 0 {
		med = (complete[(len(complete)-1)/2] + complete[len(complete)/2]) / 2
	}
	f, err := realfig.Simulate(realfig.Case{Name: c.Name, Replicas: c.Replicas, MaxPods: c.MaxPods, MaxSurge: "25%", MaxUnavailable: "25%",
		ReadyAfterSeconds: c.ReadyAfter.Seconds(), TerminatingSeconds: c.Terminating.Seconds()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s complete %v (median %g, deadline passed %d) model %v %v | peak %d to %d model %d | fewest available %d to %d model %d",
		c.Name, complete, med, deadline, f.Completed, f.Complete.Seconds(),
		slices.Min(peak), slices.Max(peak), f.PeakPods, slices.Min(minAv), slices.Max(minAv), f.MinAvailable)
}
