package realsim_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// The figures of several runs of a case become ranges; a median of an even
// number of runs is the mean of the middle two.
func ExampleSummarize() {
	c := realsim.Case{Name: "scale/100", Replicas: 100, ReadyAfter: 5 * time.Second}
	runs := []realsim.Measurement{
		{Completed: true, Complete: 16300 * time.Millisecond, LastChange: 16300 * time.Millisecond, PeakPods: 127, MinAvailable: 75},
		{Completed: true, Complete: 16750 * time.Millisecond, LastChange: 16750 * time.Millisecond, PeakPods: 125, MinAvailable: 75},
	}
	r := realsim.Summarize("scale", c, runs)
	fmt.Println("complete", r.CompleteSeconds, "s; peak", r.PeakPods, "; fewest available", r.MinAvailable)
	out, _ := json.Marshal(r.Case)
	fmt.Println(string(out))
	// Output:
	// complete 16.3–16.75 (median 16.525) s; peak 125–127 (median 126) ; fewest available 75
	// {"name":"scale/100","replicas":100,"maxSurge":"25%","maxUnavailable":"25%","readyAfterSeconds":5}
}
