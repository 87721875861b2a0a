package rollout

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGetPodMapForReplicaSets ports upstream's test of that name (vectors
// C.12) through planner.getPodMapForDeployment: pods grouped by owner reference alone,
// whatever their phase; a pod without one belongs to no ReplicaSet.
func TestGetPodMapForReplicaSets(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d := UpstreamNewDeployment("foo", 1, OptionalInt32{}, nil, nil, selector)
	rs := func(name string) ReplicaSet {
		return ReplicaSet{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: "uid-" + name, Labels: selector,
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true}},
			},
			Spec: ReplicaSetSpec{Replicas: 1, Selector: LabelSelector{MatchLabels: selector}, Template: d.Spec.Template},
		}
	}
	pod := func(name string, owner *ReplicaSet, phase PodPhase) Pod {
		p := Pod{ObjectMeta: ObjectMeta{Name: name, Namespace: "default", Labels: selector}, Phase: phase}
		if owner != nil {
			p.OwnerReferences = []OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: true}}
		}
		return p
	}
	rs1, rs2 := rs("rs1"), rs("rs2")
	pods := []Pod{
		pod("rs1-pod", &rs1, ""),
		pod("rs2-pod", &rs2, ""),
		pod("pod3", nil, ""),         // matching labels, no controller reference
		pod("pod4", &rs1, PodFailed), // owned but inactive
	}
	p := newPlanner(State{Deployment: d, ReplicaSets: []ReplicaSet{rs1, rs2}, Pods: pods, Now: FixtureNow})
	if err := p.getReplicaSetsForDeployment(); err != nil {
		t.Fatal(err)
	}
	if err := p.getPodMapForDeployment(pods); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for uid, ps := range p.podMap {
		got[uid] = []string{}
		for _, pod := range ps {
			got[uid] = append(got[uid], pod.Name)
		}
		slices.Sort(got[uid])
	}
	want := map[string][]string{"uid-rs1": {"pod4", "rs1-pod"}, "uid-rs2": {"rs2-pod"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("getPodMapForDeployment() mismatch (-want +got):\n%s", diff)
	}
}

// TestGetReplicaSetsForDeployment ports upstream's
// TestGetReplicaSetsForDeployment and
// TestGetReplicaSetsForDeploymentAdoptRelease (vectors C.12) through
// planner.getReplicaSetsForDeployment.
func TestGetReplicaSetsForDeployment(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d1 := UpstreamNewDeployment("foo", 1, OptionalInt32{}, nil, nil, selector)
	d2 := UpstreamNewDeployment("bar", 1, OptionalInt32{}, nil, nil, selector)
	owned := func(d Deployment, name string) ReplicaSet {
		return ReplicaSet{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: "uid-" + name, Labels: selector,
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true}},
			},
			Spec: ReplicaSetSpec{Replicas: 1, Selector: LabelSelector{MatchLabels: selector}, Template: d.Spec.Template},
		}
	}
	rsAdopt := owned(d1, "rsAdopt")
	rsAdopt.OwnerReferences = nil
	rsRelease := owned(d1, "rsRelease")
	rsRelease.Labels = map[string]string{"foo": "notbar"}

	tests := []struct {
		name        string
		d           Deployment
		sets        []ReplicaSet
		want        []string
		wantActions []string
	}{
		{name: "d1 claims rs1", d: d1, sets: []ReplicaSet{owned(d1, "rs1"), owned(d2, "rs2")}, want: []string{"rs1"}},
		{name: "d2 claims rs2", d: d2, sets: []ReplicaSet{owned(d1, "rs1"), owned(d2, "rs2")}, want: []string{"rs2"}},
		{
			name: "adopt and release", d: d1, sets: []ReplicaSet{rsRelease, rsAdopt}, want: []string{"rsAdopt"},
			wantActions: []string{"AdoptReplicaSet rsAdopt", "ReleaseReplicaSet rsRelease"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlanner(State{Deployment: tt.d, ReplicaSets: tt.sets, Now: FixtureNow})
			if err := p.getReplicaSetsForDeployment(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rs := range p.rsList {
				got = append(got, rs.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("getReplicaSetsForDeployment() mismatch (-want +got):\n%s", diff)
			}
			var acts []string
			for _, a := range p.actions {
				acts = append(acts, a.String())
			}
			if diff := cmp.Diff(tt.wantActions, acts); diff != "" {
				t.Errorf("getReplicaSetsForDeployment() actions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
