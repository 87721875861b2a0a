package rollout_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

var (
	condP1 = rollout.Condition{Type: rollout.Progressing, Status: rollout.ConditionFalse, Reason: "ForSomeReason"}
	condP2 = rollout.Condition{Type: rollout.Progressing, Status: rollout.ConditionTrue, Reason: "BecauseItIs"}
	condA  = rollout.Condition{Type: rollout.Available, Status: rollout.ConditionTrue, Reason: "AwesomeController"}
)

// TestGetCondition ports upstream's TestGetCondition (B.7).
func TestGetCondition(t *testing.T) {
	s := rollout.DeploymentStatus{Conditions: []rollout.Condition{condP1, condA}}
	type result struct {
		C  rollout.Condition
		OK bool
	}
	tests := []struct {
		name string
		t    rollout.ConditionType
		want result
	}{
		{name: "condition exists", t: rollout.Available, want: result{condA, true}},
		{name: "condition does not exist", t: rollout.ReplicaFailure, want: result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := rollout.GetDeploymentCondition(s, tt.t)
			if diff := cmp.Diff(tt.want, result{c, ok}); diff != "" {
				t.Errorf("GetDeploymentCondition() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSetCondition ports upstream's TestSetCondition (B.7), and checks the
// input's conditions are not changed in place.
func TestSetCondition(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Hour)
	at := func(c rollout.Condition, update, transition time.Time) rollout.Condition {
		c.LastUpdateTime, c.LastTransitionTime = update, transition
		return c
	}
	tests := []struct {
		name   string
		status []rollout.Condition
		cond   rollout.Condition
		want   []rollout.Condition
	}{
		{name: "set for the first time", cond: condA, want: []rollout.Condition{condA}},
		{name: "simple set", status: []rollout.Condition{condP1}, cond: condA, want: []rollout.Condition{condP1, condA}},
		{name: "overwrite", status: []rollout.Condition{condP1}, cond: condP2, want: []rollout.Condition{condP2}},
		// Not upstream (R-COND-3): same status and reason keep the old
		// condition; same status, new reason keeps the transition time and
		// moves the condition to the end.
		{
			name:   "same status and reason: unchanged",
			status: []rollout.Condition{at(condP2, t0, t0), condA},
			cond:   at(condP2, t1, t1),
			want:   []rollout.Condition{at(condP2, t0, t0), condA},
		},
		{
			name:   "new status, same reason: replaced",
			status: []rollout.Condition{at(condA, t0, t0)},
			cond:   at(rollout.Condition{Type: rollout.Available, Status: rollout.ConditionFalse, Reason: "AwesomeController"}, t1, t1),
			want:   []rollout.Condition{at(rollout.Condition{Type: rollout.Available, Status: rollout.ConditionFalse, Reason: "AwesomeController"}, t1, t1)},
		},
		{
			name:   "same status, new reason: keeps the transition time, moves to the end",
			status: []rollout.Condition{at(condA, t0, t0), condP1},
			cond:   at(rollout.Condition{Type: rollout.Available, Status: rollout.ConditionTrue, Reason: "Other"}, t1, t1),
			want:   []rollout.Condition{condP1, at(rollout.Condition{Type: rollout.Available, Status: rollout.ConditionTrue, Reason: "Other"}, t1, t0)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := rollout.DeploymentStatus{Conditions: tt.status}
			before := slices.Clone(tt.status)
			got := rollout.SetDeploymentCondition(in, tt.cond)
			if diff := cmp.Diff(tt.want, got.Conditions); diff != "" {
				t.Errorf("SetDeploymentCondition() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.status); diff != "" {
				t.Errorf("SetDeploymentCondition() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestRemoveCondition ports upstream's TestRemoveCondition (B.7); none left
// gives nil.
func TestRemoveCondition(t *testing.T) {
	tests := []struct {
		name   string
		status []rollout.Condition
		t      rollout.ConditionType
		want   []rollout.Condition
	}{
		{name: "remove from empty status", t: rollout.Progressing},
		{name: "simple remove", status: []rollout.Condition{condP1}, t: rollout.Progressing},
		{name: "doesn't remove anything", status: []rollout.Condition{condP1, condA}, t: rollout.ReplicaFailure, want: []rollout.Condition{condP1, condA}},
		// Not upstream: every condition of the type goes, the others keep
		// their order.
		{name: "duplicates", status: []rollout.Condition{condP1, condA, condP2}, t: rollout.Progressing, want: []rollout.Condition{condA}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.status)
			got := rollout.RemoveDeploymentCondition(rollout.DeploymentStatus{Conditions: tt.status}, tt.t)
			if diff := cmp.Diff(tt.want, got.Conditions); diff != "" {
				t.Errorf("RemoveDeploymentCondition() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.status); diff != "" {
				t.Errorf("RemoveDeploymentCondition() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestDeploymentComplete ports upstream's TestDeploymentComplete (B.8).
func TestDeploymentComplete(t *testing.T) {
	deployment := func(desired, current, updated, available, maxUnavailable, maxSurge int32) rollout.Deployment {
		d := rollout.RollingDeployment(desired, surge.Count(maxSurge), surge.Count(maxUnavailable))
		d.Status = rollout.DeploymentStatus{Replicas: current, UpdatedReplicas: updated, AvailableReplicas: available}
		return d
	}
	tests := []struct {
		name string
		d    rollout.Deployment
		want bool
	}{
		{name: "not complete: min but not all pods become available", d: deployment(5, 5, 5, 4, 1, 0), want: false},
		{name: "not complete: min availability is not honored", d: deployment(5, 5, 5, 3, 1, 0), want: false},
		{name: "complete", d: deployment(5, 5, 5, 5, 0, 0), want: true},
		{name: "not complete: all pods are available but not updated", d: deployment(5, 5, 4, 5, 0, 0), want: false},
		{name: "not complete: still running old pods", d: deployment(1, 2, 1, 1, 0, 1), want: false},
		{name: "not complete: one replica deployment never comes up", d: deployment(1, 1, 1, 0, 1, 1), want: false},
		// Not upstream (R-PRED-1): an unobserved generation is not complete.
		{name: "not complete: generation not observed", d: func() rollout.Deployment {
			d := deployment(5, 5, 5, 5, 0, 0)
			d.Generation = 2
			d.Status.ObservedGeneration = 1
			return d
		}(), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.DeploymentComplete(tt.d, tt.d.Status)); diff != "" {
				t.Errorf("DeploymentComplete() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentProgressing ports upstream's TestDeploymentProgressing
// (B.9).
func TestDeploymentProgressing(t *testing.T) {
	status := func(current, updated, ready, available int32) rollout.DeploymentStatus {
		return rollout.DeploymentStatus{Replicas: current, UpdatedReplicas: updated, ReadyReplicas: ready, AvailableReplicas: available}
	}
	tests := []struct {
		name      string
		old, next rollout.DeploymentStatus
		want      bool
	}{
		{name: "progressing: updated pods", old: status(10, 4, 4, 4), next: status(10, 6, 4, 4), want: true},
		{name: "not progressing", old: status(10, 4, 4, 4), next: status(10, 4, 4, 4), want: false},
		{name: "progressing: old pods removed", old: status(10, 4, 6, 6), next: status(8, 4, 6, 6), want: true},
		{name: "not progressing: less new pods", old: status(10, 7, 3, 3), next: status(10, 6, 3, 3), want: false},
		{name: "progressing: less overall but more new pods", old: status(10, 4, 7, 7), next: status(8, 8, 5, 5), want: true},
		{name: "progressing: more ready pods", old: status(10, 10, 9, 8), next: status(10, 10, 10, 8), want: true},
		{name: "progressing: more available pods", old: status(10, 10, 10, 9), next: status(10, 10, 10, 10), want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollout.Deployment{Status: tt.old}
			if diff := cmp.Diff(tt.want, rollout.DeploymentProgressing(d, tt.next)); diff != "" {
				t.Errorf("DeploymentProgressing() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentTimedOut ports upstream's TestDeploymentTimedOut (B.10),
// plus the clock going backwards: a now before the condition's update time
// is not a timeout.
func TestDeploymentTimedOut(t *testing.T) {
	at := func(min, sec int) time.Time { return time.Date(2016, 1, 1, 0, min, sec, 0, time.UTC) }
	deployment := func(reason string, pds rollout.OptionalInt32, from time.Time) rollout.Deployment {
		return rollout.Deployment{
			Spec: rollout.DeploymentSpec{ProgressDeadlineSeconds: pds},
			Status: rollout.DeploymentStatus{Conditions: []rollout.Condition{{
				Type: rollout.Progressing, Status: rollout.ConditionTrue, Reason: reason, LastUpdateTime: from,
			}}},
		}
	}
	ten := rollout.Int32(10)
	tests := []struct {
		name string
		d    rollout.Deployment
		now  time.Time
		want bool
	}{
		{name: "nil progressDeadlineSeconds specified - no timeout", d: deployment("", rollout.OptionalInt32{}, at(1, 9)), now: at(1, 20), want: false},
		{name: "infinite progressDeadlineSeconds specified - no timeout", d: deployment("", rollout.Int32(math.MaxInt32), at(1, 9)), now: at(1, 20), want: false},
		{name: "progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s", d: deployment("", ten, at(1, 9)), now: at(1, 20), want: true},
		{name: "progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s", d: deployment("", ten, at(1, 11)), now: at(1, 20), want: false},
		{name: "previous status was a complete deployment", d: deployment(rollout.ReasonNewReplicaSetAvailable, rollout.OptionalInt32{}, time.Time{}), want: false},
		// Not upstream (R-PRED-3).
		{name: "exactly at the deadline is not a timeout", d: deployment("", ten, at(1, 10)), now: at(1, 20), want: false},
		{name: "now before the update time is not a timeout", d: deployment("", ten, at(1, 9)), now: at(0, 0), want: false},
		{name: "complete with a deadline never times out", d: deployment(rollout.ReasonNewReplicaSetAvailable, ten, at(0, 0)), now: at(59, 0), want: false},
		{name: "already timed out", d: deployment(rollout.ReasonProgressDeadlineExceeded, ten, at(1, 9)), now: at(1, 9), want: true},
		{name: "no Progressing condition", d: rollout.Deployment{Spec: rollout.DeploymentSpec{ProgressDeadlineSeconds: ten}}, now: at(59, 0), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.DeploymentTimedOut(tt.d, tt.d.Status, tt.now)); diff != "" {
				t.Errorf("DeploymentTimedOut() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
