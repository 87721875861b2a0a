package realsim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// TestCompareSim holds rollout/sim's ModelControllers to the recorded
// measurements of the real controllers by the rule and the list of known
// misses the main module's TestControllersAgainstReal uses (both call
// internal/realfig), and logs the comparison as a table. It fails on a
// miss that is not listed with the same figures, on a listed miss that no
// longer happens, and where the fewest available breaks realfig.Bounds.
func TestCompareSim(t *testing.T) {
	file, err := realfig.Read(recordPath)
	if err != nil {
		t.Fatal(err)
	}
	known := realfig.KnownMisses()
	var b strings.Builder
	fmt.Fprintf(&b, "%-44s %-24s %-9s %-10s %-5s %-10s %-5s %s\n", "case", "real complete (s)", "sim", "real peak", "sim", "real minAv", "sim", "known miss")
	pass := 0
	for _, r := range file.Cases {
		f, err := realfig.Simulate(r.Case)
		if err != nil {
			t.Error(err)
			continue
		}
		why, err := realfig.Check(r, f, known)
		if err != nil {
			t.Error(err)
		}
		for _, b := range realfig.Bounds(r, f) {
			t.Errorf("%s: %s", r.Case.Name, b)
		}
		if len(realfig.Judge(r, f)) == 0 {
			pass++
		}
		simComplete := "-"
		if f.Completed {
			simComplete = fmt.Sprintf("%g", f.Complete.Seconds())
		}
		fmt.Fprintf(&b, "%-44s %-24s %-9s %-10s %-5d %-10s %-5d %s\n", r.Case.Name,
			fmt.Sprintf("%g–%g (%g)", r.CompleteSeconds.Min, r.CompleteSeconds.Max, r.CompleteSeconds.Median), simComplete,
			fmt.Sprintf("%g–%g", r.PeakPods.Min, r.PeakPods.Max), f.PeakPods,
			fmt.Sprintf("%g–%g", r.MinAvailable.Min, r.MinAvailable.Max), f.MinAvailable, why)
	}
	t.Logf("rollout/sim (controllers model) against the real %s controllers: %d of %d cases within the rule\n%s",
		file.Kubernetes, pass, len(file.Cases), b.String())
}
