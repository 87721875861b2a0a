package rollout_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/revision"
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

// TestNewReplicaSet: the ReplicaSet a sync creates, built on its own
// (R-NEW-6, R-NEW-7) and as Plan sends it.
func TestNewReplicaSet(t *testing.T) {
	old := []rollout.ReplicaSet{
		rollout.WebReplicaSet("web-v1", "v1", 2, 1, rollout.WebEpoch),
		rollout.WebReplicaSet("web-v4", "v4", 8, 4, rollout.WebEpoch.Add(time.Minute)),
	}
	s := rollout.WebState(10, rollout.DefaultRollingUpdate(), "v5", old...)
	d := &s.Deployment
	d.Spec.MinReadySeconds = 5
	d.Annotations = map[string]string{"team": "blue", rollout.RevisionAnnotation: "4", rollout.LastAppliedAnnotation: "{}"}
	h := rollout.PodTemplateHash(*d)
	withHash := map[string]string{"app": "web", rollout.PodTemplateHashLabel: h}
	want := rollout.ReplicaSet{
		ObjectMeta: rollout.ObjectMeta{
			Name: "web-" + h, Namespace: "default", Labels: withHash,
			Annotations: map[string]string{"team": "blue", rollout.RevisionAnnotation: "5",
				rollout.DesiredReplicasAnnotation: "10", rollout.MaxReplicasAnnotation: "13"},
			OwnerReferences: []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep-uid", Controller: true, BlockOwnerDeletion: true}},
		},
		Spec: rollout.ReplicaSetSpec{
			Replicas:        3, // replicas 10 + maxSurge 3 - 10 old ones
			MinReadySeconds: 5,
			Selector:        rollout.LabelSelector{MatchLabels: withHash},
			Template:        rollout.PodTemplate{Labels: withHash, Spec: rollout.ContainerSpec("v5")},
		},
	}
	got, err := rollout.NewReplicaSet(d, rollout.Pointers(s.ReplicaSets))
	if err != nil {
		t.Fatalf("NewReplicaSet() error: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewReplicaSet() mismatch (-want +got):\n%s", diff)
	}
	if got.Name != rollout.NewReplicaSetName(*d) {
		t.Errorf("NewReplicaSet().Name = %s, NewReplicaSetName() = %s", got.Name, rollout.NewReplicaSetName(*d))
	}

	// Plan sends the same ReplicaSet.
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	if actions[0].Type != rollout.CreateReplicaSet {
		t.Fatalf("Plan() starts with %v, want CreateReplicaSet", actions[0])
	}
	if diff := cmp.Diff(&want, actions[0].Created); diff != "" {
		t.Errorf("Plan()'s created ReplicaSet differs from NewReplicaSet() (-NewReplicaSet +Plan):\n%s", diff)
	}

	t.Run("first ReplicaSet of a Recreate Deployment", func(t *testing.T) {
		d := d.DeepCopy()
		d.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
		got, err := rollout.NewReplicaSet(&d, nil)
		if err != nil {
			t.Fatalf("NewReplicaSet() error: %v", err)
		}
		type result struct {
			Replicas               int32
			Revision, Desired, Max string
		}
		a := got.Annotations
		want := result{10, "1", "10", "10"}
		if diff := cmp.Diff(want, result{got.Spec.Replicas, a[rollout.RevisionAnnotation], a[rollout.DesiredReplicasAnnotation], a[rollout.MaxReplicasAnnotation]}); diff != "" {
			t.Errorf("NewReplicaSet() mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("no revision after MaxInt64", func(t *testing.T) {
		last := old[1].DeepCopy()
		last.Annotations[rollout.RevisionAnnotation] = "9223372036854775807"
		if _, err := rollout.NewReplicaSet(d, []*rollout.ReplicaSet{&last}); !errors.Is(err, revision.ErrOverflow) {
			t.Errorf("NewReplicaSet() error = %v, want revision.ErrOverflow", err)
		}
	})
	t.Run("unknown strategy", func(t *testing.T) {
		d := d.DeepCopy()
		d.Spec.Strategy.Type = "BlueGreen"
		if _, err := rollout.NewReplicaSet(&d, nil); err == nil || !strings.Contains(err.Error(), "BlueGreen") {
			t.Errorf("NewReplicaSet() error = %v, want one naming the strategy", err)
		}
	})
}

// TestCreateFindsItsOwnReplicaSet is R-NEW-8a's other outcome: the name of
// the new ReplicaSet is taken by one the Deployment controls with the same
// template, which the sync did not find as its new ReplicaSet (here it was
// released, as its labels no longer match). That is no collision: nothing
// is created, the revision is recorded, no NewReplicaSetCreated condition
// is written, and the sync goes on with that ReplicaSet as its new one, as
// upstream goes on after the create's AlreadyExists (its cache still shows
// the ReplicaSet controlled).
func TestCreateFindsItsOwnReplicaSet(t *testing.T) {
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2")
	name := rollout.NewReplicaSetName(s.Deployment)
	rs := rollout.WebReplicaSet(name, "v2", 0, 1, rollout.WebEpoch)
	rs.Labels = map[string]string{"app": "other"}
	s.ReplicaSets = []rollout.ReplicaSet{rs}
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ReleaseReplicaSet " + name, "UpdateDeploymentStatus ", "ScaleReplicaSet " + name, "UpdateDeploymentStatus "}
	if diff := cmp.Diff(want, rollout.APICalls(actions)); diff != "" {
		t.Errorf("Plan() calls mismatch (-want +got):\n%s", diff)
	}
	for _, a := range actions {
		if a.Type != rollout.UpdateDeploymentStatus {
			continue
		}
		if a.Annotations[rollout.RevisionAnnotation] != "1" {
			t.Errorf("revision annotation %q, want 1", a.Annotations[rollout.RevisionAnnotation])
		}
		for _, c := range a.Status.Conditions {
			if c.Reason == rollout.ReasonNewReplicaSetCreated {
				t.Errorf("condition %+v written for a ReplicaSet that was not created", c)
			}
		}
	}
}
