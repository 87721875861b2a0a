package realsim_test

import (
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestIssueFigures runs the cases whose real completion times issue 23
// gives (measured there by an earlier harness around the same v1.36.3
// controllers, 20 QPS) and holds every run to them, within max(0.6 s, 10%)
// of the range the issue gives (the issue's own tolerance): two harnesses
// built apart agree.
func TestIssueFigures(t *testing.T) {
	for _, tc := range []struct {
		c        realsim.Case
		min, max float64 // seconds, as issue 23's table gives them
	}{
		{realsim.Case{Name: "10 replicas 25%/25% (pods ready at once)", Replicas: 10}, 1.1, 1.4},
		{realsim.Case{Name: "10 replicas 25%/25% (5 s)", Replicas: 10, ReadyAfter: 5 * s}, 10, 10},
		{realsim.Case{Name: "10 replicas maxSurge 1 maxUnavailable 0 (5 s)", Replicas: 10, MaxSurge: "1", MaxUnavailable: "0", ReadyAfter: 5 * s}, 50, 50},
		{realsim.Case{Name: "100 replicas 25%/25% (5 s)", Replicas: 100, ReadyAfter: 5 * s}, 16.3, 16.75},
		{realsim.Case{Name: "1,000 replicas 25%/25% (5 s)", Replicas: 1000, ReadyAfter: 5 * s}, 101, 101},
		{realsim.Case{Name: "1,000 replicas 25%/25% (30 s)", Replicas: 1000, ReadyAfter: 30 * s}, 127, 127},
	} {
		t.Run(tc.c.Name, func(t *testing.T) {
			runs := 3
			if tc.c.Replicas >= 1000 && !*long {
				runs = 1
			}
			for _, m := range runCase(t, tc.c, runs) {
				got := m.Complete.Seconds()
				lo, hi := tc.min-max(0.6, 0.1*tc.min), tc.max+max(0.6, 0.1*tc.max)
				if got < lo || got > hi || math.IsNaN(got) {
					t.Errorf("complete after %v, want within [%g, %g] s (issue: %g–%g s)", m.Complete, lo, hi, tc.min, tc.max)
				}
			}
		})
	}
}
