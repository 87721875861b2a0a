package sim_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// quotaOutsideFile are real runs of pod quotas kept outside the recorded
// file: the real v1.36.3 Deployment and ReplicaSet controllers
// (internal/upstream/realsim's TestQuotaOutsideFile, 20 QPS, burst 30),
// 16 runs of each case in two samples of 8, measured on 2026-11-28: 10
// to 200 replicas at 25%/25%, pods ready 5s after their creation, a pod
// quota at and above the replicas, pods gone at once or terminating for
// 5s or 30s. Runs
// that pass the progress deadline (600s) go on (up to 30 minutes), and
// those that complete count in the range.
var quotaOutsideFile = []struct {
	replicas, maxPods  int32
	terminatingSeconds float64
	// completed and deadline are how many of the 16 runs completed
	// within 30 minutes, and how many passed the progress deadline.
	completed, deadline   int
	complete, peak, minAv realfig.Range
	// misses are the sentences realfig.Judge returns for the case, with
	// the reason in TestControllersAgainstRealQuota's comment (nil:
	// within the rule).
	misses []string
}{
	{10, 10, 5, 12, 11, realfig.Range{Min: 373.483, Median: 970.03, Max: 1704.737}, realfig.Range{Min: 10, Max: 10}, realfig.Range{Min: 8, Max: 8}, []string{"completes at 4m36.318s; real 373.483s to 1704.737s, median 970.03s"}},
	{10, 11, 5, 16, 0, realfig.Range{Min: 35, Median: 35.001, Max: 91.966}, realfig.Range{Min: 11, Max: 11}, realfig.Range{Min: 8, Max: 8}, nil},
	{10, 12, 5, 16, 0, realfig.Range{Min: 25, Median: 25.002, Max: 30.001}, realfig.Range{Min: 12, Max: 12}, realfig.Range{Min: 8, Max: 8}, nil},
	{20, 20, 0, 16, 0, realfig.Range{Min: 20.003, Median: 20.578, Max: 25.003}, realfig.Range{Min: 20, Max: 20}, realfig.Range{Min: 15, Max: 15}, nil},
	{20, 22, 0, 16, 0, realfig.Range{Min: 15.501, Median: 15.695, Max: 20.003}, realfig.Range{Min: 22, Max: 22}, realfig.Range{Min: 15, Max: 15}, nil},
	{20, 22, 5, 16, 0, realfig.Range{Min: 30.001, Median: 30.002, Max: 91.965}, realfig.Range{Min: 22, Max: 22}, realfig.Range{Min: 15, Max: 15}, nil},
	{50, 50, 0, 16, 0, realfig.Range{Min: 25.005, Median: 25.005, Max: 25.402}, realfig.Range{Min: 50, Max: 50}, realfig.Range{Min: 38, Max: 38}, nil},
	{50, 55, 0, 16, 0, realfig.Range{Min: 17.501, Median: 18.151, Max: 20.002}, realfig.Range{Min: 55, Max: 55}, realfig.Range{Min: 38, Max: 38}, nil},
	{50, 55, 5, 15, 12, realfig.Range{Min: 30.22, Median: 1030.98, Max: 1031.33}, realfig.Range{Min: 55, Max: 55}, realfig.Range{Min: 38, Max: 38}, []string{"completes at 30.003s; real 30.22s to 1031.33s, median 1030.98s"}},
	{200, 200, 0, 16, 0, realfig.Range{Min: 33.35, Median: 34.3, Max: 35.05}, realfig.Range{Min: 200, Max: 200}, realfig.Range{Min: 150, Max: 150}, nil},
	{200, 220, 0, 16, 0, realfig.Range{Min: 29.25, Median: 30.55, Max: 32.95}, realfig.Range{Min: 220, Max: 220}, realfig.Range{Min: 150, Max: 150}, nil},
	{200, 220, 5, 16, 1, realfig.Range{Min: 35.45, Median: 35.7, Max: 1018.3}, realfig.Range{Min: 220, Max: 220}, realfig.Range{Min: 150, Max: 150}, nil},
	{100, 100, 5, 0, 16, realfig.Range{}, realfig.Range{Min: 100, Max: 100}, realfig.Range{Min: 75, Max: 75}, nil},
	{100, 110, 5, 16, 3, realfig.Range{Min: 31, Median: 31.875, Max: 1176.29}, realfig.Range{Min: 110, Max: 110}, realfig.Range{Min: 75, Max: 75}, nil},
	{10, 11, 30, 16, 13, realfig.Range{Min: 342.831, Median: 1255.805, Max: 1255.806}, realfig.Range{Min: 11, Max: 11}, realfig.Range{Min: 8, Max: 8}, []string{"completes at 3m4.189s; real 342.831s to 1255.806s, median 1255.805s"}},
	{10, 13, 30, 16, 0, realfig.Range{Min: 137.85, Median: 137.92, Max: 383.67}, realfig.Range{Min: 13, Max: 13}, realfig.Range{Min: 8, Max: 8}, nil},
	{20, 25, 30, 16, 0, realfig.Range{Min: 137.625, Median: 260.85, Max: 383.836}, realfig.Range{Min: 25, Max: 25}, realfig.Range{Min: 15, Max: 15}, []string{"completes at 2m18.132s; real 137.625s to 383.836s, median 260.85s"}},
	{50, 60, 30, 9, 10, realfig.Range{Min: 256.34, Median: 256.791, Max: 994.241}, realfig.Range{Min: 60, Max: 60}, realfig.Range{Min: 38, Max: 38}, []string{"does not complete; real median 256.791s"}},
	{200, 250, 30, 16, 15, realfig.Range{Min: 270.96, Median: 1094.375, Max: 1216.11}, realfig.Range{Min: 250, Max: 250}, realfig.Range{Min: 150, Max: 150}, []string{"completes at 6m36.456s; real 270.96s to 1216.11s, median 1094.375s"}},
}

// TestControllersAgainstRealQuota holds ModelControllers to issue 23's
// rule (realfig.Judge) and to realfig.Bounds on the quota cases of
// quotaOutsideFile: each case is within the rule or misses it exactly as
// its row says. 13 of the 19 are within it (ModelControllers before the
// retry path of 2026-11-28, which retried every refused sync it
// scheduled, never paused on an error and rewrote the ReplicaFailure
// condition at each refusal: 10 on the first sample of 8). Where the
// real runs split into modes (10 at max-13 terminating 30s: 137.85 to
// 137.93s in 10 runs, 383.61 to 383.67s in 6), the model lands on one to
// the millisecond (137.982s). The misses, all where the real
// controllers back off further than the model:
//   - 20 at max-25 terminating 30s: the real runs split evenly between
//     137.6 to 138.1s (8) and 383.6 to 383.8s (8), so no figure is near
//     the median (260.85s); the model takes the first mode (138.231s).
//     The first sample of 8 had 2 and 6, the second 6 and 2.
//   - 200 at max-250 terminating 30s completes at 396.5s: 15 of 16 real
//     runs passed the progress deadline (600s) and went on retrying
//     until the quota let them complete (median 1,094s).
//   - 50 at max-60 terminating 30s does not complete: 9 of the 16 real
//     runs completed (256.3 to 994.2s), 10 passed the deadline first.
//     The model's syncs also fail on status-write conflicts (a status
//     write refused twice fails the sync, as the real one does), one
//     failure more than before they were modelled, which doubles its
//     wait past the deadline: it takes the real runs' slower mode.
//   - 10 at max-10 terminating 5s and 10 at max-11 terminating 30s
//     complete early (174s and 184s) where most real runs took later
//     modes (up to 1,705s); 50 at max-55 terminating 5s completes at
//     30.0s, as the fastest real runs (30.22 to 35s, 4 of 16), where 11
//     others took 1,015 to 1,031s. The real runs have more failed syncs
//     before the quota frees (a failure more doubles the wait). In 5
//     traced real runs of 10 at max-13, the last refusal before the
//     long wait, at about 5s, had 14 failures before it in 2 (a wait of
//     81.92s), 15 in 1 (163.84s) and 16 in 2 (327.68s); the model has
//     14. Of those failures, 1 or 2 were v1.36's stale-informer check at
//     the change (a sync that starts before the informer has seen the
//     controller's own last write fails), which the model, whose
//     informers see every write at once, does not have; the others are
//     refusals, as many as the syncs that one instant's events start,
//     a race of the goroutines. Modelling the check where a sync is
//     re-queued before its own status write is granted (tried) adds
//     failures in every cycle, not only at the change: 9 of the 28
//     quota cases missed instead of 7, 10 at max-13 at 219.9s.
func TestControllersAgainstRealQuota(t *testing.T) {
	for _, tt := range quotaOutsideFile {
		c := realfig.Case{
			Name:     fmt.Sprintf("quota/%d/max-%d/terminating-%gs", tt.replicas, tt.maxPods, tt.terminatingSeconds),
			Replicas: tt.replicas, MaxSurge: "25%", MaxUnavailable: "25%",
			ReadyAfterSeconds: 5, TerminatingSeconds: tt.terminatingSeconds, MaxPods: tt.maxPods,
		}
		t.Run(c.Name, func(t *testing.T) {
			r := realfig.Record{Case: c, Runs: 16, Completed: tt.completed, CompleteSeconds: tt.complete, PeakPods: tt.peak, MinAvailable: tt.minAv}
			f, err := realfig.Simulate(c)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.misses, realfig.Judge(r, f)); diff != "" {
				t.Errorf("Judge() mismatch (-want +got):\n%s", diff)
			}
			for _, b := range realfig.Bounds(r, f) {
				t.Error(b)
			}
		})
	}
}
