package sim_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// largeSweep are six large rollouts (two of them measured again, and two
// of one pod at a time added, below) chosen to probe the model where the
// recorded file is thin (300 to 2,000 replicas with pods terminating for
// 15 to 60 s, a minReadySeconds, maxSurge 0 or maxUnavailable 0), kept
// outside it: the real v1.36.3 Deployment and ReplicaSet controllers
// (internal/upstream/realsim, 20 QPS, burst 30), 4 runs each, measured
// on 2026-11-29 at a load average of about 2. Nothing was tuned on them.
// Completion is within issue 23's rule in all six (the largest gap 3.4%:
// 500 replicas at minReadySeconds 10, 63.05 s against a median of 61 s),
// and realfig.Bounds holds in all six. The misses:
//   - the peak below every one of the 4 real runs, by 2 to 7 pods (0.3%),
//     where pods terminate for 15 s and 60 s and steps are of 125 and 150
//     pods: 500 replicas at 25%/25%, minReadySeconds 10 (747 against 749
//     to 754; 748 since a sync's second status write is refused,
//     secondStatusWrite) and 1,500 at 10%/10% (2,184 against 2,191 to
//     2,210; 2,185 since the Deployment controller's writes and events
//     take their tokens one after the other, notifyWritten and
//     sinkBefore). The two "again" rows below are 11 more runs of each,
//     and they put the model inside the real spread: the peak is reached at the third
//     step, and where it lands moves with how many of the first step's
//     slow-start creations ask for tokens before the old ReplicaSet's
//     deletions, a race of CPU time (realsim README, "Races at the floor
//     and the peak"). A traced run of the 500 case had 15 creations ahead,
//     the model's in-order run 31, so the model's deletions and their
//     pods' ends came 0.8 s later all the way to the peak;
//   - the fewest available below the real range, the first step's race
//     as in realfig.KnownMisses: 2,000 replicas at 25%/25% ready after
//     5 s (1,502, high 1,531; every real run 1,531) and 800 at 0/20%
//     ready after 1 s (640, high 654; real 648 to 656).
var largeSweep = []holdoutRow{
	{realfig.Case{Name: "sweep/2000/25%-25%/ready-5s/terminating-30s", Replicas: 2000, MaxSurge: "25%", MaxUnavailable: "25%", ReadyAfterSeconds: 5, TerminatingSeconds: 30}, 4, 4, 0, realfig.Range{Min: 202.55, Median: 202.575, Max: 202.6}, realfig.Range{Min: 2501, Median: 2504, Max: 2509}, realfig.Range{Min: 1531, Median: 1531, Max: 1531}, []string{"fewest available 1502 (high 1531); real 1531 to 1531"}, nil},
	{realfig.Case{Name: "sweep/300/1-0/ready-2s/terminating-30s", Replicas: 300, MaxSurge: "1", MaxUnavailable: "0", ReadyAfterSeconds: 2, TerminatingSeconds: 30}, 4, 4, 0, realfig.Range{Min: 600, Median: 600, Max: 600}, realfig.Range{Min: 317, Median: 317, Max: 317}, realfig.Range{Min: 300, Median: 300, Max: 300}, nil, nil},
	{realfig.Case{Name: "sweep/1000/50%-0/ready-10s", Replicas: 1000, MaxSurge: "50%", MaxUnavailable: "0", ReadyAfterSeconds: 10}, 4, 4, 0, realfig.Range{Min: 101.05, Median: 101.1, Max: 101.1}, realfig.Range{Min: 1500, Median: 1500, Max: 1500}, realfig.Range{Min: 1000, Median: 1000, Max: 1000}, nil, nil},
	{realfig.Case{Name: "sweep/500/25%-25%/ready-3s/minready-10/terminating-15s", Replicas: 500, MaxSurge: "25%", MaxUnavailable: "25%", MinReadySeconds: 10, ReadyAfterSeconds: 3, TerminatingSeconds: 15}, 4, 4, 0, realfig.Range{Min: 60, Median: 61, Max: 61}, realfig.Range{Min: 749, Median: 752, Max: 754}, realfig.Range{Min: 375, Median: 375, Max: 375}, []string{"peak 748 pods (high 748); real 749 to 754"}, nil},
	{realfig.Case{Name: "sweep/1500/10%-10%/ready-20s/terminating-60s", Replicas: 1500, MaxSurge: "10%", MaxUnavailable: "10%", ReadyAfterSeconds: 20, TerminatingSeconds: 60}, 4, 4, 0, realfig.Range{Min: 177.35, Median: 178.7, Max: 180.7}, realfig.Range{Min: 2191, Median: 2200.5, Max: 2210}, realfig.Range{Min: 1350, Median: 1350, Max: 1350}, []string{"peak 2185 pods (high 2185); real 2191 to 2210"}, nil},
	{realfig.Case{Name: "sweep/800/0-20%/ready-1s/terminating-30s", Replicas: 800, MaxSurge: "0", MaxUnavailable: "20%", ReadyAfterSeconds: 1, TerminatingSeconds: 30}, 4, 4, 0, realfig.Range{Min: 84.95, Median: 85.1, Max: 85.55}, realfig.Range{Min: 1102, Median: 1103, Max: 1104}, realfig.Range{Min: 648, Median: 655, Max: 656}, []string{"fewest available 640 (high 654); real 648 to 656"}, nil},
	// One pod at a time with pods terminating for 5s, 3 runs each on
	// 2026-11-29, measured after a sync's second status write was
	// refused (secondStatusWrite). As the harness starts them the model
	// moved by the first sync's millisecond only (33.351s and 345.751s,
	// 2% above the real median at 1,000 replicas); `rolloutctl simulate`
	// of the same shapes, whose old ReplicaSet has its whole event budget
	// (no creationTimestamp), moved from 34.75s and 347.15s to 35.301s
	// and 359.401s, the events' tokens and the conditions' times, kept to
	// the second, falling at other syncs.
	{realfig.Case{Name: "sweep/100/0-1/terminating-5s", Replicas: 100, MaxSurge: "0", MaxUnavailable: "1", TerminatingSeconds: 5}, 3, 3, 0, realfig.Range{Min: 33.7, Median: 33.7, Max: 34.05}, realfig.Range{Min: 118, Median: 118, Max: 118}, realfig.Range{Min: 99, Median: 99, Max: 99}, nil, nil},
	{realfig.Case{Name: "sweep/1000/0-1/terminating-5s", Replicas: 1000, MaxSurge: "0", MaxUnavailable: "1", TerminatingSeconds: 5}, 3, 3, 0, realfig.Range{Min: 328.65, Median: 338.75, Max: 339.9}, realfig.Range{Min: 1018, Median: 1018, Max: 1018}, realfig.Range{Min: 999, Median: 999, Max: 999}, nil, nil},
	// Again, 11 runs each, on 2026-11-29 at loads of about 1.3 (7 runs)
	// and 2.7 (4 runs, with a CPU burner beside them). Both peaks are
	// inside the runs' spread: 1,500 replicas, 2,169 to 2,192 (with the
	// first 4, 2,169 to 2,210); 500, 748 to 770 (one pod below it, 747,
	// until secondStatusWrite).
	{realfig.Case{Name: "sweep-again/500/25%-25%/ready-3s/minready-10/terminating-15s", Replicas: 500, MaxSurge: "25%", MaxUnavailable: "25%", MinReadySeconds: 10, ReadyAfterSeconds: 3, TerminatingSeconds: 15}, 11, 11, 0, realfig.Range{Min: 58, Median: 61, Max: 62}, realfig.Range{Min: 748, Median: 750, Max: 770}, realfig.Range{Min: 375, Median: 375, Max: 375}, nil, nil},
	{realfig.Case{Name: "sweep-again/1500/10%-10%/ready-20s/terminating-60s", Replicas: 1500, MaxSurge: "10%", MaxUnavailable: "10%", ReadyAfterSeconds: 20, TerminatingSeconds: 60}, 11, 11, 0, realfig.Range{Min: 179.1, Median: 180.95, Max: 181.75}, realfig.Range{Min: 2169, Median: 2175, Max: 2192}, realfig.Range{Min: 1350, Median: 1350, Max: 1350}, nil, nil},
}

// TestControllersAgainstRealLargeSweep holds the model to largeSweep: each
// case within issue 23's rule and realfig.Bounds, or missing the rule
// exactly as its row says.
func TestControllersAgainstRealLargeSweep(t *testing.T) {
	judgeHoldout(t, largeSweep)
}
