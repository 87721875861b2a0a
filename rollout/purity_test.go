package rollout_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestFunctionsDoNotModifyInputs calls each exported helper on inputs in an
// order none of them keeps, writes into what the helper returns, and checks
// that the inputs, deep copied before the call, are unchanged after it: no
// helper modifies, reorders or aliases its arguments.
func TestFunctionsDoNotModifyInputs(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d := rollout.RollingDeployment(10, surge.Percent(25), surge.Percent(25))
	d.Spec.Template = rollout.PodTemplate{Labels: map[string]string{"app": "x"}, Spec: rollout.MustParsePodSpec(`{"containers":[{"image":"x:2","name":"c"}]}`)}
	d.Status.Conditions = []rollout.Condition{condA, condP1}
	mk := func(name string, replicas int32, created time.Time, image, rev string) rollout.ReplicaSet {
		return rollout.ReplicaSet{
			ObjectMeta: rollout.ObjectMeta{
				Name: name, UID: "uid-" + name, CreationTimestamp: created,
				Labels:      map[string]string{"app": "x", rollout.PodTemplateHashLabel: name},
				Annotations: map[string]string{rollout.RevisionAnnotation: rev, rollout.MaxReplicasAnnotation: "13", rollout.DesiredReplicasAnnotation: "10"},
			},
			Spec: rollout.ReplicaSetSpec{Replicas: replicas, Template: rollout.PodTemplate{
				Labels: map[string]string{"app": "x", rollout.PodTemplateHashLabel: name},
				Spec:   rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"name":"c"}]}`, image)),
			}},
			Status: rollout.ReplicaSetStatus{Replicas: replicas, AvailableReplicas: replicas},
		}
	}
	sets := []rollout.ReplicaSet{
		mk("new-late", 3, t0.Add(2*time.Hour), "x:2", "3"),
		mk("old-b", 0, t0.Add(time.Hour), "x:1", "2"),
		mk("new-early", 2, t0.Add(time.Minute), "x:2", "4"),
		mk("old-a", 5, t0, "x:0", "1"),
	}
	type fn = func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet)
	calls := []struct {
		name string
		call fn
	}{
		{"FindNewReplicaSet", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.FindNewReplicaSet(*d, s)
		}},
		{"FindOldReplicaSets", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.FindOldReplicaSets(*d, s)
		}},
		{"FindActiveOrLatest", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.FindActiveOrLatest(p[0], p[1:])
		}},
		{"FindActiveOrLatest without new", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.FindActiveOrLatest(nil, p)
		}},
		{"FilterActiveReplicaSets", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.FilterActiveReplicaSets(p)
		}},
		{"Count", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) { rollout.Count(p) }},
		{"MaxRevision", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) { rollout.MaxRevision(s) }},
		{"LastRevision", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) { rollout.LastRevision(s) }},
		{"NewRSNewReplicas", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			_, _ = rollout.NewRSNewReplicas(d, p, p[0])
		}},
		{"NewReplicaSet", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rs, _ := rollout.NewReplicaSet(d, p)
			rollout.Scribble(&rollout.State{ReplicaSets: []rollout.ReplicaSet{rs}})
		}},
		{"CalculateStatus", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			st, _ := rollout.CalculateStatus(d, p, p[0], t0, rollout.Options{})
			for i := range st.Conditions {
				st.Conditions[i].Reason = "scribbled"
			}
		}},
		{"IsSaturated", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.IsSaturated(d, p[0])
		}},
		{"SetReplicasAnnotations", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rs, _ := rollout.SetReplicasAnnotations(s[0], 7, 9)
			rollout.Scribble(&rollout.State{ReplicaSets: []rollout.ReplicaSet{rs}})
		}},
		{"ReplicasAnnotationsNeedUpdate", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.ReplicasAnnotationsNeedUpdate(p[0], 7, 9)
		}},
		{"GetReplicaSetProportion", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.GetReplicaSetProportion(p[0], *d, 5, 1)
		}},
		{"EqualIgnoreHash", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.EqualIgnoreHash(d.Spec.Template, s[0].Spec.Template)
		}},
		{"SetDeploymentCondition", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.SetDeploymentCondition(d.Status, condP2)
		}},
		{"RemoveDeploymentCondition", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.RemoveDeploymentCondition(d.Status, rollout.Available)
		}},
		{"DeploymentComplete", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.DeploymentComplete(*d, d.Status)
		}},
		{"DeploymentTimedOut", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.DeploymentTimedOut(*d, d.Status, t0)
		}},
		{"Limits", func(d *rollout.Deployment, s []rollout.ReplicaSet, p []*rollout.ReplicaSet) {
			rollout.Limits(*d)
			rollout.MinAvailable(*d)
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			in := rollout.DeepCopies(sets)
			p := rollout.Pointers(in)
			dd := d.DeepCopy()
			c.call(&dd, in, p)
			if diff := cmp.Diff(sets, in); diff != "" {
				t.Errorf("%s() modified or reordered the ReplicaSets (-before +after):\n%s", c.name, diff)
			}
			for i := range p {
				if p[i] != &in[i] {
					t.Errorf("%s() reordered the pointers to the ReplicaSets", c.name)
					break
				}
			}
			if diff := cmp.Diff(d, dd, rollout.StateCmp); diff != "" {
				t.Errorf("%s() modified the Deployment (-before +after):\n%s", c.name, diff)
			}
		})
	}
}
