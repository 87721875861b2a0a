package realfig_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// record is a case completed at 10 s to 12 s (median 11 s), with peaks of
// 20 to 30 pods and 8 to 9 available at the fewest.
func record() realfig.Record {
	return realfig.Record{
		Case:            realfig.Case{Name: "c"},
		Runs:            4,
		Completed:       4,
		CompleteSeconds: realfig.Range{Min: 10, Median: 11, Max: 12},
		PeakPods:        realfig.Range{Min: 20, Median: 25, Max: 30},
		MinAvailable:    realfig.Range{Min: 8, Median: 8, Max: 9},
	}
}

// TestJudge pins issue 23's rule at its edges: completion within
// max(0.5 s, 10%) of the median, the peak up to 10% above the highest
// (rounded down), the fewest available within the real range.
func TestJudge(t *testing.T) {
	ok := realfig.Figures{Completed: true, Complete: 11 * time.Second, PeakPods: 20, MinAvailable: 8, PeakPodsHigh: 40, MinAvailableHigh: 9}
	tests := []struct {
		name string
		edit func(*realfig.Record, *realfig.Figures)
		want []string
	}{
		{"within", func(*realfig.Record, *realfig.Figures) {}, nil},
		{"completion 10% above the median", func(_ *realfig.Record, f *realfig.Figures) { f.Complete = 12100 * time.Millisecond }, nil},
		{"completion past 10%", func(_ *realfig.Record, f *realfig.Figures) { f.Complete = 12101 * time.Millisecond },
			[]string{"completes at 12.101s; real 10s to 12s, median 11s"}},
		{"0.5 s floor on a short median", func(r *realfig.Record, f *realfig.Figures) {
			r.CompleteSeconds = realfig.Range{Min: 1, Median: 1, Max: 1}
			f.Complete = 1500 * time.Millisecond
		}, nil},
		{"not complete", func(_ *realfig.Record, f *realfig.Figures) { f.Completed = false },
			[]string{"does not complete; real median 11s"}},
		{"completes where no real run did", func(r *realfig.Record, _ *realfig.Figures) { r.Completed = 0 },
			[]string{"completes at 11s; no real run completed"}},
		{"peak 10% above the highest", func(_ *realfig.Record, f *realfig.Figures) { f.PeakPods = 33 }, nil},
		{"peak past 10%", func(_ *realfig.Record, f *realfig.Figures) { f.PeakPods = 34 }, []string{"peak 34 pods (high 40); real 20 to 30"}},
		{"peak below the lowest", func(_ *realfig.Record, f *realfig.Figures) { f.PeakPods = 19 }, []string{"peak 19 pods (high 40); real 20 to 30"}},
		{"fewest available above the range", func(_ *realfig.Record, f *realfig.Figures) { f.MinAvailable = 10 },
			[]string{"fewest available 10 (high 9); real 8 to 9"}},
		{"fewest available below the range", func(_ *realfig.Record, f *realfig.Figures) { f.MinAvailable = 7 },
			[]string{"fewest available 7 (high 9); real 8 to 9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, f := record(), ok
			tt.edit(&r, &f)
			if diff := cmp.Diff(tt.want, realfig.Judge(r, f)); diff != "" {
				t.Errorf("Judge() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheck: a known miss passes only with its exact figures, and a known
// miss that no longer happens is an error.
func TestCheck(t *testing.T) {
	r := record()
	miss := realfig.Figures{Completed: true, Complete: 11 * time.Second, PeakPods: 19, MinAvailable: 8, PeakPodsHigh: 20, MinAvailableHigh: 8}
	within := miss
	within.PeakPods = 20
	known := map[string]realfig.Known{"c": {Why: "why", Misses: []string{"peak 19 pods (high 20); real 20 to 30"}}}
	if why, err := realfig.Check(r, miss, known); why != "why" || err != nil {
		t.Errorf("Check(known miss) = %q, %v; want %q, nil", why, err, "why")
	}
	if _, err := realfig.Check(r, miss, nil); err == nil {
		t.Error("Check(unknown miss) = nil error")
	}
	if _, err := realfig.Check(r, within, known); err == nil {
		t.Error("Check(known miss gone) = nil error")
	}
	other := miss
	other.PeakPods = 18
	if _, err := realfig.Check(r, other, known); err == nil {
		t.Error("Check(known miss with other figures) = nil error")
	}
	if why, err := realfig.Check(r, within, nil); why != "" || err != nil {
		t.Errorf("Check(within) = %q, %v; want \"\", nil", why, err)
	}
}

// TestBounds: the gate's fewest available may not be above the real
// lowest, and the model's range must meet the real one.
func TestBounds(t *testing.T) {
	r := record() // fewest available 8 to 9
	tests := []struct {
		name     string
		low, hi  int64
		breaches int
	}{
		{"floor below, range meets", 6, 8, 0},
		{"at the real lowest", 8, 8, 0},
		{"range spans the real one", 7, 12, 0},
		{"optimistic", 9, 9, 1},
		{"range below the real one", 5, 7, 1},
		{"range above the real one", 10, 11, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := realfig.Bounds(r, realfig.Figures{MinAvailable: tt.low, MinAvailableHigh: tt.hi})
			if len(got) != tt.breaches {
				t.Errorf("Bounds(%d to %d) = %q, want %d breaches", tt.low, tt.hi, got, tt.breaches)
			}
		})
	}
}
