package rollout_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestGetReplicaSetProportion ports upstream's TestGetReplicaSetFraction
// (B.17) through GetReplicaSetProportion: with an unlimited budget (toAdd
// ±MaxInt32, nothing added yet) the proportion is the fraction. Then the
// budget rows (R-SCALE-5) and vector D.6.
func TestGetReplicaSetProportion(t *testing.T) {
	type fixture struct {
		replicas, statusReplicas, maxSurge, rsReplicas int32
		maxAnnotation                                  string // "" is absent
	}
	build := func(f fixture) (rollout.ReplicaSet, rollout.Deployment) {
		d := rollout.UpstreamGenerateDeployment("nginx")
		d.Status.Replicas = f.statusReplicas
		d.Spec.Replicas = f.replicas
		d.Spec.Strategy = rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.RollingUpdate{
			MaxSurge: surge.Count(f.maxSurge), MaxUnavailable: surge.Count(1),
		}}
		rs := rollout.UpstreamGenerateRS(d, "nginx-rs", "uid")
		if f.maxAnnotation != "" {
			rs.Annotations = map[string]string{rollout.MaxReplicasAnnotation: f.maxAnnotation}
		}
		rs.Spec.Replicas = f.rsReplicas
		return rs, d
	}
	fractions := []struct {
		name string
		f    fixture
		want int32
	}{
		{name: "empty deployment always scales to 0", f: fixture{0, 0, 0, 10, ""}, want: -10},
		{name: "unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)", f: fixture{10, 0, 0, 5, ""}, want: 0},
		{name: "unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", f: fixture{10, 0, 0, 5, "0"}, want: 0},
		{name: "scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)", f: fixture{120, 100, 0, 50, ""}, want: 10},
		{name: "scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", f: fixture{120, 100, 0, 50, "0"}, want: 10},
		{name: "scale up by 1/5 should increase RS replicas by 1/5", f: fixture{120, 0, 0, 50, "100"}, want: 10},
		{name: "scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5", f: fixture{120, 0, 10, 50, "110"}, want: 9},
		{name: "scale down by 1/6 should decrease RS replicas by 1/6", f: fixture{10, 0, 0, 6, "12"}, want: -1},
		{name: "scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6", f: fixture{100, 0, 10, 50, "130"}, want: -8},
	}
	for _, tt := range fractions {
		t.Run(tt.name, func(t *testing.T) {
			rs, d := build(tt.f)
			for _, toAdd := range []int32{math.MaxInt32, -math.MaxInt32} {
				if diff := cmp.Diff(tt.want, rollout.GetReplicaSetProportion(&rs, d, toAdd, 0)); diff != "" {
					t.Errorf("GetReplicaSetProportion(toAdd %d) mismatch (-want +got):\n%s", toAdd, diff)
				}
				if diff := cmp.Diff(tt.want, rollout.GetProportion(&rs, d, toAdd, 0)); diff != "" {
					t.Errorf("GetProportion(toAdd %d) mismatch (-want +got):\n%s", toAdd, diff)
				}
			}
		})
	}

	upFifth := fixture{120, 0, 0, 50, "100"} // fraction +10
	downSixth := fixture{10, 0, 0, 6, "12"}  // fraction -1
	budget := []struct {
		name         string
		f            fixture
		toAdd, added int32
		want         int32
		reason       string
	}{
		{name: "budget smaller than the fraction", f: upFifth, toAdd: 5, added: 0, want: 5},
		{name: "budget partly used", f: upFifth, toAdd: 20, added: 15, want: 5},
		{name: "budget used up", f: upFifth, toAdd: 20, added: 20, want: 0},
		{name: "nothing to add", f: upFifth, toAdd: 0, added: 0, want: 0},
		{name: "empty ReplicaSet", f: fixture{120, 0, 0, 0, "100"}, toAdd: 20, added: 0, want: 0},
		{name: "shrinking within the budget", f: downSixth, toAdd: -3, added: 0, want: -1},
		{name: "shrinking, budget left -1", f: downSixth, toAdd: -3, added: -2, want: -1},
		{name: "against the direction of toAdd (Q-19)", f: downSixth, toAdd: 3, added: 0, want: -1},
		{
			name: "int32 overflow (vectors D.6, Q-3)", f: fixture{60000, 0, 0, 40000, "50000"}, toAdd: 10000, added: 0, want: 8000,
			reason: "upstream multiplies 40000·60000 in int32 and gets -77899; the exact fraction is 40000·60000/50000 - 40000 = 8000",
		},
	}
	for _, tt := range budget {
		t.Run(tt.name, func(t *testing.T) {
			rs, d := build(tt.f)
			if diff := cmp.Diff(tt.want, rollout.GetReplicaSetProportion(&rs, d, tt.toAdd, tt.added)); diff != "" {
				t.Errorf("GetReplicaSetProportion() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRefreshStaleAnnotations checks upstream's stale desired-replicas
// deadlock (Q-1, vectors E-E) and the option that fixes it.
func TestRefreshStaleAnnotations(t *testing.T) {
	s := rollout.StaleState(t)
	got, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	// Upstream: a scaling event that changes nothing but the status; the
	// new template never gets a ReplicaSet.
	if diff := cmp.Diff([]string{"UpdateDeploymentStatus "}, rollout.APICalls(got)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}

	s.Options.RefreshStaleAnnotations = true
	got, err = rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"UpdateReplicaSet web-v1", "UpdateDeploymentStatus "}, rollout.APICalls(got)); diff != "" {
		t.Errorf("Plan() with RefreshStaleAnnotations mismatch (-want +got):\n%s", diff)
	}
	if a := got[0].Annotations[rollout.DesiredReplicasAnnotation]; a != "3" {
		t.Errorf("desired-replicas after the fix = %q, want 3", a)
	}
	next, err := rollout.Plan(rollout.Apply(s, got))
	if err != nil {
		t.Fatal(err)
	}
	if calls := rollout.APICalls(next); len(calls) == 0 || calls[0][:len("CreateReplicaSet")] != "CreateReplicaSet" {
		t.Errorf("the sync after the fix makes %v, want the new ReplicaSet created first", calls)
	}
}
