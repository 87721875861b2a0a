package rollout_test

import (
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestNewReplicaSetName: the name Plan gives the ReplicaSet it creates is
// NewReplicaSetName, and its pod-template-hash label is PodTemplateHash.
func TestNewReplicaSetName(t *testing.T) {
	s := staleState(t)
	s.ReplicaSets = nil // no ReplicaSet: the sync creates one
	for _, cc := range []rollout.OptionalInt32{{}, rollout.Int32(0), rollout.Int32(3)} {
		s.Deployment.Status.CollisionCount = cc
		actions, err := rollout.Plan(s)
		if err != nil {
			t.Fatal(err)
		}
		if actions[0].Type != rollout.CreateReplicaSet {
			t.Fatalf("first action %v, want CreateReplicaSet", actions[0])
		}
		name, h := rollout.NewReplicaSetName(s.Deployment), rollout.PodTemplateHash(s.Deployment)
		if actions[0].ReplicaSet != name || !strings.HasSuffix(name, "-"+h) {
			t.Errorf("collisionCount %v: created %s, NewReplicaSetName %s, PodTemplateHash %s", cc, actions[0].ReplicaSet, name, h)
		}
		if got := actions[0].Labels[rollout.PodTemplateHashLabel]; got != h {
			t.Errorf("collisionCount %v: pod-template-hash label %q, want %q", cc, got, h)
		}
	}
}

func TestCopiesAnnotation(t *testing.T) {
	for key, want := range map[string]bool{
		"team":                            true,
		"":                                true,
		rollout.LastAppliedAnnotation:     false,
		rollout.RevisionAnnotation:        false,
		rollout.RevisionHistoryAnnotation: false,
		rollout.DesiredReplicasAnnotation: false,
		rollout.MaxReplicasAnnotation:     false,
		rollout.RollbackToAnnotation:      false,
	} {
		if got := rollout.CopiesAnnotation(key); got != want {
			t.Errorf("CopiesAnnotation(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestValidateState: Plan refuses exactly what ValidateState reports.
func TestValidateState(t *testing.T) {
	s := staleState(t)
	if err := rollout.ValidateState(s); err != nil {
		t.Fatalf("ValidateState(valid) = %v", err)
	}
	s.ReplicaSets[0].Spec.Replicas = -1
	err := rollout.ValidateState(s)
	if err == nil || !strings.Contains(err.Error(), "replicaset web-v1: spec.replicas: Invalid value: -1") {
		t.Fatalf("ValidateState = %v, want the ReplicaSet's negative size", err)
	}
	if actions, perr := rollout.Plan(s); perr == nil || actions != nil {
		t.Errorf("Plan() = %v, %v; want no actions and an error", actions, perr)
	}
	other := s
	other.ReplicaSets = append([]rollout.ReplicaSet(nil), s.ReplicaSets...)
	other.ReplicaSets[0].Namespace = "elsewhere"
	if err := rollout.ValidateState(other); err != nil {
		t.Errorf("ValidateState looks at another namespace: %v", err)
	}
}
