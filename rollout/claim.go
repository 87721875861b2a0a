package rollout

import (
	"errors"
	"fmt"
	"slices"
)

// Label selector operators.
const (
	OpIn           = "In"
	OpNotIn        = "NotIn"
	OpExists       = "Exists"
	OpDoesNotExist = "DoesNotExist"
)

// Check reports whether s can be used as a label query: every expression
// has a known operator, values for In and NotIn, and none for Exists and
// DoesNotExist.
func (s LabelSelector) Check() error {
	for i, r := range s.MatchExpressions {
		var err error
		switch r.Operator {
		case OpIn, OpNotIn:
			if len(r.Values) == 0 {
				err = errors.New("for 'in', 'notin' operators, values set can't be empty")
			}
		case OpExists, OpDoesNotExist:
			if len(r.Values) != 0 {
				err = errors.New("values set must be empty for exists and does not exist")
			}
		default:
			err = fmt.Errorf("%q is not a valid label selector operator", r.Operator)
		}
		if err != nil {
			return fmt.Errorf("matchExpressions[%d]: %w", i, err)
		}
	}
	return nil
}

// Matches reports whether labels satisfy s: every matchLabels pair and every
// expression. A selector with no requirements matches everything. Matches
// assumes s passes [LabelSelector.Check]; an unknown operator matches
// nothing.
func (s LabelSelector) Matches(labels map[string]string) bool {
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		v, ok := labels[r.Key]
		switch r.Operator {
		case OpIn:
			if !ok || !slices.Contains(r.Values, v) {
				return false
			}
		case OpNotIn:
			if ok && slices.Contains(r.Values, v) {
				return false
			}
		case OpExists:
			if !ok {
				return false
			}
		case OpDoesNotExist:
			if ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// claimReplicaSets decides which ReplicaSets of the namespace the
// Deployment controls (spec §12): those whose controller reference is the
// Deployment and whose labels match its selector, plus orphans that match,
// which it adopts. Controlled ones that no longer match are released.
// Another controller's ReplicaSets are left alone.
func (p *planner) claimReplicaSets() error {
	d := &p.d
	sel := d.Spec.Selector
	if err := sel.Check(); err != nil {
		return fmt.Errorf("deployment %s/%s has invalid label selector: %w", d.Namespace, d.Name, err)
	}
	p.rsList = make([]*ReplicaSet, 0, len(p.inNamespace))
	for _, rs := range p.inNamespace {
		match := sel.Matches(rs.Labels)
		ref, owned := rs.ControllerRef()
		switch {
		case owned && ref.UID != d.UID:
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

// groupPods maps each controlled ReplicaSet's UID to the pods it controls,
// found by owner reference alone, whatever their phase (R-SYNC-4).
func (p *planner) groupPods(pods []Pod) error {
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
	p.pods = make(map[string][]*Pod, len(p.rsList))
	owner := make(map[string]string, len(p.rsList)) // name -> UID
	for _, rs := range p.rsList {
		owner[rs.Name] = rs.UID
	}
	for i := range pods {
		pod := &pods[i]
		ref, ok := pod.ControllerRef()
		if !ok || ref.Kind != "ReplicaSet" || pod.Namespace != p.d.Namespace {
			continue
		}
		if uid, ok := owner[ref.Name]; ok && uid == ref.UID {
			p.pods[uid] = append(p.pods[uid], pod)
		}
	}
	return nil
}
