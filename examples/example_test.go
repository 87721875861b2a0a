package examples_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// start is when every example begins.
var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// web returns a Deployment "web" of replicas pods fully rolled out on
// app:v1, with the given strategy (JSON, as in a manifest).
func web(replicas int, strategy string) rollout.State {
	objs, err := rollout.Decode(fmt.Appendf(nil, `{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": %d, "strategy": %s,
			"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "app", "image": "app:v1"}]}}}}`, replicas, strategy))
	if err != nil {
		panic(err)
	}
	return sim.FromDeployment(objs.Deployments[0], start)
}

// withImage is sim.WithImage for a container the examples know exists.
func withImage(s rollout.State, container, image string) rollout.State {
	s, err := sim.WithImage(s, container, image)
	if err != nil {
		panic(err)
	}
	return s
}

// printRun prints the syncs that changed a size or an available count,
// then how the run ended.
func printRun(res sim.Result) {
	fmt.Println("time   old  new  available")
	last := ""
	for _, st := range res.Steps {
		old, nw, avail := st.Totals()
		counts := fmt.Sprintf("%4d %4d %10d", old, nw, avail)
		if counts != last {
			fmt.Printf("%-6s%s\n", st.At.Sub(start), counts)
			last = counts
		}
	}
	fmt.Printf("%s after %s\n", res.Summary.Outcome, res.Summary.Duration)
}

// A rolling update of 10 pods from app:v1 to app:v2 with the default
// strategy, maxSurge 25% (3 pods) and maxUnavailable 25% (2 pods). New pods
// are ready 30 seconds after they start, and the controller acts as soon as
// anything changes: it creates 3 new pods and stops 2 old ones, then at
// once grows the new ReplicaSet to 5 (8 + 5 = 13 pods, the most maxSurge
// allows). When those are ready it stops 5 more old pods and starts the
// last 5 new ones. There are never more than 13 pods, nor fewer than 8
// available.
func Example_rollingUpdate() {
	s := withImage(web(10, `{"type": "RollingUpdate"}`), "app", "app:v2")
	res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyAfter: 30 * time.Second}})
	if err != nil {
		panic(err)
	}
	printRun(res)
	fmt.Println("at most", res.Summary.PeakPods, "pods, at least", res.Summary.MinAvailable, "available")
	// Output:
	// time   old  new  available
	// 0s       8    3          8
	// 0s       8    5          8
	// 30s      3    5          8
	// 30s      3   10          8
	// 1m0s     0   10         10
	// complete after 1m0s
	// at most 13 pods, at least 8 available
}

// An autoscaler raises the replicas from 10 to 20 thirty seconds into a
// rollout, while the new pods are still starting. The controller spreads
// the change over both ReplicaSets in proportion to their sizes (old 8 and
// new 5 of 13 become 15 and 10 of 25, replicas + maxSurge), and the
// rollout goes on at the new size.
func Example_proportionalScaling() {
	s := withImage(web(10, `{"type": "RollingUpdate"}`), "app", "app:v2")
	res, err := sim.Run(s, sim.Config{
		Model:   sim.ModelSimple,
		Pods:    sim.PodModel{ReadyAfter: time.Minute},
		Changes: []sim.ReplicaChange{{After: 30 * time.Second, Replicas: 20}},
	})
	if err != nil {
		panic(err)
	}
	printRun(res)
	// Output:
	// time   old  new  available
	// 0s       8    3          8
	// 0s       8    5          8
	// 30s     15   10          8
	// 1m0s    10   10         13
	// 1m0s    10   15         13
	// 1m30s    5   15         15
	// 1m30s    5   20         15
	// 2m0s     0   20         15
	// 2m30s    0   20         20
	// complete after 2m30s
}

// Recreate stops every old pod before it starts a new one: the old pods
// take 30 seconds to terminate, the new ones 10 seconds to be ready, and
// nothing is available in between.
func Example_recreate() {
	s := withImage(web(3, `{"type": "Recreate"}`), "app", "app:v2")
	res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{Terminating: 30 * time.Second, ReadyAfter: 10 * time.Second}})
	if err != nil {
		panic(err)
	}
	printRun(res)
	// Output:
	// time   old  new  available
	// 0s       0    0          0
	// 30s      0    3          0
	// 40s      0    3          3
	// complete after 40s
}

// app:v2 crash-loops. With maxSurge 1 and maxUnavailable 0 the rollout
// stalls at once: 1 new pod that is never ready, and the 4 old pods, none
// of which may stop. After the progress deadline (600 seconds by default)
// `kubectl rollout undo` brings back the template of revision 1, whose
// ReplicaSet becomes revision 3; the controller removes the crash-looping
// pod and the Deployment is complete again.
func Example_rollback() {
	s := withImage(web(4, `{"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}`), "app", "app:v2")
	crash := sim.PodModel{NeverReady: []string{"app:v2"}}
	stuck, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Pods: crash})
	if err != nil {
		panic(err)
	}
	printRun(stuck)

	undo, err := sim.PreviewUndo(stuck.Final, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("undo: back to revision %d, now revision %d\n", undo.Revision, undo.NewRevision)
	res, err := sim.Run(undo.State, sim.Config{Model: sim.ModelSimple, Pods: crash})
	if err != nil {
		panic(err)
	}
	printRun(res)
	// Output:
	// time   old  new  available
	// 0s       4    1          4
	// progress deadline exceeded after 10m1s
	// undo: back to revision 1, now revision 3
	// time   old  new  available
	// 10m1s    0    4          4
	// complete after 0s
}

// app:v2 crash-loops and the Deployment allows 60 seconds without
// progress. A minute after the last progress the controller sets
// Progressing to False with reason ProgressDeadlineExceeded, which is what
// `kubectl rollout status` reports as a failed rollout.
func Example_progressDeadline() {
	s := web(4, `{"type": "RollingUpdate"}`)
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(60)
	s = withImage(s, "app", "app:v2")
	res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{NeverReady: []string{"app:v2"}}})
	if err != nil {
		panic(err)
	}
	printRun(res)
	c, _ := rollout.GetDeploymentCondition(res.Final.Deployment.Status, rollout.Progressing)
	fmt.Println("Progressing:", c.Status, c.Reason)
	// Output:
	// time   old  new  available
	// 0s       3    1          3
	// 0s       3    2          3
	// progress deadline exceeded after 1m1s
	// Progressing: False ProgressDeadlineExceeded
}

// A ResourceQuota allows 4 pods, as many as the replicas. With maxSurge 1
// and maxUnavailable 0 the new pod cannot be created and nothing may stop:
// the rollout is blocked. With maxUnavailable 1 the controller stops an
// old pod first, which makes room.
func Example_quotaBlocksSurge() {
	for _, maxUnavailable := range []int{0, 1} {
		s := web(4, fmt.Sprintf(`{"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": %d}}`, maxUnavailable))
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{} // no deadline
		s = withImage(s, "app", "app:v2")
		res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{MaxPods: 4, ReadyAfter: 10 * time.Second}})
		if err != nil {
			panic(err)
		}
		sum := res.Summary
		fmt.Printf("maxUnavailable %d: %s after %s, at most %d pods\n", maxUnavailable, sum.Outcome, sum.Duration, sum.PeakPods)
		fmt.Println("  ", sum.Detail)
	}
	// Output:
	// maxUnavailable 0: blocked by quota after 0s, at most 4 pods
	//    ReplicaSet web-779464cf86 has 0 of 1 pods: pods "web-779464cf86-bbbbb" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=4, limited: pods=4
	// maxUnavailable 1: complete after 40s, at most 4 pods
	//    4 of 4 replicas updated and available
}
