package rollout_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// applyState is a Deployment (generation 2) with an owned ReplicaSet
// "web-v1" of 3 (generation 1), an orphan "orphan", and a pod, at a Now
// with a fraction of a second.
func applyState() rollout.State {
	owned := rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch)
	orphan := rollout.WebReplicaSet("orphan", "v0", 1, 0, rollout.WebEpoch)
	orphan.OwnerReferences = nil
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", owned, orphan)
	s.Deployment.Annotations = map[string]string{"team": "a"}
	s.Pods = []rollout.Pod{{ObjectMeta: rollout.ObjectMeta{Name: "web-v1-x", Namespace: "default", Labels: map[string]string{"app": "web"}}}}
	s.Now = s.Now.Add(700 * time.Millisecond)
	return s
}

// TestApply checks each action type as Apply documents it, as the API
// server stores the call.
func TestApply(t *testing.T) {
	s := applyState()
	created := rollout.WebReplicaSet("web-v2", "v2", 2, 2, time.Time{})
	created.UID, created.Generation = "", 0
	same := s.Deployment.Spec.Template.DeepCopy()
	v1 := rollout.WebReplicaSet("x", "v1", 0, 0, time.Time{})
	tests := []struct {
		name   string
		action rollout.Action
		check  func(t *testing.T, out rollout.State)
	}{
		{"adopt", rollout.Action{Type: rollout.AdoptReplicaSet, ReplicaSet: "orphan"}, func(t *testing.T, out rollout.State) {
			want := []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep-uid", Controller: true, BlockOwnerDeletion: true}}
			if diff := cmp.Diff(want, out.ReplicaSets[1].OwnerReferences); diff != "" {
				t.Errorf("owner references mismatch (-want +got):\n%s", diff)
			}
		}},
		{"release", rollout.Action{Type: rollout.ReleaseReplicaSet, ReplicaSet: "web-v1"}, func(t *testing.T, out rollout.State) {
			if refs := out.ReplicaSets[0].OwnerReferences; len(refs) != 0 {
				t.Errorf("owner references %v, want none", refs)
			}
		}},
		{"create", rollout.Action{Type: rollout.CreateReplicaSet, ReplicaSet: "web-v2", To: 2, Created: &created}, func(t *testing.T, out rollout.State) {
			rs := out.ReplicaSets[2]
			if rs.Name != "web-v2" || rs.UID != "uid-web-v2" || rs.Generation != 1 || !rs.CreationTimestamp.Equal(rollout.WebEpoch.Add(time.Hour)) || rs.Spec.Replicas != 2 {
				t.Errorf("created %s uid %q generation %d at %v size %d; want uid-web-v2, generation 1, at Now truncated to the second, size 2",
					rs.Name, rs.UID, rs.Generation, rs.CreationTimestamp, rs.Spec.Replicas)
			}
		}},
		{"scale", rollout.Action{Type: rollout.ScaleReplicaSet, ReplicaSet: "web-v1", From: 3, To: 1, Annotations: map[string]string{"x": "1"}}, func(t *testing.T, out rollout.State) {
			rs := out.ReplicaSets[0]
			if rs.Spec.Replicas != 1 || rs.Generation != 2 || !cmp.Equal(rs.Annotations, map[string]string{"x": "1"}) {
				t.Errorf("size %d, generation %d, annotations %v; want 1, 2 (bumped), {x: 1}", rs.Spec.Replicas, rs.Generation, rs.Annotations)
			}
		}},
		{"update minReadySeconds", rollout.Action{Type: rollout.UpdateReplicaSet, ReplicaSet: "web-v1", From: 3, To: 3, MinReadySeconds: 5}, func(t *testing.T, out rollout.State) {
			if rs := out.ReplicaSets[0]; rs.Spec.MinReadySeconds != 5 || rs.Generation != 2 {
				t.Errorf("minReadySeconds %d, generation %d; want 5, 2 (bumped)", rs.Spec.MinReadySeconds, rs.Generation)
			}
		}},
		{"update annotations only", rollout.Action{Type: rollout.UpdateReplicaSet, ReplicaSet: "web-v1", From: 3, To: 3, Annotations: map[string]string{"x": "2"}}, func(t *testing.T, out rollout.State) {
			if rs := out.ReplicaSets[0]; rs.Generation != 1 || rs.Annotations["x"] != "2" {
				t.Errorf("generation %d, annotations %v; want 1 (metadata only), x: 2", rs.Generation, rs.Annotations)
			}
		}},
		{"delete", rollout.Action{Type: rollout.DeleteReplicaSet, ReplicaSet: "web-v1"}, func(t *testing.T, out rollout.State) {
			if diff := cmp.Diff([]string{"orphan"}, rollout.Names(out.ReplicaSets)); diff != "" {
				t.Errorf("ReplicaSets mismatch (-want +got):\n%s", diff)
			}
		}},
		{"update deployment, annotations changed", rollout.Action{Type: rollout.UpdateDeployment, Annotations: map[string]string{"team": "b"}, Template: &same}, func(t *testing.T, out rollout.State) {
			if d := out.Deployment; d.Generation != 3 || d.Annotations["team"] != "b" {
				t.Errorf("generation %d, annotations %v; want 3 (bumped), team: b", d.Generation, d.Annotations)
			}
		}},
		{"update deployment, template changed", rollout.Action{Type: rollout.UpdateDeployment, Annotations: map[string]string{"team": "a"}, Template: &v1.Spec.Template}, func(t *testing.T, out rollout.State) {
			if d := out.Deployment; d.Generation != 3 || !rollout.EqualIgnoreHash(d.Spec.Template, rollout.WebReplicaSet("x", "v1", 0, 0, time.Time{}).Spec.Template) {
				t.Errorf("generation %d, template %v; want 3 (bumped), the v1 template", d.Generation, d.Spec.Template)
			}
		}},
		{"update deployment, nothing changed", rollout.Action{Type: rollout.UpdateDeployment, Annotations: map[string]string{"team": "a"}, Template: &same}, func(t *testing.T, out rollout.State) {
			if d := out.Deployment; d.Generation != 2 {
				t.Errorf("generation %d, want 2 (unchanged)", d.Generation)
			}
		}},
		{"status", rollout.Action{Type: rollout.UpdateDeploymentStatus, Annotations: map[string]string{"r": "1"}, Status: &rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 3}}, func(t *testing.T, out rollout.State) {
			if d := out.Deployment; d.Status.Replicas != 3 || d.Status.ObservedGeneration != 2 || d.Annotations["r"] != "1" || d.Generation != 2 {
				t.Errorf("status %+v, annotations %v, generation %d; want the status written, r: 1, generation 2", d.Status, d.Annotations, d.Generation)
			}
		}},
		{"event and re-check change nothing", rollout.Action{Type: rollout.RecordEvent, Event: rollout.Event{Type: "Normal", Reason: "R", Message: "m"}}, func(t *testing.T, out rollout.State) {
			if diff := cmp.Diff(rollout.Apply(s, nil), out, rollout.StateCmp); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
		}},
		{"unknown ReplicaSet ignored", rollout.Action{Type: rollout.ScaleReplicaSet, ReplicaSet: "nope", To: 9}, func(t *testing.T, out rollout.State) {
			if diff := cmp.Diff(rollout.Apply(s, nil), out, rollout.StateCmp); diff != "" {
				t.Errorf("state changed (-before +after):\n%s", diff)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := applyState() // built apart: no copy under test
			out := rollout.Apply(s, []rollout.Action{tt.action})
			tt.check(t, out)
			if len(out.Pods) != 1 || out.Pods[0].Name != "web-v1-x" {
				t.Errorf("pods %v, want the pod kept", out.Pods)
			}
			// Apply does not modify s, and the result shares nothing with it.
			rollout.Scribble(&out)
			if diff := cmp.Diff(before, s, rollout.StateCmp); diff != "" {
				t.Errorf("Apply() modified or shares its state (-before +after):\n%s", diff)
			}
		})
	}
}

// TestApplyDeletingEveryReplicaSetLeavesNone: when the actions delete
// every ReplicaSet, the state holds nil, as a state given none does, so
// that it compares equal to one (cmp tells nil from empty); ApplyTo and
// Apply agree.
func TestApplyDeletingEveryReplicaSetLeavesNone(t *testing.T) {
	deleteAll := []rollout.Action{
		{Type: rollout.DeleteReplicaSet, ReplicaSet: "web-v1"},
		{Type: rollout.DeleteReplicaSet, ReplicaSet: "orphan"},
	}
	out := rollout.Apply(applyState(), deleteAll)
	if out.ReplicaSets != nil {
		t.Errorf("Apply: ReplicaSets %#v, want nil", out.ReplicaSets)
	}
	in := applyState()
	rollout.ApplyTo(&in, deleteAll)
	if in.ReplicaSets != nil {
		t.Errorf("ApplyTo: ReplicaSets %#v, want nil", in.ReplicaSets)
	}
	none := applyState()
	none.ReplicaSets = nil
	if diff := cmp.Diff(rollout.Apply(none, nil), out, rollout.StateCmp); diff != "" {
		t.Errorf("a state whose ReplicaSets were all deleted differs from one given none (-none +deleted):\n%s", diff)
	}
}
