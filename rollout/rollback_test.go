package rollout_test

import (
	"testing"

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
	if diff := cmp.Diff(want, update{a.Annotations, a.Template, a.Event.String()}); diff != "" {
		t.Errorf("Plan() UpdateDeployment mismatch (-want +got):\n%s", diff)
	}
}
