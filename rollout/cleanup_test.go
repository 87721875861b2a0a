package rollout_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestCleanupDeploymentOrderThroughPlan runs upstream's
// TestDeploymentController_cleanupDeploymentOrder (vectors C.7) through
// Plan, on a paused Recreate Deployment as large as its ReplicaSets (so the
// sync only cleans up): the same ReplicaSets are deleted.
func TestCleanupDeploymentOrderThroughPlan(t *testing.T) {
	tests := rollout.CleanupOrderCases
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			var total int32
			for _, s := range tt.Old {
				total += s.Size
			}
			d := rollout.RecreateDeployment(total)
			d.Spec.Paused = true
			d.Spec.RevisionHistoryLimit = rollout.Int32(tt.Limit)
			var sets []rollout.ReplicaSet
			for i, s := range tt.Old {
				rs := rollout.OldReplicaSet(d, fmt.Sprintf("foo-%d", i+1), s.Size)
				rs.CreationTimestamp = rollout.FixtureNow.Add(time.Duration(i-1) * time.Minute)
				if s.Rev != "" {
					rs.Annotations = map[string]string{rollout.RevisionAnnotation: s.Rev}
				}
				rs.Status.Replicas = s.Size
				sets = append(sets, rs)
			}
			actions, err := rollout.Plan(rollout.State{Deployment: d, ReplicaSets: sets, Now: rollout.FixtureNow})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			var deleted []string
			for _, a := range actions {
				switch a.Type {
				case rollout.DeleteReplicaSet:
					deleted = append(deleted, a.ReplicaSet)
				case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet, rollout.CreateReplicaSet:
					t.Errorf("Plan() = %v, want no ReplicaSet writes", a)
				}
			}
			slices.Sort(deleted)
			if diff := cmp.Diff(tt.Want, deleted); diff != "" {
				t.Errorf("Plan() deletions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHasLimits: a revision history limit or a progress deadline is set
// when present and not Unlimited (R-COND-6); 0 is a limit.
func TestHasLimits(t *testing.T) {
	for _, tc := range []struct {
		v    rollout.OptionalInt32
		want bool
	}{{rollout.OptionalInt32{}, false}, {rollout.Int32(rollout.Unlimited), false}, {rollout.Int32(0), true}, {rollout.Int32(5), true}} {
		d := rollout.Deployment{Spec: rollout.DeploymentSpec{RevisionHistoryLimit: tc.v, ProgressDeadlineSeconds: tc.v}}
		if got := rollout.HasRevisionHistoryLimit(d); got != tc.want {
			t.Errorf("HasRevisionHistoryLimit(%+v) = %v, want %v", tc.v, got, tc.want)
		}
		if got := rollout.HasProgressDeadline(d); got != tc.want {
			t.Errorf("HasProgressDeadline(%+v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestCleanupWithoutLimit: a complete Deployment without a revision
// history limit (absent or Unlimited) deletes no old ReplicaSet, however
// many are idle (R-CLEAN-1).
func TestCleanupWithoutLimit(t *testing.T) {
	for _, limit := range []rollout.OptionalInt32{{}, rollout.Int32(rollout.Unlimited)} {
		s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v3",
			rollout.WebReplicaSet("web-v1", "v1", 0, 1, rollout.WebEpoch), rollout.WebReplicaSet("web-v2", "v2", 0, 2, rollout.WebEpoch.Add(time.Minute)),
			rollout.WebReplicaSet("web-v3", "v3", 3, 3, rollout.WebEpoch.Add(2*time.Minute)))
		s.Deployment.Spec.RevisionHistoryLimit = limit
		s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "3"}
		s.Deployment.Status = rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}
		actions, err := rollout.Plan(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := rollout.Deletions(actions); got != nil {
			t.Errorf("limit %+v: Plan() deletes %v, want none", limit, got)
		}
	}
}
