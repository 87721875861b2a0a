package rollout_test

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestCalculateStatus: the status computed from the ReplicaSets alone
// (R-STAT-1): sums, the spec-based unavailable count, the new ReplicaSet's
// replicas as updated, and Available against replicas - maxUnavailable,
// stamped at now truncated to the second.
func TestCalculateStatus(t *testing.T) {
	now := rollout.WebEpoch.Add(time.Hour + 500*time.Millisecond)
	ts := now.Truncate(time.Second)
	earlier := rollout.WebEpoch
	progressing := rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "kept", earlier)
	rs := func(name string, spec, status, ready, available int32, terminating rollout.OptionalInt32) *rollout.ReplicaSet {
		r := rollout.WebReplicaSet(name, name, spec, 1, earlier)
		r.Status = rollout.ReplicaSetStatus{Replicas: status, ReadyReplicas: ready, AvailableReplicas: available,
			TerminatingReplicas: terminating, ObservedGeneration: 1}
		return &r
	}
	availableTrue := rollout.NewDeploymentCondition(rollout.Available, rollout.ConditionTrue, rollout.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", ts)
	availableFalse := rollout.NewDeploymentCondition(rollout.Available, rollout.ConditionFalse, rollout.ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", ts)
	tests := []struct {
		name    string
		all     []*rollout.ReplicaSet
		newRS   int // index in all, -1 for none
		opts    rollout.Options
		want    rollout.DeploymentStatus
		wantErr string // the overflowing field
	}{
		{
			// 10 replicas, 25%: at least 8 available.
			name:  "mid-rollout",
			all:   []*rollout.ReplicaSet{rs("old", 8, 8, 8, 8, rollout.Int32(1)), rs("new", 5, 3, 2, 1, rollout.Int32(0))},
			newRS: 1,
			want: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 11, UpdatedReplicas: 3, ReadyReplicas: 10, AvailableReplicas: 9,
				UnavailableReplicas: 4, TerminatingReplicas: rollout.Int32(1), CollisionCount: rollout.Int32(2),
				Conditions: []rollout.Condition{progressing, availableTrue}},
		},
		{
			name:  "below minimum availability, no new ReplicaSet",
			all:   []*rollout.ReplicaSet{rs("old", 10, 10, 7, 7, rollout.Int32(0))},
			newRS: -1,
			want: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 10, ReadyReplicas: 7, AvailableReplicas: 7,
				UnavailableReplicas: 3, TerminatingReplicas: rollout.Int32(0), CollisionCount: rollout.Int32(2),
				Conditions: []rollout.Condition{progressing, availableFalse}},
		},
		{
			name:  "more available than desired: unavailable is 0",
			all:   []*rollout.ReplicaSet{rs("old", 2, 12, 12, 12, rollout.Int32(0))},
			newRS: -1,
			want: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 12, ReadyReplicas: 12, AvailableReplicas: 12,
				TerminatingReplicas: rollout.Int32(0), CollisionCount: rollout.Int32(2),
				Conditions: []rollout.Condition{progressing, availableTrue}},
		},
		{
			name:  "terminating unknown",
			all:   []*rollout.ReplicaSet{rs("old", 10, 10, 10, 10, rollout.OptionalInt32{})},
			newRS: 0,
			want: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10,
				CollisionCount: rollout.Int32(2), Conditions: []rollout.Condition{progressing, availableTrue}},
		},
		{
			name:  "OmitTerminatingReplicas",
			all:   []*rollout.ReplicaSet{rs("old", 10, 10, 10, 10, rollout.Int32(3))},
			newRS: 0,
			opts:  rollout.Options{OmitTerminatingReplicas: true},
			want: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10,
				CollisionCount: rollout.Int32(2), Conditions: []rollout.Condition{progressing, availableTrue}},
		},
		{
			name:  "a sum at MinInt32 fits",
			all:   []*rollout.ReplicaSet{rs("a", 0, math.MinInt32, 0, 0, rollout.Int32(0))},
			newRS: -1,
			want: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: math.MinInt32, TerminatingReplicas: rollout.Int32(0), CollisionCount: rollout.Int32(2),
				Conditions: []rollout.Condition{progressing, availableFalse}},
		},
		{
			name:    "status replicas past int32",
			all:     []*rollout.ReplicaSet{rs("a", 1, math.MaxInt32, 0, 0, rollout.Int32(0)), rs("b", 1, 1, 0, 0, rollout.Int32(0))},
			newRS:   -1,
			wantErr: "status.replicas",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollout.WebState(10, rollout.DefaultRollingUpdate(), "new").Deployment
			d.Status.CollisionCount = rollout.Int32(2)
			d.Status.Conditions = []rollout.Condition{progressing}
			before := d.DeepCopy()
			var newRS *rollout.ReplicaSet
			if tt.newRS >= 0 {
				newRS = tt.all[tt.newRS]
			}
			got, err := rollout.CalculateStatus(&d, tt.all, newRS, now, tt.opts)
			if tt.wantErr != "" {
				var oe *rollout.OverflowError
				if !errors.As(err, &oe) || oe.Field != tt.wantErr {
					t.Fatalf("CalculateStatus() error = %v, want an *OverflowError for %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("CalculateStatus() error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CalculateStatus() mismatch (-want +got):\n%s", diff)
			}
			got.Conditions[0].Message = "scribbled"
			if diff := cmp.Diff(before, d, rollout.StateCmp); diff != "" {
				t.Errorf("CalculateStatus() modified or shares the Deployment (-before +after):\n%s", diff)
			}
		})
	}
}

// TestCalculateStatusIsPlans: the status Plan writes for a Deployment
// being deleted (R-STAT-3) is CalculateStatus of its ReplicaSets.
func TestCalculateStatusIsPlans(t *testing.T) {
	s := rollout.WebState(10, rollout.DefaultRollingUpdate(), "v2",
		rollout.WebReplicaSet("web-v1", "v1", 8, 1, rollout.WebEpoch),
		rollout.WebReplicaSet("web-v2", "v2", 5, 2, rollout.WebEpoch.Add(time.Minute)))
	s.Deployment.DeletionTimestamp = s.Now
	s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}
	s.Deployment.Status.Conditions = []rollout.Condition{
		rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "", rollout.WebEpoch)}
	s.ReplicaSets[1].Annotations[rollout.DesiredReplicasAnnotation] = "10"
	s.ReplicaSets[1].Status.AvailableReplicas = 2
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	if len(actions) != 1 || actions[0].Type != rollout.UpdateDeploymentStatus {
		t.Fatalf("Plan() = %v, want one status write", actions)
	}
	p := rollout.Pointers(s.ReplicaSets)
	want, err := rollout.CalculateStatus(&s.Deployment, p, p[1], s.Now, s.Options)
	if err != nil {
		t.Fatalf("CalculateStatus() error: %v", err)
	}
	if diff := cmp.Diff(&want, actions[0].Status); diff != "" {
		t.Errorf("Plan()'s status differs from CalculateStatus() (-CalculateStatus +Plan):\n%s", diff)
	}
}

// TestPlanTimestampsTruncated: every condition time a sync writes is
// State.Now truncated to the second, as the API server stores it, in the
// conditions each step stamps: NewReplicaSetCreated, DeploymentPaused,
// Available (true or false), ReplicaSetUpdated, NewReplicaSetAvailable and
// ProgressDeadlineExceeded. A transition time carried over from the
// Deployment's status is the only other time a written condition may have.
func TestPlanTimestampsTruncated(t *testing.T) {
	now := rollout.WebEpoch.Add(time.Hour + 750*time.Millisecond)
	ts := now.Truncate(time.Second)
	v1 := func(size, available int32) rollout.ReplicaSet {
		rs := rollout.WebReplicaSet("web-v1", "v1", size, 1, rollout.WebEpoch)
		rs.Status.AvailableReplicas, rs.Status.ReadyReplicas = available, available
		return rs
	}
	v2 := func(size, available int32) rollout.ReplicaSet {
		rs := rollout.WebReplicaSet("web-v2", "v2", size, 2, rollout.WebEpoch.Add(time.Minute))
		rs.Status.AvailableReplicas, rs.Status.ReadyReplicas = available, available
		return rs
	}
	// updated is a Deployment of 3 on v2 whose status is what its
	// ReplicaSets report, and which was last progressing at WebEpoch.
	updated := func(sets ...rollout.ReplicaSet) rollout.State {
		s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", sets...)
		s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}
		st, err := rollout.CalculateStatus(&s.Deployment, rollout.Pointers(sets), &sets[len(sets)-1], rollout.WebEpoch, s.Options)
		if err != nil {
			t.Fatal(err)
		}
		st.Conditions = []rollout.Condition{rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "", rollout.WebEpoch)}
		s.Deployment.Status = st
		return s
	}
	progressing := updated(v1(2, 2), v2(1, 1))
	progressing.Deployment.Status.UpdatedReplicas = 0 // the last sync saw none
	paused := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", v1(3, 3))
	paused.Deployment.Spec.Paused = true
	tests := []struct {
		name    string
		s       rollout.State
		reasons []string // the conditions the sync stamps
	}{
		{"a new ReplicaSet", rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", v1(3, 3)),
			[]string{rollout.ReasonNewReplicaSetCreated, rollout.ReasonMinimumReplicasAvailable}},
		{"paused", paused, []string{rollout.ReasonDeploymentPaused, rollout.ReasonMinimumReplicasAvailable}},
		{"progressing", progressing, []string{rollout.ReasonReplicaSetUpdated, rollout.ReasonMinimumReplicasAvailable}},
		{"stalled past the deadline", updated(v1(2, 2), v2(2, 0)),
			[]string{rollout.ReasonProgressDeadlineExceeded, rollout.ReasonMinimumReplicasUnavailable}},
		{"complete", updated(v1(0, 0), v2(3, 3)), []string{rollout.ReasonNewReplicaSetAvailable, rollout.ReasonMinimumReplicasAvailable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.Now = now
			actions, err := rollout.Plan(tt.s)
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			carried := map[rollout.ConditionType]time.Time{}
			for _, c := range tt.s.Deployment.Status.Conditions {
				carried[c.Type] = c.LastTransitionTime
			}
			stamped := map[string]bool{}
			for _, a := range actions {
				if a.Type != rollout.UpdateDeploymentStatus {
					continue
				}
				for _, c := range a.Status.Conditions {
					if slices.Contains(tt.s.Deployment.Status.Conditions, c) {
						continue // carried over unchanged
					}
					stamped[c.Reason] = true
					if !c.LastUpdateTime.Equal(ts) {
						t.Errorf("%s %s: lastUpdateTime %v, want %v (now %v truncated)", c.Type, c.Reason, c.LastUpdateTime, ts, now)
					}
					if !c.LastTransitionTime.Equal(ts) && !c.LastTransitionTime.Equal(carried[c.Type]) {
						t.Errorf("%s %s: lastTransitionTime %v, want %v or the one carried over", c.Type, c.Reason, c.LastTransitionTime, ts)
					}
				}
			}
			for _, r := range tt.reasons {
				if !stamped[r] {
					t.Errorf("no condition %s written; the sync wrote %v", r, stamped)
				}
			}
		})
	}
}

// TestReplicaFailureCondition: a rollout sync copies the ReplicaFailure
// condition of the new ReplicaSet, or else of the first ReplicaSet that
// has one, onto the Deployment, and removes the Deployment's when none has
// one (R-STAT-5).
func TestReplicaFailureCondition(t *testing.T) {
	failure := func(msg string) []rollout.ReplicaSetCondition {
		return []rollout.ReplicaSetCondition{{Type: rollout.ReplicaFailure, Status: rollout.ConditionTrue, Reason: "FailedCreate", Message: msg}}
	}
	other := []rollout.ReplicaSetCondition{{Type: "Other", Status: rollout.ConditionTrue, Reason: "R", Message: "other"}}
	tests := []struct {
		name         string
		old, new     []rollout.ReplicaSetCondition
		had          bool   // the Deployment had a ReplicaFailure condition
		wantMessage  string // "" for none
		wantNoChange bool
	}{
		{name: "the new ReplicaSet's", old: failure("old"), new: append(slices.Clone(other), failure("new")...), wantMessage: "new"},
		{name: "an old ReplicaSet's", old: append(slices.Clone(other), failure("old")...), new: other, wantMessage: "old"},
		{name: "none, the Deployment's removed", old: other, had: true},
		{name: "none at all", wantNoChange: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v1 := rollout.WebReplicaSet("web-v1", "v1", 1, 1, rollout.WebEpoch)
			v1.Status.Conditions = tt.old
			v2 := rollout.WebReplicaSet("web-v2", "v2", 3, 2, rollout.WebEpoch.Add(time.Minute))
			v2.Status.Conditions = tt.new
			s := rollout.WebState(3, rollout.RollingUpdate{MaxSurge: surge.Count(1), MaxUnavailable: surge.Count(1)}, "v2", v1, v2)
			s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}
			s.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{}
			p := rollout.Pointers(s.ReplicaSets)
			st, err := rollout.CalculateStatus(&s.Deployment, p, p[1], s.Now, s.Options)
			if err != nil {
				t.Fatal(err)
			}
			if tt.had {
				st.Conditions = append(st.Conditions, rollout.Condition{Type: rollout.ReplicaFailure, Status: rollout.ConditionTrue, Reason: "FailedCreate", Message: "stale"})
			}
			s.Deployment.Status = st
			actions, err := rollout.Plan(s)
			if err != nil {
				t.Fatal(err)
			}
			var written *rollout.DeploymentStatus
			for i := range actions {
				if actions[i].Type == rollout.UpdateDeploymentStatus {
					written = actions[i].Status
				}
			}
			if tt.wantNoChange {
				if written != nil {
					t.Errorf("status written: %+v", *written)
				}
				return
			}
			if written == nil {
				t.Fatalf("no status written: %v", actions)
			}
			c, ok := rollout.GetDeploymentCondition(*written, rollout.ReplicaFailure)
			if got := c.Message; ok != (tt.wantMessage != "") || got != tt.wantMessage {
				t.Errorf("ReplicaFailure %q (present %v), want %q", got, ok, tt.wantMessage)
			}
		})
	}
}

// TestPausedWithoutDeadline: pausing records DeploymentPaused in the
// Progressing condition only for a Deployment with a progress deadline
// (R-PAUSE-1).
func TestPausedWithoutDeadline(t *testing.T) {
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v1", rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch))
	s.Deployment.Spec.Paused = true
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if a.Status == nil {
			continue
		}
		if _, ok := rollout.GetDeploymentCondition(*a.Status, rollout.Progressing); ok {
			t.Errorf("%v writes a Progressing condition without a deadline: %+v", a, a.Status.Conditions)
		}
	}
}

// TestPausedAfterDeadlineExceeded is Q-25: once the progress deadline was
// exceeded, pausing does not replace ProgressDeadlineExceeded with
// DeploymentPaused.
func TestPausedAfterDeadlineExceeded(t *testing.T) {
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v1", rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch))
	s.Deployment.Spec.Paused = true
	s.Deployment.Status.Conditions = []rollout.Condition{rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionFalse,
		rollout.ReasonProgressDeadlineExceeded, "m", rollout.WebEpoch)}
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if a.Status == nil {
			continue
		}
		if c, ok := rollout.GetDeploymentCondition(*a.Status, rollout.Progressing); ok && c.Reason != rollout.ReasonProgressDeadlineExceeded {
			t.Errorf("%v writes Progressing %s, want ProgressDeadlineExceeded kept", a, c.Reason)
		}
	}
}
