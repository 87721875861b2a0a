package sim_test

import (
	"fmt"
	"testing"

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
	{10, 10, 5, 12, 11, realfig.Range{Min: 373.483, Median: 970.03, Max: 1704.737}, realfig.Range{Min: 10, Max: 10}, realfig.Range{Min: 8, Max: 8}, []string{"does not complete; real median 970.03s"}},
	{10, 11, 5, 16, 0, realfig.Range{Min: 35, Median: 35.001, Max: 91.966}, realfig.Range{Min: 11, Max: 11}, realfig.Range{Min: 8, Max: 8}, nil},
	{10, 12, 5, 16, 0, realfig.Range{Min: 25, Median: 25.002, Max: 30.001}, realfig.Range{Min: 12, Max: 12}, realfig.Range{Min: 8, Max: 8}, nil},
	{20, 20, 0, 16, 0, realfig.Range{Min: 20.003, Median: 20.578, Max: 25.003}, realfig.Range{Min: 20, Max: 20}, realfig.Range{Min: 15, Max: 15}, nil},
	{20, 22, 0, 16, 0, realfig.Range{Min: 15.501, Median: 15.695, Max: 20.003}, realfig.Range{Min: 22, Max: 22}, realfig.Range{Min: 15, Max: 15}, nil},
	{20, 22, 5, 16, 0, realfig.Range{Min: 30.001, Median: 30.002, Max: 91.965}, realfig.Range{Min: 22, Max: 22}, realfig.Range{Min: 15, Max: 15}, nil},
	{50, 50, 0, 16, 0, realfig.Range{Min: 25.005, Median: 25.005, Max: 25.402}, realfig.Range{Min: 50, Max: 50}, realfig.Range{Min: 38, Max: 38}, nil},
	{50, 55, 0, 16, 0, realfig.Range{Min: 17.501, Median: 18.151, Max: 20.002}, realfig.Range{Min: 55, Max: 55}, realfig.Range{Min: 38, Max: 38}, nil},
	{50, 55, 5, 15, 12, realfig.Range{Min: 30.22, Median: 1030.98, Max: 1031.33}, realfig.Range{Min: 55, Max: 55}, realfig.Range{Min: 38, Max: 38}, []string{"completes at 35.002s; real 30.22s to 1031.33s, median 1030.98s"}},
	{200, 200, 0, 16, 0, realfig.Range{Min: 33.35, Median: 34.3, Max: 35.05}, realfig.Range{Min: 200, Max: 200}, realfig.Range{Min: 150, Max: 150}, nil},
	{200, 220, 0, 16, 0, realfig.Range{Min: 29.25, Median: 30.55, Max: 32.95}, realfig.Range{Min: 220, Max: 220}, realfig.Range{Min: 150, Max: 150}, nil},
	{200, 220, 5, 16, 1, realfig.Range{Min: 35.45, Median: 35.7, Max: 1018.3}, realfig.Range{Min: 220, Max: 220}, realfig.Range{Min: 150, Max: 150}, nil},
	{100, 100, 5, 0, 16, realfig.Range{}, realfig.Range{Min: 100, Max: 100}, realfig.Range{Min: 75, Max: 75}, nil},
	{100, 110, 5, 16, 3, realfig.Range{Min: 31, Median: 31.875, Max: 1176.29}, realfig.Range{Min: 110, Max: 110}, realfig.Range{Min: 75, Max: 75}, nil},
	{10, 11, 30, 16, 13, realfig.Range{Min: 342.831, Median: 1255.805, Max: 1255.806}, realfig.Range{Min: 11, Max: 11}, realfig.Range{Min: 8, Max: 8}, nil},
	{10, 13, 30, 16, 0, realfig.Range{Min: 137.85, Median: 137.92, Max: 383.67}, realfig.Range{Min: 13, Max: 13}, realfig.Range{Min: 8, Max: 8}, []string{"completes at 6m23.574s; real 137.85s to 383.67s, median 137.92s"}},
	{20, 25, 30, 16, 0, realfig.Range{Min: 137.625, Median: 260.85, Max: 383.836}, realfig.Range{Min: 25, Max: 25}, realfig.Range{Min: 15, Max: 15}, []string{"completes at 6m23.698s; real 137.625s to 383.836s, median 260.85s"}},
	{50, 60, 30, 9, 10, realfig.Range{Min: 256.34, Median: 256.791, Max: 994.241}, realfig.Range{Min: 60, Max: 60}, realfig.Range{Min: 38, Max: 38}, []string{"completes at 16m34.073s; real 256.34s to 994.241s, median 256.791s"}},
	{200, 250, 30, 16, 15, realfig.Range{Min: 270.96, Median: 1094.375, Max: 1216.11}, realfig.Range{Min: 250, Max: 250}, realfig.Range{Min: 150, Max: 150}, []string{"completes at 3m47.391s; real 270.96s to 1216.11s, median 1094.375s"}},
}

// TestControllersAgainstRealQuota holds ModelControllers to issue 23's
// rule (realfig.Judge) and to realfig.Bounds on the quota cases of
// quotaOutsideFile: each case is within the rule or misses it exactly as
// its row says. 12 of the 19 are within it, the runs going on past the
// progress deadline (13 until the error handler
// paused only after an error less than 1ms earlier, sim's errorPauseAt,
// which takes holdout/00, 20261131/26 and /29 within the rule and moves
// these rows: 100 at max-110 within, 10 at max-13 and 50 at max-60 out;
// 14 before the slow-pod changes were merged with the retry count; 10
// on the first sample of 8 before the retry path of 2026-11-28).
//
// Where the real runs split into modes, the model lands on one. All the
// misses are cases whose real runs split, or pass the progress deadline
// and complete after it:
//   - 10 at max-13 terminating 30s: the real runs completed at 137.77
//     to 137.95s in 9 of 16 traced runs (4 failed syncs of the new
//     ReplicaSet when its first pods became ready at 5s), 219.77s in 1
//     (5) and 383.37 to 383.73s in 6 (6); the model now takes the slow
//     mode (383.573s): without the 1ms pause after a quiet millisecond,
//     its Deployment controller scales the old ReplicaSet in two rounds
//     (the staggered readiness of TestControllersSeeReadyPodsOneByOne),
//     as the slow real runs do.
//   - 20 at max-25 terminating 30s: the real runs split evenly between
//     137.6 to 138.1s (8) and 383.6 to 383.8s (8), so no figure is near
//     the median (260.85s); the model takes the second mode (383.697s;
//     138.032s, the first, before errorPauseAt).
//   - 50 at max-60 terminating 30s: the model passes the progress
//     deadline, as 10 of 16 real runs do (a later sample of 8: 7 past
//     the deadline, 6 not complete in 30 minutes), and completes at
//     994.072s, the real slow mode (994.241s); the rule judges the
//     median of the runs that completed (256.791s).
//   - 200 at max-250 terminating 30s completes at 227.39s: 15 of 16 real
//     runs passed the progress deadline (600s) and went on retrying
//     until the quota let them complete (median 1,094s).
//   - 10 at max-10 terminating 5s passes the progress deadline, as most
//     real runs do (11 of 16), and goes on past it, as they do; 12 of 16
//     complete within 30 minutes (median 970s), the model later, its
//     refused creations backing off further. 10 at max-11 terminating
//     30s, which ended at the deadline too, completes past it within
//     the rule around the real median (1,256s).
//   - 50 at max-55 terminating 5s completes at 35.001s, as the fastest
//     real runs (30.22 to 35s, 4 of 16), where 11 others took 1,015 to
//     1,031s.
//
// Which mode a real run takes is decided when the new pods become ready:
// the new ReplicaSet's syncs fail two a millisecond (apimachinery's
// HandleError sleeps only when the error before it came less than 1ms
// earlier) for as long as events keep adding it again, and the
// Deployment controller adds one more round when its first scale of the
// old ReplicaSet saw only some of the new pods ready. v1.36's
// stale-informer check replaces a refusal one for one (1 or 2 at the
// change in 14 of 16 runs, 1 at 5s in 4), so it does not move the count.
// See internal/upstream/realsim/README.md for the variants measured.
func TestControllersAgainstRealQuota(t *testing.T) {
	for _, tt := range quotaOutsideFile {
		c := realfig.Case{
			Name:     fmt.Sprintf("quota/%d/max-%d/terminating-%gs", tt.replicas, tt.maxPods, tt.terminatingSeconds),
			Replicas: tt.replicas, MaxSurge: "25%", MaxUnavailable: "25%",
			ReadyAfterSeconds: 5, TerminatingSeconds: tt.terminatingSeconds, MaxPods: tt.maxPods,
		}
		t.Run(c.Name, func(t *testing.T) {
			r := realfig.Record{Case: c, Runs: 16, Completed: tt.completed, CompleteSeconds: tt.complete, PeakPods: tt.peak, MinAvailable: tt.minAv}
			breaches := judgeAgainstReal(t, r, tt.misses)
			for _, b := range breaches {
				t.Error(b)
			}
		})
	}
}
