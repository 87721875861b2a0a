package rollout

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDeploymentController_cleanupDeployment ports upstream's test of that
// name (vectors C.6) through planner.cleanupDeployment.
func TestDeploymentController_cleanupDeployment(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	alreadyDeleted := UpstreamRSWithStatus("foo-1", 0, 0, selector)
	alreadyDeleted.DeletionTimestamp = FixtureNow
	tests := []struct {
		name  string
		old   []*ReplicaSet
		limit int32
		want  int
	}{
		{
			name:  "limit 1 of 3 idle",
			old:   []*ReplicaSet{UpstreamRSWithStatus("foo-1", 0, 0, selector), UpstreamRSWithStatus("foo-2", 0, 0, selector), UpstreamRSWithStatus("foo-3", 0, 0, selector)},
			limit: 1, want: 2,
		},
		{
			name: "only delete the replica set with Spec.Replicas = Status.Replicas = 0",
			old: []*ReplicaSet{
				UpstreamRSWithStatus("foo-1", 0, 0, selector), UpstreamRSWithStatus("foo-2", 0, 1, selector),
				UpstreamRSWithStatus("foo-3", 1, 0, selector), UpstreamRSWithStatus("foo-4", 1, 1, selector),
			},
			limit: 0, want: 1,
		},
		{
			name:  "limit 0 of 2 idle",
			old:   []*ReplicaSet{UpstreamRSWithStatus("foo-1", 0, 0, selector), UpstreamRSWithStatus("foo-2", 0, 0, selector)},
			limit: 0, want: 2,
		},
		{
			name:  "limit 0, none idle",
			old:   []*ReplicaSet{UpstreamRSWithStatus("foo-1", 1, 1, selector), UpstreamRSWithStatus("foo-2", 1, 1, selector)},
			limit: 0, want: 0,
		},
		{
			name:  "already being deleted",
			old:   []*ReplicaSet{alreadyDeleted},
			limit: 0, want: 0,
		},
		{
			name:  "with unlimited revisionHistoryLimit",
			old:   []*ReplicaSet{UpstreamRSWithStatus("foo-1", 0, 0, selector), UpstreamRSWithStatus("foo-2", 0, 0, selector), UpstreamRSWithStatus("foo-3", 0, 0, selector)},
			limit: math.MaxInt32, want: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := UpstreamNewDeployment("foo", 1, Int32(tt.limit), nil, nil, selector)
			p := testPlanner(d, FixtureNow)
			p.cleanupDeployment(tt.old)
			if diff := cmp.Diff(tt.want, len(Deletions(p.actions))); diff != "" {
				t.Errorf("cleanupDeployment() deletions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentController_cleanupDeploymentOrder ports upstream's test of
// that name (vectors C.7) through planner.cleanupDeployment: creation order is
// always foo-1 < foo-2 < foo-3 < foo-4.
func TestDeploymentController_cleanupDeploymentOrder(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	tests := CleanupOrderCases
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			var old []*ReplicaSet
			for i, s := range tt.Old {
				rs := UpstreamRS(fmt.Sprintf("foo-%d", i+1), s.Size, selector, FixtureNow.Add(time.Duration(i-1)*time.Minute))
				if s.Rev != "" {
					rs.Annotations = map[string]string{RevisionAnnotation: s.Rev}
				}
				rs.Status.Replicas = s.Size
				old = append(old, rs)
			}
			d := UpstreamNewDeployment("foo", 1, Int32(tt.Limit), nil, nil, selector)
			p := testPlanner(d, FixtureNow)
			p.cleanupDeployment(old)
			if diff := cmp.Diff(tt.Want, Deletions(p.actions)); diff != "" {
				t.Errorf("cleanupDeployment() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
