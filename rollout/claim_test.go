package rollout_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestGetReplicaSetsForDeploymentThroughPlan ports upstream's
// TestGetReplicaSetsForDeployment and
// TestGetReplicaSetsForDeploymentAdoptRelease as far as Plan shows them:
// no adoption of another Deployment's ReplicaSet, whose counts stay out of
// the status; an orphan adopted and a non-matching ReplicaSet released,
// first, in name order. (claim_internal_test.go checks the claimed
// lists themselves.)
func TestGetReplicaSetsForDeploymentThroughPlan(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d1 := rollout.UpstreamNewDeployment("foo", 1, rollout.OptionalInt32{}, nil, nil, selector)
	d2 := rollout.UpstreamNewDeployment("bar", 1, rollout.OptionalInt32{}, nil, nil, selector)
	running := func(rs rollout.ReplicaSet, n int32) rollout.ReplicaSet {
		rs.Status = rollout.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n}
		return rs
	}
	rs1, rs2 := running(rollout.UpstreamNewReplicaSet(d1, "rs1", 1), 1), running(rollout.UpstreamNewReplicaSet(d2, "rs2", 1), 2)
	rsAdopt := rollout.UpstreamNewReplicaSet(d1, "rsAdopt", 1)
	rsAdopt.OwnerReferences = nil
	rsRelease := rollout.UpstreamNewReplicaSet(d1, "rsRelease", 1)
	rsRelease.Labels = map[string]string{"foo": "notbar"}

	tests := []struct {
		name         string
		d            rollout.Deployment
		sets         []rollout.ReplicaSet
		wantClaims   []string // the adoptions and releases
		wantReplicas int32    // status.replicas written
	}{
		{name: "d1 claims rs1", d: d1, sets: []rollout.ReplicaSet{rs1, rs2}, wantReplicas: 1},
		{name: "d2 claims rs2", d: d2, sets: []rollout.ReplicaSet{rs1, rs2}, wantReplicas: 2},
		{
			name: "adopt and release", d: d1, sets: []rollout.ReplicaSet{rsRelease, rsAdopt},
			wantClaims: []string{"AdoptReplicaSet rsAdopt", "ReleaseReplicaSet rsRelease"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(rollout.State{Deployment: tt.d, ReplicaSets: tt.sets, Now: rollout.FixtureNow, Options: rollout.Options{SkipValidation: true}})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			var claims []string
			replicas := int32(-1)
			for _, a := range actions {
				switch a.Type {
				case rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet:
					claims = append(claims, a.String())
				case rollout.UpdateDeploymentStatus:
					replicas = a.Status.Replicas
				}
			}
			if diff := cmp.Diff(tt.wantClaims, claims); diff != "" {
				t.Errorf("Plan() claims mismatch (-want +got):\n%s", diff)
			}
			if n := len(tt.wantClaims); !slices.Equal(claims, rollout.ActionStrings(actions[:min(n, len(actions))])) {
				t.Errorf("Plan() = %v, want the claims first", actions)
			}
			if tt.wantReplicas != 0 {
				if diff := cmp.Diff(tt.wantReplicas, replicas); diff != "" {
					t.Errorf("Plan() status.replicas mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestNewControllerRef: the reference a ReplicaSet gets from its
// Deployment, as upstream writes it on created and adopted ReplicaSets
// (spec §1.1).
func TestNewControllerRef(t *testing.T) {
	d := rollout.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid", Labels: map[string]string{"app": "web"}}
	want := rollout.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep-uid", Controller: true, BlockOwnerDeletion: true}
	if diff := cmp.Diff(want, rollout.NewControllerRef(d, rollout.AppsAPIVersion, rollout.DeploymentKind)); diff != "" {
		t.Errorf("NewControllerRef() mismatch (-want +got):\n%s", diff)
	}
	rs := rollout.ObjectMeta{OwnerReferences: []rollout.OwnerReference{rollout.NewControllerRef(d, rollout.AppsAPIVersion, rollout.DeploymentKind)}}
	if !rollout.IsControlledBy(&rs, &d) {
		t.Errorf("IsControlledBy(NewControllerRef(d), d) = false")
	}
}

// TestIsControlledBy: ownership is the controller reference's UID, never
// the owner's name.
func TestIsControlledBy(t *testing.T) {
	owner := rollout.ObjectMeta{Name: "web", UID: "dep-uid"}
	ref := func(name, uid string, controller bool) rollout.OwnerReference {
		return rollout.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name, UID: uid, Controller: controller}
	}
	tests := []struct {
		name string
		refs []rollout.OwnerReference
		want bool
	}{
		{name: "controlled", refs: []rollout.OwnerReference{ref("web", "dep-uid", true)}, want: true},
		{name: "no owner", want: false},
		{name: "owner but not controller", refs: []rollout.OwnerReference{ref("web", "dep-uid", false)}, want: false},
		{name: "same name, another UID (a Deployment deleted and created again)", refs: []rollout.OwnerReference{ref("web", "old-uid", true)}, want: false},
		{name: "another name, same UID", refs: []rollout.OwnerReference{ref("renamed", "dep-uid", true)}, want: true},
		{
			name: "the first controller reference counts",
			refs: []rollout.OwnerReference{ref("web", "dep-uid", false), ref("other", "other-uid", true), ref("web", "dep-uid", true)},
			want: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := rollout.ObjectMeta{Name: "web-1", OwnerReferences: tt.refs}
			if got := rollout.IsControlledBy(&obj, &owner); got != tt.want {
				t.Errorf("IsControlledBy() = %t, want %t", got, tt.want)
			}
		})
	}
}
