package kube

import (
	"encoding/json"
	"fmt"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// ReplicaSetFor returns the ReplicaSet to send for a ReplicaSet write:
//
//   - CreateReplicaSet: a.Created as an apps/v1 ReplicaSet (current is
//     ignored and may be nil);
//   - ScaleReplicaSet and UpdateReplicaSet: a deep copy of current, the
//     ReplicaSet a.ReplicaSet as the cache holds it, with spec.replicas
//     a.To and the annotations and minReadySeconds of a; every other field,
//     the resourceVersion included, is current's.
//
// Any other action type, a CreateReplicaSet with a nil Created, or a
// current that is nil or not a.ReplicaSet, is an error. ReplicaSetFor does
// not modify current.
func ReplicaSetFor(a rollout.Action, current *appsv1.ReplicaSet) (*appsv1.ReplicaSet, error) {
	switch a.Type {
	case rollout.CreateReplicaSet:
		if a.Created == nil {
			return nil, fmt.Errorf("kube: %s %s: no ReplicaSet to create (Created is nil)", a.Type, a.ReplicaSet)
		}
		return ToReplicaSet(*a.Created)
	case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
		if current == nil || current.Name != a.ReplicaSet {
			return nil, fmt.Errorf("kube: %s %s: no current ReplicaSet of that name", a.Type, a.ReplicaSet)
		}
		rs := current.DeepCopy()
		rs.Spec.Replicas = &a.To
		rs.Annotations = copyMap(a.Annotations)
		rs.Spec.MinReadySeconds = a.MinReadySeconds
		return rs, nil
	}
	return nil, fmt.Errorf("kube: %s is not a ReplicaSet write", a.Type)
}

// DeploymentFor returns the Deployment to send for a Deployment write, a
// deep copy of current, the Deployment as the cache holds it:
//
//   - UpdateDeployment (send with Update): with a's annotations and pod
//     template;
//   - UpdateDeploymentStatus (send with UpdateStatus): with a's status and
//     annotations, which a status update stores too.
//
// Every other field, the resourceVersion included, is current's. Any other
// action type, or a nil Template or Status on the type that carries it, is
// an error. DeploymentFor does not modify current.
func DeploymentFor(a rollout.Action, current *appsv1.Deployment) (*appsv1.Deployment, error) {
	d := current.DeepCopy()
	switch a.Type {
	case rollout.UpdateDeployment:
		if a.Template == nil {
			return nil, fmt.Errorf("kube: %s: no template to write (Template is nil)", a.Type)
		}
		var t corev1.PodTemplateSpec
		if err := convert(a.Template, &t, "deployment", current.Namespace, current.Name); err != nil {
			return nil, err
		}
		d.Spec.Template = t
	case rollout.UpdateDeploymentStatus:
		if a.Status == nil {
			return nil, fmt.Errorf("kube: %s: no status to write (Status is nil)", a.Type)
		}
		var s appsv1.DeploymentStatus
		if err := convert(a.Status, &s, "deployment", current.Namespace, current.Name); err != nil {
			return nil, err
		}
		d.Status = s
	default:
		return nil, fmt.Errorf("kube: %s is not a Deployment write", a.Type)
	}
	d.Annotations = copyMap(a.Annotations)
	return d, nil
}

// OwnerPatch returns the strategic merge patch of an AdoptReplicaSet or
// ReleaseReplicaSet action, as upstream's controller-reference manager
// sends it (R-ADOPT-2): adoption adds d's controller reference
// ([rollout.NewControllerRef]), release deletes the reference with d's UID.
// Both name rs's UID, so that the patch fails if rs was replaced. Any other
// action type is an error.
func OwnerPatch(a rollout.Action, d *appsv1.Deployment, rs *appsv1.ReplicaSet) ([]byte, error) {
	type meta struct {
		OwnerReferences []any     `json:"ownerReferences"`
		UID             types.UID `json:"uid"`
	}
	var refs []any
	switch a.Type {
	case rollout.AdoptReplicaSet:
		ref := rollout.NewControllerRef(rollout.ObjectMeta{Name: d.Name, UID: string(d.UID)}, rollout.AppsAPIVersion, rollout.DeploymentKind)
		refs = []any{metav1.OwnerReference{
			APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name, UID: types.UID(ref.UID),
			Controller: &ref.Controller, BlockOwnerDeletion: &ref.BlockOwnerDeletion,
		}}
	case rollout.ReleaseReplicaSet:
		refs = []any{map[string]any{"$patch": "delete", "uid": d.UID}}
	default:
		return nil, fmt.Errorf("kube: %s is not an ownership patch", a.Type)
	}
	return json.Marshal(map[string]meta{"metadata": {OwnerReferences: refs, UID: rs.UID}})
}

// copyMap returns a copy of m, nil for an empty one.
func copyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
