package rollout_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestDefaultsAreDecodes: the exported defaults are what decoding applies
// to a Deployment that sets none of them.
func TestDefaultsAreDecodes(t *testing.T) {
	var d rollout.Deployment
	in := `{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`
	if err := json.Unmarshal([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	if d.Spec.Replicas != rollout.DefaultReplicas || d.Spec.RevisionHistoryLimit != rollout.Int32(rollout.DefaultRevisionHistoryLimit) ||
		d.Spec.ProgressDeadlineSeconds != rollout.Int32(rollout.DefaultProgressDeadlineSeconds) ||
		d.Spec.Strategy.Type != rollout.RollingUpdateStrategy || d.Spec.Strategy.RollingUpdate != rollout.DefaultRollingUpdate() {
		t.Errorf("decoded %+v, want the exported defaults", d.Spec)
	}
	if rollout.DefaultReplicas != 1 || rollout.DefaultRevisionHistoryLimit != 10 || rollout.DefaultProgressDeadlineSeconds != 600 ||
		rollout.DefaultRollingUpdate().MaxSurge.String() != "25%" || rollout.DefaultRollingUpdate().MaxUnavailable.String() != "25%" {
		t.Errorf("defaults %d, %d, %d, %+v; want v1.36's 1, 10, 600, 25%%/25%%", rollout.DefaultReplicas, rollout.DefaultRevisionHistoryLimit,
			rollout.DefaultProgressDeadlineSeconds, rollout.DefaultRollingUpdate())
	}
}

// TestUnmarshalObjects: json.Unmarshal into a Deployment, a ReplicaSet or a
// Pod decodes strictly, as Decode does, and leaves the value as it was on
// error.
func TestUnmarshalObjects(t *testing.T) {
	d := rollout.Deployment{ObjectMeta: rollout.ObjectMeta{Name: "kept"}}
	rs := rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "kept"}}
	p := rollout.Pod{ObjectMeta: rollout.ObjectMeta{Name: "kept"}}
	for name, v := range map[string]any{"Deployment": &d, "ReplicaSet": &rs, "Pod": &p} {
		if err := json.Unmarshal([]byte(`{"metadata":{"nmae":"x"}}`), v); err == nil {
			t.Errorf("%s: Unmarshal of an unknown field succeeded", name)
		}
	}
	if d.Name != "kept" || rs.Name != "kept" || p.Name != "kept" {
		t.Errorf("values changed on error: %q %q %q", d.Name, rs.Name, p.Name)
	}
	if err := json.Unmarshal([]byte(`{"metadata":{"name":"p1"}}`), &p); err != nil || p.Name != "p1" || p.Namespace != "default" {
		t.Errorf("Pod: %v, name %q, namespace %q; want p1 in default", err, p.Name, p.Namespace)
	}
	if err := json.Unmarshal([]byte(`{"metadata":{"name":"r1"}}`), &rs); err != nil || rs.Name != "r1" || rs.Spec.Replicas != 1 {
		t.Errorf("ReplicaSet: %v, name %q, replicas %d; want r1 with 1 replica", err, rs.Name, rs.Spec.Replicas)
	}
}

// TestStatusWrittenWhenItDiffers: a sync of the status writes it exactly
// when the computed status differs from the stored one, in a count or in a
// condition, as upstream's DeepEqual decides.
func TestStatusWrittenWhenItDiffers(t *testing.T) {
	s := rollout.WebState(10, rollout.DefaultRollingUpdate(), "v1", rollout.WebReplicaSet("web-v1", "v1", 10, 1, rollout.WebEpoch))
	s.Deployment.DeletionTimestamp = s.Now                                       // a sync of the status alone (R-STAT-3)
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited) // no Progressing condition to add
	s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
	s.ReplicaSets[0].Annotations[rollout.DesiredReplicasAnnotation] = "10"
	p := rollout.Pointers(s.ReplicaSets)
	st, err := rollout.CalculateStatus(&s.Deployment, p, p[0], s.Now, s.Options)
	if err != nil {
		t.Fatal(err)
	}
	s.Deployment.Status = st
	later := s.Now.Add(time.Second)
	for _, tc := range []struct {
		name   string
		change func(c *rollout.Condition, st *rollout.DeploymentStatus)
		writes int
	}{
		{"nothing differs", func(*rollout.Condition, *rollout.DeploymentStatus) {}, 0},
		{"a count", func(_ *rollout.Condition, st *rollout.DeploymentStatus) { st.ReadyReplicas-- }, 1},
		{"type", func(c *rollout.Condition, _ *rollout.DeploymentStatus) { c.Type = rollout.Progressing }, 1},
		{"status", func(c *rollout.Condition, _ *rollout.DeploymentStatus) { c.Status = rollout.ConditionUnknown }, 1},
		{"reason", func(c *rollout.Condition, _ *rollout.DeploymentStatus) { c.Reason = "Other" }, 1},
		// A condition whose status and reason stand is kept as stored,
		// message and times included (SetDeploymentCondition), so these
		// never differ alone through a sync; status_internal_test.go
		// checks the comparison itself.
		{"message", func(c *rollout.Condition, _ *rollout.DeploymentStatus) { c.Message = "other" }, 0},
		{"lastUpdateTime", func(c *rollout.Condition, _ *rollout.DeploymentStatus) { c.LastUpdateTime = later }, 0},
	} {
		c := rollout.DeepCopyState(s)
		tc.change(&c.Deployment.Status.Conditions[0], &c.Deployment.Status)
		actions, err := rollout.Plan(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(rollout.APICalls(actions)); got != tc.writes {
			t.Errorf("%s: %d writes (%v), want %d", tc.name, got, actions, tc.writes)
		}
	}
}
