package rollout

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestReplaceConditionIsRemoveThenSet checks that replaceCondition, which
// syncRolloutStatus uses for the Progressing condition it rewrites on a
// sync that makes progress, gives what RemoveDeploymentCondition and then
// SetDeploymentCondition give, and leaves its input's conditions as they
// were.
func TestReplaceConditionIsRemoveThenSet(t *testing.T) {
	types := []ConditionType{Available, Progressing, ReplicaFailure}
	statuses := []ConditionStatus{ConditionTrue, ConditionFalse, ConditionUnknown}
	reasons := []string{ReasonReplicaSetUpdated, ReasonNewReplicaSetAvailable, ReasonProgressDeadlineExceeded}
	base := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	cond := func(t *rapid.T, label string) Condition {
		return Condition{
			Type:               rapid.SampledFrom(types).Draw(t, label+"type"),
			Status:             rapid.SampledFrom(statuses).Draw(t, label+"status"),
			Reason:             rapid.SampledFrom(reasons).Draw(t, label+"reason"),
			Message:            rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, label+"message"),
			LastUpdateTime:     base.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, label+"update")) * time.Second),
			LastTransitionTime: base.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, label+"transition")) * time.Second),
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		var s DeploymentStatus
		for i := range rapid.IntRange(0, 4).Draw(t, "conditions") {
			s.Conditions = append(s.Conditions, cond(t, string(rune('a'+i))))
		}
		before := append([]Condition(nil), s.Conditions...)
		c := cond(t, "c")
		want := SetDeploymentCondition(RemoveDeploymentCondition(s, c.Type), c)
		got := replaceCondition(s, c)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("replaceCondition differs from Remove then Set (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(before, s.Conditions); diff != "" {
			t.Fatalf("replaceCondition changed its input's conditions (-before +after):\n%s", diff)
		}
	})
}

// TestStatusWhy checks that a status write's reason names its Progressing
// reason, for the reasons statusWhy keeps as constants and for others.
func TestStatusWhy(t *testing.T) {
	for _, r := range []string{ReasonReplicaSetUpdated, ReasonNewReplicaSetAvailable, ReasonNewReplicaSetCreated, ReasonFoundNewReplicaSet, ReasonProgressDeadlineExceeded, ReasonDeploymentPaused, ReasonDeploymentResumed, "SomethingElse", ""} {
		if got, want := statusWhy(r), "status recomputed from the ReplicaSets; Progressing: "+r; got != want {
			t.Errorf("statusWhy(%q) = %q, want %q", r, got, want)
		}
	}
}
