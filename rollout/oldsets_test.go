package rollout_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// The rows below are one sync of a RollingUpdate Deployment of 10
// replicas with maxSurge 0 and maxUnavailable 3, whose new ReplicaSet
// (image v9) exists at size 0, next to two or three old ReplicaSets. With
// no surge the new ReplicaSet cannot grow, so the sync's work is on the old
// ones: at most 10 - (10 - 3) = 3 replicas may go. Upstream's unit tests
// (vectors C.2 to C.4) have a single old ReplicaSet, so they cannot tell an
// order apart.

// oldSet is an old ReplicaSet of a row: its name, image, size, available
// replicas, and creation time in minutes after rollout.WebEpoch.
type oldSet struct {
	name      string
	size      int32
	available int32
	minute    int
}

// oldSetsState is the row's state, with the old ReplicaSets given in
// reverse, so that Plan must order them itself.
func oldSetsState(sets []oldSet) rollout.State {
	var rss []rollout.ReplicaSet
	for i, o := range sets {
		rs := rollout.WebReplicaSet(o.name, "v"+o.name, o.size, i+1, rollout.WebEpoch.Add(time.Duration(o.minute)*time.Minute))
		rs.Status.AvailableReplicas, rs.Status.ReadyReplicas = o.available, o.available
		rss = append(rss, rs)
	}
	slices.Reverse(rss)
	rss = append(rss, rollout.WebReplicaSet("web-new", "v9", 0, len(sets)+1, rollout.WebEpoch.Add(time.Hour)))
	ru := rollout.RollingUpdate{MaxSurge: surge.Count(0), MaxUnavailable: surge.Count(3)}
	return rollout.WebState(10, ru, "v9", rss...)
}

// planWrites plans the row and returns its ReplicaSet writes, "name
// from->to".
func planWrites(t *testing.T, sets []oldSet) []string {
	t.Helper()
	actions, err := rollout.Plan(oldSetsState(sets))
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	return rollout.Writes(actions)
}

// TestScaleDownOldestFirst: with every old replica available, the 3 that
// may go come from the oldest old ReplicaSet first, then the next oldest
// (R-ROLL-8); creation time decides, not the name, and equal times order by
// name (R-PRIM-4).
func TestScaleDownOldestFirst(t *testing.T) {
	tests := []struct {
		name string
		sets []oldSet
		want []string
	}{
		{
			name: "two old: the oldest empties, the other gives the rest",
			sets: []oldSet{{"b", 2, 2, 0}, {"a", 8, 8, 1}},
			want: []string{"b 2->0", "a 8->7"},
		},
		{
			name: "two old: the oldest alone covers it",
			sets: []oldSet{{"b", 8, 8, 0}, {"a", 2, 2, 1}},
			want: []string{"b 8->5"},
		},
		{
			name: "three old: oldest first through all three",
			sets: []oldSet{{"c", 1, 1, 0}, {"b", 1, 1, 1}, {"a", 8, 8, 2}},
			want: []string{"c 1->0", "b 1->0", "a 8->7"},
		},
		{
			name: "three old: an empty old ReplicaSet is passed over",
			sets: []oldSet{{"c", 0, 0, 0}, {"b", 2, 2, 1}, {"a", 8, 8, 2}},
			want: []string{"b 2->0", "a 8->7"},
		},
		{
			name: "three old created in the same minute: by name",
			sets: []oldSet{{"a", 1, 1, 0}, {"b", 1, 1, 0}, {"c", 8, 8, 0}},
			want: []string{"a 1->0", "b 1->0", "c 8->7"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, planWrites(t, tt.sets)); diff != "" {
				t.Errorf("Plan() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnhealthyCleanupOldestFirst: unavailable old replicas go first, as
// they cost no availability, and the oldest old ReplicaSet's go first
// (R-ROLL-7); the 3 that may go are spent there, and the scale-down that
// follows finds available replicas at the minimum.
func TestUnhealthyCleanupOldestFirst(t *testing.T) {
	tests := []struct {
		name string
		sets []oldSet
		want []string
	}{
		{
			name: "two old, 2 unavailable each: the oldest loses 2, the other 1",
			sets: []oldSet{{"b", 5, 3, 0}, {"a", 5, 3, 1}},
			want: []string{"b 5->3", "a 5->4"},
		},
		{
			name: "three old: a healthy oldest is passed over",
			sets: []oldSet{{"c", 3, 3, 0}, {"b", 4, 2, 1}, {"a", 3, 2, 2}},
			want: []string{"b 4->2", "a 3->2"},
		},
		{
			name: "two old: one replica, unavailable, goes",
			sets: []oldSet{{"b", 1, 0, 0}, {"a", 9, 9, 1}},
			want: []string{"b 1->0", "a 9->7"},
		},
		{
			name: "three old: the allowance runs out at the second",
			sets: []oldSet{{"c", 2, 1, 0}, {"b", 4, 2, 1}, {"a", 4, 4, 2}},
			want: []string{"c 2->1", "b 4->2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, planWrites(t, tt.sets)); diff != "" {
				t.Errorf("Plan() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnhealthyCleanupRefusesScaleUp is upstream quirk Q-5: an old
// ReplicaSet that reports more available replicas than its size (as right
// after a scale-down, before the ReplicaSet controller catches up) would be
// "cleaned up" to a larger size; upstream's check refuses that with an
// error that reconcileOldReplicaSets drops, so no further old replica goes
// in that sync, and nothing is scaled up. Cleanups made before the check
// stay made.
func TestUnhealthyCleanupRefusesScaleUp(t *testing.T) {
	tests := []struct {
		name string
		sets []oldSet
		want []string
	}{
		{
			name: "two old: the oldest reports more available than its size; the other is not scaled down",
			sets: []oldSet{{"b", 2, 3, 0}, {"a", 8, 8, 1}},
		},
		{
			name: "two old: the newer reports more; the oldest, all available, is not scaled down",
			sets: []oldSet{{"b", 8, 8, 0}, {"a", 2, 3, 1}},
		},
		{
			name: "three old: the allowance runs out at the oldest, so the second is not examined",
			sets: []oldSet{{"c", 6, 2, 0}, {"b", 2, 3, 1}, {"a", 3, 3, 2}},
			want: []string{"c 6->2", "c 2->1"},
		},
		{
			name: "three old: the oldest's cleanup is made, then the second stops the sync's scale-down",
			sets: []oldSet{{"c", 3, 2, 0}, {"b", 2, 3, 1}, {"a", 5, 5, 2}},
			want: []string{"c 3->2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, planWrites(t, tt.sets)); diff != "" {
				t.Errorf("Plan() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnhealthyCleanupRefusedThenHistory: when Q-5 stops the scale-down,
// the sync goes on as one that scaled nothing: a Deployment whose stored
// status says complete cleans up its history.
func TestUnhealthyCleanupRefusedThenHistory(t *testing.T) {
	s := oldSetsState([]oldSet{{"c", 0, 0, 0}, {"b", 2, 3, 1}, {"a", 8, 8, 2}})
	s.Deployment.Spec.RevisionHistoryLimit = rollout.Int32(1)
	s.Deployment.Status = rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := rollout.Writes(actions); got != nil {
		t.Errorf("writes %v, want none (Q-5)", got)
	}
	if diff := cmp.Diff([]string{"c"}, rollout.Deletions(actions)); diff != "" {
		t.Errorf("deletions mismatch (-want +got):\n%s", diff)
	}
}
