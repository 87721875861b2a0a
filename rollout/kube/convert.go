package kube

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// FromDeployment returns d as a rollout.Deployment: what [rollout.Decode]
// makes of d's JSON, so the API server's defaults apply to what d leaves
// unset, and empty maps and lists become absent. d need not carry its
// apiVersion and kind. It fails where Decode fails, naming the field.
// FromDeployment does not modify d.
func FromDeployment(d *appsv1.Deployment) (rollout.Deployment, error) {
	objs, err := decode(d, appsv1.SchemeGroupVersion.WithKind(rollout.DeploymentKind))
	return first(objs.Deployments), err
}

// FromReplicaSet returns rs as a rollout.ReplicaSet, as [FromDeployment]
// converts a Deployment. It does not modify rs.
func FromReplicaSet(rs *appsv1.ReplicaSet) (rollout.ReplicaSet, error) {
	objs, err := decode(rs, appsv1.SchemeGroupVersion.WithKind(rollout.ReplicaSetKind))
	return first(objs.ReplicaSets), err
}

// FromPod returns the part of p that package rollout reads: its metadata
// and phase. It does not modify p.
func FromPod(p *corev1.Pod) (rollout.Pod, error) {
	kept := &corev1.Pod{ObjectMeta: p.ObjectMeta, Status: corev1.PodStatus{Phase: p.Status.Phase}}
	objs, err := decode(kept, corev1.SchemeGroupVersion.WithKind("Pod"))
	return first(objs.Pods), err
}

// decode decodes the JSON of a copy of obj, of the given kind, into
// rollout's types.
func decode(obj runtime.Object, kind schema.GroupVersionKind) (rollout.Objects, error) {
	c := obj.DeepCopyObject()
	c.GetObjectKind().SetGroupVersionKind(kind)
	b, err := json.Marshal(c)
	if err == nil {
		var objs rollout.Objects
		if objs, err = rollout.Decode(b); err == nil {
			return objs, nil
		}
	}
	m, _ := meta.Accessor(obj)
	return rollout.Objects{}, fmt.Errorf("kube: %s %s/%s: %w", strings.ToLower(kind.Kind), m.GetNamespace(), m.GetName(), err)
}

// first returns the one object decoded, or the zero value when decoding
// failed.
func first[T any](objs []T) T {
	var zero T
	if len(objs) == 0 {
		return zero
	}
	return objs[0]
}

// ToDeployment returns d as an apps/v1 Deployment, with its apiVersion and
// kind set. FromDeployment(ToDeployment(d)) equals d for every d that
// Decode can give.
func ToDeployment(d rollout.Deployment) (*appsv1.Deployment, error) {
	out := new(appsv1.Deployment)
	return out, convert(d, out, "deployment", d.Namespace, d.Name)
}

// ToReplicaSet returns rs as an apps/v1 ReplicaSet, with its apiVersion and
// kind set, as [ToDeployment] converts a Deployment.
func ToReplicaSet(rs rollout.ReplicaSet) (*appsv1.ReplicaSet, error) {
	out := new(appsv1.ReplicaSet)
	return out, convert(rs, out, "replicaset", rs.Namespace, rs.Name)
}

// ToPod returns p as a core/v1 Pod with its metadata and phase.
func ToPod(p rollout.Pod) (*corev1.Pod, error) {
	out := new(corev1.Pod)
	return out, convert(p, out, "pod", p.Namespace, p.Name)
}

// convert decodes the JSON of a rollout value into a typed object.
func convert(from, to any, kind, namespace, name string) error {
	b, err := json.Marshal(from)
	if err == nil {
		err = json.Unmarshal(b, to)
	}
	if err != nil {
		return fmt.Errorf("kube: %s %s/%s: %w", kind, namespace, name, err)
	}
	return nil
}

// NewState returns the state of one sync of d at now: d, and the
// ReplicaSets and Pods given, converted (Plan ignores those of other
// namespaces). The lists are not modified.
func NewState(d *appsv1.Deployment, sets []*appsv1.ReplicaSet, pods []*corev1.Pod, now time.Time) (rollout.State, error) {
	s := rollout.State{Now: now}
	var err error
	if s.Deployment, err = FromDeployment(d); err != nil {
		return rollout.State{}, err
	}
	for _, rs := range sets {
		r, err := FromReplicaSet(rs)
		if err != nil {
			return rollout.State{}, err
		}
		s.ReplicaSets = append(s.ReplicaSets, r)
	}
	for _, p := range pods {
		pod, err := FromPod(p)
		if err != nil {
			return rollout.State{}, err
		}
		s.Pods = append(s.Pods, pod)
	}
	return s, nil
}
