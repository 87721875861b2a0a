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
	{50, 55, 5, 15, 12, realfig.Range{Min: 30.22, Median: 1030.98, Max: 1031.33}, realfig.Range{Min: 55, Max: 55}, realfig.Range{Min: 38, Max: 38}, []string{"completes at 30.004s; real 30.22s to 1031.33s, median 1030.98s"}},
	{200, 200, 0, 16, 0, realfig.Range{Min: 33.35, Median: 34.3, Max: 35.05}, realfig.Range{Min: 200, Max: 200}, realfig.Range{Min: 150, Max: 150}, nil},
	{200, 220, 0, 16, 0, realfig.Range{Min: 29.25, Median: 30.55, Max: 32.95}, realfig.Range{Min: 220, Max: 220}, realfig.Range{Min: 150, Max: 150}, nil},
	{200, 220, 5, 16, 1, realfig.Range{Min: 35.45, Median: 35.7, Max: 1018.3}, realfig.Range{Min: 220, Max: 220}, realfig.Range{Min: 150, Max: 150}, nil},
	{100, 100, 5, 0, 16, realfig.Range{}, realfig.Range{Min: 100, Max: 100}, realfig.Range{Min: 75, Max: 75}, nil},
	{100, 110, 5, 16, 3, realfig.Range{Min: 31, Median: 31.875, Max: 1176.29}, realfig.Range{Min: 110, Max: 110}, realfig.Range{Min: 75, Max: 75}, []string{"completes at 35.801s; real 31s to 1176.29s, median 31.875s"}},
	{10, 11, 30, 16, 13, realfig.Range{Min: 342.831, Median: 1255.805, Max: 1255.806}, realfig.Range{Min: 11, Max: 11}, realfig.Range{Min: 8, Max: 8}, nil},
	{10, 13, 30, 16, 0, realfig.Range{Min: 137.85, Median: 137.92, Max: 383.67}, realfig.Range{Min: 13, Max: 13}, realfig.Range{Min: 8, Max: 8}, nil},
	{20, 25, 30, 16, 0, realfig.Range{Min: 137.625, Median: 260.85, Max: 383.836}, realfig.Range{Min: 25, Max: 25}, realfig.Range{Min: 15, Max: 15}, []string{"completes at 2m18.032s; real 137.625s to 383.836s, median 260.85s"}},
	{50, 60, 30, 9, 10, realfig.Range{Min: 256.34, Median: 256.791, Max: 994.241}, realfig.Range{Min: 60, Max: 60}, realfig.Range{Min: 38, Max: 38}, nil},
	{200, 250, 30, 16, 15, realfig.Range{Min: 270.96, Median: 1094.375, Max: 1216.11}, realfig.Range{Min: 250, Max: 250}, realfig.Range{Min: 150, Max: 150}, []string{"completes at 6m36.456s; real 270.96s to 1216.11s, median 1094.375s"}},
}

// TestControllersAgainstRealQuota holds ModelControllers to issue 23's
// rule (realfig.Judge) and to realfig.Bounds on the quota cases of
// quotaOutsideFile: each case is within the rule or misses it exactly as
// its row says. 13 of the 19 are within it (14 before the slow-pod
// changes below were merged with the retry count, 13 while the model
// forgot the failures after a sync that created pods; 10 on the first sample of
// 8 before the retry path of 2026-11-28, which retried every refused
// sync it scheduled, never paused on an error and rewrote the
// ReplicaFailure condition at each refusal). Where the real runs split
// into modes, the model lands on one: 10 at max-13 terminating 30s
// completed at 137.77 to 137.95s in 9 of 16 traced runs (4 failed syncs
// of the new ReplicaSet when its first pods became ready at 5s), 219.77s
// in 1 (5) and 383.37 to 383.73s in 6 (6), with 10 failures before 5s in
// every run; the model has 10 and 4, and completes at 137.91s. 50 at
// max-60 terminating 30s completes at 256.797s (the median of the 9 of
// 16 real runs that completed, 256.791s) since the count goes on after
// a sync that created some pods and had others refused (v1.36's
// consistency check fails the sync after it; see finishSet); most real
// runs pass the progress deadline there (10 of 16; a later sample of 8:
// 256.461s, 994.14s and 6 not complete in 30 minutes, 7 past the
// deadline), which the rule, judging the completed runs' median, does
// not weigh. The misses, all where the real controllers back off
// further than the model:
//   - 20 at max-25 terminating 30s: the real runs split evenly between
//     137.6 to 138.1s (8) and 383.6 to 383.8s (8), so no figure is near
//     the median (260.85s); the model takes the first mode (138.032s).
//     The first sample of 8 had 2 and 6, the second 6 and 2, a third
//     (traced) 2 and 6: 4 failed syncs at 5.25s in the fast runs, 6 in
//     the slow ones, 10 before in every run.
//   - 200 at max-250 terminating 30s completes at 396.5s: 15 of 16 real
//     runs passed the progress deadline (600s) and went on retrying
//     until the quota let them complete (median 1,094s).
//   - 10 at max-10 terminating 5s passes the progress deadline, as most
//     real runs do (11 of 16), and goes on past it, as they do; 12 of 16
//     complete within 30 minutes (median 970s), the model after an hour
//     (3,670.6s), its refused creations backing off further. 10 at max-11
//     terminating 30s, which ended at the deadline too, completes past
//     it at 1,133s, within the rule around the real median (1,256s).
//   - 100 at max-110 terminating 5s completes at 35.801s, 0.74s past
//     the rule around the real median (31.875s; 13 of 16 runs complete
//     at 31 to 35.45s, 3 pass the deadline). It was within the rule
//     under each of two changes of 2026-11-28 alone, the retry count
//     kept across a creating sync and the slow-pod changes (an
//     instant's later batches seen ready one by one, the Deployment
//     controller's refused status writes), and misses with both; not
//     traced.
//   - 50 at max-55 terminating 5s completes at 30.0s, as the fastest
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
// Modelling the real pause (no pause after a quiet millisecond) puts the
// model in the slow mode (its Deployment controller scales in two
// rounds, as the staggered readiness of TestControllersSeeReadyPodsOneByOne
// has it); see internal/upstream/realsim/README.md for the variants
// measured.
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
