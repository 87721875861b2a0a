package sim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// outsideFile are real runs kept outside the recorded file: the real
// v1.36.3 Deployment and ReplicaSet controllers (internal/upstream/realsim,
// 20 QPS, burst 30, 5 workers each), 5 runs of each case, measured on
// 2026-11-27: 20 to 75 replicas at 25%/25%, maxSurge 2 maxUnavailable 3,
// and 50%/0, pods ready at once or 1s after their creation.
//
// The misses, as the model stands (with the ReplicaSet controller's
// status-write conflicts, the old ReplicaSet's event budget spent by
// the harness's first rollout, and the stale-cache check of a sync
// taken again at its own status write; see "Status-write conflicts and
// the event budget" and "The stale-cache check" in
// internal/upstream/realsim/README.md):
//   - completion, maxSurge 2 maxUnavailable 3 ready after 1s at 20 and
//     30 replicas: 5.5s against this sample's median of 4.55s (0.5s
//     allowed; 4.7s before the pods of an instant's later slow-start
//     batches counted ready after the first batch's, podModel.ready;
//     5.45s before the Deployment controller's events went between its
//     requests, sinkBefore), and 8.75s against 7.4s (7.05s before the
//     Deployment controller's refused status writes, staleStatus; 8.35s
//     before sinkBefore; 0.74s allowed). Later samples of 8 runs
//     (newShapes) put both within the rule: 20 replicas, medians of
//     5.475s and 5.4s; 30, 8.05s. At 40 replicas the model was early
//     before those changes (10.25s against a median of 12.05s) and is
//     within the rule now (11.7s; 10.75s, out of it, with the
//     ReplicaSet writes reaching the ReplicaSet controller at their
//     grants, notifyWritten, but without sinkBefore).
//   - fewest available: below a step (maxSurge + maxUnavailable) of 10
//     pods the gate keeps the floor, which real runs of maxSurge 2
//     maxUnavailable 3 reach often (40 replicas: none of the 5 runs of
//     2026-11-27, 4 of 5 on 2026-11-28; the row has both samples' range).
//     At 25%/25% ready at once from 20 replicas on the gate says the
//     floor plus one, as all but one of the runs of these rows did
//     (leadsDeletions in rollout/sim).
//
// With the stale-cache check (2026-11-28), 25%/25% ready after 1s at 20
// replicas completes at 3.8s (3.05s before; real median 3.6s), and the
// peaks of maxSurge 2 maxUnavailable 3 ready after 1s at 20, 40 and 50
// replicas are replicas + maxSurge + 1, within the real range (they were
// one pod below it).
//
// The rows after the first 30, measured on 2026-11-28 with pods ready at
// once, pin the step (maxSurge + maxUnavailable) from which the gate
// counts the first new pod (leadingStep in rollout/sim): completion and
// peak over the first 8 runs, the fewest available over every run made
// of the case (two or three samples: 16 to 34 runs; TestOutsideFile in
// internal/upstream/realsim measures one), as are the fewest available
// of the first row (20 replicas at 25%/25%) and of 40 replicas at
// maxSurge 2 maxUnavailable 3 ready at once. Five reached the floor in 1 or
// 2 runs only, where the gate says the floor plus one (tail): 25%/25% at
// 20 and at 200 replicas, 10%/10% at 60 and at 100, and 5/5 at 20 (the
// model's 2.2s is its fastest runs' figure, 0.55s early on the median,
// as for 25%/25% at 20). From a step of 10 the floor came in 7 of the
// 228 runs measured; at steps of 6 to 8, where the gate keeps the floor,
// in 13 of 100. At 100 replicas maxSurge 2 maxUnavailable 3 the runs
// split into a fast mode (14s) and a slow one (20.1 to 20.7s), and the
// model's 20.4s is in the slow one.
var outsideFile = []struct {
	replicas                 int32
	maxSurge, maxUnavailable string
	readyAfterSeconds        float64
	complete, peak, minAv    realfig.Range
	// misses are the sentences realfig.Judge returns for the case, with
	// the reason in the test's comments (nil: within the rule).
	misses []string
	// tail, if set, says why the gate's fewest available is above the
	// real runs' lowest (a breach of realfig.Bounds the row expects).
	tail string
}{
	{20, "25%", "25%", 0, realfig.Range{Min: 2.7, Median: 2.75, Max: 2.8}, realfig.Range{Min: 25, Max: 25}, realfig.Range{Min: 15, Max: 17}, nil, "the floor, 15, in 1 of 22 real runs; 16 or 17 in the others"},
	{30, "25%", "25%", 0, realfig.Range{Min: 3.65, Median: 3.75, Max: 3.8}, realfig.Range{Min: 38, Max: 43}, realfig.Range{Min: 24, Max: 24}, nil, ""},
	{40, "25%", "25%", 0, realfig.Range{Min: 4.65, Median: 4.8, Max: 4.8}, realfig.Range{Min: 50, Max: 50}, realfig.Range{Min: 31, Max: 31}, nil, ""},
	{50, "25%", "25%", 0, realfig.Range{Min: 5.65, Median: 5.8, Max: 5.8}, realfig.Range{Min: 63, Max: 63}, realfig.Range{Min: 39, Max: 39}, nil, ""},
	{75, "25%", "25%", 0, realfig.Range{Min: 8.4, Median: 8.55, Max: 8.6}, realfig.Range{Min: 94, Max: 94}, realfig.Range{Min: 58, Max: 58}, nil, ""},
	{20, "25%", "25%", 1, realfig.Range{Min: 3.4, Median: 3.6, Max: 3.95}, realfig.Range{Min: 25, Max: 27}, realfig.Range{Min: 15, Max: 15}, nil, ""},
	{30, "25%", "25%", 1, realfig.Range{Min: 3.9, Median: 4.5, Max: 4.9}, realfig.Range{Min: 38, Max: 38}, realfig.Range{Min: 23, Max: 23}, nil, ""},
	{40, "25%", "25%", 1, realfig.Range{Min: 4.95, Median: 5, Max: 5.7}, realfig.Range{Min: 50, Max: 51}, realfig.Range{Min: 30, Max: 30}, nil, ""},
	{50, "25%", "25%", 1, realfig.Range{Min: 6, Median: 6.15, Max: 6.15}, realfig.Range{Min: 63, Max: 63}, realfig.Range{Min: 38, Max: 38}, nil, ""},
	{75, "25%", "25%", 1, realfig.Range{Min: 8.7, Median: 9, Max: 9.1}, realfig.Range{Min: 94, Max: 94}, realfig.Range{Min: 57, Max: 60}, nil, ""},
	{20, "2", "3", 0, realfig.Range{Min: 2.75, Median: 3.65, Max: 4.1}, realfig.Range{Min: 22, Max: 23}, realfig.Range{Min: 17, Max: 18}, nil, ""},
	{30, "2", "3", 0, realfig.Range{Min: 4.2, Median: 5.95, Max: 6}, realfig.Range{Min: 32, Max: 35}, realfig.Range{Min: 27, Max: 28}, nil, ""},
	{40, "2", "3", 0, realfig.Range{Min: 7.85, Median: 8, Max: 8.05}, realfig.Range{Min: 42, Max: 42}, realfig.Range{Min: 37, Max: 38}, nil, ""},
	{50, "2", "3", 0, realfig.Range{Min: 7, Median: 10, Max: 10.15}, realfig.Range{Min: 52, Max: 53}, realfig.Range{Min: 47, Max: 48}, nil, ""},
	{75, "2", "3", 0, realfig.Range{Min: 10.45, Median: 15.15, Max: 15.4}, realfig.Range{Min: 77, Max: 78}, realfig.Range{Min: 72, Max: 73}, nil, ""},
	{20, "2", "3", 1, realfig.Range{Min: 4.001, Median: 4.55, Max: 5.85}, realfig.Range{Min: 23, Max: 27}, realfig.Range{Min: 17, Max: 17}, []string{"completes at 5.501s; real 4.001s to 5.85s, median 4.55s"}, ""},
	{30, "2", "3", 1, realfig.Range{Min: 6.003, Median: 7.4, Max: 8.35}, realfig.Range{Min: 32, Max: 34}, realfig.Range{Min: 27, Max: 27}, []string{"completes at 8.751s; real 6.003s to 8.35s, median 7.4s"}, ""},
	{40, "2", "3", 1, realfig.Range{Min: 10.75, Median: 12.05, Max: 12.5}, realfig.Range{Min: 43, Max: 43}, realfig.Range{Min: 37, Max: 37}, nil, ""},
	{50, "2", "3", 1, realfig.Range{Min: 13.75, Median: 14.85, Max: 15.15}, realfig.Range{Min: 53, Max: 54}, realfig.Range{Min: 47, Max: 47}, nil, ""},
	{75, "2", "3", 1, realfig.Range{Min: 21.75, Median: 22.4, Max: 23.35}, realfig.Range{Min: 77, Max: 79}, realfig.Range{Min: 72, Max: 72}, nil, ""},
	{20, "50%", "0", 0, realfig.Range{Min: 1.9, Median: 2, Max: 2}, realfig.Range{Min: 30, Max: 37}, realfig.Range{Min: 20, Max: 20}, nil, ""},
	{30, "50%", "0", 0, realfig.Range{Min: 3, Median: 3.05, Max: 3.65}, realfig.Range{Min: 45, Max: 46}, realfig.Range{Min: 30, Max: 30}, nil, ""},
	{40, "50%", "0", 0, realfig.Range{Min: 4.05, Median: 4.15, Max: 4.15}, realfig.Range{Min: 60, Max: 61}, realfig.Range{Min: 40, Max: 40}, nil, ""},
	{50, "50%", "0", 0, realfig.Range{Min: 5.15, Median: 5.15, Max: 5.15}, realfig.Range{Min: 75, Max: 75}, realfig.Range{Min: 50, Max: 50}, nil, ""},
	{75, "50%", "0", 0, realfig.Range{Min: 7.65, Median: 7.65, Max: 7.65}, realfig.Range{Min: 113, Max: 113}, realfig.Range{Min: 75, Max: 75}, nil, ""},
	{20, "50%", "0", 1, realfig.Range{Min: 2.95, Median: 3.1, Max: 3.25}, realfig.Range{Min: 30, Max: 30}, realfig.Range{Min: 20, Max: 20}, nil, ""},
	{30, "50%", "0", 1, realfig.Range{Min: 3.7, Median: 3.85, Max: 4.05}, realfig.Range{Min: 45, Max: 45}, realfig.Range{Min: 30, Max: 30}, nil, ""},
	{40, "50%", "0", 1, realfig.Range{Min: 5, Median: 5.25, Max: 5.4}, realfig.Range{Min: 60, Max: 60}, realfig.Range{Min: 40, Max: 40}, nil, ""},
	{50, "50%", "0", 1, realfig.Range{Min: 6.25, Median: 6.6, Max: 6.6}, realfig.Range{Min: 75, Max: 75}, realfig.Range{Min: 50, Max: 50}, nil, ""},
	{75, "50%", "0", 1, realfig.Range{Min: 8.6, Median: 8.6, Max: 8.75}, realfig.Range{Min: 113, Max: 113}, realfig.Range{Min: 75, Max: 75}, nil, ""},
	{12, "25%", "25%", 0, realfig.Range{Min: 1.5, Median: 1.6, Max: 1.95}, realfig.Range{Min: 15, Max: 15}, realfig.Range{Min: 9, Max: 12}, nil, ""},
	{16, "25%", "25%", 0, realfig.Range{Min: 2.1, Median: 2.1, Max: 2.45}, realfig.Range{Min: 20, Max: 22}, realfig.Range{Min: 12, Max: 16}, nil, ""},
	{30, "3", "3", 0, realfig.Range{Min: 5.05, Median: 5.1, Max: 5.9}, realfig.Range{Min: 33, Max: 34}, realfig.Range{Min: 27, Max: 29}, nil, ""},
	{40, "4", "4", 0, realfig.Range{Min: 6.05, Median: 6.3, Max: 6.6}, realfig.Range{Min: 44, Max: 44}, realfig.Range{Min: 36, Max: 39}, nil, ""},
	{100, "2", "3", 0, realfig.Range{Min: 14, Median: 20.25, Max: 20.35}, realfig.Range{Min: 102, Max: 107}, realfig.Range{Min: 97, Max: 98}, nil, ""},
	{60, "10%", "10%", 0, realfig.Range{Min: 8.05, Median: 8.35, Max: 8.45}, realfig.Range{Min: 66, Max: 66}, realfig.Range{Min: 54, Max: 55}, nil, "the floor, 54, in 1 of 28 real runs; 55 in the others"},
	{100, "10%", "10%", 0, realfig.Range{Min: 12.2, Median: 12.4, Max: 12.45}, realfig.Range{Min: 110, Max: 117}, realfig.Range{Min: 90, Max: 91}, nil, "the floor, 90, in 2 of 34 real runs; 91 in the others"},
	{20, "5", "5", 0, realfig.Range{Min: 2.2, Median: 2.75, Max: 2.75}, realfig.Range{Min: 25, Max: 25}, realfig.Range{Min: 15, Max: 16}, nil, "the floor, 15, in 2 of 16 real runs; 16 in the others"},
	{24, "25%", "25%", 0, realfig.Range{Min: 3.05, Median: 3.1, Max: 3.15}, realfig.Range{Min: 30, Max: 30}, realfig.Range{Min: 19, Max: 20}, nil, ""},
	{40, "5", "5", 0, realfig.Range{Min: 5.6, Median: 5.75, Max: 5.85}, realfig.Range{Min: 45, Max: 45}, realfig.Range{Min: 36, Max: 37}, nil, ""},
	{200, "25%", "25%", 0, realfig.Range{Min: 20.75, Median: 20.75, Max: 20.75}, realfig.Range{Min: 250, Max: 250}, realfig.Range{Min: 150, Max: 151}, nil, "the floor, 150, in 1 of 28 real runs; 151 in the others"},
	{400, "25%", "25%", 0, realfig.Range{Min: 40.75, Median: 40.75, Max: 40.75}, realfig.Range{Min: 500, Max: 500}, realfig.Range{Min: 301, Max: 301}, nil, ""},
}

// TestControllersAgainstRealOutsideFile holds ModelControllers to issue
// 23's rule (realfig.Judge) and to realfig.Bounds on real runs of 20 to
// 75 replicas that are not in the recorded file: each case is within the
// rule or misses it exactly as its row says.
func TestControllersAgainstRealOutsideFile(t *testing.T) {
	for _, tt := range outsideFile {
		c := realfig.Case{
			Name:     fmt.Sprintf("%d replicas maxSurge %s maxUnavailable %s ready after %gs", tt.replicas, tt.maxSurge, tt.maxUnavailable, tt.readyAfterSeconds),
			Replicas: tt.replicas, MaxSurge: tt.maxSurge, MaxUnavailable: tt.maxUnavailable,
			ReadyAfterSeconds: tt.readyAfterSeconds,
		}
		t.Run(c.Name, func(t *testing.T) {
			r := realfig.Record{Case: c, Runs: 5, Completed: 5, CompleteSeconds: tt.complete, PeakPods: tt.peak, MinAvailable: tt.minAv}
			switch b := judgeAgainstReal(t, r, tt.misses); {
			case tt.tail != "" && len(b) == 0:
				t.Errorf("listed as a tail (%s) but realfig.Bounds holds: remove the tail", tt.tail)
			case tt.tail != "":
				t.Logf("%s: %s", strings.Join(b, "; "), tt.tail)
			default:
				for _, m := range b {
					t.Error(m)
				}
			}
		})
	}
}

// newShapes are real runs of shapes neither the recorded file nor
// outsideFile has, measured on 2026-11-28 after the model took in the
// ReplicaSet controller's status-write conflicts and the old ReplicaSet's
// event budget, and before it counted availability to the second
// (internal/upstream/realsim, v1.36.3, 20 QPS, burst 30, 5 runs each).
// Before those changes the model missed the completion rule on 2 of
// them (maxSurge 1 maxUnavailable 1, and minReadySeconds 3); then on
// 1, within the rule now (19.951s) that the pods of an instant's later
// slow-start batches count ready after the first batch's:
//   - maxSurge 10 maxUnavailable 0, 80 replicas, ready after 2s: 18.251s
//     against a median of 20.45s (17.8s before the stale-cache check,
//     20.4s before the conflicts). In a real request log
//     each cycle's first instant spends the whole burst (8 status writes,
//     10 deletions, 6 event patches, 6 creations: one at 2s, five at
//     2.001s, after the millisecond apimachinery's HandleError sleeps
//     following a refused Deployment controller write), so the Deployment
//     controller sees one of a cycle's pods ready at the instant 2s
//     later, where the model creates 5 at the cycle's instant.
//
// minReadySeconds 3 at 40 replicas, 8.3s against 6s when measured, came
// within the rule (6s) once the model counted a pod available by its
// Ready condition's time to the second. maxSurge 1 maxUnavailable 1 at
// 45 replicas, ready at once, 16.3s against 9.05 to 9.3s (14.4s before
// the conflicts), came within the rule (9.15s) with the ReplicaSet
// controller's stale-cache check (earlyResync in rollout/sim): the real
// Deployment controller moves two pods a step from the first
// millisecond on, the model moved one. The fewest available misses are
// the floor, as elsewhere.
//
// The rows after the first 12, measured on 2026-11-28 after the
// stale-cache check (5 runs each), pin the small steps: maxSurge 1
// maxUnavailable 1 at 10, 20 (ready after 1s), 45 (after 2s) and 100
// replicas, and maxSurge 2 maxUnavailable 2 at 30, 50 (after 1s) and 80.
// Before the check the model completed 100 replicas at 1/1 at 36.95s
// (real 19.95 to 20.2s); now at 20.15s. At 30 replicas 2/2 the real runs
// split into a fast mode (4.5 and 4.7s, no status-write conflicts) and
// a slow one (6.6 to 6.65s, 11 or 12 conflicts); the model's 6.55s is in
// the slow one. One of the seven misses:
//   - 2/2 at 50 replicas ready after 1s was 13s against 15.35 to
//     18.05s (median 16.15s), with a peak one pod below the real
//     lowest, and is 16.15s now. In the first 3s of three traced runs
//     the real ReplicaSet status counted one of the two pods created at
//     one instant, then the other, at 10 of 18 instants (the model
//     counted both at once, podModel.ready), and from then on 125 of
//     the status's 137 increments were one pod; the real cycle is one pod in 0.3s, with the
//     Deployment controller's client drained by its own refused status
//     writes, so that its scale of the new ReplicaSet comes after the
//     ReplicaSet controller's sync in flight (staleStatus; without it
//     the model's cycle was 0.4s, 18.25s: the scale came into that
//     sync, whose status write was refused, then a GET and a retry).
//     See internal/upstream/realsim/README.md, "Slow pods".
//
// Three rows hold 15 runs since 2026-11-28, 04:05 UTC (10 more at a load
// of about 2; the medians are of all 15): 25%/25% at 15 replicas (the
// fewest available 13 in 8 of the 10, 14 in 2: the floor, 12, in none of
// the 15, where the gate keeps the floor below a step of 10), 50%/50% at
// 25 (25 in 6 of the 10, that is the new ReplicaSet's 13 pods all created
// and ready before the first deletion, 15 or 16 in 4; the median is 2.35
// or 2.4s, as the first five runs' second fastest was not kept, and the
// model's 2.3s is within the rule of both), and maxSurge 2
// maxUnavailable 2 at 80 (the floor, 78, in 8 of the 10, where the first
// five all had 79, and 6 of the 10 in the fast mode, 12 to 12.2s: the
// gate's 78 is now within the real range).
var newShapes = []struct {
	replicas                 int32
	maxSurge, maxUnavailable string
	readyAfterSeconds        float64
	minReadySeconds          int32
	terminatingSeconds       float64
	complete, peak, minAv    realfig.Range
	misses                   []string
}{
	{15, "25%", "25%", 0, 0, 0, realfig.Range{Min: 2.3, Median: 2.4, Max: 2.7}, realfig.Range{Min: 19, Max: 21}, realfig.Range{Min: 13, Max: 15}, []string{"fewest available 12 (high 13); real 13 to 15"}},
	{60, "25%", "25%", 2, 0, 0, realfig.Range{Min: 8.6, Median: 8.75, Max: 8.85}, realfig.Range{Min: 75, Max: 75}, realfig.Range{Min: 45, Max: 45}, nil},
	{150, "25%", "25%", 0, 0, 0, realfig.Range{Min: 15.75, Median: 15.75, Max: 15.75}, realfig.Range{Min: 188, Max: 188}, realfig.Range{Min: 114, Max: 114}, nil},
	{150, "25%", "25%", 3, 0, 0, realfig.Range{Min: 17.35, Median: 17.45, Max: 18.15}, realfig.Range{Min: 188, Max: 188}, realfig.Range{Min: 113, Max: 113}, nil},
	{35, "30%", "10%", 1, 0, 0, realfig.Range{Min: 4.85, Median: 5.4, Max: 5.65}, realfig.Range{Min: 46, Max: 47}, realfig.Range{Min: 32, Max: 32}, nil},
	{45, "1", "1", 0, 0, 0, realfig.Range{Min: 9.05, Median: 9.2, Max: 9.3}, realfig.Range{Min: 46, Max: 47}, realfig.Range{Min: 44, Max: 44}, nil},
	{80, "10", "0", 2, 0, 0, realfig.Range{Min: 19.001, Median: 20.451, Max: 21.35}, realfig.Range{Min: 90, Max: 96}, realfig.Range{Min: 80, Max: 80}, nil},
	{300, "25%", "25%", 5, 0, 0, realfig.Range{Min: 32.5, Median: 32.5, Max: 34.95}, realfig.Range{Min: 375, Max: 375}, realfig.Range{Min: 225, Max: 225}, nil},
	{25, "50%", "50%", 0, 0, 0, realfig.Range{Min: 2.3, Median: 2.35, Max: 2.5}, realfig.Range{Min: 38, Max: 38}, realfig.Range{Min: 15, Max: 25}, nil},
	{60, "3", "2", 1, 0, 0, realfig.Range{Min: 17.25, Median: 17.6, Max: 19.95}, realfig.Range{Min: 63, Max: 65}, realfig.Range{Min: 58, Max: 58}, nil},
	{120, "20%", "0", 0, 0, 0, realfig.Range{Min: 12.75, Median: 12.75, Max: 12.75}, realfig.Range{Min: 144, Max: 145}, realfig.Range{Min: 120, Max: 120}, nil},
	{40, "25%", "25%", 0, 3, 0, realfig.Range{Min: 6, Median: 6, Max: 6}, realfig.Range{Min: 50, Max: 51}, realfig.Range{Min: 30, Max: 30}, nil},
	{10, "1", "1", 0, 0, 0, realfig.Range{Min: 1.8, Median: 2.5, Max: 2.75}, realfig.Range{Min: 11, Max: 12}, realfig.Range{Min: 9, Max: 10}, []string{"completes at 1.851s; real 1.8s to 2.75s, median 2.5s"}},
	{20, "1", "1", 1, 0, 0, realfig.Range{Min: 10.001, Median: 10.001, Max: 10.001}, realfig.Range{Min: 21, Max: 22}, realfig.Range{Min: 19, Max: 19}, nil},
	{45, "1", "1", 2, 0, 0, realfig.Range{Min: 46, Median: 46, Max: 46.001}, realfig.Range{Min: 46, Max: 47}, realfig.Range{Min: 44, Max: 44}, nil},
	{100, "1", "1", 0, 0, 0, realfig.Range{Min: 19.95, Median: 20.1, Max: 20.2}, realfig.Range{Min: 101, Max: 102}, realfig.Range{Min: 99, Max: 99}, nil},
	{30, "2", "2", 0, 0, 0, realfig.Range{Min: 4.5, Median: 6.6, Max: 6.65}, realfig.Range{Min: 32, Max: 36}, realfig.Range{Min: 28, Max: 29}, nil},
	{50, "2", "2", 1, 0, 0, realfig.Range{Min: 15.35, Median: 16.15, Max: 18.05}, realfig.Range{Min: 53, Max: 55}, realfig.Range{Min: 48, Max: 48}, nil},
	{80, "2", "2", 0, 0, 0, realfig.Range{Min: 12, Median: 18.4, Max: 18.55}, realfig.Range{Min: 82, Max: 85}, realfig.Range{Min: 78, Max: 79}, nil},
	// Measured on 2026-11-28 after the slow-start batches of one instant
	// were staggered (pods.go, podModel.ready), 8 runs each: second
	// samples of four shapes above (20 and 40 replicas at 2/3 and 50 at
	// 2/2 after 1s, 10/0 at 80 after 2s), then 2/2 at 30 to 100 replicas
	// after 1 and 2s, 10/0 and 5/0 at 40 to 120 after 1 to 3s.
	{20, "2", "3", 1, 0, 0, realfig.Range{Min: 4.001, Median: 5.475, Max: 6.2}, realfig.Range{Min: 22, Max: 26}, realfig.Range{Min: 17, Max: 17}, nil},
	{50, "2", "2", 1, 0, 0, realfig.Range{Min: 14.9, Median: 16.375, Max: 17.3}, realfig.Range{Min: 53, Max: 55}, realfig.Range{Min: 48, Max: 48}, nil},
	{40, "2", "3", 1, 0, 0, realfig.Range{Min: 9.55, Median: 11.85, Max: 12.75}, realfig.Range{Min: 42, Max: 47}, realfig.Range{Min: 37, Max: 37}, nil},
	{80, "10", "0", 2, 0, 0, realfig.Range{Min: 18.751, Median: 20.225, Max: 21.45}, realfig.Range{Min: 90, Max: 100}, realfig.Range{Min: 80, Max: 80}, nil},
	{30, "2", "2", 1, 0, 0, realfig.Range{Min: 8.25, Median: 8.9, Max: 9.8}, realfig.Range{Min: 32, Max: 35}, realfig.Range{Min: 28, Max: 28}, nil},
	{100, "2", "2", 1, 0, 0, realfig.Range{Min: 31.75, Median: 34.95, Max: 36.8}, realfig.Range{Min: 103, Max: 105}, realfig.Range{Min: 98, Max: 98}, nil},
	{30, "2", "2", 2, 0, 0, realfig.Range{Min: 16.001, Median: 16.001, Max: 16.003}, realfig.Range{Min: 32, Max: 35}, realfig.Range{Min: 28, Max: 28}, nil},
	{50, "2", "2", 2, 0, 0, realfig.Range{Min: 26.001, Median: 26.001, Max: 26.004}, realfig.Range{Min: 52, Max: 56}, realfig.Range{Min: 48, Max: 48}, nil},
	{100, "2", "2", 2, 0, 0, realfig.Range{Min: 50.05, Median: 50.2, Max: 50.35}, realfig.Range{Min: 103, Max: 104}, realfig.Range{Min: 98, Max: 98}, nil},
	{40, "10", "0", 1, 0, 0, realfig.Range{Min: 6, Median: 6.925, Max: 7.8}, realfig.Range{Min: 50, Max: 60}, realfig.Range{Min: 40, Max: 40}, nil},
	{80, "10", "0", 1, 0, 0, realfig.Range{Min: 15.95, Median: 16.2, Max: 16.7}, realfig.Range{Min: 90, Max: 99}, realfig.Range{Min: 80, Max: 80}, nil},
	{120, "10", "0", 1, 0, 0, realfig.Range{Min: 22.45, Median: 24.625, Max: 25.55}, realfig.Range{Min: 130, Max: 133}, realfig.Range{Min: 120, Max: 120}, nil},
	{40, "10", "0", 3, 0, 0, realfig.Range{Min: 12.002, Median: 13.001, Max: 13.45}, realfig.Range{Min: 50, Max: 52}, realfig.Range{Min: 40, Max: 40}, nil},
	{120, "10", "0", 2, 0, 0, realfig.Range{Min: 29.901, Median: 32.05, Max: 32.8}, realfig.Range{Min: 130, Max: 140}, realfig.Range{Min: 120, Max: 120}, nil},
	{40, "5", "0", 1, 0, 0, realfig.Range{Min: 10.4, Median: 11.375, Max: 12.55}, realfig.Range{Min: 45, Max: 49}, realfig.Range{Min: 40, Max: 40}, nil},
	{80, "5", "0", 2, 0, 0, realfig.Range{Min: 32.35, Median: 32.525, Max: 32.651}, realfig.Range{Min: 86, Max: 87}, realfig.Range{Min: 80, Max: 80}, nil},
	{120, "5", "0", 3, 0, 0, realfig.Range{Min: 72.351, Median: 72.5, Max: 72.65}, realfig.Range{Min: 127, Max: 129}, realfig.Range{Min: 120, Max: 120}, nil},
	{60, "5", "0", 2, 0, 0, realfig.Range{Min: 24.005, Median: 24.35, Max: 24.6}, realfig.Range{Min: 66, Max: 69}, realfig.Range{Min: 60, Max: 60}, nil},
	// Measured on 2026-11-28 after the Deployment controller's refused
	// status writes (staleStatus), 8 runs each: second samples of
	// maxSurge 2 maxUnavailable 3 after 1s at 30, 50 and 75 replicas, a
	// third at 20 (outsideFile holds the first; 30 and 20 miss there).
	{30, "2", "3", 1, 0, 0, realfig.Range{Min: 7.3, Median: 8.05, Max: 9.35}, realfig.Range{Min: 32, Max: 34}, realfig.Range{Min: 27, Max: 27}, nil},
	{20, "2", "3", 1, 0, 0, realfig.Range{Min: 4, Median: 5.4, Max: 6.6}, realfig.Range{Min: 22, Max: 24}, realfig.Range{Min: 17, Max: 17}, nil},
	{50, "2", "3", 1, 0, 0, realfig.Range{Min: 12.1, Median: 14.575, Max: 15.75}, realfig.Range{Min: 52, Max: 54}, realfig.Range{Min: 47, Max: 47}, nil},
	{75, "2", "3", 1, 0, 0, realfig.Range{Min: 21.55, Median: 22.725, Max: 24.3}, realfig.Range{Min: 77, Max: 80}, realfig.Range{Min: 72, Max: 72}, nil},
	// Measured on 2026-11-28 after both changes, 8 runs each, neighbours
	// of the slow-pod shapes: 2/2 at 40 to 75 replicas after 1 and 1.5s,
	// 3/3, 1/1, 3/2, 4/2 and 2/1 after 1s, 25%/25% after 1 and 2s,
	// 10/0 after 1.5s. The model before both changes missed 4 (2/2
	// after 1s at 40, 60 and 75 replicas 2.6 to 5.6s early; the peak
	// of 2/2 after 1.5s at 40, one pod low).
	{40, "2", "2", 1, 0, 0, realfig.Range{Min: 10.352, Median: 12.625, Max: 14.3}, realfig.Range{Min: 42, Max: 44}, realfig.Range{Min: 38, Max: 38}, nil},
	{60, "2", "2", 1, 0, 0, realfig.Range{Min: 18.25, Median: 19.475, Max: 22}, realfig.Range{Min: 62, Max: 65}, realfig.Range{Min: 58, Max: 58}, nil},
	{75, "2", "2", 1, 0, 0, realfig.Range{Min: 22.8, Median: 24.6, Max: 27.85}, realfig.Range{Min: 77, Max: 79}, realfig.Range{Min: 73, Max: 73}, nil},
	{40, "3", "3", 1, 0, 0, realfig.Range{Min: 9.95, Median: 10.65, Max: 11.2}, realfig.Range{Min: 43, Max: 45}, realfig.Range{Min: 37, Max: 37}, nil},
	{60, "3", "3", 1, 0, 0, realfig.Range{Min: 13.95, Median: 15.975, Max: 16.35}, realfig.Range{Min: 63, Max: 67}, realfig.Range{Min: 57, Max: 57}, nil},
	{30, "1", "1", 1, 0, 0, realfig.Range{Min: 15.001, Median: 15.001, Max: 15.002}, realfig.Range{Min: 31, Max: 32}, realfig.Range{Min: 29, Max: 29}, nil},
	{50, "1", "1", 1, 0, 0, realfig.Range{Min: 25.001, Median: 25.001, Max: 25.001}, realfig.Range{Min: 52, Max: 52}, realfig.Range{Min: 49, Max: 49}, nil},
	{60, "25%", "25%", 1, 0, 0, realfig.Range{Min: 7.25, Median: 7.45, Max: 7.45}, realfig.Range{Min: 75, Max: 75}, realfig.Range{Min: 45, Max: 45}, nil},
	{100, "25%", "25%", 1, 0, 0, realfig.Range{Min: 11.15, Median: 11.375, Max: 11.4}, realfig.Range{Min: 125, Max: 125}, realfig.Range{Min: 75, Max: 75}, nil},
	{80, "25%", "25%", 2, 0, 0, realfig.Range{Min: 9.45, Median: 9.65, Max: 10.25}, realfig.Range{Min: 100, Max: 101}, realfig.Range{Min: 60, Max: 60}, nil},
	{60, "10", "0", 1.5, 0, 0, realfig.Range{Min: 12.55, Median: 13.15, Max: 13.5}, realfig.Range{Min: 70, Max: 71}, realfig.Range{Min: 60, Max: 60}, nil},
	{50, "3", "2", 1, 0, 0, realfig.Range{Min: 10.45, Median: 14.85, Max: 15.35}, realfig.Range{Min: 53, Max: 58}, realfig.Range{Min: 48, Max: 48}, nil},
	{40, "2", "2", 1.5, 0, 0, realfig.Range{Min: 15.004, Median: 15.55, Max: 15.7}, realfig.Range{Min: 43, Max: 45}, realfig.Range{Min: 38, Max: 38}, nil},
	{70, "4", "2", 1, 0, 0, realfig.Range{Min: 16.45, Median: 19.125, Max: 20}, realfig.Range{Min: 74, Max: 75}, realfig.Range{Min: 68, Max: 68}, nil},
	{50, "2", "1", 1, 0, 0, realfig.Range{Min: 17.35, Median: 17.6, Max: 17.801}, realfig.Range{Min: 52, Max: 54}, realfig.Range{Min: 49, Max: 49}, nil},
	// A second sample of 5/0 at 120 replicas after 3s (8 runs): the
	// peaks went down to 126, the model's figure until its deletes-first
	// order held the deletions behind the first creation of their instant
	// where maxUnavailable is 0 (holdsDeletions, 2026-11-28): 127 since,
	// within both samples.
	{120, "5", "0", 3, 0, 0, realfig.Range{Min: 72.4, Median: 72.5, Max: 72.5}, realfig.Range{Min: 126, Max: 128}, realfig.Range{Min: 120, Max: 120}, nil},
	// Measured on 2026-11-28 after both changes, 6 runs each, shapes
	// further out: 200 replicas at 2/2 after 1s, 10/0 after 2s and
	// 25%/25% after 3s; 1/0 and 0/1 at 30 after 1s; 20%/10% at 150
	// after 2s; 5/5 at 100 and 3/1 at 90 after 1s; 4/4 at 50 and 50%/0
	// at 40 after 2s; 2/3 at 120 after 2s; 1/2 at 60 after 1s. The model
	// before both changes missed 3 figures of them (200 replicas at 2/2:
	// 50.001s against a median of 68.175s, peak 202 against 203 to 204;
	// 90 at 3/1: 23.001s against 29.4s).
	{200, "2", "2", 1, 0, 0, realfig.Range{Min: 62.95, Median: 68.175, Max: 70.8}, realfig.Range{Min: 203, Max: 204}, realfig.Range{Min: 198, Max: 198}, nil},
	{200, "10", "0", 2, 0, 0, realfig.Range{Min: 51.45, Median: 54.276, Max: 56.601}, realfig.Range{Min: 211, Max: 218}, realfig.Range{Min: 200, Max: 200}, nil},
	{200, "25%", "25%", 3, 0, 0, realfig.Range{Min: 21.9, Median: 22.075, Max: 22.85}, realfig.Range{Min: 250, Max: 250}, realfig.Range{Min: 150, Max: 157}, nil},
	{30, "1", "0", 1, 0, 0, realfig.Range{Min: 30, Median: 30, Max: 30}, realfig.Range{Min: 32, Max: 32}, realfig.Range{Min: 30, Max: 30}, nil},
	{30, "0", "1", 1, 0, 0, realfig.Range{Min: 30, Median: 30, Max: 30}, realfig.Range{Min: 31, Max: 31}, realfig.Range{Min: 29, Max: 29}, nil},
	{150, "20%", "10%", 2, 0, 0, realfig.Range{Min: 17, Median: 18.45, Max: 18.85}, realfig.Range{Min: 180, Max: 181}, realfig.Range{Min: 135, Max: 135}, nil},
	{100, "5", "5", 1, 0, 0, realfig.Range{Min: 18.25, Median: 20.225, Max: 21.05}, realfig.Range{Min: 105, Max: 109}, realfig.Range{Min: 95, Max: 95}, nil},
	{50, "4", "4", 2, 0, 0, realfig.Range{Min: 14.002, Median: 14.002, Max: 15.65}, realfig.Range{Min: 54, Max: 57}, realfig.Range{Min: 46, Max: 46}, nil},
	{90, "3", "1", 1, 0, 0, realfig.Range{Min: 27.65, Median: 29.4, Max: 32.25}, realfig.Range{Min: 93, Max: 96}, realfig.Range{Min: 89, Max: 89}, nil},
	{40, "50%", "0", 2, 0, 0, realfig.Range{Min: 5.9, Median: 6, Max: 6.15}, realfig.Range{Min: 60, Max: 61}, realfig.Range{Min: 40, Max: 40}, nil},
	{120, "2", "3", 2, 0, 0, realfig.Range{Min: 48.4, Median: 48.7, Max: 48.85}, realfig.Range{Min: 123, Max: 124}, realfig.Range{Min: 117, Max: 117}, nil},
	{60, "1", "2", 1, 0, 0, realfig.Range{Min: 20.8, Median: 20.925, Max: 21.2}, realfig.Range{Min: 62, Max: 63}, realfig.Range{Min: 58, Max: 58}, nil},
	// Measured on 2026-11-28 after both changes, 6 runs each, slow pods
	// with minReadySeconds (1 to 5) or terminating pods (2 to 10s). The
	// model before both changes missed 4 figures of them: the three
	// peaks of minReadySeconds 2 (replicas + maxSurge, the ceiling,
	// where every real run went 1 to 4 pods above it; as now: at 7 of
	// 24 of the instants where four pods became available at once, one
	// to three creations came before the last of the old ReplicaSet's
	// deletions, and each run has a few; the model took each instant
	// in the majority's order, see internal/upstream/realsim/README.md)
	// and 2/2 at 50 with pods terminating for 5s, 13s against a median
	// of 16.875s. The two peaks of minReadySeconds 2 that stayed below
	// every real run (52 against 54 to 56, 63 against 64 to 68) are
	// within the rule since the race peak counts the first two
	// creations of an instant ahead of its deletions (sim's
	// notePodRace: 54 and 65).
	{50, "2", "2", 1, 2, 0, realfig.Range{Min: 39, Median: 39, Max: 39}, realfig.Range{Min: 54, Max: 56}, realfig.Range{Min: 48, Max: 48}, nil},
	{40, "25%", "25%", 1, 3, 0, realfig.Range{Min: 8, Median: 8, Max: 8}, realfig.Range{Min: 50, Max: 53}, realfig.Range{Min: 30, Max: 30}, nil},
	// 10/0 at 80 with minReadySeconds 2: the ceiling, 90, until
	// holdsDeletions; 92 since.
	{80, "10", "0", 2, 2, 0, realfig.Range{Min: 32, Median: 32, Max: 32.001}, realfig.Range{Min: 92, Max: 100}, realfig.Range{Min: 80, Max: 80}, nil},
	{30, "1", "1", 1, 1, 0, realfig.Range{Min: 30, Median: 30, Max: 30}, realfig.Range{Min: 31, Max: 33}, realfig.Range{Min: 29, Max: 29}, nil},
	{100, "25%", "25%", 2, 5, 0, realfig.Range{Min: 18, Median: 18, Max: 18}, realfig.Range{Min: 125, Max: 141}, realfig.Range{Min: 75, Max: 75}, nil},
	{60, "3", "2", 1, 2, 0, realfig.Range{Min: 36, Median: 36, Max: 36}, realfig.Range{Min: 64, Max: 68}, realfig.Range{Min: 58, Max: 58}, nil},
	{50, "2", "2", 1, 0, 5, realfig.Range{Min: 15.05, Median: 16.875, Max: 18.55}, realfig.Range{Min: 71, Max: 72}, realfig.Range{Min: 48, Max: 48}, nil},
	{40, "25%", "25%", 2, 0, 10, realfig.Range{Min: 6.2, Median: 6.2, Max: 6.8}, realfig.Range{Min: 80, Max: 80}, realfig.Range{Min: 30, Max: 30}, nil},
	{80, "10", "0", 1, 0, 3, realfig.Range{Min: 15.6, Median: 16.425, Max: 17.1}, realfig.Range{Min: 110, Max: 112}, realfig.Range{Min: 80, Max: 80}, nil},
	{30, "1", "1", 1, 0, 2, realfig.Range{Min: 15.001, Median: 15.001, Max: 15.2}, realfig.Range{Min: 35, Max: 36}, realfig.Range{Min: 29, Max: 29}, nil},
	// Measured on 2026-11-28 at 04:36 UTC, at a load of 9 to 11, after
	// the two-creation lead at the change (5 runs each): the gate's
	// fewest available is within the rule on 2 of 6, MinAvailableHigh
	// (the in-order run, the whole burst ahead of the first step's
	// deletions) on all 6. At that load the new ReplicaSet's slow-start
	// batches mostly go before the deletions (750 replicas: 594, the
	// floor plus 31, in every run); at a load of 2 they mostly do not
	// (realsim README, "The first step's lead"). The gate keeps the low
	// end: realfig.Bounds holds on all 6.
	{40, "40%", "40%", 0, 0, 0, realfig.Range{Min: 4.3, Median: 4.5, Max: 4.5}, realfig.Range{Min: 56, Max: 56}, realfig.Range{Min: 26, Max: 33}, nil},
	{25, "50%", "50%", 1, 0, 0, realfig.Range{Min: 2.35, Median: 2.55, Max: 2.65}, realfig.Range{Min: 38, Max: 38}, realfig.Range{Min: 13, Max: 13}, nil},
	{200, "30%", "20%", 1, 0, 0, realfig.Range{Min: 21, Median: 21.2, Max: 21.25}, realfig.Range{Min: 260, Max: 260}, realfig.Range{Min: 165, Max: 180}, []string{"fewest available 160 (high 178); real 165 to 180"}},
	{300, "25%", "25%", 2, 0, 0, realfig.Range{Min: 30.8, Median: 31.15, Max: 31.3}, realfig.Range{Min: 375, Max: 375}, realfig.Range{Min: 228, Max: 256}, []string{"fewest available 227 (high 256); real 228 to 256"}},
	{750, "25%", "25%", 3, 0, 0, realfig.Range{Min: 75.75, Median: 76.2, Max: 76.2}, realfig.Range{Min: 938, Max: 938}, realfig.Range{Min: 594, Max: 594}, []string{"fewest available 565 (high 594); real 594 to 594"}},
	{1500, "25%", "25%", 2, 0, 0, realfig.Range{Min: 151.05, Median: 151.2, Max: 152.7}, realfig.Range{Min: 1875, Max: 1875}, realfig.Range{Min: 1140, Max: 1156}, []string{"fewest available 1127 (high 1156); real 1140 to 1156"}},
}

// TestControllersAgainstRealNewShapes holds ModelControllers to issue
// 23's rule and to realfig.Bounds on newShapes: each case is within the
// rule or misses it exactly as its row says.
func TestControllersAgainstRealNewShapes(t *testing.T) {
	for _, tt := range newShapes {
		c := realfig.Case{
			Name:     fmt.Sprintf("%d replicas maxSurge %s maxUnavailable %s ready after %gs minReadySeconds %d%s", tt.replicas, tt.maxSurge, tt.maxUnavailable, tt.readyAfterSeconds, tt.minReadySeconds, terminating(tt.terminatingSeconds)),
			Replicas: tt.replicas, MaxSurge: tt.maxSurge, MaxUnavailable: tt.maxUnavailable,
			ReadyAfterSeconds: tt.readyAfterSeconds, MinReadySeconds: tt.minReadySeconds,
			TerminatingSeconds: tt.terminatingSeconds,
		}
		t.Run(c.Name, func(t *testing.T) {
			r := realfig.Record{Case: c, Runs: 5, Completed: 5, CompleteSeconds: tt.complete, PeakPods: tt.peak, MinAvailable: tt.minAv}
			breaches := judgeAgainstReal(t, r, tt.misses)
			for _, b := range breaches {
				t.Error(b)
			}
		})
	}
}

// terminating names a row's terminating pods, if any.
func terminating(seconds float64) string {
	if seconds == 0 {
		return ""
	}
	return fmt.Sprintf(" terminating %gs", seconds)
}
