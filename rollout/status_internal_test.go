package rollout

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRequeueStuckDeployment ports upstream's TestRequeueStuckDeployment
// (vectors C.10) through planner.requeueStuckDeployment: upstream's -1 is no
// RecheckProgress, 0 is one at now, and a duration d one at now+d+1s
// (upstream adds the second when it enqueues).
func TestRequeueStuckDeployment(t *testing.T) {
	pds := Int32(60)
	failed := []Condition{{Type: Progressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded}}
	stuck := []Condition{{Type: Progressing, Status: ConditionTrue, LastUpdateTime: time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)}}
	at := func(min, sec, nsec int) time.Time { return time.Date(2017, 2, 15, 18, min, sec, nsec, time.UTC) }
	const never, immediately = time.Duration(-1), time.Duration(0)
	tests := []struct {
		name   string
		d      Deployment
		status DeploymentStatus
		now    time.Time
		want   time.Duration
	}{
		{name: "nil progressDeadlineSeconds specified", d: UpstreamCurrentDeployment(OptionalInt32{}, 4, 3, 3, 2, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}, now: at(49, 0, 0), want: never},
		{name: "infinite progressDeadlineSeconds specified", d: UpstreamCurrentDeployment(Int32(math.MaxInt32), 4, 3, 3, 2, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}, now: at(49, 0, 0), want: never},
		{name: "no progressing condition found", d: UpstreamCurrentDeployment(pds, 4, 3, 3, 2, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}, now: at(49, 0, 0), want: never},
		{name: "complete deployment does not need to be requeued", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 3, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3}, now: at(49, 0, 0), want: never},
		{name: "already failed deployment does not need to be requeued", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 0, failed), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3}, now: at(49, 0, 0), want: never},
		{name: "stuck deployment - 30s", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(49, 30, 0), want: 30 * time.Second},
		{name: "stuck deployment - 1s", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(49, 59, 0), want: time.Second},
		{name: "failed deployment - less than a second => now", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(49, 59, 1), want: immediately},
		{name: "failed deployment - now", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(50, 0, 0), want: immediately},
		{name: "failed deployment - 1s after deadline", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(50, 1, 0), want: immediately},
		{name: "failed deployment - 60s after deadline", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(51, 0, 0), want: immediately},
		// Not upstream: a clock before the condition's update time waits
		// for the whole deadline from then.
		{name: "now before the last update", d: UpstreamCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(48, 0, 0), want: 120 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := testPlanner(tt.d, tt.now)
			p.requeueStuckDeployment(tt.status)
			type recheck struct {
				Type ActionType
				At   time.Time
			}
			var want, got []recheck
			switch {
			case tt.want == never:
			case tt.want == immediately:
				want = []recheck{{RecheckProgress, tt.now}}
			default:
				want = []recheck{{RecheckProgress, tt.now.Add(tt.want + time.Second)}}
			}
			for _, a := range p.actions {
				got = append(got, recheck{a.Type, a.At})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("requeueStuckDeployment() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSyncRolloutStatus ports upstream's TestSyncRolloutStatus (vectors
// C.11) through planner.syncRolloutStatus and checks the whole resulting
// Progressing condition: upstream's own time checks compare the test's
// fields with themselves, so "keep" rows are checked here for real. The new
// ReplicaSet, if any, is appended to allRSs.
func TestSyncRolloutStatus(t *testing.T) {
	pds := Int32(60)
	testTime := time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)
	now := testTime.Add(time.Hour)
	failedTimedOut := Condition{Type: Progressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded}
	newRSAvailable := Condition{Type: Progressing, Status: ConditionTrue, Reason: ReasonNewReplicaSetAvailable, LastUpdateTime: testTime, LastTransitionTime: testTime}
	replicaSetUpdated := Condition{Type: Progressing, Status: ConditionTrue, Reason: ReasonReplicaSetUpdated, LastUpdateTime: testTime, LastTransitionTime: testTime}
	withAvailable := func(name string, spec, status, available int32) *ReplicaSet {
		rs := UpstreamRS(name, spec, nil, time.Time{})
		rs.Status = ReplicaSetStatus{Replicas: status, AvailableReplicas: available}
		return rs
	}
	cond := func(s ConditionStatus, reason, msg string, update, transition time.Time) *Condition {
		return &Condition{Type: Progressing, Status: s, Reason: reason, Message: msg, LastUpdateTime: update, LastTransitionTime: transition}
	}
	const (
		fooProgressing = `ReplicaSet "foo" is progressing.`
		fooComplete    = `ReplicaSet "foo" has successfully progressed.`
		fooTimedOut    = `ReplicaSet "foo" has timed out progressing.`
	)
	tests := []struct {
		name  string
		d     Deployment
		all   []*ReplicaSet
		newRS *ReplicaSet
		want  *Condition // nil: no Progressing condition
	}{
		{
			name:  "General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline",
			d:     UpstreamCurrentDeployment(OptionalInt32{}, 3, 2, 2, 2, []Condition{replicaSetUpdated}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
		},
		{
			name: "General: do not estimate progress of deployment with only one active ReplicaSet",
			d:    UpstreamCurrentDeployment(pds, 3, 3, 3, 3, []Condition{newRSAvailable}),
			all:  []*ReplicaSet{withAvailable("bar", 3, 3, 3)},
			want: &newRSAvailable,
		},
		{
			name:  "DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True",
			d:     UpstreamCurrentDeployment(pds, 3, 2, 2, 2, []Condition{replicaSetUpdated}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, testTime),
		},
		{
			name:  "DeploymentProgressing: update everything if deployment has Progressing=False",
			d:     UpstreamCurrentDeployment(pds, 3, 2, 2, 2, []Condition{failedTimedOut}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, now),
		},
		{
			name:  "DeploymentProgressing: create Progressing condition if it does not exist",
			d:     UpstreamCurrentDeployment(pds, 3, 2, 2, 2, []Condition{}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, now),
		},
		{
			name:  "DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True",
			d:     UpstreamCurrentDeployment(pds, 3, 3, 3, 3, []Condition{replicaSetUpdated}),
			newRS: withAvailable("foo", 3, 3, 3),
			want:  cond(ConditionTrue, ReasonNewReplicaSetAvailable, fooComplete, now, testTime),
		},
		{
			name:  "DeploymentComplete: update everything if deployment has Progressing=False",
			d:     UpstreamCurrentDeployment(pds, 3, 3, 3, 3, []Condition{failedTimedOut}),
			newRS: withAvailable("foo", 3, 3, 3),
			want:  cond(ConditionTrue, ReasonNewReplicaSetAvailable, fooComplete, now, now),
		},
		{
			name:  "DeploymentComplete: create Progressing condition if it does not exist",
			d:     UpstreamCurrentDeployment(pds, 3, 3, 3, 3, []Condition{}),
			newRS: withAvailable("foo", 3, 3, 3),
			want:  cond(ConditionTrue, ReasonNewReplicaSetAvailable, fooComplete, now, now),
		},
		{
			name: "DeploymentComplete: defend against NPE when newRS=nil",
			d:    UpstreamCurrentDeployment(pds, 0, 3, 3, 3, []Condition{replicaSetUpdated}),
			all:  []*ReplicaSet{withAvailable("foo", 0, 0, 0)},
			want: cond(ConditionTrue, ReasonNewReplicaSetAvailable, `Deployment "progress-test" has successfully progressed.`, now, testTime),
		},
		// Not upstream's rows: a complete rollout stays complete while every
		// replica is updated, and a new one (updated below replicas) is
		// judged again.
		{
			name:  "complete: stays NewReplicaSetAvailable while every replica is updated",
			d:     UpstreamCurrentDeployment(pds, 3, 3, 3, 1, []Condition{newRSAvailable}),
			newRS: withAvailable("foo", 3, 3, 2),
			want:  &newRSAvailable,
		},
		{
			name:  "complete: a new rollout progressing is ReplicaSetUpdated",
			d:     UpstreamCurrentDeployment(pds, 3, 3, 1, 3, []Condition{newRSAvailable}),
			all:   []*ReplicaSet{withAvailable("bar", 1, 1, 1)},
			newRS: withAvailable("foo", 2, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, testTime),
		},
		{
			name:  "DeploymentTimedOut: update status if rollout exceeds Progress Deadline",
			d:     UpstreamCurrentDeployment(pds, 3, 2, 2, 2, []Condition{replicaSetUpdated}),
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionFalse, ReasonProgressDeadlineExceeded, fooTimedOut, now, now),
		},
		{
			name:  "DeploymentTimedOut: do not update status if deployment has existing timedOut condition",
			d:     UpstreamCurrentDeployment(pds, 3, 2, 2, 2, []Condition{failedTimedOut}),
			newRS: withAvailable("foo", 3, 2, 2),
			want:  &failedTimedOut,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := tt.all
			if tt.newRS != nil {
				all = append(all, tt.newRS)
			}
			p := testPlanner(tt.d, now)
			if err := p.syncRolloutStatus(all, tt.newRS); err != nil {
				t.Fatal(err)
			}
			var got *Condition
			if c, ok := GetDeploymentCondition(p.d.Status, Progressing); ok {
				got = &c
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("syncRolloutStatus() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStatusEqual: two statuses are equal only when every count and every
// field of every condition is, times compared as instants (as upstream's
// DeepEqual on what the API server stores), and nil conditions are not an
// empty list.
func TestStatusEqual(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	base := DeploymentStatus{ObservedGeneration: 2, Replicas: 3, CollisionCount: Int32(1), Conditions: []Condition{
		{Type: Available, Status: ConditionTrue, Reason: "R", Message: "m", LastUpdateTime: at, LastTransitionTime: at},
		{Type: Progressing, Status: ConditionTrue, Reason: "P", Message: "n", LastUpdateTime: at, LastTransitionTime: at},
	}}
	for _, tc := range []struct {
		name   string
		change func(s *DeploymentStatus)
		want   bool
	}{
		{"the same", func(*DeploymentStatus) {}, true},
		{"the same instant in another zone", func(s *DeploymentStatus) { s.Conditions[0].LastUpdateTime = at.In(time.FixedZone("x", 3600)) }, true},
		{"a count", func(s *DeploymentStatus) { s.Replicas++ }, false},
		{"the collision count", func(s *DeploymentStatus) { s.CollisionCount = OptionalInt32{} }, false},
		{"one condition fewer", func(s *DeploymentStatus) { s.Conditions = s.Conditions[:1] }, false},
		{"type", func(s *DeploymentStatus) { s.Conditions[1].Type = ReplicaFailure }, false},
		{"status", func(s *DeploymentStatus) { s.Conditions[1].Status = ConditionFalse }, false},
		{"reason", func(s *DeploymentStatus) { s.Conditions[1].Reason = "Q" }, false},
		{"message", func(s *DeploymentStatus) { s.Conditions[1].Message = "o" }, false},
		{"lastUpdateTime", func(s *DeploymentStatus) { s.Conditions[1].LastUpdateTime = at.Add(time.Second) }, false},
		{"lastTransitionTime", func(s *DeploymentStatus) { s.Conditions[1].LastTransitionTime = at.Add(time.Second) }, false},
	} {
		o := base.clone()
		tc.change(&o)
		if got := base.equal(o); got != tc.want {
			t.Errorf("%s: equal() = %v, want %v", tc.name, got, tc.want)
		}
		if got := o.equal(base); got != tc.want {
			t.Errorf("%s, swapped: equal() = %v, want %v", tc.name, got, tc.want)
		}
	}
	if (DeploymentStatus{}).equal(DeploymentStatus{Conditions: []Condition{}}) {
		t.Error("equal() of nil and empty conditions = true, want false (DeepEqual tells them apart)")
	}
}
