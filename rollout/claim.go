package rollout

import (
	"errors"
	"fmt"
)

// The API version and kinds that owner references name.
const (
	// AppsAPIVersion is the API version of Deployments and ReplicaSets.
	AppsAPIVersion = "apps/v1"
	// DeploymentKind is the kind of a Deployment.
	DeploymentKind = "Deployment"
	// ReplicaSetKind is the kind of a ReplicaSet.
	ReplicaSetKind = "ReplicaSet"
)

// NewControllerRef returns the owner reference that makes owner the
// controller of another object: owner's name and UID, the given API version
// and kind, controller and blockOwnerDeletion true (upstream:
// metav1.NewControllerRef). A ReplicaSet a Deployment creates or adopts
// gets NewControllerRef(d.ObjectMeta, AppsAPIVersion, DeploymentKind); a
// pod of a ReplicaSet gets NewControllerRef(rs.ObjectMeta, AppsAPIVersion,
// ReplicaSetKind).
func NewControllerRef(owner ObjectMeta, apiVersion, kind string) OwnerReference {
	return OwnerReference{
		APIVersion: apiVersion, Kind: kind, Name: owner.Name, UID: owner.UID,
		Controller: true, BlockOwnerDeletion: true,
	}
}

// IsControlledBy reports whether owner controls obj: obj's controller
// reference (its first owner reference marked controller, see
// [ObjectMeta.ControllerRef]) carries owner's UID (upstream:
// metav1.IsControlledBy). Ownership is decided by UID alone, never by name:
// a Deployment deleted and created again under the same name does not
// control its predecessor's ReplicaSets. As upstream's, two empty UIDs are
// equal. It reads both objects through pointers and modifies neither,
// nor copies them (the simulator asks it for every ReplicaSet at every
// pod count).
func IsControlledBy(obj, owner *ObjectMeta) bool {
	for i := range obj.OwnerReferences {
		if ref := &obj.OwnerReferences[i]; ref.Controller {
			return ref.UID == owner.UID
		}
	}
	return false
}

// getReplicaSetsForDeployment decides which ReplicaSets of the namespace
// the Deployment controls (spec §12, R-ADOPT-1..3): those it controls whose
// labels match its selector, plus orphans that match, which it adopts.
// Controlled ones that no longer match are released. Another controller's
// ReplicaSets are left alone. Upstream hands this to its ReplicaSet
// controller-ref manager (ClaimReplicaSets).
func (p *planner) getReplicaSetsForDeployment() error {
	d := &p.d
	sel := d.Spec.Selector
	if err := sel.Check(); err != nil {
		return fmt.Errorf("deployment %s/%s has invalid label selector: %w", d.Namespace, d.Name, err)
	}
	p.rsList = p.rsBuf // room for every ReplicaSet of the namespace
	for _, rs := range p.inNamespace {
		match := sel.Matches(rs.Labels)
		_, owned := rs.ControllerRef()
		switch {
		case owned && !IsControlledBy(&rs.ObjectMeta, &d.ObjectMeta):
			// Another controller's.
		case owned && match:
			p.rsList = append(p.rsList, rs)
		case owned:
			if !d.Deleting() {
				p.actions = append(p.actions, Action{Type: ReleaseReplicaSet, ReplicaSet: rs.Name,
					Reason: "controlled ReplicaSet no longer matches the selector"})
			}
		case d.Deleting() || !match || rs.Deleting():
			// An orphan that is not to be adopted.
		default:
			p.actions = append(p.actions, Action{Type: AdoptReplicaSet, ReplicaSet: rs.Name,
				Reason: "orphan ReplicaSet matches the selector"})
			p.rsList = append(p.rsList, rs)
		}
	}
	return nil
}

// getPodMapForDeployment maps each controlled ReplicaSet's UID to the pods
// it controls, whatever their phase (R-SYNC-4). From v1.36 they are found
// by owner reference alone (upstream's pod index, FilterPodsByOwner): a pod
// belongs to a ReplicaSet when its controller reference has kind
// ReplicaSet, the ReplicaSet's name and its UID, and a controlled
// ReplicaSet without a namespace, name or UID fails the sync. v1.35 lists
// the pods of the Deployment's namespace that its selector matches and
// groups them by their controller reference's UID alone (VERSIONS.md C1).
func (p *planner) getPodMapForDeployment(pods []Pod) error {
	if p.controllerMinor() < V1_36 {
		p.podMapBySelector(pods)
		return nil
	}
	for _, rs := range p.rsList {
		switch {
		case rs.Namespace == "":
			return errors.New("no owner namespace provided")
		case rs.Name == "":
			return errors.New("no owner name provided")
		case rs.UID == "":
			return errors.New("no owner uid provided")
		}
	}
	if len(pods) == 0 {
		return nil
	}
	p.podMap = make(map[string][]*Pod, len(p.rsList))
	byName := make(map[string]*ReplicaSet, len(p.rsList))
	for _, rs := range p.rsList {
		byName[rs.Name] = rs
	}
	for i := range pods {
		pod := &pods[i]
		ref, ok := pod.ControllerRef()
		if !ok || ref.Kind != ReplicaSetKind || pod.Namespace != p.d.Namespace {
			continue
		}
		if rs := byName[ref.Name]; rs != nil && IsControlledBy(&pod.ObjectMeta, &rs.ObjectMeta) {
			p.podMap[rs.UID] = append(p.podMap[rs.UID], pod)
		}
	}
	return nil
}

// podMapBySelector is v1.35's getPodMapForDeployment: the pods in the
// Deployment's namespace whose labels its selector matches, each under the
// UID of its controller reference when that is a controlled ReplicaSet's,
// whatever the reference's kind and name.
func (p *planner) podMapBySelector(pods []Pod) {
	if len(pods) == 0 {
		return
	}
	controlled := make(map[string]bool, len(p.rsList))
	for _, rs := range p.rsList {
		controlled[rs.UID] = true
	}
	p.podMap = make(map[string][]*Pod, len(p.rsList))
	for i := range pods {
		pod := &pods[i]
		if pod.Namespace != p.d.Namespace || !p.d.Spec.Selector.Matches(pod.Labels) {
			continue
		}
		if ref, ok := pod.ControllerRef(); ok && controlled[ref.UID] {
			p.podMap[ref.UID] = append(p.podMap[ref.UID], pod)
		}
	}
}
