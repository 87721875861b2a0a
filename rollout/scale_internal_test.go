package rollout

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/surge"
)

// TestScale ports upstream's TestScale (vectors C.5) through
// planner.scale. As upstream does, every ReplicaSet first gets
// desired-replicas = the old Deployment's replicas (or the row's override)
// and max-replicas = that + MaxSurge(old Deployment); the sizes are read
// from the writes, ignoring those to ReplicaSets in wasntUpdated.
func TestScale(t *testing.T) {
	newTS := time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	oldTS := time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	olderTS := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	dep := func(replicas int32, maxSurge, maxUnavailable *surge.Value) Deployment {
		return UpstreamNewDeployment("foo", replicas, OptionalInt32{}, maxSurge, maxUnavailable, nil)
	}
	updatedTemplate := func(replicas int32) Deployment {
		d := UpstreamNewDeployment("foo", replicas, OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
		d.Spec.Template.Labels = map[string]string{"foo": "bar", "another": "label"}
		return d
	}
	type size struct {
		name string
		size int32
		ts   time.Time
	}
	tests := []struct {
		name                  string
		deployment, oldDeploy Deployment
		newRS                 *size
		oldRSs                []size
		want                  map[string]int32
		wasntUpdated          []string
		desiredOverride       map[string]int32
		noWrites              bool
	}{
		{
			name: "normal scaling event: 10 -> 12", deployment: dep(12, nil, nil), oldDeploy: dep(10, nil, nil),
			newRS: &size{"foo-v1", 10, newTS},
			want:  map[string]int32{"foo-v1": 12},
		},
		{
			name: "normal scaling event: 10 -> 5", deployment: dep(5, nil, nil), oldDeploy: dep(10, nil, nil),
			newRS: &size{"foo-v1", 10, newTS},
			want:  map[string]int32{"foo-v1": 5},
		},
		{
			name: "proportional scaling: 5 -> 10", deployment: dep(10, nil, nil), oldDeploy: dep(5, nil, nil),
			newRS: &size{"foo-v2", 2, newTS}, oldRSs: []size{{"foo-v1", 3, oldTS}},
			want: map[string]int32{"foo-v2": 4, "foo-v1": 6},
		},
		{
			name: "proportional scaling: 5 -> 3", deployment: dep(3, nil, nil), oldDeploy: dep(5, nil, nil),
			newRS: &size{"foo-v2", 2, newTS}, oldRSs: []size{{"foo-v1", 3, oldTS}},
			want: map[string]int32{"foo-v2": 1, "foo-v1": 2},
		},
		{
			name: "proportional scaling: 9 -> 4", deployment: dep(4, nil, nil), oldDeploy: dep(9, nil, nil),
			newRS: &size{"foo-v2", 8, newTS}, oldRSs: []size{{"foo-v1", 1, oldTS}},
			want: map[string]int32{"foo-v2": 4, "foo-v1": 0},
		},
		{
			name: "proportional scaling: 7 -> 10", deployment: dep(10, nil, nil), oldDeploy: dep(7, nil, nil),
			newRS: &size{"foo-v3", 2, newTS}, oldRSs: []size{{"foo-v2", 3, oldTS}, {"foo-v1", 2, olderTS}},
			want: map[string]int32{"foo-v3": 3, "foo-v2": 4, "foo-v1": 3},
		},
		{
			name: "proportional scaling: 13 -> 8", deployment: dep(8, nil, nil), oldDeploy: dep(13, nil, nil),
			newRS: &size{"foo-v3", 2, newTS}, oldRSs: []size{{"foo-v2", 8, oldTS}, {"foo-v1", 3, olderTS}},
			want: map[string]int32{"foo-v3": 1, "foo-v2": 5, "foo-v1": 2},
		},
		{
			name: "leftover distribution: 3 -> 4", deployment: dep(4, nil, nil), oldDeploy: dep(3, nil, nil),
			newRS: &size{"foo-v3", 1, newTS}, oldRSs: []size{{"foo-v2", 1, oldTS}, {"foo-v1", 1, olderTS}},
			want: map[string]int32{"foo-v3": 2, "foo-v2": 1, "foo-v1": 1},
		},
		{
			name: "leftover distribution: 3 -> 2", deployment: dep(2, nil, nil), oldDeploy: dep(3, nil, nil),
			newRS: &size{"foo-v3", 1, newTS}, oldRSs: []size{{"foo-v2", 1, oldTS}, {"foo-v1", 1, olderTS}},
			want: map[string]int32{"foo-v3": 1, "foo-v2": 1, "foo-v1": 0},
		},
		{
			name: "proportional scaling (no new rs): 4 -> 5", deployment: dep(5, nil, nil), oldDeploy: dep(4, nil, nil),
			oldRSs: []size{{"foo-v2", 2, oldTS}, {"foo-v1", 2, olderTS}},
			want:   map[string]int32{"foo-v2": 3, "foo-v1": 2},
		},
		{
			name: "proportional scaling: 6 -> 0", deployment: dep(0, nil, nil), oldDeploy: dep(6, nil, nil),
			newRS: &size{"foo-v3", 3, newTS}, oldRSs: []size{{"foo-v2", 2, oldTS}, {"foo-v1", 1, olderTS}},
			want: map[string]int32{"foo-v3": 0, "foo-v2": 0, "foo-v1": 0},
		},
		{
			name: "proportional scaling: 0 -> 6", deployment: dep(6, nil, nil), oldDeploy: dep(6, nil, nil),
			newRS: &size{"foo-v3", 0, newTS}, oldRSs: []size{{"foo-v2", 0, oldTS}, {"foo-v1", 0, olderTS}},
			want:         map[string]int32{"foo-v3": 6, "foo-v2": 0, "foo-v1": 0},
			wasntUpdated: []string{"foo-v2", "foo-v1"},
		},
		{
			name: "failed rs update", deployment: dep(5, nil, nil), oldDeploy: dep(5, nil, nil),
			newRS: &size{"foo-v3", 2, newTS}, oldRSs: []size{{"foo-v2", 1, oldTS}, {"foo-v1", 1, olderTS}},
			want:            map[string]int32{"foo-v3": 2, "foo-v2": 2, "foo-v1": 1},
			wasntUpdated:    []string{"foo-v3", "foo-v1"},
			desiredOverride: map[string]int32{"foo-v2": 3},
		},
		{
			name: "deployment with surge pods", deployment: dep(20, SurgeCount(2), nil), oldDeploy: dep(10, SurgeCount(2), nil),
			newRS: &size{"foo-v2", 6, newTS}, oldRSs: []size{{"foo-v1", 6, oldTS}},
			want: map[string]int32{"foo-v2": 11, "foo-v1": 11},
		},
		{
			name: "change both surge and size", deployment: dep(50, SurgeCount(6), nil), oldDeploy: dep(10, SurgeCount(3), nil),
			newRS: &size{"foo-v2", 5, newTS}, oldRSs: []size{{"foo-v1", 8, oldTS}},
			want: map[string]int32{"foo-v2": 22, "foo-v1": 34},
		},
		{
			name: "change both size and template", deployment: updatedTemplate(14),
			oldDeploy: UpstreamNewDeployment("foo", 10, OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"}),
			oldRSs:    []size{{"foo-v2", 7, newTS}, {"foo-v1", 3, oldTS}},
			want:      map[string]int32{"foo-v2": 10, "foo-v1": 4},
		},
		{
			name:       "saturated but broken new replica set does not affect old pods",
			deployment: dep(2, SurgeCount(1), SurgeCount(1)), oldDeploy: dep(2, SurgeCount(1), SurgeCount(1)),
			newRS: &size{"foo-v2", 2, newTS}, oldRSs: []size{{"foo-v1", 1, oldTS}},
			want:     map[string]int32{"foo-v2": 2, "foo-v1": 1},
			noWrites: true, // sizes kept and annotations current (vectors C.5 #17)
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			annotate := func(rs *ReplicaSet) {
				desired := tt.oldDeploy.Spec.Replicas
				if o, ok := tt.desiredOverride[rs.Name]; ok {
					desired = o
				}
				rs.Annotations = map[string]string{
					DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
					MaxReplicasAnnotation:     strconv.Itoa(int(desired + MaxSurge(tt.oldDeploy))),
				}
			}
			sizes := map[string]int32{}
			var newRS *ReplicaSet
			if tt.newRS != nil {
				newRS = UpstreamRS(tt.newRS.name, tt.newRS.size, nil, tt.newRS.ts)
				annotate(newRS)
				sizes[newRS.Name] = newRS.Spec.Replicas
			}
			var old []*ReplicaSet
			for _, s := range tt.oldRSs {
				rs := UpstreamRS(s.name, s.size, nil, s.ts)
				annotate(rs)
				sizes[rs.Name] = rs.Spec.Replicas
				old = append(old, rs)
			}
			p := testPlanner(tt.deployment, FixtureNow)
			if err := p.scale(newRS, old); err != nil {
				t.Fatalf("scale() error: %v", err)
			}
			for _, a := range p.actions {
				if (a.Type == ScaleReplicaSet || a.Type == UpdateReplicaSet) && !slices.Contains(tt.wasntUpdated, a.ReplicaSet) {
					sizes[a.ReplicaSet] = a.To
				}
			}
			if diff := cmp.Diff(tt.want, sizes); diff != "" {
				t.Errorf("scale() mismatch (-want +got):\n%s", diff)
			}
			if tt.noWrites && len(p.actions) != 0 {
				t.Errorf("scale() made %v, want no writes", p.actions)
			}
		})
	}
}
