package sim_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// The nginx-deployment of the Kubernetes documentation: 10 replicas,
// maxSurge and maxUnavailable 25%, nginx:1.9 changed to nginx:1.9.3. The
// controller syncs every 30 seconds and pods are ready at once.
func ExampleRun() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "nginx-deployment"},
		"spec": {"replicas": 10, "selector": {"matchLabels": {"app": "nginx"}},
			"template": {"metadata": {"labels": {"app": "nginx"}},
				"spec": {"containers": [{"name": "nginx", "image": "nginx:1.9"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "nginx", "nginx:1.9.3")
	if err != nil {
		panic(err)
	}

	res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second})
	if err != nil {
		panic(err)
	}
	fmt.Println("step  time  old  new  available")
	for i, st := range res.Steps {
		old, nw, avail := st.Totals()
		fmt.Printf("%4d %5s %4d %4d %10d\n", i, st.At.Sub(start), old, nw, avail)
	}
	fmt.Println(res.Summary.Outcome, "after", res.Summary.Duration)
	fmt.Println("peak pods", res.Summary.PeakPods, "- fewest available", res.Summary.MinAvailable)
	// Output:
	// step  time  old  new  available
	//    0    0s    8    3         11
	//    1   30s    8    5         13
	//    2  1m0s    3    5          8
	//    3 1m30s    3   10         13
	//    4  2m0s    0   10         10
	//    5 2m30s    0   10         10
	//    6  3m0s    0   10         10
	// complete after 2m30s
	// peak pods 13 - fewest available 8
}

// The same rollout of 1,000 replicas, pods ready 5 seconds after they are
// created, under the Deployment and ReplicaSet controllers as they run:
// each controller's API client allows 20 requests a second after a burst
// of 30, so the 2,000 pod creations and deletions take about 106 seconds
// (the real controllers: 101), where the pods alone would allow 10.
func ExampleRun_controllers() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "nginx-deployment"},
		"spec": {"replicas": 1000, "selector": {"matchLabels": {"app": "nginx"}},
			"template": {"metadata": {"labels": {"app": "nginx"}},
				"spec": {"containers": [{"name": "nginx", "image": "nginx:1.9"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "nginx", "nginx:1.9.3")
	if err != nil {
		panic(err)
	}
	for _, c := range []sim.Controllers{{}, {QPS: -1}} {
		cfg := sim.Config{Model: sim.ModelControllers, Controllers: c, OmitSteps: true,
			Pods: sim.PodModel{ReadyAfter: 5 * time.Second}}
		res, err := sim.Run(s, cfg)
		if err != nil {
			panic(err)
		}
		sm := res.Summary
		fmt.Printf("%s: %s after %v, peak pods %d (ceiling %d)\n", res.Model, sm.Outcome, sm.Duration, sm.PeakPods, sm.Ceiling)
	}
	// Output:
	// controllers (kube-api-qps 20, kube-api-burst 30): complete after 1m41.801s, peak pods 1250 (ceiling 1250)
	// controllers (no client rate limit): complete after 10.005s, peak pods 1252 (ceiling 1250)
}

// The bounds of 25%/25% for 10 replicas, and of one pod at a time.
func ExampleComputeBounds() {
	quarter := rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()}
	b := sim.ComputeBounds(quarter, 10)
	fmt.Printf("25%%/25%% of 10: surge %d, unavailable %d, at most %d pods, at least %d available, %d steps\n",
		b.Surge, b.Unavailable, b.PeakPods, b.MinAvailable, b.MinSteps)

	one := rollout.Strategy{Type: rollout.RollingUpdateStrategy,
		RollingUpdate: rollout.RollingUpdate{MaxSurge: surge.Count(1), MaxUnavailable: surge.Count(0)}}
	b = sim.ComputeBounds(one, 10)
	fmt.Printf("1/0 of 10: at most %d pods, at least %d available, %d steps\n", b.PeakPods, b.MinAvailable, b.MinSteps)
	// Output:
	// 25%/25% of 10: surge 3, unavailable 2, at most 13 pods, at least 8 available, 5 steps
	// 1/0 of 10: at most 11 pods, at least 10 available, 20 steps
}

// A rollout from nginx:1.9 to nginx:1.9.3 in progress, undone with
// `kubectl rollout undo`: the old ReplicaSet's template comes back, under
// a new revision.
func ExamplePreviewUndo() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "nginx-deployment"},
		"spec": {"replicas": 3, "selector": {"matchLabels": {"app": "nginx"}},
			"template": {"metadata": {"labels": {"app": "nginx"}},
				"spec": {"containers": [{"name": "nginx", "image": "nginx:1.9"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "nginx", "nginx:1.9.3")
	if err != nil {
		panic(err)
	}
	res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, MaxSyncs: 1}) // the first sync creates revision 2
	if err != nil {
		panic(err)
	}

	p, err := sim.PreviewUndo(res.Final, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("back to revision %d (%s), which becomes revision %d with history %q\n",
		p.Revision, p.Target, p.NewRevision, p.History)
	// Output:
	// back to revision 1 (nginx-deployment-68b4686546), which becomes revision 3 with history "1"
}

// A rollout of 6 replicas one pod at a time, pods ready after 10 seconds,
// under the controllers model: it completes in about a minute, so any
// progress deadline from Result.DeadlineFreeFrom up gives the same run.
// One below it, the re-check planned at the start fires while the rollout
// goes on.
func ExampleResult_deadlineFreeFrom() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 6, "progressDeadlineSeconds": 600,
			"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "web", "web:2")
	if err != nil {
		panic(err)
	}
	cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Pods: sim.PodModel{ReadyAfter: 10 * time.Second}}
	res, err := sim.Run(s, cfg)
	if err != nil {
		panic(err)
	}
	from := res.DeadlineFreeFrom
	fmt.Println(res.Summary.Outcome, "after", res.Summary.Duration, "- the same run for every deadline from", from, "s")
	for _, d := range []int32{from, 100000, from - 1} {
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(d)
		other, err := sim.Run(s, cfg)
		if err != nil {
			panic(err)
		}
		fmt.Printf("deadline %6d s: %d syncs, same summary: %t\n", d, other.Summary.Syncs, other.Summary == res.Summary)
	}
	// Output:
	// complete after 1m0.002s - the same run for every deadline from 60 s
	// deadline     60 s: 48 syncs, same summary: true
	// deadline 100000 s: 48 syncs, same summary: true
	// deadline     59 s: 49 syncs, same summary: false
}

// A rollout that goes on past its progress deadline: 3 replicas,
// maxSurge 1 and maxUnavailable 0, a deadline of 10 seconds, pods ready
// 11 seconds after they are created and terminating for 12. The
// deadline is exceeded at +11s, where `kubectl rollout status` fails; the
// controllers go on, and the terminating pods of the next waves raise
// the peak. Summary.UpToDeadline keeps the figures up to the deadline,
// those of the run stopped there (PastDeadline -1).
func ExampleSummary_upToDeadline() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 3, "progressDeadlineSeconds": 10,
			"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "app", "image": "web:1"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "app", "web:2")
	if err != nil {
		panic(err)
	}
	cfg := sim.Config{Pods: sim.PodModel{ReadyAfter: 11 * time.Second, Terminating: 12 * time.Second}}
	on, err := sim.Run(s, cfg)
	if err != nil {
		panic(err)
	}
	cfg.PastDeadline = -1
	stopped, err := sim.Run(s, cfg)
	if err != nil {
		panic(err)
	}
	sm, up := on.Summary, on.Summary.UpToDeadline
	fmt.Println("deadline exceeded at", sm.DeadlineExceededAt, "- complete after it at", sm.CompleteAfterDeadline)
	fmt.Println("whole run: peak", sm.PeakPods, "at", sm.PeakPodsAt)
	fmt.Println("up to the deadline: peak", up.PeakPods, "at", up.PeakPodsAt, "- fewest available", up.MinAvailable)
	fmt.Println("stopped at the deadline: peak", stopped.Summary.PeakPods, "at", stopped.Summary.PeakPodsAt, "- fewest available", stopped.Summary.MinAvailable)
	// Output:
	// deadline exceeded at 11s - complete after it at 33.002s
	// whole run: peak 6 at 22.001s
	// up to the deadline: peak 4 at 1ms - fewest available 3
	// stopped at the deadline: peak 4 at 1ms - fewest available 3
}

// A gate that judges the highest peak a cluster can reach only against a
// pod limit, as `check --max-pods 20` does, says so with PeakPodsAbove:
// the race order where deletions go last then ends as soon as its pods
// are proved to stay within 20, and the run costs less. Whether the
// highest peak passes the limit, and every figure but the ranges' ends
// (the highest peak among them: the deletes-last order's 10 pods are
// left out, the other orders' 9 kept), are the same as in the whole run.
func ExampleConfig_peakPodsAbove() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 6, "strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "web", "web:2")
	if err != nil {
		panic(err)
	}
	const limit = 20
	cfg := sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 5 * time.Second, Terminating: 10 * time.Second}}
	whole, wholeCost, err := sim.RunCost(s, cfg)
	if err != nil {
		panic(err)
	}
	cfg.PeakPodsAbove = limit
	gated, gatedCost, err := sim.RunCost(s, cfg)
	if err != nil {
		panic(err)
	}
	for _, r := range []struct {
		name string
		res  sim.Result
		cost sim.Cost
	}{{"whole", whole, wholeCost}, {"gated", gated, gatedCost}} {
		sm := r.res.Summary
		fmt.Printf("%s: complete after %s, peak %d, fewest available %d, highest peak %d, above %d: %t\n",
			r.name, sm.Duration, sm.PeakPods, sm.MinAvailable, sm.PeakPodsHigh, limit, sm.PeakPodsHigh > limit)
	}
	fmt.Println("the gated run computed no more:", gatedCost.Work <= wholeCost.Work)
	// Output:
	// whole: complete after 30.002s, peak 9, fewest available 6, highest peak 10, above 20: false
	// gated: complete after 30.002s, peak 9, fewest available 6, highest peak 9, above 20: false
	// the gated run computed no more: true
}

// A caller that judges the steps of the order where deletions go first
// only where they could hold fewer ready pods than the run's fewest
// available (as check's drains do) says when it has seen enough: the
// order then ends once its figures are proved no worse than the in-order
// run's, and the caller has seen the first of its steps only. Old pods
// take 30 s to terminate, so the in-order run's peak, 12 pods, bounds
// every order's from the first sync on. The Summary's figures are the
// whole run's.
func ExampleConfig_deletesFirstDone() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 6, "strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "web", "web:2")
	if err != nil {
		panic(err)
	}
	for _, early := range []bool{false, true} {
		seen := 0
		cfg := sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 5 * time.Second, Terminating: 30 * time.Second},
			ObserveDeletesFirst: func(sim.Step) { seen++ }}
		if early {
			cfg.DeletesFirstDone = func(fewest int64) bool { return fewest >= 6 }
		}
		res, err := sim.Run(s, cfg)
		if err != nil {
			panic(err)
		}
		sm := res.Summary
		fmt.Printf("ended early %t: %d deletes-first steps seen; complete after %s, peak %d, fewest available %d\n",
			early, seen, sm.Duration, sm.PeakPods, sm.MinAvailable)
	}
	// Output:
	// ended early false: 45 deletes-first steps seen; complete after 30.002s, peak 12, fewest available 6
	// ended early true: 1 deletes-first steps seen; complete after 30.002s, peak 12, fewest available 6
}

// A 2,000-replica rollout one pod at a time, pods ready at once, under
// the controllers as they run: its steps kept to the first 100, its
// summary the whole run's.
func ExampleRunFirst() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 2000, "strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]}}}}`))
	if err != nil {
		panic(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], start), "web", "nginx:1.26")
	if err != nil {
		panic(err)
	}
	res, left, err := sim.RunFirst(s, sim.Config{Model: sim.ModelControllers}, 100)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Steps), "steps kept,", left, "left out")
	fmt.Println(res.Summary.Outcome, "after", res.Summary.Duration, "in", res.Summary.Syncs, "syncs")
	// Output:
	// 100 steps kept, 17886 left out
	// complete after 10m0.551s in 17986 syncs
}
