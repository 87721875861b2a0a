package rollout_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestScaleDownOldReplicaSets ports upstream's TestScaleDownOldReplicaSets
// (vectors C.9) through Plan: a Recreate sync first scales the old
// ReplicaSet to 0.
func TestScaleDownOldReplicaSets(t *testing.T) {
	d := rollout.RecreateDeployment(3)
	actions, err := rollout.Plan(rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rollout.OldReplicaSet(d, "foo-0", 3)}, Now: rollout.FixtureNow})
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	want := []string{
		"ScaleReplicaSet foo-0 3 -> 0: Normal ScalingReplicaSet Scaled down replica set foo-0 from 3 to 0",
		"UpdateDeploymentStatus",
	}
	if diff := cmp.Diff(want, rollout.ActionStrings(actions)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}
}

// ref returns p with its owner reference changed.
func ref(p rollout.Pod, change func(*rollout.OwnerReference)) rollout.Pod {
	change(&p.OwnerReferences[0])
	return p
}

// inNamespace returns p in namespace ns.
func inNamespace(p rollout.Pod, ns string) rollout.Pod {
	p.Namespace = ns
	return p
}

// TestGetPodMapForReplicaSetsThroughPlan shows upstream's
// TestGetPodMapForReplicaSets where Plan observes it, in a Recreate sync:
// a pod counts for an old ReplicaSet through its controller reference
// alone, and a failed one does not keep the rollout waiting.
func TestGetPodMapForReplicaSetsThroughPlan(t *testing.T) {
	d := rollout.RecreateDeployment(1)
	rs1 := rollout.OldReplicaSet(d, "rs1", 0)
	pod := func(name string, owner *rollout.ReplicaSet, phase rollout.PodPhase) rollout.Pod {
		p := rollout.Pod{ObjectMeta: rollout.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"foo": "bar"}}, Phase: phase}
		if owner != nil {
			p.OwnerReferences = []rollout.OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: true}}
		}
		return p
	}
	tests := []struct {
		name       string
		pods       []rollout.Pod
		wantCreate bool
	}{
		{name: "pod3 without owner and failed pod4: create the new ReplicaSet", pods: []rollout.Pod{pod("pod3", nil, rollout.PodRunning), pod("pod4", &rs1, rollout.PodFailed)}, wantCreate: true},
		{name: "rs1-pod runs: wait", pods: []rollout.Pod{pod("rs1-pod", &rs1, ""), pod("pod4", &rs1, rollout.PodFailed)}, wantCreate: false},
		// Not upstream's rows: a pod belongs to a ReplicaSet only through a
		// controller reference of kind ReplicaSet with its name and UID, in
		// the Deployment's namespace.
		{name: "a running pod whose controller is a Job of rs1's name and UID: create", pods: []rollout.Pod{ref(pod("p", &rs1, rollout.PodRunning), func(r *rollout.OwnerReference) { r.Kind = "Job" })}, wantCreate: true},
		{name: "a running pod of rs1 in another namespace: create", pods: []rollout.Pod{inNamespace(pod("p", &rs1, rollout.PodRunning), "other")}, wantCreate: true},
		{name: "a running pod naming rs1 with another UID: create", pods: []rollout.Pod{ref(pod("p", &rs1, rollout.PodRunning), func(r *rollout.OwnerReference) { r.UID = "other" })}, wantCreate: true},
		{name: "a running pod naming another ReplicaSet with rs1's UID: create", pods: []rollout.Pod{ref(pod("p", &rs1, rollout.PodRunning), func(r *rollout.OwnerReference) { r.Name = "rs9" })}, wantCreate: true},
		{name: "a running pod owned by rs1 but not controlled: create", pods: []rollout.Pod{ref(pod("p", &rs1, rollout.PodRunning), func(r *rollout.OwnerReference) { r.Controller = false })}, wantCreate: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs1}, Pods: tt.pods, Now: rollout.FixtureNow})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			created := slices.ContainsFunc(actions, func(a rollout.Action) bool { return a.Type == rollout.CreateReplicaSet })
			if diff := cmp.Diff(tt.wantCreate, created); diff != "" {
				t.Errorf("Plan() created mismatch (-want +got):\n%s\nactions: %v", diff, actions)
			}
		})
	}
}

// TestRecreateStopsAtAHashCollision: when every old pod is gone and the
// name of the Recreate rollout's new ReplicaSet is taken by a ReplicaSet
// of another template, the sync raises status.collisionCount, writes the
// status and ends with the *CollisionError naming the taken ReplicaSet:
// it creates and scales nothing (R-NEW-8a), as a RollingUpdate sync does.
func TestRecreateStopsAtAHashCollision(t *testing.T) {
	s := rollout.WebState(3, rollout.RollingUpdate{}, "v2")
	s.Deployment.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
	taken := rollout.WebReplicaSet(rollout.NewReplicaSetName(s.Deployment), "other", 0, 1, rollout.WebEpoch)
	s.ReplicaSets = []rollout.ReplicaSet{taken}
	actions, err := rollout.Plan(s)
	var ce *rollout.CollisionError
	if !errors.As(err, &ce) || ce.Name != taken.Name {
		t.Fatalf("Plan() error = %v, want a *CollisionError for %s", err, taken.Name)
	}
	if diff := cmp.Diff([]string{"UpdateDeploymentStatus"}, rollout.ActionStrings(actions)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}
	if got := actions[len(actions)-1].Status.CollisionCount; got != rollout.Int32(1) {
		t.Errorf("status.collisionCount written %v, want 1", got)
	}
}
