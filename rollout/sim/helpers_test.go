package sim_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Fixtures shared by the tests of the package.

// The seed: kubernetes.io's nginx-deployment, 10 replicas, 25%/25%.
const nginxManifest = `{"apiVersion":"apps/v1","kind":"Deployment",
"metadata":{"name":"nginx-deployment","uid":"nginx-uid","labels":{"app":"nginx"}},
"spec":{"replicas":10,"selector":{"matchLabels":{"app":"nginx"}},
"template":{"metadata":{"labels":{"app":"nginx"}},
"spec":{"containers":[{"name":"nginx","image":"nginx:1.9","ports":[{"containerPort":80}]}]}}}}`

var epoch = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

// tb is what the helpers need of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func nginxDeployment(t tb) rollout.Deployment {
	t.Helper()
	objs, err := rollout.Decode([]byte(nginxManifest))
	if err != nil || len(objs.Deployments) != 1 {
		t.Fatalf("Decode() = %v, %v", objs, err)
	}
	return objs.Deployments[0]
}

// rollingState is the seed Deployment with replicas and a strategy, fully
// rolled out on nginx:1.9 and changed to nginx:1.9.3.
func rollingState(t tb, replicas int32, st rollout.Strategy) rollout.State {
	t.Helper()
	d := nginxDeployment(t)
	d.Spec.Replicas = replicas
	d.Spec.Strategy = st
	return withImage(t, sim.FromDeployment(d, epoch), "nginx", "nginx:1.9.3")
}

// withImage is sim.WithImage, failing the test on an error.
func withImage(t tb, s rollout.State, container, image string) rollout.State {
	t.Helper()
	s, err := sim.WithImage(s, container, image)
	if err != nil {
		t.Fatalf("WithImage() error: %v", err)
	}
	return s
}

func rolling(ms, mu surge.Value) rollout.Strategy {
	return rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.RollingUpdate{MaxSurge: ms, MaxUnavailable: mu}}
}

func run(t tb, s rollout.State, cfg sim.Config) sim.Result {
	t.Helper()
	res, err := sim.Run(s, cfg)
	if err != nil {
		t.Fatalf("Run() error: %v", err)
	}
	return res
}

// sizeChanges lists each sync's size changes as "old 10->8" or "new
// 0->3", where new is the ReplicaSet the run created.
func sizeChanges(steps []sim.Step) [][]string {
	created := map[string]bool{}
	var out [][]string
	for _, st := range steps {
		var changes []string
		for _, a := range st.Actions {
			switch a.Type {
			case rollout.CreateReplicaSet:
				created[a.ReplicaSet] = true
				if a.To == 0 {
					continue
				}
			case rollout.ScaleReplicaSet:
			default:
				continue
			}
			role := "old"
			if created[a.ReplicaSet] {
				role = "new"
			}
			changes = append(changes, fmt.Sprintf("%s %d->%d", role, a.From, a.To))
		}
		if changes != nil {
			out = append(out, changes)
		}
	}
	return out
}
