package render_test

import (
	"os"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

// The timeline of a rollout of 2 replicas, maxSurge 1 and maxUnavailable
// 0, from nginx:1.9 to nginx:1.9.3, one sync every 30 seconds, pods ready
// at once.
func ExampleTable() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
			"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"template": {"metadata": {"labels": {"app": "web"}},
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
	render.Table(os.Stdout, render.Head{Title: "web: nginx:1.9 -> nginx:1.9.3", Version: "Kubernetes 1.37", Model: "a sync every 30s"}, s, res)
	// Output:
	// web: nginx:1.9 -> nginx:1.9.3
	// Kubernetes 1.37
	// replicas 2, maxSurge 1 (1), maxUnavailable 0 (0)
	// a sync every 30s
	//
	// SYNC  TIME    REPLICASET            REV  DESIRED  CURRENT  READY  AVAILABLE
	// 1     +0s     web-747cbffd9b        1    2        2        2      2
	//               web-58cfbfd755 (new)  2    1        1        1      1
	//               CreateReplicaSet web-58cfbfd755 0 -> 1
	//                 why: new ReplicaSet for the new template at 1: replicas 2 + maxSurge 1 - current total 2, at most replicas
	//               condition Progressing=True NewReplicaSetCreated: Created new replica set "web-58cfbfd755"
	// 2     +30s    web-747cbffd9b        1    1        1        1      1
	//               web-58cfbfd755 (new)  2    1        1        1      1
	//               ScaleReplicaSet web-747cbffd9b 2 -> 1
	//                 why: old ReplicaSet -1: available 3 - minAvailable 2 (replicas 2 - maxUnavailable 0) allows -1 in all
	//               condition Progressing=True ReplicaSetUpdated: ReplicaSet "web-58cfbfd755" is progressing.
	// 3     +1m     web-747cbffd9b        1    1        1        1      1
	//               web-58cfbfd755 (new)  2    2        2        2      2
	//               ScaleReplicaSet web-58cfbfd755 1 -> 2
	//                 why: new ReplicaSet +1: replicas 2 + maxSurge 1 - current total 2, at most replicas
	// 4     +1m30s  web-747cbffd9b        1    0        0        0      0
	//               web-58cfbfd755 (new)  2    2        2        2      2
	//               ScaleReplicaSet web-747cbffd9b 1 -> 0
	//                 why: old ReplicaSet -1: available 3 - minAvailable 2 (replicas 2 - maxUnavailable 0) allows -1 in all
	// 5     +2m     (no change)
	//               condition Progressing=True NewReplicaSetAvailable: ReplicaSet "web-58cfbfd755" has successfully progressed.
	// 6     +2m30s  (no change)
	//
	// outcome:       complete: 2 of 2 replicas updated and available
	// duration:      2m (6 syncs)
	// peak pods:     3 (ceiling 3)
	// min available: 2 (floor 2)
	// below floor:   0s
}

// The summary of the same kind of rollout in one line, as the chart's
// second line shows it.
func ExampleSummaryLine() {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
			"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"template": {"metadata": {"labels": {"app": "web"}},
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
	os.Stdout.WriteString(render.SummaryLine(s.Deployment, res.Summary) + "\n")
	// Output:
	// replicas 2, maxSurge 1 (1), maxUnavailable 0 (0) · complete after 2m · 6 syncs · peak 3 pods · min 2 available
}
