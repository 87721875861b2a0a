package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestFloorAndCeilingFollowReplicaChanges is issue 11's defect 5: the
// floor and the ceiling kept their starting values when the replicas
// changed, so scaling 10 down to 4 counted minutes "below the floor" of
// 8, and scaling up to 20 showed a peak of 25 against a ceiling of 13.
func TestFloorAndCeilingFollowReplicaChanges(t *testing.T) {
	s := rollingState(t, 10, rolling(surge.Percent(25), surge.Percent(25)))
	cfg := sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Pods: sim.PodModel{ReadyAfter: 20 * time.Second}}

	cfg.Changes = []sim.ReplicaChange{{After: 40 * time.Second, Replicas: 4}}
	down := run(t, s, cfg).Summary
	if down.Outcome != sim.OutcomeComplete || down.BelowFloor != 0 {
		t.Errorf("scaled down to 4: %+v, want complete and never below the floor of the moment", down)
	}

	cfg.Changes = []sim.ReplicaChange{{After: 40 * time.Second, Replicas: 20}}
	res := run(t, s, cfg)
	up := res.Summary
	if up.Outcome != sim.OutcomeComplete || up.PeakPods != 25 || up.Ceiling != 25 || up.PeakPodsAt < 40*time.Second {
		t.Errorf("scaled up to 20: %+v, want a peak of 25 against the ceiling of 25 after the change", up)
	}
	for _, st := range res.Steps {
		floor, ceiling := int32(8), int64(13)
		if st.At.Sub(epoch) >= 40*time.Second {
			floor, ceiling = 15, 25
		}
		replicas := int32(10)
		if st.At.Sub(epoch) >= 40*time.Second {
			replicas = 20
		}
		if st.Replicas != replicas || st.Floor != floor || st.Ceiling != ceiling {
			t.Errorf("step at +%v: replicas %d, floor %d, ceiling %d; want %d, %d and %d", st.At.Sub(epoch), st.Replicas, st.Floor, st.Ceiling, replicas, floor, ceiling)
		}
	}
}

// TestStartIsTheInputBeforeTheFirstSync checks Result.Start: the pods the
// input holds, which the steps (after each sync) may not show, and which
// the summary's extremes count from.
func TestStartIsTheInputBeforeTheFirstSync(t *testing.T) {
	s := rollingState(t, 4, rolling(surge.Count(1), surge.Count(0)))
	s.ReplicaSets[0].Status.TerminatingReplicas = rollout.Int32(3) // 4 running and 3 terminating
	res := run(t, s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Pods: sim.PodModel{Terminating: 10 * time.Second}})
	pods, avail := res.Start.Pods()
	if pods != 7 || avail != 4 || !res.Start.At.Equal(epoch) || len(res.Start.Actions) != 0 || res.Start.Floor != 4 || res.Start.Ceiling != 5 {
		t.Errorf("Start = %+v (%d pods, %d available), want the input's 7 pods, 4 available", res.Start, pods, avail)
	}
	// The first sync, at the start, adds a surge pod to the 7.
	if sm := res.Summary; sm.PeakPods != 8 || sm.PeakPodsAt != 0 || sm.Ceiling != 5 {
		t.Errorf("summary %+v, want a peak of 8 pods at the first sync", sm)
	}
}

// TestRunTakesOptionsFromTheState checks that the options are the
// State's, the one place they live.
func TestRunTakesOptionsFromTheState(t *testing.T) {
	s := rollingState(t, 3, rolling(surge.Count(1), surge.Count(0)))
	s.Options.OmitTerminatingReplicas = true
	res := run(t, s, sim.Config{Model: sim.ModelSimple})
	if tr := res.Final.Deployment.Status.TerminatingReplicas; tr.Valid {
		t.Errorf("terminatingReplicas = %+v, want it unset under Options.OmitTerminatingReplicas", tr)
	}
	if !res.Final.Options.OmitTerminatingReplicas {
		t.Error("the final state lost the options")
	}
}

func TestOutcomeStuck(t *testing.T) {
	for o, want := range map[sim.Outcome]bool{
		sim.OutcomeComplete: false, sim.OutcomeDeadlineExceeded: false, sim.OutcomeLimit: false,
		sim.OutcomePaused: true, sim.OutcomeQuota: true, sim.OutcomeNeverReady: true, sim.OutcomeSyncFails: true, sim.OutcomeStalled: true,
	} {
		if o.Stuck() != want {
			t.Errorf("%q.Stuck() = %v, want %v", o, !want, want)
		}
	}
}

// TestRunWorkLimit: a run stops after MaxWork syncs computed one by one,
// and says which limit it reached; regular syncs that a fast-forward takes
// do not count.
func TestRunWorkLimit(t *testing.T) {
	s := rollingState(t, 200, rolling(surge.Count(1), surge.Count(0)))
	res := run(t, s, sim.Config{Model: sim.ModelSimple, MaxWork: 50, Pods: sim.PodModel{ReadyAfter: 10 * time.Second, ReadyJitter: time.Second}})
	if sm := res.Summary; sm.Outcome != sim.OutcomeLimit || sm.Syncs != 50 || !strings.Contains(sm.Detail, "(MaxWork)") {
		t.Errorf("jittered: %+v, want the limit after 50 syncs", sm)
	}
	res = run(t, s, sim.Config{Model: sim.ModelSimple, MaxWork: 200})
	if sm := res.Summary; sm.Outcome != sim.OutcomeComplete || sm.Syncs != 402 {
		t.Errorf("regular: %+v, want complete in 402 syncs within 200 computed", sm)
	}
}
