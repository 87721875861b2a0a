package rollout_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestNewReplicaSetRevisionNotANumber is Q-9: a new ReplicaSet whose
// revision annotation is present but not a number is not updated (upstream
// stops SetNewReplicaSetAnnotations there), and the Deployment records
// that revision verbatim.
func TestNewReplicaSetRevisionNotANumber(t *testing.T) {
	newRS := rollout.WebReplicaSet("web-v2", "v2", 3, 0, rollout.WebEpoch.Add(time.Minute))
	newRS.Annotations[rollout.RevisionAnnotation] = "abc"
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", rollout.WebReplicaSet("web-v1", "v1", 0, 1, rollout.WebEpoch), newRS)
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if a.Type == rollout.UpdateReplicaSet || a.Type == rollout.ScaleReplicaSet {
			t.Errorf("%v: the new ReplicaSet is written", a)
		}
		if a.Type == rollout.UpdateDeploymentStatus && a.Annotations[rollout.RevisionAnnotation] != "abc" {
			t.Errorf("%v records revision %q, want abc", a, a.Annotations[rollout.RevisionAnnotation])
		}
	}
}

// TestCreateRecordsRevisionAndCondition: a created ReplicaSet carries the
// next revision in decimal (10 after 9), the Deployment records it, and
// the NewReplicaSetCreated condition is written even when the Deployment
// already had that revision; a ReplicaSet created with no replicas comes
// with no event.
func TestCreateRecordsRevisionAndCondition(t *testing.T) {
	for _, tc := range []struct {
		name      string
		replicas  int32
		deployRev string // the Deployment's revision annotation before
		wantEvent bool
	}{
		{"after revision 9", 3, "9", true},
		{"revision already recorded", 3, "10", true},
		{"no replicas", 0, "9", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := rollout.WebState(tc.replicas, rollout.DefaultRollingUpdate(), "v2", rollout.WebReplicaSet("web-v1", "v1", tc.replicas, 9, rollout.WebEpoch))
			s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: tc.deployRev}
			actions, err := rollout.Plan(s)
			if err != nil {
				t.Fatal(err)
			}
			create := actions[0]
			if create.Type != rollout.CreateReplicaSet || create.Annotations[rollout.RevisionAnnotation] != "10" {
				t.Fatalf("first action %v with %v, want a create at revision 10", create, create.Annotations)
			}
			if got := !create.Event.IsZero(); got != tc.wantEvent {
				t.Errorf("create event %q, want one: %v", create.Event, tc.wantEvent)
			}
			status := actions[1]
			if status.Type != rollout.UpdateDeploymentStatus {
				t.Fatalf("second action %v, want the status", status)
			}
			c, _ := rollout.GetDeploymentCondition(*status.Status, rollout.Progressing)
			if status.Annotations[rollout.RevisionAnnotation] != "10" || c.Reason != rollout.ReasonNewReplicaSetCreated {
				t.Errorf("second action %v with revision %q and Progressing %q, want the status with revision 10 and NewReplicaSetCreated",
					status, status.Annotations[rollout.RevisionAnnotation], c.Reason)
			}
		})
	}
}

// completeState is a complete Deployment of 3 on v3 with two idle old
// ReplicaSets and a revision history limit of 1.
func completeState(strategy rollout.Strategy) rollout.State {
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v3",
		rollout.WebReplicaSet("web-v1", "v1", 0, 1, rollout.WebEpoch), rollout.WebReplicaSet("web-v2", "v2", 0, 2, rollout.WebEpoch.Add(time.Minute)),
		rollout.WebReplicaSet("web-v3", "v3", 3, 3, rollout.WebEpoch.Add(2*time.Minute)))
	s.Deployment.Spec.Strategy = strategy
	s.Deployment.Spec.RevisionHistoryLimit = rollout.Int32(1)
	s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "3"}
	s.Deployment.Status = rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}
	return s
}

// TestWhenHistoryIsCleanedUp: the history beyond the limit is cleaned up
// by a complete rollout, RollingUpdate or Recreate, and by a paused sync,
// but not by a scaling event (R-SCALE-2).
func TestWhenHistoryIsCleanedUp(t *testing.T) {
	recreate := rollout.Strategy{Type: rollout.RecreateStrategy}
	rolling := rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()}
	paused := completeState(rolling)
	paused.Deployment.Spec.Paused = true
	scaling := completeState(rolling)
	scaling.Deployment.Spec.Replicas = 4
	scaling.ReplicaSets[2].Annotations[rollout.DesiredReplicasAnnotation] = "3"
	for _, tc := range []struct {
		name string
		s    rollout.State
		want []string
	}{
		{"RollingUpdate, complete", completeState(rolling), []string{"web-v1"}},
		{"Recreate, complete", completeState(recreate), []string{"web-v1"}},
		{"paused", paused, []string{"web-v1"}},
		{"scaling event", scaling, nil},
	} {
		actions, err := rollout.Plan(tc.s)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, rollout.Deletions(actions)); diff != "" {
			t.Errorf("%s: deletions mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestPausedRecordedOnce: a paused Deployment whose Progressing condition
// already says DeploymentPaused is not written again for it.
func TestPausedRecordedOnce(t *testing.T) {
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v1", rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch))
	s.Deployment.Spec.Paused = true
	s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
	first, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	s = rollout.Apply(s, first)
	again, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || len(again) != 0 {
		t.Errorf("first sync %v, second %v; want writes, then none", first, again)
	}
}

// TestSaturatedRetiresNewestFirst: when a scaling sync finds the new
// ReplicaSet saturated, the active old ones go to 0 newest first, the
// order upstream's scale leaves them in (it sorts them newest first).
func TestSaturatedRetiresNewestFirst(t *testing.T) {
	newRS := rollout.WebReplicaSet("web-v3", "v3", 10, 3, rollout.WebEpoch.Add(2*time.Minute))
	newRS.Annotations[rollout.DesiredReplicasAnnotation] = "10"
	s := rollout.WebState(10, rollout.DefaultRollingUpdate(), "v3",
		rollout.WebReplicaSet("web-v1", "v1", 1, 1, rollout.WebEpoch), rollout.WebReplicaSet("web-v2", "v2", 2, 2, rollout.WebEpoch.Add(time.Minute)), newRS)
	s.Deployment.Spec.Paused = true
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"web-v2 2->0", "web-v1 1->0"}, rollout.Writes(actions)); diff != "" {
		t.Errorf("Plan() writes mismatch (-want +got):\n%s", diff)
	}
}

// TestProportionalShareOfMaxInt32: a ReplicaSet whose proportional share is
// exactly MaxInt32 is written at MaxInt32; only a share beyond it is an
// *OverflowError. Here a ReplicaSet of 1 annotated for a Deployment of 1
// grows to MaxInt32 in a scale-down, and the other gives way.
func TestProportionalShareOfMaxInt32(t *testing.T) {
	small := rollout.WebReplicaSet("web-a", "va", 1, 1, rollout.WebEpoch)
	small.Annotations[rollout.DesiredReplicasAnnotation], small.Annotations[rollout.MaxReplicasAnnotation] = "1", "1"
	big := rollout.WebReplicaSet("web-b", "vb", math.MaxInt32, 2, rollout.WebEpoch.Add(time.Minute))
	big.Annotations[rollout.DesiredReplicasAnnotation], big.Annotations[rollout.MaxReplicasAnnotation] = "2147483647", "2147483647"
	s := rollout.WebState(math.MaxInt32, rollout.RollingUpdate{MaxSurge: surge.Count(0), MaxUnavailable: surge.Count(1)}, "v9", small, big)
	actions, err := rollout.Plan(s)
	var oe *rollout.OverflowError
	if errors.As(err, &oe) && oe.Field != "status.replicas" {
		t.Fatalf("Plan() error = %v, want no overflow of a ReplicaSet's size", err)
	}
	if diff := cmp.Diff([]string{"web-b 2147483647->0", "web-a 1->2147483647"}, rollout.Writes(actions)); diff != "" {
		t.Errorf("Plan() writes mismatch (-want +got):\n%s", diff)
	}
}

// TestOtherNamespacesIgnored: ReplicaSets of other namespaces take no part
// in a sync, even one with the Deployment's owner reference and labels.
func TestOtherNamespacesIgnored(t *testing.T) {
	stray := rollout.WebReplicaSet("web-v0", "v0", 5, 1, rollout.WebEpoch)
	stray.Namespace = "other"
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v1", rollout.WebReplicaSet("web-v1", "v1", 3, 2, rollout.WebEpoch), stray)
	s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	var last rollout.DeploymentStatus
	for _, a := range actions {
		if a.ReplicaSet == "web-v0" {
			t.Errorf("%v: a ReplicaSet of another namespace", a)
		}
		if a.Type == rollout.UpdateDeploymentStatus {
			last = *a.Status
		}
	}
	if last.Replicas != 3 || last.AvailableReplicas != 3 {
		t.Errorf("status %+v counts the ReplicaSet of another namespace", last)
	}
}

// TestGetReplicaSetProportionNil: a nil ReplicaSet gains nothing.
func TestGetReplicaSetProportionNil(t *testing.T) {
	if got := rollout.GetReplicaSetProportion(nil, rollout.RollingDeployment(10, surge.Count(1), surge.Count(1)), 5, 0); got != 0 {
		t.Errorf("GetReplicaSetProportion(nil) = %d, want 0", got)
	}
}

// TestScaleDownSyncDoesNotCleanUp: a sync that scales old ReplicaSets down
// ends there, with the status: it cleans up no history, even when the
// stored status already says complete (R-ROLL-4).
func TestScaleDownSyncDoesNotCleanUp(t *testing.T) {
	s := completeState(rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()})
	s.ReplicaSets[1] = rollout.WebReplicaSet("web-v2", "v2", 1, 2, rollout.WebEpoch.Add(time.Minute)) // still one old replica
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"web-v2 1->0"}, rollout.Writes(actions)); diff != "" {
		t.Errorf("writes mismatch (-want +got):\n%s", diff)
	}
	if got := rollout.Deletions(actions); got != nil {
		t.Errorf("deletions %v, want none in a sync that scaled down", got)
	}
}
