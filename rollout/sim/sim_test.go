package sim_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestRunSeed is the seed of the project: nginx:1.9 -> nginx:1.9.3 over 10
// replicas at 25%/25%, a sync every 30s, every pod ready at once. Its size
// changes are those of the golden trajectory seed-rolling-10-25-25 of the
// real controller (spec §5.6).
func TestRunSeed(t *testing.T) {
	golden := loadScenario(t, scenarios+"/seed-rolling-10-25-25")
	var goldenSteps []sim.Step
	for _, g := range golden {
		var acts []rollout.Action
		for _, a := range g.plan.Actions {
			acts = append(acts, rollout.Action{Type: a.Type, ReplicaSet: a.ReplicaSet, From: a.From, To: a.To})
		}
		goldenSteps = append(goldenSteps, sim.Step{Actions: acts})
	}
	want := sizeChanges(goldenSteps)
	if diff := cmp.Diff([][]string{{"new 0->3", "old 10->8"}, {"new 3->5"}, {"old 8->3"}, {"new 5->10"}, {"old 3->0"}}, want); diff != "" {
		t.Fatalf("golden seed trajectory changed (-spec +golden):\n%s", diff)
	}
	for _, interval := range []time.Duration{30 * time.Second, 0} {
		t.Run(fmt.Sprintf("interval=%v", interval), func(t *testing.T) {
			s := withImage(t, sim.FromDeployment(nginxDeployment(t), epoch), "nginx", "nginx:1.9.3")
			res := run(t, s, sim.Config{Model: sim.ModelSimple, Interval: interval})
			if diff := cmp.Diff(want, sizeChanges(res.Steps)); diff != "" {
				t.Errorf("Run() size changes mismatch (-want +got):\n%s", diff)
			}
			wantSum := sim.Summary{
				Outcome: sim.OutcomeComplete, Detail: "10 of 10 replicas updated and available",
				Duration: 5 * interval, LastChange: 5 * interval, Syncs: 7, PeakDesired: 13, PeakPods: 13, PeakPodsAt: interval,
				MinAvailable: 8, MinAvailableAt: 2 * interval, PeakPodsLow: 13, PeakPodsHigh: 13, MinAvailableHigh: 8, Floor: 8, Ceiling: 13,
			}
			if diff := cmp.Diff(wantSum, res.Summary); diff != "" {
				t.Errorf("Run() summary mismatch (-want +got):\n%s", diff)
			}
			last := res.Steps[len(res.Steps)-1]
			if len(last.Actions) != 0 || len(last.Sets) != 2 || !last.Sets[1].New || last.Sets[1].Available != 10 || last.Sets[0].Desired != 0 {
				t.Errorf("last step = %+v, want no action, old at 0 and new with 10 available", last)
			}
		})
	}
}

// TestRunEventDriven checks when an event-driven controller syncs: after
// its own writes at once, then at the pods' ready and available times.
// TestDurationEndsAtCompletionNotAtTheLastIdleSync is issue 11's defect
// 3: the duration counted the last sync, which only finds nothing to do,
// so a rollout complete at +2m30s was reported as taking 3m.
func TestDurationEndsAtCompletionNotAtTheLastIdleSync(t *testing.T) {
	s := withImage(t, sim.FromDeployment(nginxDeployment(t), epoch), "nginx", "nginx:1.9.3")
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second})
	complete := -1
	for i, st := range res.Steps {
		if c, ok := rollout.GetDeploymentCondition(rollout.DeploymentStatus{Conditions: st.Conditions}, rollout.Progressing); ok &&
			c.Reason == rollout.ReasonNewReplicaSetAvailable && complete < 0 {
			complete = i
		}
	}
	if complete < 0 || complete != len(res.Steps)-2 || len(res.Steps[len(res.Steps)-1].Actions) != 0 {
		t.Fatalf("complete at step %d of %d; want the one before an idle last sync", complete, len(res.Steps))
	}
	if got, want := res.Summary.Duration, res.Steps[complete].At.Sub(epoch); got != want || want != 150*time.Second {
		t.Errorf("Duration = %v, want %v: when the status became complete", got, want)
	}
}

func TestRunEventDriven(t *testing.T) {
	s := rollingState(t, 2, rolling(surge.Count(1), surge.Count(0)))
	s.Deployment.Spec.MinReadySeconds = 10
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyAfter: time.Minute}})
	var at []string
	for _, st := range res.Steps {
		if len(sizeChanges([]sim.Step{st})) > 0 {
			at = append(at, st.At.Sub(epoch).String())
		}
	}
	// Each new pod: created, ready a minute later, available 10s after
	// that; only then may an old pod go.
	want := []string{"0s", "1m10s", "1m10s", "2m20s"}
	if diff := cmp.Diff(want, at); diff != "" {
		t.Errorf("size changes at (-want +got):\n%s", diff)
	}
	if got := res.Summary.Duration; got != 2*time.Minute+20*time.Second {
		t.Errorf("Duration = %v, want 2m20s", got)
	}
	if res.Summary.MinAvailable != 2 || res.Summary.BelowFloor != 0 {
		t.Errorf("MinAvailable %d, BelowFloor %v; want 2 and 0", res.Summary.MinAvailable, res.Summary.BelowFloor)
	}
}

// TestRunRecreateWaitsForTerminatingPods: Recreate creates the new
// ReplicaSet only when the old pods are gone (R-REC-2, R-GATE-3).
func TestRunRecreateWaitsForTerminatingPods(t *testing.T) {
	s := rollingState(t, 3, rollout.Strategy{Type: rollout.RecreateStrategy})
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{Terminating: 45 * time.Second, ReadyAfter: 5 * time.Second}})
	var created time.Duration = -1
	for _, st := range res.Steps {
		for _, a := range st.Actions {
			if a.Type == rollout.CreateReplicaSet {
				created = st.At.Sub(epoch)
			}
		}
	}
	if created != 45*time.Second {
		t.Errorf("new ReplicaSet created at %v, want 45s (when the old pods are gone)", created)
	}
	want := sim.Summary{
		Outcome: sim.OutcomeComplete, Detail: "3 of 3 replicas updated and available",
		Duration: 50 * time.Second, LastChange: 50 * time.Second, PeakDesired: 3, PeakPods: 3, MinAvailable: 0,
		PeakPodsLow: 3, PeakPodsHigh: 3, Floor: 0, Ceiling: 3,
	}
	got := res.Summary
	got.Syncs = 0
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Run() summary mismatch (-want +got):\n%s", diff)
	}
	// While they terminate, the old pods are counted as such.
	if sets := res.Steps[0].Sets; sets[0].Terminating != 3 || sets[0].Current != 0 {
		t.Errorf("after the first sync: %+v, want 3 terminating old pods", sets)
	}
}

func TestRunTerminatingPodsExceedSurge(t *testing.T) {
	// R-GATE-2: terminating pods are not counted by the controller, so the
	// pods can exceed replicas + maxSurge while the sizes never do.
	s := rollingState(t, 4, rolling(surge.Count(1), surge.Count(1)))
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{Terminating: time.Minute}})
	if res.Summary.Outcome != sim.OutcomeComplete || res.Summary.PeakDesired != 5 || res.Summary.PeakPods <= 5 {
		t.Errorf("summary %+v: want completed, PeakDesired 5, PeakPods above 5", res.Summary)
	}
}

// TestRunQuota: a pod quota equal to replicas leaves no room to surge.
// With maxUnavailable 0 the rollout is blocked; with maxUnavailable 1 the
// old pods make room.
func TestRunQuota(t *testing.T) {
	tests := []struct {
		name       string
		st         rollout.Strategy
		deadline   rollout.OptionalInt32
		outcome    sim.Outcome
		detailHas  string
		wantFailed bool
	}{
		{"surge blocked", rolling(surge.Count(1), surge.Count(0)), rollout.Int32(rollout.Unlimited),
			sim.OutcomeQuota, `exceeded quota: pods, requested: pods=1, used: pods=4, limited: pods=4`, true},
		{"surge blocked until the deadline", rolling(surge.Count(1), surge.Count(0)), rollout.Int32(60),
			sim.OutcomeDeadlineExceeded, "blocked by quota", true},
		{"maxUnavailable makes room", rolling(surge.Count(1), surge.Count(1)), rollout.Int32(60),
			sim.OutcomeComplete, "4 of 4", true},
		{"no surge", rolling(surge.Count(0), surge.Count(1)), rollout.Int32(60),
			sim.OutcomeComplete, "4 of 4", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, 4, tt.st)
			s.Deployment.Spec.ProgressDeadlineSeconds = tt.deadline
			res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{MaxPods: 4}})
			sum := res.Summary
			if sum.Outcome != tt.outcome || !strings.Contains(sum.Detail, tt.detailHas) ||
				(sum.FailedCreates > 0) != tt.wantFailed || sum.PeakPods > 4 {
				t.Errorf("summary %+v: want outcome %q with %q, failed creates %v, at most 4 pods",
					sum, tt.outcome, tt.detailHas, tt.wantFailed)
			}
		})
	}
}

// TestRunQuotaCondition: the new ReplicaSet's FailedCreate condition
// reaches the Deployment as ReplicaFailure (R-STAT-5).
func TestRunQuotaCondition(t *testing.T) {
	s := rollingState(t, 4, rolling(surge.Count(1), surge.Count(0)))
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{MaxPods: 4}, Interval: 30 * time.Second, MaxSyncs: 3})
	c, ok := rollout.GetDeploymentCondition(res.Final.Deployment.Status, rollout.ReplicaFailure)
	if !ok || c.Reason != "FailedCreate" || !strings.HasPrefix(c.Message, `pods "nginx-deployment-`) {
		t.Errorf("ReplicaFailure = %+v, %v; want FailedCreate from the quota", c, ok)
	}
	if res.Summary.Outcome != sim.OutcomeLimit || res.Summary.Syncs != 3 {
		t.Errorf("summary %+v, want the limit of 3 syncs", res.Summary)
	}
}

func TestRunNeverReady(t *testing.T) {
	for _, tt := range []struct {
		name     string
		deadline rollout.OptionalInt32
		outcome  sim.Outcome
	}{
		{"no deadline", rollout.OptionalInt32{}, sim.OutcomeNeverReady},
		{"deadline", rollout.Int32(60), sim.OutcomeDeadlineExceeded},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, 10, rolling(surge.Percent(25), surge.Percent(25)))
			s.Deployment.Spec.ProgressDeadlineSeconds = tt.deadline
			res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{NeverReady: []string{"nginx:1.9.3"}}})
			if res.Summary.Outcome != tt.outcome || !strings.Contains(res.Summary.Detail, "never becomes ready") {
				t.Errorf("summary %+v: want %q, never ready", res.Summary, tt.outcome)
			}
			// The rollout stalls at old 8, new 5 (spec §5.6).
			last := res.Steps[len(res.Steps)-1].Sets
			if len(last) != 2 || last[0].Desired != 8 || last[1].Desired != 5 || last[1].Ready != 0 {
				t.Errorf("last sets %+v, want old 8 and new 5 not ready", last)
			}
		})
	}
}

// TestRunReplicaChange: an HPA doubles the replicas mid-rollout; the
// controller spreads the change over both ReplicaSets (R-SCALE-4).
func TestRunReplicaChange(t *testing.T) {
	s := rollingState(t, 10, rolling(surge.Percent(25), surge.Percent(25)))
	res := run(t, s, sim.Config{
		Model:    sim.ModelSimple,
		Interval: 30 * time.Second,
		Changes:  []sim.ReplicaChange{{After: 30 * time.Second, Replicas: 20}},
	})
	// replicas + maxSurge goes from 13 to 25: old gets 8*25/13-8 = 7 and
	// new 3*25/13-3 = 3, and the 4 left of the 14 go to the largest
	// (R-SCALE-6).
	want := [][]string{{"new 0->3", "old 10->8"}, {"old 8->19", "new 3->6"}}
	if diff := cmp.Diff(want, sizeChanges(res.Steps)[:2]); diff != "" {
		t.Errorf("size changes mismatch (-want +got):\n%s", diff)
	}
	if res.Summary.Outcome != sim.OutcomeComplete || res.Final.Deployment.Spec.Replicas != 20 || res.Final.Deployment.Generation != 3 {
		t.Errorf("summary %+v, replicas %d, generation %d; want complete at 20, generation 3",
			res.Summary, res.Final.Deployment.Spec.Replicas, res.Final.Deployment.Generation)
	}
}

// TestRunEdits: a user pauses the rollout, then changes the image again.
func TestRunEdits(t *testing.T) {
	s := rollingState(t, 10, rolling(surge.Percent(25), surge.Percent(25)))
	pause := sim.Edit{At: 30 * time.Second, Apply: func(d *rollout.Deployment) { d.Spec.Paused = true }}
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Edits: []sim.Edit{pause}})
	if res.Summary.Outcome != sim.OutcomePaused || res.Final.Deployment.Generation != 3 {
		t.Errorf("summary %+v, generation %d: want paused, generation 3", res.Summary, res.Final.Deployment.Generation)
	}
	resume := sim.Edit{At: 90 * time.Second, Apply: func(d *rollout.Deployment) { d.Spec.Paused = false }}
	rollover := sim.Edit{At: 30 * time.Second, Apply: func(d *rollout.Deployment) {
		d.Spec.Template = withImage(t, rollout.State{Deployment: *d}, "nginx", "nginx:1.10").Deployment.Spec.Template
	}}
	res = run(t, s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Edits: []sim.Edit{resume, pause, rollover}})
	last := res.Steps[len(res.Steps)-1].Sets
	if res.Summary.Outcome != sim.OutcomeComplete || len(last) != 3 || !last[2].New || last[2].Available != 10 || last[1].Desired != 0 {
		t.Errorf("summary %+v, sets %+v: want a completed rollover to a third ReplicaSet", res.Summary, last)
	}
}

func TestRunLimits(t *testing.T) {
	s := rollingState(t, 10, rolling(surge.Count(1), surge.Count(0)))
	res := run(t, s, sim.Config{Model: sim.ModelSimple, MaxSyncs: 5})
	if res.Summary.Outcome != sim.OutcomeLimit || res.Summary.Syncs != 5 || len(res.Steps) != 5 {
		t.Errorf("summary %+v with %d steps, want the limit after 5 syncs", res.Summary, len(res.Steps))
	}
	res = run(t, s, sim.Config{Model: sim.ModelSimple, Interval: time.Minute, MaxTime: 150 * time.Second})
	if res.Summary.Outcome != sim.OutcomeLimit || res.Summary.Syncs != 3 || res.Summary.Duration != 2*time.Minute {
		t.Errorf("summary %+v, want the limit after 3 syncs and 2m", res.Summary)
	}
	res = run(t, s, sim.Config{Model: sim.ModelSimple, OmitSteps: true})
	if res.Summary.Outcome != sim.OutcomeComplete || res.Steps != nil || res.Summary.Syncs == 0 {
		t.Errorf("with OmitSteps: summary %+v, %d steps; want completed with no step kept", res.Summary, len(res.Steps))
	}
}

func TestRunErrors(t *testing.T) {
	s := rollingState(t, 3, rolling(surge.Count(1), surge.Count(0)))
	tests := []struct {
		name  string
		cfg   sim.Config
		field string
	}{
		{"ReadyAfter", sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyAfter: -1}}, "Pods.ReadyAfter"},
		{"ReadyJitter", sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyJitter: -time.Second}}, "Pods.ReadyJitter"},
		{"Terminating", sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{Terminating: -time.Second}}, "Pods.Terminating"},
		{"MaxPods", sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{MaxPods: -1}}, "Pods.MaxPods"},
		{"Interval", sim.Config{Model: sim.ModelSimple, Interval: -time.Second}, "Interval"},
		{"MaxTime", sim.Config{Model: sim.ModelSimple, MaxTime: -time.Second}, "MaxTime"},
		{"MaxSyncs", sim.Config{Model: sim.ModelSimple, MaxSyncs: -1}, "MaxSyncs"},
		{"Changes After", sim.Config{Model: sim.ModelSimple, Changes: []sim.ReplicaChange{{}, {After: -1}}}, "Changes[1].After"},
		{"Changes Replicas", sim.Config{Model: sim.ModelSimple, Changes: []sim.ReplicaChange{{Replicas: -3}}}, "Changes[0].Replicas"},
		{"Edits Apply", sim.Config{Model: sim.ModelSimple, Edits: []sim.Edit{{}}}, "Edits[0].Apply"},
		{"Edits At", sim.Config{Model: sim.ModelSimple, Edits: []sim.Edit{{At: -1, Apply: func(*rollout.Deployment) {}}}}, "Edits[0].At"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sim.Run(s, tt.cfg)
			var ce *sim.ConfigError
			if !errors.As(err, &ce) || ce.Field != tt.field || !strings.Contains(err.Error(), "Config."+tt.field) {
				t.Errorf("Run() error = %v, want a *ConfigError for %s", err, tt.field)
			}
		})
	}
	t.Run("invalid Deployment", func(t *testing.T) {
		bad := rollingState(t, 3, rolling(surge.Count(0), surge.Count(0)))
		if _, err := sim.Run(bad, sim.Config{Model: sim.ModelSimple}); err == nil || !strings.Contains(err.Error(), "spec.strategy.rollingUpdate") {
			t.Errorf("Run() error = %v, want validation's", err)
		}
		bad.Options.SkipValidation = true
		if _, err := sim.Run(bad, sim.Config{Model: sim.ModelSimple}); err != nil {
			t.Errorf("Run() with SkipValidation error = %v", err)
		}
	})
}

// TestRunHashCollision: a foreign ReplicaSet holds the new ReplicaSet's
// name; the sync fails, raises collisionCount, and the next one goes on
// under another name (R-NEW-8).
func TestRunHashCollision(t *testing.T) {
	s := rollingState(t, 3, rolling(surge.Count(1), surge.Count(0)))
	probe := run(t, s, sim.Config{Model: sim.ModelSimple, MaxSyncs: 1})
	var name string
	for _, a := range probe.Steps[0].Actions {
		if a.Type == rollout.CreateReplicaSet {
			name = a.ReplicaSet
		}
	}
	foreign := s.ReplicaSets[0].DeepCopy()
	foreign.Name, foreign.UID, foreign.OwnerReferences = name, "uid-foreign", nil
	foreign.Labels = map[string]string{"app": "other"}
	foreign.Spec.Selector = rollout.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	foreign.Spec.Template.Labels = map[string]string{"app": "other"}
	foreign.Spec.Replicas, foreign.Status = 1, rollout.ReplicaSetStatus{Replicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
	s.ReplicaSets = append(s.ReplicaSets, foreign)
	res := run(t, s, sim.Config{Model: sim.ModelSimple})
	var collision *rollout.CollisionError
	if !errors.As(res.Steps[0].Err, &collision) || !strings.Contains(res.Steps[0].Err.Error(), "already exists") || res.Summary.Outcome != sim.OutcomeComplete {
		t.Errorf("first step error %v, summary %+v: want a *rollout.CollisionError, then completion", res.Steps[0].Err, res.Summary)
	}
	if cc := res.Final.Deployment.Status.CollisionCount; cc != rollout.Int32(1) {
		t.Errorf("collisionCount = %+v, want 1", cc)
	}
	// The foreign ReplicaSet's pods are the namespace's, not the
	// Deployment's.
	if res.Summary.PeakPods != 4 {
		t.Errorf("PeakPods = %d, want 4", res.Summary.PeakPods)
	}
}

func TestRunJitter(t *testing.T) {
	s := rollingState(t, 20, rolling(surge.Percent(25), surge.Percent(25)))
	cfg := sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyAfter: 10 * time.Second, ReadyJitter: 20 * time.Second, Seed: 7}}
	a, b := run(t, s, cfg), run(t, s, cfg)
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs with the same seed differ")
	}
	cfg.Pods.Seed = 8
	c := run(t, s, cfg)
	if reflect.DeepEqual(a.Summary, c.Summary) && reflect.DeepEqual(sizeChanges(a.Steps), sizeChanges(c.Steps)) &&
		reflect.DeepEqual(a.Steps[len(a.Steps)-1].At, c.Steps[len(c.Steps)-1].At) {
		t.Error("runs with seeds 7 and 8 are the same")
	}
	if a.Summary.Outcome != sim.OutcomeComplete || a.Summary.MinAvailable < int64(a.Summary.Floor) {
		t.Errorf("summary %+v: want completed, never below the floor", a.Summary)
	}
}

// TestRunStartingPods: the starting statuses are taken as pods: not-ready
// ones become ready per the model, terminating ones are gone after
// Terminating.
func TestRunStartingPods(t *testing.T) {
	s := rollingState(t, 4, rolling(surge.Count(1), surge.Count(0)))
	s = sim.FromDeployment(s.Deployment, epoch) // complete on nginx:1.9.3
	rs := &s.ReplicaSets[0]
	rs.Status.ReadyReplicas, rs.Status.AvailableReplicas, rs.Status.TerminatingReplicas = 2, 1, rollout.Int32(2)
	s.Deployment.Status.AvailableReplicas = 1
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyAfter: time.Minute, Terminating: 30 * time.Second}})
	want := []string{"0s 4/2/2/2", "30s 4/2/2/0", "1m0s 4/4/4/0"}
	var got []string
	seen := map[string]bool{}
	for _, st := range res.Steps {
		c := st.Sets[0]
		line := fmt.Sprintf("%s %d/%d/%d/%d", st.At.Sub(epoch), c.Current, c.Ready, c.Available, c.Terminating)
		if !seen[line] {
			seen[line] = true
			got = append(got, line)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pods current/ready/available/terminating (-want +got):\n%s", diff)
	}
	if res.Summary.Outcome != sim.OutcomeComplete || res.Summary.PeakPods != 6 {
		t.Errorf("summary %+v, want completed with 6 pods at the peak", res.Summary)
	}
}

// TestRunDoesNotModifyInput checks that Run leaves s and cfg alone.
func TestRunDoesNotModifyInput(t *testing.T) {
	s := rollingState(t, 5, rolling(surge.Count(1), surge.Count(1)))
	before := rollout.Apply(s, nil)
	changes := []sim.ReplicaChange{{After: time.Minute, Replicas: 2}, {After: 0, Replicas: 7}}
	run(t, s, sim.Config{Model: sim.ModelSimple, Changes: changes, Pods: sim.PodModel{NeverReady: []string{"x"}}})
	if !reflect.DeepEqual(before, s) {
		t.Error("Run modified its state")
	}
	if changes[0].After != time.Minute {
		t.Error("Run reordered cfg.Changes")
	}
}

// TestRunPausedStart: a paused Deployment is scaled but not rolled out.
func TestRunPausedStart(t *testing.T) {
	s := rollingState(t, 3, rolling(surge.Count(1), surge.Count(0)))
	s.Deployment.Spec.Paused = true
	res := run(t, s, sim.Config{Model: sim.ModelSimple})
	if res.Summary.Outcome != sim.OutcomePaused || len(sizeChanges(res.Steps)) != 0 {
		t.Errorf("summary %+v, %v: want paused with no size change", res.Summary, sizeChanges(res.Steps))
	}
}

func TestFromDeployment(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*rollout.Deployment)
	}{
		{"rolling", func(*rollout.Deployment) {}},
		{"recreate", func(d *rollout.Deployment) { d.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy} }},
		{"collisions", func(d *rollout.Deployment) { d.Status.CollisionCount = rollout.Int32(2) }},
		{"no deadline", func(d *rollout.Deployment) { d.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{} }},
		{"zero replicas", func(d *rollout.Deployment) { d.Spec.Replicas = 0 }},
		{"annotations", func(d *rollout.Deployment) {
			d.Annotations = map[string]string{"team": "web", rollout.RevisionAnnotation: "7", rollout.LastAppliedAnnotation: "{}"}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := nginxDeployment(t)
			tt.edit(&d)
			orig := d.DeepCopy()
			s := sim.FromDeployment(d, epoch)
			if !reflect.DeepEqual(orig, d) {
				t.Error("FromDeployment modified d")
			}
			acts, err := rollout.Plan(s)
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			for _, a := range acts {
				if a.IsAPICall() {
					t.Errorf("Plan() on a complete state: %v (%s)", a, a.Reason)
				}
			}
			if !rollout.DeploymentComplete(s.Deployment, s.Deployment.Status) || len(s.ReplicaSets) != 1 {
				t.Errorf("state %+v is not complete", s.Deployment.Status)
			}
			rs := s.ReplicaSets[0]
			if rs.Annotations[rollout.RevisionAnnotation] != "1" || rs.Annotations[rollout.LastAppliedAnnotation] != "" ||
				!strings.HasPrefix(rs.Name, "nginx-deployment-") || rs.UID != "uid-"+rs.Name {
				t.Errorf("ReplicaSet %s %s annotations %v", rs.Name, rs.UID, rs.Annotations)
			}
		})
	}
}

func TestWithImage(t *testing.T) {
	s := sim.FromDeployment(nginxDeployment(t), epoch)
	got := withImage(t, s, "nginx", "nginx:1.9.3")
	if got.Deployment.Generation != s.Deployment.Generation+1 || !strings.Contains(got.Deployment.Spec.Template.Spec.String(), `"image":"nginx:1.9.3"`) {
		t.Errorf("WithImage() generation %d, spec %s", got.Deployment.Generation, got.Deployment.Spec.Template.Spec)
	}
	if strings.Contains(s.Deployment.Spec.Template.Spec.String(), "1.9.3") {
		t.Error("WithImage modified its input")
	}
	if same := withImage(t, s, "nginx", "nginx:1.9"); !reflect.DeepEqual(same, s) { // the same image
		t.Errorf("WithImage() = %s, want the state unchanged", same.Deployment.Spec.Template.Spec)
	}
	labelled, err := sim.WithTemplateChange(s, func(t *rollout.PodTemplate) error { t.Labels["tier"] = "front"; return nil })
	if err != nil || labelled.Deployment.Generation != s.Deployment.Generation+1 || s.Deployment.Spec.Template.Labels["tier"] != "" {
		t.Errorf("WithTemplateChange() generation %d, error %v, input labels %v", labelled.Deployment.Generation, err, s.Deployment.Spec.Template.Labels)
	}
}

// TestWithImageUnknownContainer is issue 12's: WithImage used to return
// the state unchanged for a container the template does not have, so a
// misspelt name rolled out nothing without a word.
func TestWithImageUnknownContainer(t *testing.T) {
	s := sim.FromDeployment(nginxDeployment(t), epoch)
	for _, tt := range []struct{ container, image, want string }{
		{"sidecar", "x:1", `sim: Deployment "nginx-deployment": container "sidecar": no such container (the pod spec has ["nginx"])`},
		{"nginx", "", `sim: empty image for container "nginx"`},
	} {
		got, err := sim.WithImage(s, tt.container, tt.image)
		if err == nil || err.Error() != tt.want {
			t.Errorf("WithImage(%q, %q) error = %v, want %s", tt.container, tt.image, err, tt.want)
		}
		if tt.image != "" && !errors.Is(err, rollout.ErrNoContainer) {
			t.Errorf("WithImage(%q, %q) error = %v, want one wrapping rollout.ErrNoContainer", tt.container, tt.image, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("WithImage(%q, %q) changed the state", tt.container, tt.image)
		}
	}
	boom := errors.New("boom")
	if _, err := sim.WithTemplateChange(s, func(*rollout.PodTemplate) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("WithTemplateChange() error = %v, want mutate's", err)
	}
}
