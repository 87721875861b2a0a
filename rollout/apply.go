package rollout

import (
	"maps"
	"slices"
	"time"
)

// Apply returns the state after the API server accepted actions, the
// reference applier for [Plan]'s output. It models the API server, not the
// ReplicaSet controller: sizes change, pods and ReplicaSet statuses do not.
//
//   - AdoptReplicaSet adds the Deployment's controller reference;
//     ReleaseReplicaSet removes it.
//   - CreateReplicaSet adds Action.Created with UID "uid-<name>",
//     generation 1 and s.Now as its creation time.
//
// A nil Created, Template or Status on the action that carries it reads as
// the zero value: an empty ReplicaSet, pod template or status.
//   - ScaleReplicaSet and UpdateReplicaSet set the size, annotations and
//     minReadySeconds, bumping the generation when the spec changed;
//     DeleteReplicaSet removes the ReplicaSet.
//   - UpdateDeployment sets the annotations and pod template and bumps the
//     generation when either changed (R-API-2).
//   - UpdateDeploymentStatus sets the status and the annotations (R-API-3).
//   - RecordEvent and RecheckProgress change nothing.
//
// Actions naming a ReplicaSet that does not exist are ignored. Apply does
// not modify s or actions; the result shares no maps or slices with them.
// It is ApplyTo on a deep copy of s.
func Apply(s State, actions []Action) State {
	out := s
	out.Deployment = s.Deployment.DeepCopy()
	out.ReplicaSets = nil
	for _, rs := range s.ReplicaSets {
		out.ReplicaSets = append(out.ReplicaSets, rs.DeepCopy())
	}
	out.Pods = nil
	for _, p := range s.Pods {
		p.ObjectMeta = p.ObjectMeta.clone()
		out.Pods = append(out.Pods, p)
	}
	ApplyTo(&out, actions)
	return out
}

// ApplyTo applies actions to *s in place, as [Apply] does, for a caller
// that owns s: a simulator that keeps one state and moves it forward. The
// objects the actions write get copies of the maps and slices they set,
// but keep an annotation map of their own that already holds what the
// action sets (both nil or neither, the same entries): most writes leave
// the annotations as they were. Every other map and slice of s stays as
// it was, shared with whatever shared it before. ApplyTo does not modify actions, and s shares no
// memory with them afterwards. When the actions delete every ReplicaSet,
// s.ReplicaSets is nil, as in a state given none.
func ApplyTo(s *State, actions []Action) {
	d := &s.Deployment
	find := func(name string) *ReplicaSet {
		for i := range s.ReplicaSets {
			if rs := &s.ReplicaSets[i]; rs.Name == name && rs.Namespace == d.Namespace {
				return rs
			}
		}
		return nil
	}
	for _, a := range actions {
		switch a.Type {
		case AdoptReplicaSet:
			if rs := find(a.ReplicaSet); rs != nil {
				rs.OwnerReferences = append(slices.Clip(rs.OwnerReferences), OwnerReference{
					APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID,
					Controller: true, BlockOwnerDeletion: true,
				})
			}
		case ReleaseReplicaSet:
			if rs := find(a.ReplicaSet); rs != nil {
				rs.OwnerReferences = slices.DeleteFunc(slices.Clone(rs.OwnerReferences), func(r OwnerReference) bool { return r.UID == d.UID })
			}
		case CreateReplicaSet:
			var rs ReplicaSet
			if a.Created != nil {
				rs = a.Created.DeepCopy()
			}
			rs.UID = "uid-" + rs.Name
			rs.CreationTimestamp = s.Now.Truncate(time.Second)
			rs.Generation = 1
			s.ReplicaSets = append(s.ReplicaSets, rs)
		case ScaleReplicaSet, UpdateReplicaSet:
			if rs := find(a.ReplicaSet); rs != nil {
				if rs.Spec.Replicas != a.To || rs.Spec.MinReadySeconds != a.MinReadySeconds {
					rs.Generation++ // a spec change
				}
				rs.Spec.Replicas = a.To
				rs.Annotations = setMap(rs.Annotations, a.Annotations)
				rs.Spec.MinReadySeconds = a.MinReadySeconds
			}
		case DeleteReplicaSet:
			s.ReplicaSets = slices.DeleteFunc(s.ReplicaSets, func(rs ReplicaSet) bool {
				return rs.Name == a.ReplicaSet && rs.Namespace == d.Namespace
			})
		case UpdateDeployment:
			var t PodTemplate
			if a.Template != nil {
				t = *a.Template
			}
			if !maps.Equal(d.Annotations, a.Annotations) || !EqualIgnoreHash(d.Spec.Template, t) ||
				!maps.Equal(d.Spec.Template.Labels, t.Labels) {
				d.Generation++
			}
			d.Annotations = maps.Clone(a.Annotations)
			d.Spec.Template = t.clone()
		case UpdateDeploymentStatus:
			var st DeploymentStatus
			if a.Status != nil {
				st = a.Status.clone()
			}
			d.Status = st
			d.Annotations = setMap(d.Annotations, a.Annotations)
		}
	}
	if len(s.ReplicaSets) == 0 {
		s.ReplicaSets = nil // none left is nil, as none given is
	}
}

// setMap returns what a map that an action sets to m holds afterwards:
// cur, the object's own, when it already holds the same (both nil or
// neither, and the same entries), or else a copy of m.
func setMap(cur, m map[string]string) map[string]string {
	if (cur == nil) == (m == nil) && maps.Equal(cur, m) {
		return cur
	}
	return maps.Clone(m)
}
