package sim_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const scenarios = "../../testdata/golden/scenarios"

// neverReady lists, per scenario, the images the golden harness never made
// ready: the new image of the two scenarios about unhealthy pods.
var neverReady = map[string][]string{
	"progress-deadline-exceeded": {"app:v2"},
	"stuck-unhealthy-new-pods":   {"app:v2"},
}

// goldenStep is one sync of the real controller in a scenario.
type goldenStep struct {
	state rollout.State
	plan  struct {
		Now     time.Time `json:"now"`
		Actions []struct {
			Type       rollout.ActionType   `json:"type"`
			ReplicaSet string               `json:"replicaSet"`
			From       int32                `json:"from"`
			To         int32                `json:"to"`
			Template   *rollout.PodTemplate `json:"template"`
		} `json:"actions"`
		Events []string `json:"events"`
		Error  string   `json:"error"`
	}
}

func loadScenario(t *testing.T, dir string) []goldenStep {
	t.Helper()
	var steps []goldenStep
	for i := 0; ; i++ {
		base := filepath.Join(dir, fmt.Sprintf("step-%02d", i))
		state, err := os.ReadFile(base + ".state.json")
		if os.IsNotExist(err) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		plan, err := os.ReadFile(base + ".plan.json")
		if err != nil {
			t.Fatal(err)
		}
		var g goldenStep
		if err := json.Unmarshal(plan, &g.plan); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		// The recordings are of a v1.36.3 API server and controller.
		objs, err := rollout.DecodeOptions{Version: rollout.V1_36}.Decode(state)
		if err != nil || len(objs.Deployments) != 1 {
			t.Fatalf("%s: %d deployments, %v", base, len(objs.Deployments), err)
		}
		g.state = objs.State(objs.Deployments[0], g.plan.Now)
		g.state.Options.Version = rollout.V1_36
		steps = append(steps, g)
	}
	if len(steps) == 0 {
		t.Fatalf("%s: no steps", dir)
	}
	return steps
}

// externalEdits returns the changes to the Deployment's spec between two
// golden steps that the controller did not make (its UpdateDeployment
// restores a template on rollback): a user's edits, replayed as sim.Edits
// at the time of the later step.
func externalEdits(steps []goldenStep) []sim.Edit {
	var edits []sim.Edit
	start := steps[0].plan.Now
	for i := 1; i < len(steps); i++ {
		want := steps[i-1].state.Deployment.Spec
		for _, a := range steps[i-1].plan.Actions {
			if a.Type == rollout.UpdateDeployment && a.Template != nil {
				want.Template = *a.Template
			}
		}
		got := steps[i].state.Deployment.Spec
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if string(wj) != string(gj) {
			edits = append(edits, sim.Edit{
				At:    steps[i].plan.Now.Sub(start),
				Apply: func(d *rollout.Deployment) { d.Spec = got },
			})
		}
	}
	return edits
}

// calls is a plan as compared with the golden one: the API calls, with
// sizes, and the events, the names of ReplicaSets created during the run
// masked to "<deployment>-NEW" since our hash is our own.
type calls struct {
	Calls  []string
	Events []string
	Error  bool
}

func masker(dep string, created map[string]bool) *strings.Replacer {
	var pairs []string
	for name := range created {
		pairs = append(pairs, name, dep+"-NEW")
	}
	return strings.NewReplacer(pairs...)
}

func goldenCalls(g goldenStep, mask *strings.Replacer) calls {
	c := calls{Error: g.plan.Error != ""}
	for _, a := range g.plan.Actions {
		c.Calls = append(c.Calls, callString(a.Type, mask.Replace(a.ReplicaSet), a.From, a.To))
	}
	for _, e := range g.plan.Events {
		c.Events = append(c.Events, mask.Replace(e))
	}
	return c
}

func simCalls(st sim.Step, mask *strings.Replacer) calls {
	c := calls{Error: st.Err != nil}
	for _, a := range st.Actions {
		if a.IsAPICall() {
			c.Calls = append(c.Calls, callString(a.Type, mask.Replace(a.ReplicaSet), a.From, a.To))
		}
		if !a.Event.IsZero() {
			c.Events = append(c.Events, mask.Replace(a.Event.String()))
		}
	}
	return c
}

func callString(t rollout.ActionType, rs string, from, to int32) string {
	switch t {
	case rollout.CreateReplicaSet, rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
		return fmt.Sprintf("%s %s %d->%d", t, rs, from, to)
	case rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet, rollout.DeleteReplicaSet:
		return fmt.Sprintf("%s %s", t, rs)
	}
	return string(t)
}

// TestGoldenScenarios runs every golden scenario from its first state under
// the golden harness's pod model (a sync every 30s, every pod ready at once
// but those of the scenario's unhealthy image) and compares each sync with
// the real controller's: the API calls in order with their sizes, and the
// events. The harness stopped a scenario at the first sync that wrote
// nothing; Run may go on from there (to the progress deadline, for the
// stuck scenarios), and those later syncs have nothing to compare with.
func TestGoldenScenarios(t *testing.T) {
	dirs, err := os.ReadDir(scenarios)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no scenarios")
	}
	for _, dir := range dirs {
		name := dir.Name()
		t.Run(name, func(t *testing.T) {
			steps := loadScenario(t, filepath.Join(scenarios, name))
			cfg := sim.Config{
				Model:    sim.ModelSimple,
				Interval: 30 * time.Second,
				Pods:     sim.PodModel{NeverReady: neverReady[name]},
				Edits:    externalEdits(steps),
			}
			res, err := sim.Run(steps[0].state, cfg)
			if err != nil {
				t.Fatalf("Run() error: %v", err)
			}
			dep := steps[0].state.Deployment.Name
			goldenCreated, simCreated := map[string]bool{}, map[string]bool{}
			for _, g := range steps {
				for _, a := range g.plan.Actions {
					if a.Type == rollout.CreateReplicaSet {
						goldenCreated[a.ReplicaSet] = true
					}
				}
			}
			for _, st := range res.Steps {
				for _, a := range st.Actions {
					if a.Type == rollout.CreateReplicaSet {
						simCreated[a.ReplicaSet] = true
					}
				}
			}
			gm, sm := masker(dep, goldenCreated), masker(dep, simCreated)
			if len(res.Steps) < len(steps) {
				t.Errorf("Run() stopped after %d syncs (%s: %s); the controller made %d",
					len(res.Steps), res.Summary.Outcome, res.Summary.Detail, len(steps))
			}
			for i := range min(len(steps), len(res.Steps)) {
				if !res.Steps[i].At.Equal(steps[i].plan.Now) {
					t.Errorf("sync %d at %v, want %v", i, res.Steps[i].At, steps[i].plan.Now)
				}
				if diff := cmp.Diff(goldenCalls(steps[i], gm), simCalls(res.Steps[i], sm)); diff != "" {
					t.Errorf("sync %d: Run() mismatch (-want +got):\n%s", i, diff)
				}
			}
			t.Logf("%d golden syncs compared, %d external edits; Run: %d syncs, %s (%s)",
				len(steps), len(cfg.Edits), res.Summary.Syncs, res.Summary.Outcome, res.Summary.Detail)
		})
	}
}
