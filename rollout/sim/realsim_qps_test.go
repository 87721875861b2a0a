package sim_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// qpsSweep are 30 cases drawn as the held-out sample is
// (internal/upstream/realsim's holdoutSample, seed 777), each with client
// limits drawn from ten that no recorded case has (1 QPS burst 1, 2 and
// 5, 10 and 10, 10 and 20, 30 and 30, 100 and 200, 200 and 50, 3.5 and
// 7, 20 and 1) or kube-controller-manager's, measured on the real
// v1.36.3 Deployment and ReplicaSet controllers (5 runs each,
// 2026-11-29), kept outside the recorded file. Nothing was tuned on them;
// they were run once before the Deployment controller's ReplicaSet
// writes reached the ReplicaSet controller at their grants and its
// events went between its requests (notifyWritten, sinkBefore), when
// the model completed the three rollouts at 1 QPS burst 1 3 to 4 s late
// (1 replica: 13 s against 10 s); all three are within the rule now.
// realfig.Bounds holds on all 30. The misses:
//   - the fewest available, the first step's race of
//     realfig.KnownMisses (606 replicas at 2 QPS burst 5 under a quota;
//     13 at 20 QPS burst 1);
//   - the peak of 184 replicas at 8/0, minReadySeconds 5, 10 QPS burst
//     10: 201 against 205 to 207 (PeakPodsHigh 207);
//   - completion at 3.5 QPS burst 7, 2 replicas ready at once: 2.857 s
//     (10 tokens) against 3.143 to 3.429 s (11 and 12): the model takes
//     fewer of the Deployment controller's refused status writes than
//     real runs do (see staleStatus);
//   - completion under a pod quota with maxUnavailable 0, where refused
//     creations wait out the per-item backoff (5 ms doubling) and the
//     real runs spread widely: 40 replicas at 10/6% under a quota of 42,
//     157 s against 158 to 305 s (median 194 s); 53 at 2%/0% under a
//     quota of 54, 10 QPS burst 20, 2,069 s against 1,512 to 1,720 s in
//     the 3 of 5 runs that completed within the harness's 30 minutes.
var qpsSweep = []holdoutRow{
	{realfig.Case{Name: "qps-sweep/00/17/3-5/ready-19s/minready-10/terminating-5s/qps-20-1", Replicas: 17, Recreate: false, MaxSurge: "3", MaxUnavailable: "5", MinReadySeconds: 10, ReadyAfterSeconds: 19, TerminatingSeconds: 5, MaxPods: 0, QPS: 20, Burst: 1}, 5, 5, 0, realfig.Range{Min: 87, Median: 87, Max: 87}, realfig.Range{Min: 28, Median: 28, Max: 28}, realfig.Range{Min: 12, Median: 12, Max: 12}, nil, nil},
	{realfig.Case{Name: "qps-sweep/01/1/43%-1/ready-7.8s/terminating-30s/qps-1-1", Replicas: 1, Recreate: false, MaxSurge: "43%", MaxUnavailable: "1", MinReadySeconds: 0, ReadyAfterSeconds: 7.8, TerminatingSeconds: 30, MaxPods: 0, QPS: 1, Burst: 1}, 5, 5, 0, realfig.Range{Min: 10, Median: 10, Max: 10}, realfig.Range{Min: 2, Median: 2, Max: 2}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "qps-sweep/02/35/84%-17/ready-25.9s/terminating-30s/qps-10-10", Replicas: 35, Recreate: false, MaxSurge: "84%", MaxUnavailable: "17", MinReadySeconds: 0, ReadyAfterSeconds: 25.9, TerminatingSeconds: 30, MaxPods: 0, QPS: 10, Burst: 10}, 5, 5, 0, realfig.Range{Min: 31.8, Median: 32.3, Max: 32.5}, realfig.Range{Min: 70, Median: 70, Max: 70}, realfig.Range{Min: 18, Median: 18, Max: 18}, nil, nil},
	{realfig.Case{Name: "qps-sweep/03/606/171-137/ready-20.3s/terminating-30s/max-776/qps-2-5", Replicas: 606, Recreate: false, MaxSurge: "171", MaxUnavailable: "137", MinReadySeconds: 0, ReadyAfterSeconds: 20.3, TerminatingSeconds: 30, MaxPods: 776, QPS: 2, Burst: 5}, 5, 5, 0, realfig.Range{Min: 640, Median: 640.5, Max: 640.5}, realfig.Range{Min: 776, Median: 776, Max: 776}, realfig.Range{Min: 476, Median: 476, Max: 476}, []string{"fewest available 471 (high 476); real 476 to 476"}, nil},
	{realfig.Case{Name: "qps-sweep/04/5/recreate/ready-0s/terminating-30s/qps-2-5", Replicas: 5, Recreate: true, MaxSurge: "", MaxUnavailable: "", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 30, MaxPods: 0, QPS: 2, Burst: 5}, 5, 5, 0, realfig.Range{Min: 34.5, Median: 35.5, Max: 35.5}, realfig.Range{Min: 5, Median: 5, Max: 5}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "qps-sweep/05/7/51%-0/ready-25.1s", Replicas: 7, Recreate: false, MaxSurge: "51%", MaxUnavailable: "0", MinReadySeconds: 0, ReadyAfterSeconds: 25.1, TerminatingSeconds: 0, MaxPods: 0, QPS: 0, Burst: 0}, 5, 5, 0, realfig.Range{Min: 50.2, Median: 50.202, Max: 50.202}, realfig.Range{Min: 11, Median: 11, Max: 14}, realfig.Range{Min: 7, Median: 7, Max: 7}, nil, nil},
	{realfig.Case{Name: "qps-sweep/06/10/recreate/ready-33.2s/minready-9/terminating-30s/qps-200-50", Replicas: 10, Recreate: true, MaxSurge: "", MaxUnavailable: "", MinReadySeconds: 9, ReadyAfterSeconds: 33.2, TerminatingSeconds: 30, MaxPods: 0, QPS: 200, Burst: 50}, 5, 5, 0, realfig.Range{Min: 72, Median: 72, Max: 72}, realfig.Range{Min: 10, Median: 10, Max: 10}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "qps-sweep/07/90/11-41/ready-0s/terminating-30s/qps-200-50", Replicas: 90, Recreate: false, MaxSurge: "11", MaxUnavailable: "41", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 30, MaxPods: 0, QPS: 200, Burst: 50}, 5, 5, 0, realfig.Range{Min: 0.855, Median: 0.865, Max: 0.87}, realfig.Range{Min: 180, Median: 180, Max: 180}, realfig.Range{Min: 51, Median: 53, Max: 53}, nil, nil},
	{realfig.Case{Name: "qps-sweep/08/1/1-1/ready-0s/minready-10/qps-1-1", Replicas: 1, Recreate: false, MaxSurge: "1", MaxUnavailable: "1", MinReadySeconds: 10, ReadyAfterSeconds: 0, TerminatingSeconds: 0, MaxPods: 0, QPS: 1, Burst: 1}, 5, 5, 0, realfig.Range{Min: 10, Median: 10, Max: 10}, realfig.Range{Min: 2, Median: 2, Max: 2}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "qps-sweep/09/184/8-0/ready-0s/minready-5/terminating-5s/qps-10-10", Replicas: 184, Recreate: false, MaxSurge: "8", MaxUnavailable: "0", MinReadySeconds: 5, ReadyAfterSeconds: 0, TerminatingSeconds: 5, MaxPods: 0, QPS: 10, Burst: 10}, 5, 5, 0, realfig.Range{Min: 116, Median: 117, Max: 117}, realfig.Range{Min: 205, Median: 206, Max: 207}, realfig.Range{Min: 184, Median: 184, Max: 184}, []string{"peak 201 pods (high 207); real 205 to 207"}, nil},
	{realfig.Case{Name: "qps-sweep/10/13/21%-5/ready-0s/qps-20-1", Replicas: 13, Recreate: false, MaxSurge: "21%", MaxUnavailable: "5", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 0, MaxPods: 0, QPS: 20, Burst: 1}, 5, 5, 0, realfig.Range{Min: 3, Median: 3.05, Max: 3.05}, realfig.Range{Min: 16, Median: 16, Max: 16}, realfig.Range{Min: 9, Median: 9, Max: 11}, []string{"fewest available 8 (high 9); real 9 to 11"}, nil},
	{realfig.Case{Name: "qps-sweep/11/1/32%-1/ready-44.3s/qps-200-50", Replicas: 1, Recreate: false, MaxSurge: "32%", MaxUnavailable: "1", MinReadySeconds: 0, ReadyAfterSeconds: 44.3, TerminatingSeconds: 0, MaxPods: 0, QPS: 200, Burst: 50}, 5, 5, 0, realfig.Range{Min: 44.3, Median: 44.3, Max: 44.3}, realfig.Range{Min: 1, Median: 2, Max: 2}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "qps-sweep/12/8/0-11%/ready-34.6s/qps-20-1", Replicas: 8, Recreate: false, MaxSurge: "0", MaxUnavailable: "11%", MinReadySeconds: 0, ReadyAfterSeconds: 34.6, TerminatingSeconds: 0, MaxPods: 0, QPS: 20, Burst: 1}, 5, 5, 0, realfig.Range{Min: 278.8, Median: 278.85, Max: 278.85}, realfig.Range{Min: 8, Median: 8, Max: 8}, realfig.Range{Min: 7, Median: 7, Max: 7}, nil, nil},
	{realfig.Case{Name: "qps-sweep/13/11/3-2/ready-50.5s/minready-9/terminating-30s/max-13/qps-20-1", Replicas: 11, Recreate: false, MaxSurge: "3", MaxUnavailable: "2", MinReadySeconds: 9, ReadyAfterSeconds: 50.5, TerminatingSeconds: 30, MaxPods: 13, QPS: 20, Burst: 1}, 5, 5, 0, realfig.Range{Min: 302, Median: 302, Max: 302}, realfig.Range{Min: 13, Median: 13, Max: 13}, realfig.Range{Min: 9, Median: 9, Max: 9}, nil, nil},
	{realfig.Case{Name: "qps-sweep/14/2/1-3%/ready-0s/terminating-30s/qps-3.5-7", Replicas: 2, Recreate: false, MaxSurge: "1", MaxUnavailable: "3%", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 30, MaxPods: 0, QPS: 3.5, Burst: 7}, 5, 5, 0, realfig.Range{Min: 3.143, Median: 3.429, Max: 3.429}, realfig.Range{Min: 4, Median: 4, Max: 4}, realfig.Range{Min: 2, Median: 2, Max: 2}, []string{"completes at 2.85714285s; real 3.143s to 3.429s, median 3.429s"}, nil},
	{realfig.Case{Name: "qps-sweep/15/2/1-1/ready-0s/terminating-5s/qps-100-200", Replicas: 2, Recreate: false, MaxSurge: "1", MaxUnavailable: "1", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 5, MaxPods: 0, QPS: 100, Burst: 200}, 5, 5, 0, realfig.Range{Min: 0.001, Median: 0.001, Max: 0.002}, realfig.Range{Min: 4, Median: 4, Max: 4}, realfig.Range{Min: 1, Median: 1, Max: 2}, nil, nil},
	{realfig.Case{Name: "qps-sweep/16/12/4-0%/ready-34.6s/minready-5/terminating-5s/qps-10-10", Replicas: 12, Recreate: false, MaxSurge: "4", MaxUnavailable: "0%", MinReadySeconds: 5, ReadyAfterSeconds: 34.6, TerminatingSeconds: 5, MaxPods: 0, QPS: 10, Burst: 10}, 5, 5, 0, realfig.Range{Min: 118, Median: 118, Max: 118}, realfig.Range{Min: 20, Median: 20, Max: 20}, realfig.Range{Min: 12, Median: 12, Max: 12}, nil, nil},
	{realfig.Case{Name: "qps-sweep/17/40/10-6%/ready-0s/minready-8/terminating-5s/max-42", Replicas: 40, Recreate: false, MaxSurge: "10", MaxUnavailable: "6%", MinReadySeconds: 8, ReadyAfterSeconds: 0, TerminatingSeconds: 5, MaxPods: 42, QPS: 0, Burst: 0}, 5, 5, 0, realfig.Range{Min: 158, Median: 194, Max: 305}, realfig.Range{Min: 42, Median: 42, Max: 42}, realfig.Range{Min: 38, Median: 38, Max: 38}, []string{"completes at 2m37s; real 158s to 305s, median 194s"}, nil},
	{realfig.Case{Name: "qps-sweep/18/112/54%-6/ready-0s/terminating-30s/qps-3.5-7", Replicas: 112, Recreate: false, MaxSurge: "54%", MaxUnavailable: "6", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 30, MaxPods: 0, QPS: 3.5, Burst: 7}, 5, 5, 0, realfig.Range{Min: 75.714, Median: 75.714, Max: 75.714}, realfig.Range{Min: 199, Median: 199, Max: 199}, realfig.Range{Min: 107, Median: 107, Max: 107}, nil, nil},
	{realfig.Case{Name: "qps-sweep/19/2/1-19%/ready-3.1s/minready-5/terminating-5s/max-3/qps-30-30", Replicas: 2, Recreate: false, MaxSurge: "1", MaxUnavailable: "19%", MinReadySeconds: 5, ReadyAfterSeconds: 3.1, TerminatingSeconds: 5, MaxPods: 3, QPS: 30, Burst: 30}, 5, 5, 0, realfig.Range{Min: 21, Median: 21, Max: 21}, realfig.Range{Min: 3, Median: 3, Max: 3}, realfig.Range{Min: 2, Median: 2, Max: 2}, nil, nil},
	{realfig.Case{Name: "qps-sweep/20/4/29%-60%/ready-0s/minready-1/terminating-30s", Replicas: 4, Recreate: false, MaxSurge: "29%", MaxUnavailable: "60%", MinReadySeconds: 1, ReadyAfterSeconds: 0, TerminatingSeconds: 30, MaxPods: 0, QPS: 0, Burst: 0}, 5, 5, 0, realfig.Range{Min: 1, Median: 1, Max: 1.001}, realfig.Range{Min: 8, Median: 8, Max: 8}, realfig.Range{Min: 2, Median: 2, Max: 2}, nil, nil},
	{realfig.Case{Name: "qps-sweep/21/19/13%-2/ready-0s/minready-7/terminating-5s/qps-20-1", Replicas: 19, Recreate: false, MaxSurge: "13%", MaxUnavailable: "2", MinReadySeconds: 7, ReadyAfterSeconds: 0, TerminatingSeconds: 5, MaxPods: 0, QPS: 20, Burst: 1}, 5, 5, 0, realfig.Range{Min: 28.2, Median: 28.2, Max: 28.2}, realfig.Range{Min: 27, Median: 27, Max: 27}, realfig.Range{Min: 17, Median: 17, Max: 17}, nil, nil},
	{realfig.Case{Name: "qps-sweep/22/3/recreate/ready-35.4s/terminating-30s/qps-10-10", Replicas: 3, Recreate: true, MaxSurge: "", MaxUnavailable: "", MinReadySeconds: 0, ReadyAfterSeconds: 35.4, TerminatingSeconds: 30, MaxPods: 0, QPS: 10, Burst: 10}, 5, 5, 0, realfig.Range{Min: 65.4, Median: 65.4, Max: 65.4}, realfig.Range{Min: 3, Median: 3, Max: 3}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "qps-sweep/23/92/96%-0/ready-47.6s/qps-10-20", Replicas: 92, Recreate: false, MaxSurge: "96%", MaxUnavailable: "0", MinReadySeconds: 0, ReadyAfterSeconds: 47.6, TerminatingSeconds: 0, MaxPods: 0, QPS: 10, Burst: 20}, 5, 5, 0, realfig.Range{Min: 95.201, Median: 95.202, Max: 95.6}, realfig.Range{Min: 181, Median: 181, Max: 181}, realfig.Range{Min: 92, Median: 92, Max: 92}, nil, nil},
	{realfig.Case{Name: "qps-sweep/24/2/83%-1/ready-6.8s/terminating-30s/qps-1-1", Replicas: 2, Recreate: false, MaxSurge: "83%", MaxUnavailable: "1", MinReadySeconds: 0, ReadyAfterSeconds: 6.8, TerminatingSeconds: 30, MaxPods: 0, QPS: 1, Burst: 1}, 5, 5, 0, realfig.Range{Min: 16, Median: 18, Max: 18}, realfig.Range{Min: 4, Median: 4, Max: 4}, realfig.Range{Min: 1, Median: 1, Max: 1}, nil, nil},
	{realfig.Case{Name: "qps-sweep/25/2/70%-8%/ready-11s/minready-6/terminating-30s/qps-10-10", Replicas: 2, Recreate: false, MaxSurge: "70%", MaxUnavailable: "8%", MinReadySeconds: 6, ReadyAfterSeconds: 11, TerminatingSeconds: 30, MaxPods: 0, QPS: 10, Burst: 10}, 5, 5, 0, realfig.Range{Min: 17, Median: 17, Max: 17.001}, realfig.Range{Min: 4, Median: 4, Max: 4}, realfig.Range{Min: 2, Median: 2, Max: 2}, nil, nil},
	{realfig.Case{Name: "qps-sweep/26/53/2%-0%/ready-28.3s/max-54/qps-10-20", Replicas: 53, Recreate: false, MaxSurge: "2%", MaxUnavailable: "0%", MinReadySeconds: 0, ReadyAfterSeconds: 28.3, TerminatingSeconds: 0, MaxPods: 54, QPS: 10, Burst: 20}, 5, 3, 0, realfig.Range{Min: 1512.574, Median: 1512.591, Max: 1720.169}, realfig.Range{Min: 54, Median: 54, Max: 54}, realfig.Range{Min: 53, Median: 53, Max: 53}, []string{"completes at 34m29.226s; real 1512.574s to 1720.169s, median 1512.591s"}, nil},
	{realfig.Case{Name: "qps-sweep/27/7/3-2/ready-0s/terminating-5s", Replicas: 7, Recreate: false, MaxSurge: "3", MaxUnavailable: "2", MinReadySeconds: 0, ReadyAfterSeconds: 0, TerminatingSeconds: 5, MaxPods: 0, QPS: 0, Burst: 0}, 5, 5, 0, realfig.Range{Min: 0.45, Median: 0.45, Max: 0.55}, realfig.Range{Min: 14, Median: 14, Max: 14}, realfig.Range{Min: 5, Median: 7, Max: 7}, nil, nil},
	{realfig.Case{Name: "qps-sweep/28/2/37%-23%/ready-19.5s/terminating-5s/qps-100-200", Replicas: 2, Recreate: false, MaxSurge: "37%", MaxUnavailable: "23%", MinReadySeconds: 0, ReadyAfterSeconds: 19.5, TerminatingSeconds: 5, MaxPods: 0, QPS: 100, Burst: 200}, 5, 5, 0, realfig.Range{Min: 39, Median: 39, Max: 39}, realfig.Range{Min: 4, Median: 4, Max: 4}, realfig.Range{Min: 2, Median: 2, Max: 2}, nil, nil},
	{realfig.Case{Name: "qps-sweep/29/3/69%-20%/ready-40.5s/terminating-5s/qps-2-5", Replicas: 3, Recreate: false, MaxSurge: "69%", MaxUnavailable: "20%", MinReadySeconds: 0, ReadyAfterSeconds: 40.5, TerminatingSeconds: 5, MaxPods: 0, QPS: 2, Burst: 5}, 5, 5, 0, realfig.Range{Min: 44, Median: 44.5, Max: 44.5}, realfig.Range{Min: 6, Median: 6, Max: 6}, realfig.Range{Min: 3, Median: 3, Max: 3}, nil, nil},
}

// TestControllersAgainstRealQPSSweep holds the model to qpsSweep: each
// case within issue 23's rule and realfig.Bounds, or missing the rule
// exactly as its row says.
func TestControllersAgainstRealQPSSweep(t *testing.T) {
	judgeHoldout(t, qpsSweep)
}
