package rollout_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestSyncDeploymentCreatesReplicaSet ports upstream's test of that name:
// a create, the status write of the revision, and the status write of the
// rollout status.
func TestSyncDeploymentCreatesReplicaSet(t *testing.T) {
	want := []rollout.ActionType{rollout.CreateReplicaSet, rollout.UpdateDeploymentStatus, rollout.UpdateDeploymentStatus}
	tests := []struct {
		name string
		d    rollout.Deployment
		opts rollout.Options
	}{
		{name: "upstream's fixture", d: rollout.UpstreamNewDeployment("foo", 1, rollout.OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"}), opts: rollout.Options{SkipValidation: true}},
		{name: "valid limits", d: func() rollout.Deployment {
			d := rollout.UpstreamNewDeployment("foo", 1, rollout.OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = surge.Count(1)
			return d
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(rollout.State{Deployment: tt.d, Now: rollout.FixtureNow, Options: tt.opts})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			if diff := cmp.Diff(want, rollout.APICallTypes(actions)); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// Upstream's fixture has maxSurge = maxUnavailable = 0, which the API
	// server refuses; by default Plan refuses it too.
	if actions, err := rollout.Plan(rollout.State{Deployment: tests[0].d, Now: rollout.FixtureNow}); err == nil || actions != nil {
		t.Errorf("Plan(maxSurge 0, maxUnavailable 0) = %v, %v; want no actions and an error", actions, err)
	}
}

// TestDeploymentController_generateReplicaSetName ports upstream's test of
// that name through Plan: the created ReplicaSet is named after the
// Deployment, truncated so that the name fits 253 bytes with the hash
// (R-NAME-1: 242 bytes for upstream's 10-character hash).
func TestDeploymentController_generateReplicaSetName(t *testing.T) {
	tests := []struct {
		name           string
		deploymentName string
	}{
		{name: "short name", deploymentName: "my-deployment"},
		{name: "very long name truncated", deploymentName: strings.Repeat("a", 250)},
		{name: "very long name not truncated", deploymentName: strings.Repeat("a", 242)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollout.UpstreamNewDeployment(tt.deploymentName, 1, rollout.OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
			actions, err := rollout.Plan(rollout.State{Deployment: d, Now: rollout.FixtureNow, Options: rollout.Options{SkipValidation: true}})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			var name string
			for _, a := range actions {
				if a.Type == rollout.CreateReplicaSet {
					name = a.ReplicaSet
				}
			}
			h := rollout.PodTemplateHash(d)
			prefix := tt.deploymentName[:min(len(tt.deploymentName), 253-1-len(h))]
			if diff := cmp.Diff(prefix+"-"+h, name); diff != "" {
				t.Errorf("Plan() name mismatch (-want +got):\n%s", diff)
			}
			if len(name) > 253 {
				t.Errorf("name length %d, want <= 253", len(name))
			}
			if len(h) == 10 && len(tt.deploymentName) > 242 && len(prefix) != 242 {
				t.Errorf("prefix length %d, want upstream's 242", len(prefix))
			}
		})
	}
}

// TestNewReplicaSetName: the name Plan gives the ReplicaSet it creates is
// NewReplicaSetName, and its pod-template-hash label is PodTemplateHash.
func TestNewReplicaSetName(t *testing.T) {
	s := rollout.StaleState(t)
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
