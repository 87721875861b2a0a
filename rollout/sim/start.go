package sim

import (
	"fmt"
	"maps"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// FromDeployment returns the state of d fully rolled out on its current
// template at now: one ReplicaSet named as Plan would name it
// (<name>-<pod-template-hash>, with status.collisionCount if set), at
// revision 1 with every pod available, created an hour before now; the
// Deployment at revision 1 with its status complete (observedGeneration its
// generation, every replica updated and available) and the conditions
// Available (MinimumReplicasAvailable) and Progressing
// (NewReplicaSetAvailable). A zero generation becomes 1. Plan at now gives
// no API call for the result. FromDeployment does not modify d. It names
// the ReplicaSet as a controller-manager of the newest supported minor
// does: FromDeploymentWith with the zero rollout.Options.
func FromDeployment(d rollout.Deployment, now time.Time) rollout.State {
	return FromDeploymentWith(d, now, rollout.Options{})
}

// FromDeploymentWith is [FromDeployment] for syncs under opts: the
// result's Options are opts, and its ReplicaSet is named as the
// controller-manager of opts.Version names it, so that Plan at now still
// gives no API call.
func FromDeploymentWith(d rollout.Deployment, now time.Time, opts rollout.Options) rollout.State {
	d = d.DeepCopy()
	if d.Generation == 0 {
		d.Generation = 1
	}
	created := now.Add(-time.Hour).Truncate(time.Second)
	r := d.Spec.Replicas
	// The ReplicaSet the controller created for the template, as it
	// creates it (revision 1, no old ReplicaSets), then scaled to r, its
	// pods available, as the ReplicaSet controller leaves it.
	rs, err := rollout.NewReplicaSetFor(&d, nil, opts.Version)
	if err != nil {
		// Only a strategy type that Plan refuses fails here; the
		// ReplicaSet is the one a RollingUpdate without surge would have.
		rd := d.DeepCopy()
		rd.Spec.Strategy = rollout.Strategy{Type: rollout.RollingUpdateStrategy}
		rs, _ = rollout.NewReplicaSetFor(&rd, nil, opts.Version)
	}
	name := rs.Name
	rs.UID, rs.Generation, rs.CreationTimestamp = "uid-"+name, 1, created
	rs.Spec.Replicas = r
	rs.Status = rollout.ReplicaSetStatus{
		Replicas: r, FullyLabeledReplicas: r, ReadyReplicas: r, AvailableReplicas: r,
		TerminatingReplicas: rollout.Int32(0), ObservedGeneration: 1,
	}

	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[rollout.RevisionAnnotation] = "1"
	d.Status = rollout.DeploymentStatus{
		ObservedGeneration: d.Generation,
		Replicas:           r, UpdatedReplicas: r, ReadyReplicas: r, AvailableReplicas: r,
		TerminatingReplicas: rollout.Int32(0),
		CollisionCount:      d.Status.CollisionCount,
		Conditions: []rollout.Condition{
			rollout.NewDeploymentCondition(rollout.Available, rollout.ConditionTrue, rollout.ReasonMinimumReplicasAvailable,
				"Deployment has minimum availability.", created),
		},
	}
	if rollout.HasProgressDeadline(d) {
		d.Status.Conditions = append(d.Status.Conditions, rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionTrue,
			rollout.ReasonNewReplicaSetAvailable, fmt.Sprintf("ReplicaSet %q has successfully progressed.", name), created))
	}
	return rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs}, Now: now, Options: opts}
}

// WithTemplateChange returns s with mutate applied to a copy of the
// Deployment's pod template, and the generation one higher when the
// template changed (ignoring the pod-template-hash label, as the API server
// compares it). The next sync starts a rollout to the new template. When
// mutate fails, WithTemplateChange returns its error and s as it is.
// WithTemplateChange does not modify s.
func WithTemplateChange(s rollout.State, mutate func(*rollout.PodTemplate) error) (rollout.State, error) {
	out := rollout.Apply(s, nil) // a deep copy
	d := &out.Deployment
	t := d.Spec.Template.DeepCopy()
	if err := mutate(&t); err != nil {
		return s, err
	}
	if !rollout.EqualIgnoreHash(d.Spec.Template, t) || !maps.Equal(d.Spec.Template.Labels, t.Labels) {
		d.Generation++
	}
	d.Spec.Template = t
	return out, nil
}

// WithImage returns s with the image of the Deployment's container (or init
// container) named container set to image, through [WithTemplateChange].
// It fails, returning s as it is, when image is empty or the template has
// no container of that name; the error names the containers it has.
func WithImage(s rollout.State, container, image string) (rollout.State, error) {
	return WithTemplateChange(s, func(t *rollout.PodTemplate) error {
		if image == "" {
			return fmt.Errorf("sim: empty image for container %q", container)
		}
		spec, err := t.Spec.WithImage(container, image)
		if err != nil {
			return fmt.Errorf("sim: Deployment %q: %w", s.Deployment.Name, err)
		}
		t.Spec = spec
		return nil
	})
}
