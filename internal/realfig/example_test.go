package realfig_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// The completion's tolerance is max(0.5 s, 10% of the real median): for a
// median of 11.275 s, 1.1275 s. Completing at 10 s is 1.275 s early, a
// miss; at 10.5 s, 0.775 s early, within the rule.
func ExampleJudge() {
	r := realfig.Record{
		Case:            realfig.Case{Name: "scale/25"},
		Runs:            8,
		Completed:       8,
		CompleteSeconds: realfig.Range{Min: 10.8, Median: 11.275, Max: 11.35},
		PeakPods:        realfig.Range{Min: 32, Median: 33, Max: 35},
		MinAvailable:    realfig.Range{Min: 19, Median: 19, Max: 19},
	}
	f := realfig.Figures{Completed: true, Complete: 10 * time.Second, PeakPods: 32, MinAvailable: 19, PeakPodsHigh: 35, MinAvailableHigh: 19}
	fmt.Println(realfig.Judge(r, f))
	f.Complete = 10500 * time.Millisecond
	fmt.Println(realfig.Judge(r, f))
	// Output:
	// [completes at 10s; real 10.8s to 11.35s, median 11.275s]
	// []
}
