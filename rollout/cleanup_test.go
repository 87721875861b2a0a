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
