package rollout

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDeploymentController_reconcileNewReplicaSet ports upstream's test of
// that name (vectors C.1): either no write, or exactly one with the given
// size.
func TestDeploymentController_reconcileNewReplicaSet(t *testing.T) {
	tests := []struct {
		name                                 string
		replicas, maxSurge, oldSize, newSize int32
		want                                 []string // the writes
	}{
		{name: "should not scale up", replicas: 10, maxSurge: 0, oldSize: 10, newSize: 0},
		{name: "scale up by the surge", replicas: 10, maxSurge: 2, oldSize: 10, newSize: 0, want: []string{"foo-v2 0->2"}},
		{name: "scale up by the room left", replicas: 10, maxSurge: 2, oldSize: 5, newSize: 0, want: []string{"foo-v2 0->7"}},
		{name: "surge used up", replicas: 10, maxSurge: 2, oldSize: 10, newSize: 2},
		{name: "should scale down", replicas: 10, maxSurge: 2, oldSize: 2, newSize: 11, want: []string{"foo-v2 11->10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newRS := UpstreamRS("foo-v2", tt.newSize, nil, time.Time{})
			oldRS := UpstreamRS("foo-v2", tt.oldSize, nil, time.Time{})
			d := UpstreamNewDeployment("foo", tt.replicas, OptionalInt32{}, SurgeCount(tt.maxSurge), SurgeCount(0), map[string]string{"foo": "bar"})
			p := testPlanner(d, FixtureNow)
			scaled, err := p.reconcileNewReplicaSet([]*ReplicaSet{newRS, oldRS}, newRS)
			if err != nil {
				t.Fatalf("reconcileNewReplicaSet() error: %v", err)
			}
			if diff := cmp.Diff(tt.want != nil, scaled); diff != "" {
				t.Errorf("reconcileNewReplicaSet() scaled mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, Writes(p.actions)); diff != "" {
				t.Errorf("reconcileNewReplicaSet() mismatch (-want +got):\n%s", diff)
			}
			if len(p.actions) != len(tt.want) {
				t.Errorf("reconcileNewReplicaSet() made %d actions, want %d: %v", len(p.actions), len(tt.want), p.actions)
			}
		})
	}
}

// TestDeploymentController_reconcileOldReplicaSets ports upstream's test of
// that name (vectors C.2): the scaled flag, and the old ReplicaSet's size
// the upstream test documents, read from the writes.
func TestDeploymentController_reconcileOldReplicaSets(t *testing.T) {
	tests := []struct {
		name                       string
		replicas, maxUnavailable   int32
		oldSize, newSize           int32
		oldAvailable, newAvailable int32
		wantScaled                 bool
		wantWrites                 []string
	}{
		{
			name: "maxUnavailable 0 resolves to 1", replicas: 10, maxUnavailable: 0, oldSize: 10, newSize: 0, oldAvailable: 10,
			wantScaled: true, wantWrites: []string{"foo-old 10->9"},
		},
		{
			name: "scale down by maxUnavailable", replicas: 10, maxUnavailable: 2, oldSize: 10, newSize: 0, oldAvailable: 10,
			wantScaled: true, wantWrites: []string{"foo-old 10->8"},
		},
		{
			name: "expect unhealthy replicas from old replica sets been cleaned up", replicas: 10, maxUnavailable: 2, oldSize: 10, newSize: 0, oldAvailable: 8,
			wantScaled: true, wantWrites: []string{"foo-old 10->8"},
		},
		{
			name: "expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down", replicas: 10, maxUnavailable: 2, oldSize: 10, newSize: 0, oldAvailable: 9,
			wantScaled: true, wantWrites: []string{"foo-old 10->9", "foo-old 9->8"},
		},
		{
			name: "the unavailable pods from the newRS would not make us scale down old RSs in a further step", replicas: 10, maxUnavailable: 2, oldSize: 8, newSize: 2, oldAvailable: 8,
			wantScaled: false,
		},
		// Not upstream's row: the new ReplicaSet's unavailable pods use up
		// what may go, even while the old one still reports more available
		// pods than its size (which would allow a scale-down by itself).
		{
			name: "nothing may go: no scale-down, whatever the old ReplicaSet reports", replicas: 10, maxUnavailable: 2, oldSize: 8, newSize: 2, oldAvailable: 10,
			wantScaled: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newSelector := map[string]string{"foo": "new"}
			newRS := UpstreamRS("foo-new", tt.newSize, newSelector, time.Time{})
			newRS.Status.AvailableReplicas = tt.newAvailable
			oldRS := UpstreamRS("foo-old", tt.oldSize, map[string]string{"foo": "old"}, time.Time{})
			oldRS.Status.AvailableReplicas = tt.oldAvailable
			d := UpstreamNewDeployment("foo", tt.replicas, OptionalInt32{}, SurgeCount(0), SurgeCount(tt.maxUnavailable), newSelector)
			p := testPlanner(d, FixtureNow)
			scaled := p.reconcileOldReplicaSets([]*ReplicaSet{oldRS, newRS}, []*ReplicaSet{oldRS}, newRS)
			if diff := cmp.Diff(tt.wantScaled, scaled); diff != "" {
				t.Errorf("reconcileOldReplicaSets() scaled mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, Writes(p.actions)); diff != "" {
				t.Errorf("reconcileOldReplicaSets() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentController_cleanupUnhealthyReplicas ports upstream's test
// of that name (vectors C.3).
func TestDeploymentController_cleanupUnhealthyReplicas(t *testing.T) {
	tests := []struct {
		name       string
		available  int32
		maxCleanup int64
		want       int64
		wantWrites []string
	}{
		{name: "cleanup limited to 1", available: 8, maxCleanup: 1, want: 1, wantWrites: []string{"foo-v2 10->9"}},
		{name: "cleanup all 2 unhealthy", available: 8, maxCleanup: 3, want: 2, wantWrites: []string{"foo-v2 10->8"}},
		{name: "no cleanup allowed", available: 8, maxCleanup: 0, want: 0},
		{name: "nothing unhealthy", available: 10, maxCleanup: 3, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldRS := UpstreamRS("foo-v2", 10, nil, time.Time{})
			oldRS.Status.AvailableReplicas = tt.available
			d := UpstreamNewDeployment("foo", 10, OptionalInt32{}, SurgeCount(2), SurgeCount(2), nil)
			p := testPlanner(d, FixtureNow)
			_, cleaned, err := p.cleanupUnhealthyReplicas([]*ReplicaSet{oldRS}, tt.maxCleanup)
			if err != nil {
				t.Fatalf("cleanupUnhealthyReplicas() error: %v", err)
			}
			if diff := cmp.Diff(tt.want, cleaned); diff != "" {
				t.Errorf("cleanupUnhealthyReplicas() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, Writes(p.actions)); diff != "" {
				t.Errorf("cleanupUnhealthyReplicas() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCleanupUnhealthyScaleUpError: an old ReplicaSet reporting more
// available replicas than its size stops the cleanup with an error that
// wraps errUnhealthyScaleUp and names the ReplicaSet and both sizes, in
// upstream's words; the cleanup writes nothing.
func TestCleanupUnhealthyScaleUpError(t *testing.T) {
	oldRS := UpstreamRS("foo-v2", 10, nil, time.Time{})
	oldRS.Status.AvailableReplicas = 12
	d := UpstreamNewDeployment("foo", 10, OptionalInt32{}, SurgeCount(2), SurgeCount(2), nil)
	p := testPlanner(d, FixtureNow)
	_, cleaned, err := p.cleanupUnhealthyReplicas([]*ReplicaSet{oldRS}, 3)
	if !errors.Is(err, errUnhealthyScaleUp) || cleaned != 0 || len(p.actions) != 0 {
		t.Fatalf("cleanupUnhealthyReplicas() = %d, %v with %d actions; want 0, errUnhealthyScaleUp and none", cleaned, err, len(p.actions))
	}
	want := "when cleaning up unhealthy replicas, got invalid request to scale down " + oldRS.Namespace + "/foo-v2 10 -> 12"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

// TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate ports
// upstream's test of that name (vectors C.4).
func TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	tests := []struct {
		name                      string
		maxUnavailable, available int32
		oldSize                   int32
		want                      int64
		wantWrites                []string
	}{
		{name: "maxUnavailable 0 resolves to 1", maxUnavailable: 0, available: 10, oldSize: 10, want: 1, wantWrites: []string{"foo-v2 10->9"}},
		{name: "scale down by maxUnavailable", maxUnavailable: 2, available: 10, oldSize: 10, want: 2, wantWrites: []string{"foo-v2 10->8"}},
		{name: "available at the minimum", maxUnavailable: 2, available: 8, oldSize: 10, want: 0},
		{name: "old ReplicaSet already at 0", maxUnavailable: 2, available: 10, oldSize: 0, want: 0},
		{name: "available below the minimum", maxUnavailable: 2, available: 1, oldSize: 10, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldRS := UpstreamRS("foo-v2", tt.oldSize, nil, time.Time{})
			oldRS.Status.AvailableReplicas = tt.available
			d := UpstreamNewDeployment("foo", 10, OptionalInt32{}, SurgeCount(0), SurgeCount(tt.maxUnavailable), map[string]string{"foo": "bar"})
			p := testPlanner(d, FixtureNow)
			got := p.scaleDownOldReplicaSetsForRollingUpdate([]*ReplicaSet{oldRS}, []*ReplicaSet{oldRS})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scaleDownOldReplicaSetsForRollingUpdate() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, Writes(p.actions)); diff != "" {
				t.Errorf("scaleDownOldReplicaSetsForRollingUpdate() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
