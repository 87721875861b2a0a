package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
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
// no API call for the result. FromDeployment does not modify d.
func FromDeployment(d rollout.Deployment, now time.Time) rollout.State {
	d = d.DeepCopy()
	if d.Generation == 0 {
		d.Generation = 1
	}
	created := now.Add(-time.Hour).Truncate(time.Second)
	h := rollout.PodTemplateHash(d)
	name := rollout.NewReplicaSetName(d)
	r := d.Spec.Replicas

	ann := map[string]string{}
	for k, v := range d.Annotations {
		if rollout.CopiesAnnotation(k) {
			ann[k] = v
		}
	}
	ann[rollout.RevisionAnnotation] = "1"
	ann[rollout.DesiredReplicasAnnotation] = strconv.FormatInt(int64(r), 10)
	ann[rollout.MaxReplicasAnnotation] = strconv.FormatInt(int64(r)+int64(rollout.MaxSurge(d)), 10)

	template := d.Spec.Template.DeepCopy()
	template.Labels = withLabel(template.Labels, rollout.PodTemplateHashLabel, h)
	selector := d.Spec.Selector
	selector.MatchLabels = withLabel(selector.MatchLabels, rollout.PodTemplateHashLabel, h)
	selector.MatchExpressions = append([]rollout.LabelSelectorRequirement(nil), selector.MatchExpressions...)
	rs := rollout.ReplicaSet{
		ObjectMeta: rollout.ObjectMeta{
			Name: name, Namespace: d.Namespace, UID: "uid-" + name, Generation: 1,
			CreationTimestamp: created,
			Labels:            maps.Clone(template.Labels),
			Annotations:       ann,
			OwnerReferences: []rollout.OwnerReference{{
				APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID,
				Controller: true, BlockOwnerDeletion: true,
			}},
		},
		Spec: rollout.ReplicaSetSpec{Replicas: r, MinReadySeconds: d.Spec.MinReadySeconds, Selector: selector, Template: template},
		Status: rollout.ReplicaSetStatus{
			Replicas: r, FullyLabeledReplicas: r, ReadyReplicas: r, AvailableReplicas: r,
			TerminatingReplicas: rollout.Int32(0), ObservedGeneration: 1,
		},
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
	return rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs}, Now: now}
}

func withLabel(labels map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	maps.Copy(out, labels)
	out[k] = v
	return out
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
		spec, err := setImage(t.Spec.JSON(), container, image)
		if err != nil {
			return fmt.Errorf("sim: Deployment %q: %w", s.Deployment.Name, err)
		}
		t.Spec = spec
		return nil
	})
}

// setImage sets the image of the named container in a pod spec.
func setImage(spec json.RawMessage, container, image string) (rollout.PodSpec, error) {
	dec := json.NewDecoder(bytes.NewReader(spec))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return rollout.PodSpec{}, fmt.Errorf("pod spec is not a JSON object")
	}
	var names []string
	found := false
	for _, key := range []string{"initContainers", "containers"} {
		list, _ := m[key].([]any)
		for _, c := range list {
			c, ok := c.(map[string]any)
			if !ok {
				continue
			}
			name, _ := c["name"].(string)
			names = append(names, strconv.Quote(name))
			if name == container {
				c["image"] = image
				found = true
			}
		}
	}
	if !found {
		has := "none"
		if len(names) > 0 {
			has = strings.Join(names, ", ")
		}
		return rollout.PodSpec{}, fmt.Errorf("no container %q (containers: %s)", container, has)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return rollout.PodSpec{}, err
	}
	return rollout.ParsePodSpec(b)
}
