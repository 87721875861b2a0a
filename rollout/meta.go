package rollout

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// OptionalInt32 is an int32 that may be absent, as a nil *int32 is in the API.
// Its zero value is absent. It encodes as a JSON number, or is omitted by a
// field tagged omitzero when absent.
type OptionalInt32 struct {
	Value int32
	Valid bool
}

// Int32 returns a present OptionalInt32 holding v.
func Int32(v int32) OptionalInt32 { return OptionalInt32{Value: v, Valid: true} }

// IsZero reports whether o is absent.
func (o OptionalInt32) IsZero() bool { return !o.Valid }

// MarshalJSON encodes o as a number, or null when absent.
func (o OptionalInt32) MarshalJSON() ([]byte, error) {
	if !o.Valid {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(o.Value), 10), nil
}

// UnmarshalJSON decodes a number that fits int32, or null as absent.
func (o *OptionalInt32) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = OptionalInt32{}
		return nil
	}
	var v int32
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = Int32(v)
	return nil
}

// OwnerReference is metadata.ownerReferences[i].
type OwnerReference struct {
	APIVersion         string `json:"apiVersion,omitempty"`
	Kind               string `json:"kind,omitempty"`
	Name               string `json:"name,omitempty"`
	UID                string `json:"uid,omitempty"`
	Controller         bool   `json:"controller,omitempty"`
	BlockOwnerDeletion bool   `json:"blockOwnerDeletion,omitempty"`
}

// ObjectMeta is the metadata the controller reads. A zero DeletionTimestamp
// means the object is not being deleted.
type ObjectMeta struct {
	Name              string            `json:"name,omitempty"`
	Namespace         string            `json:"namespace,omitempty"`
	UID               string            `json:"uid,omitempty"`
	Generation        int64             `json:"generation,omitempty"`
	CreationTimestamp time.Time         `json:"creationTimestamp,omitzero"`
	DeletionTimestamp time.Time         `json:"deletionTimestamp,omitzero"`
	Labels            map[string]string `json:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
	OwnerReferences   []OwnerReference  `json:"ownerReferences,omitempty"`
}

// Deleting reports whether the object has a deletion timestamp.
func (m ObjectMeta) Deleting() bool { return !m.DeletionTimestamp.IsZero() }

// ControllerRef returns the first owner reference marked controller, as
// metav1.GetControllerOf does.
func (m ObjectMeta) ControllerRef() (OwnerReference, bool) {
	for _, r := range m.OwnerReferences {
		if r.Controller {
			return r, true
		}
	}
	return OwnerReference{}, false
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func (m ObjectMeta) clone() ObjectMeta {
	m.Labels = maps.Clone(m.Labels)
	m.Annotations = maps.Clone(m.Annotations)
	m.OwnerReferences = slices.Clone(m.OwnerReferences)
	return m
}

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// LabelSelector is a label query (spec.selector). A selector whose
// MatchLabels and MatchExpressions are both nil is the empty selector the
// controller refuses to act on; a non-nil empty MatchLabels matches every
// object, as upstream's conversion does.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

func (s LabelSelector) clone() LabelSelector {
	s.MatchLabels = maps.Clone(s.MatchLabels)
	s.MatchExpressions = slices.Clone(s.MatchExpressions)
	for i := range s.MatchExpressions {
		s.MatchExpressions[i].Values = slices.Clone(s.MatchExpressions[i].Values)
	}
	return s
}

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
