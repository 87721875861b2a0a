package rollout_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestReentrantRollback ports upstream's TestReentrantRollback: a rollback
// to revision 0 (the previous one) only updates the Deployment, with the
// template of revision 1, and writes no ReplicaSet. (Upstream's fixture
// shares one label map between the Deployment's selector, its template and
// the ReplicaSets, so all of them also carry the pod-template-hash label;
// here only the ReplicaSets do.)
func TestReentrantRollback(t *testing.T) {
	d := rollout.UpstreamNewDeployment("foo", 1, rollout.OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
	d.Annotations = map[string]string{rollout.RevisionAnnotation: "2", rollout.RollbackToAnnotation: "0"}
	withHash := func(rs rollout.ReplicaSet) rollout.ReplicaSet {
		rs.Labels = map[string]string{"foo": "bar", rollout.PodTemplateHashLabel: "hash"}
		rs.Spec.Selector.MatchLabels = map[string]string{"foo": "bar", rollout.PodTemplateHashLabel: "hash"}
		return rs
	}
	rs1 := withHash(rollout.UpstreamNewReplicaSet(d, "deploymentrs-old", 0))
	rs1.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
	rs1.Spec.Template.Spec = rollout.MustParsePodSpec(`{"containers":[{"image":"foo/bar"}],"terminationGracePeriodSeconds":1}`)
	rs2 := withHash(rollout.UpstreamNewReplicaSet(d, "deploymentrs-new", 1))
	rs2.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}

	actions, err := rollout.Plan(rollout.State{
		Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs1, rs2}, Now: rollout.FixtureNow, Options: rollout.Options{SkipValidation: true},
	})
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	if diff := cmp.Diff([]rollout.ActionType{rollout.UpdateDeployment}, rollout.APICallTypes(actions)); diff != "" {
		t.Fatalf("Plan() mismatch (-want +got):\n%s", diff)
	}
	type update struct {
		Annotations map[string]string
		Template    rollout.PodTemplate
		Event       string
	}
	want := update{
		Annotations: map[string]string{rollout.RevisionAnnotation: "2"},
		Template:    rollout.PodTemplate{Labels: map[string]string{"foo": "bar"}, Spec: rs1.Spec.Template.Spec},
		Event:       `Normal DeploymentRollback Rolled back deployment "foo" to revision 1`,
	}
	a := actions[0]
	if diff := cmp.Diff(want, update{a.Annotations, *a.Template, a.Event.String()}); diff != "" {
		t.Errorf("Plan() UpdateDeployment mismatch (-want +got):\n%s", diff)
	}
}

// TestRollbackOutcomes: the four outcomes of a rollback request (R-RB-2..4),
// each clearing the request in one Deployment update, with its event: the
// template of the revision restored without its pod-template-hash label
// and the Deployment's annotations taken from that ReplicaSet (its own
// revision and replica annotations kept); no previous revision; no such
// revision; and the current template already.
func TestRollbackOutcomes(t *testing.T) {
	ru := rollout.DefaultRollingUpdate()
	v1 := rollout.WebReplicaSet("web-v1", "v1", 0, 1, rollout.WebEpoch)
	v1.Annotations["team"] = "one"
	v2 := rollout.WebReplicaSet("web-v2", "v2", 3, 2, rollout.WebEpoch.Add(time.Minute))
	state := func(to string, sets ...rollout.ReplicaSet) rollout.State {
		s := rollout.WebState(3, ru, "v2", sets...)
		s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2", rollout.RollbackToAnnotation: to, "team": "two"}
		return s
	}
	tests := []struct {
		name     string
		s        rollout.State
		event    string
		ann      map[string]string
		template string // the image after the update
	}{
		{"to the previous revision", state("0", v1, v2), `Normal DeploymentRollback Rolled back deployment "web" to revision 1`,
			map[string]string{rollout.RevisionAnnotation: "2", "team": "one"}, "v1"},
		{"to revision 1", state("1", v1, v2), `Normal DeploymentRollback Rolled back deployment "web" to revision 1`,
			map[string]string{rollout.RevisionAnnotation: "2", "team": "one"}, "v1"},
		{"no previous revision", state("0", v2), "Warning DeploymentRollbackRevisionNotFound Unable to find last revision.",
			map[string]string{rollout.RevisionAnnotation: "2", "team": "two"}, "v2"},
		{"no such revision", state("7", v1, v2), "Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.",
			map[string]string{rollout.RevisionAnnotation: "2", "team": "two"}, "v2"},
		{"the current template", state("2", v1, v2), `Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "web"`,
			map[string]string{rollout.RevisionAnnotation: "2", "team": "two"}, "v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(tt.s)
			if err != nil {
				t.Fatal(err)
			}
			var events []string
			var update *rollout.Action
			for i, a := range actions {
				if !a.Event.IsZero() {
					events = append(events, a.Event.String())
				}
				if a.Type == rollout.UpdateDeployment {
					update = &actions[i]
				}
			}
			if diff := cmp.Diff([]string{tt.event}, events); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
			if update == nil {
				t.Fatalf("no UpdateDeployment in %v", actions)
			}
			if diff := cmp.Diff(tt.ann, update.Annotations); diff != "" {
				t.Errorf("annotations mismatch (-want +got):\n%s", diff)
			}
			want := rollout.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: rollout.ContainerSpec(tt.template)}
			if diff := cmp.Diff(&want, update.Template); diff != "" {
				t.Errorf("template mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRollbackToUnlabelledTemplate: the template restored by a rollback
// always has labels, empty when the ReplicaSet's template had none, or
// none but the pod-template-hash label (R-ANN-7).
func TestRollbackToUnlabelledTemplate(t *testing.T) {
	for _, labels := range []map[string]string{nil, {rollout.PodTemplateHashLabel: "h"}} {
		rollbackToLabels(t, labels)
	}
}

func rollbackToLabels(t *testing.T, labels map[string]string) {
	t.Helper()
	v1 := rollout.WebReplicaSet("web-v1", "v1", 0, 1, rollout.WebEpoch)
	v1.Spec.Template.Labels = labels
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", v1, rollout.WebReplicaSet("web-v2", "v2", 3, 2, rollout.WebEpoch.Add(time.Minute)))
	s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2", rollout.RollbackToAnnotation: "1"}
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if a.Type == rollout.UpdateDeployment {
			if a.Template.Labels == nil || len(a.Template.Labels) != 0 {
				t.Errorf("template labels %#v: labels %#v, want an empty, non-nil map", labels, a.Template.Labels)
			}
			return
		}
	}
	t.Errorf("no UpdateDeployment in %v", actions)
}
