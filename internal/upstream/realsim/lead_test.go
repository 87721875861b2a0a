package realsim_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestFirstStepLead (with -long or REALSIM_LONG=1) measures how far above
// the floor (replicas - maxUnavailable) the fewest available stays where
// rollout/sim's gate counts two creations ahead of the first step's
// deletions (one before 2026-11-28): per run, the fewest
// available, the lead (the new pods created before the ReplicaSet
// controller deletes the first old pod), the completion and the peak. At
// the change both ReplicaSet
// syncs start at one instant, the new ReplicaSet's (created first) and
// the old one's (scaled down in the same Deployment sync); the lead is
// how many of the new one's slow-start batches ask for their tokens before
// the old one's deletions do, a race of the two syncs' CPU time, and the
// pods it creates count when they become available before the last of
// those deletions is granted. The log has one line per run and one per
// case with the model's range (realsim README, "The first step's lead").
func TestFirstStepLead(t *testing.T) {
	if !*long {
		t.Skip("with -long or REALSIM_LONG=1: 35 runs, 40s of wall time at a load of 5")
	}
	cases := []realsim.Case{
		{Name: "500/ready-5s", Replicas: 500, ReadyAfter: 5 * s},
		{Name: "1000/ready-5s", Replicas: 1000, ReadyAfter: 5 * s},
		{Name: "1000/ready-1s", Replicas: 1000, ReadyAfter: s},
		{Name: "2000/ready-5s", Replicas: 2000, ReadyAfter: 5 * s},
		{Name: "15/25%-25%", Replicas: 15},
		{Name: "25/50%-50%", Replicas: 25, MaxSurge: "50%", MaxUnavailable: "50%"},
		{Name: "80/2-2", Replicas: 80, MaxSurge: "2", MaxUnavailable: "2"},
	}
	var b strings.Builder
	for _, c := range cases {
		c.Timeline = true
		floor := c.Replicas - maxUnavailable(c)
		var above, leads []string
		lo, hi := int32(-1), int32(-1)
		for range 5 {
			m, err := realsim.Run(t, c)
			if err != nil {
				t.Fatal(err)
			}
			checkMeasurement(t, c, m)
			lead := firstLead(m.Timeline)
			t.Logf("%s: fewest available %d (floor %d + %d), lead %d; complete %v, peak %d", c.Name, m.MinAvailable, floor, m.MinAvailable-floor, lead, m.Complete, m.PeakPods)
			above = append(above, fmt.Sprint(m.MinAvailable-floor))
			leads = append(leads, fmt.Sprint(lead))
			if lo < 0 || m.MinAvailable < lo {
				lo = m.MinAvailable
			}
			hi = max(hi, m.MinAvailable)
		}
		f, err := realfig.Simulate(realfig.Case{Name: c.Name, Replicas: c.Replicas, MaxSurge: or(c.MaxSurge), MaxUnavailable: or(c.MaxUnavailable), ReadyAfterSeconds: c.ReadyAfter.Seconds()})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%-14s fewest available %d to %d (floor + %s), leads %s; model %d to %d\n",
			c.Name, lo, hi, strings.Join(above, ", "), strings.Join(leads, ", "), f.MinAvailable, f.MinAvailableHigh)
	}
	t.Logf("the first step's lead (GOMAXPROCS %d):\n%s", runtime.GOMAXPROCS(0), b.String())
}

// firstLead is the new pods in the timeline's first sample after an old
// pod is deleted (the pods fewer, or more of them terminating); -1 if
// none is.
func firstLead(tl []realsim.Sample) int32 {
	for i := 1; i < len(tl); i++ {
		if tl[i].Pods < tl[i-1].Pods || tl[i].Terminating > tl[i-1].Terminating {
			return tl[i].NewPods
		}
	}
	return -1
}

// or is v, or the API's default "25%" when v is empty.
func or(v string) string {
	if v == "" {
		return "25%"
	}
	return v
}
