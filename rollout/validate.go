package rollout

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/rolloutmath/rolloutmath/surge"
)

// FieldError reports a field the API server would refuse, in its words:
// "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
// or "spec.template.spec.containers[0].imagee: unknown field".
type FieldError struct {
	Field  string // the field path, as spec.strategy.rollingUpdate.maxSurge
	Kind   string // Invalid value, Required value, Unsupported value, unknown field, duplicate field, ...
	Value  string // the value as the API server prints it; empty for Required
	Detail string
	Err    error // the underlying error, if any (a *surge.ParseError, ...)
}

// Error is the problem as the API server words it: the field, the kind of
// problem, the value and the detail.
func (e *FieldError) Error() string {
	s := e.Field + ": " + e.Kind
	if e.Value != "" {
		s += ": " + e.Value
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns the underlying error.
func (e *FieldError) Unwrap() error { return e.Err }

const (
	kindInvalid     = "Invalid value"
	kindRequired    = "Required value"
	kindUnsupported = "Unsupported value"
	minimumZero     = "must be greater than or equal to 0"
)

func invalid(field string, v int64, detail string) *FieldError {
	return &FieldError{Field: field, Kind: kindInvalid, Value: strconv.FormatInt(v, 10), Detail: detail}
}

// Validate reports what the API server would refuse in d (spec §1.4):
// negative counts in its spec or status, an empty or invalid selector or one
// that does not match the template's labels, an unknown strategy type,
// maxSurge and maxUnavailable that are negative, over 100%
// (maxUnavailable) or both zero, and a progress deadline not above
// minReadySeconds. It returns nil or the joined *FieldError values, in field
// order.
func Validate(d Deployment) error {
	var errs []error
	add := func(e *FieldError) { errs = append(errs, e) }
	s := d.Spec
	if s.Replicas < 0 {
		add(invalid("spec.replicas", int64(s.Replicas), minimumZero))
	}
	sel := s.Selector
	switch {
	case len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0:
		add(&FieldError{Field: "spec.selector", Kind: kindInvalid, Value: "{}", Detail: "empty selector is invalid for deployment"})
	case sel.Check() != nil:
		add(&FieldError{Field: "spec.selector", Kind: kindInvalid, Value: fmt.Sprint(sel), Detail: sel.Check().Error()})
	case !sel.Matches(s.Template.Labels):
		add(&FieldError{Field: "spec.template.metadata.labels", Kind: kindInvalid, Value: fmt.Sprint(s.Template.Labels), Detail: "`selector` does not match template `labels`"})
	}
	switch s.Strategy.Type {
	case RecreateStrategy:
	case RollingUpdateStrategy:
		ru := s.Strategy.RollingUpdate
		if err := surge.Validate(ru.MaxSurge, ru.MaxUnavailable); err != nil {
			for _, e := range unjoin(err) {
				var ie *surge.InvalidError
				if errors.As(e, &ie) {
					v := ie.Value.String()
					if ie.Value.IsPercent() {
						v = strconv.Quote(v)
					}
					add(&FieldError{Field: "spec.strategy.rollingUpdate." + ie.Field, Kind: kindInvalid, Value: v, Detail: ie.Detail, Err: ie})
				}
			}
		}
	case "":
		add(&FieldError{Field: "spec.strategy.type", Kind: kindRequired, Detail: "a strategy type is required"})
	default:
		add(&FieldError{Field: "spec.strategy.type", Kind: kindUnsupported, Value: strconv.Quote(string(s.Strategy.Type)),
			Detail: `supported values: "Recreate", "RollingUpdate"`})
	}
	if s.MinReadySeconds < 0 {
		add(invalid("spec.minReadySeconds", int64(s.MinReadySeconds), minimumZero))
	}
	if l := s.RevisionHistoryLimit; l.Valid && l.Value < 0 {
		add(invalid("spec.revisionHistoryLimit", int64(l.Value), minimumZero))
	}
	st := d.Status
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"status.observedGeneration", st.ObservedGeneration},
		{"status.replicas", int64(st.Replicas)},
		{"status.updatedReplicas", int64(st.UpdatedReplicas)},
		{"status.readyReplicas", int64(st.ReadyReplicas)},
		{"status.availableReplicas", int64(st.AvailableReplicas)},
		{"status.unavailableReplicas", int64(st.UnavailableReplicas)},
		{"status.terminatingReplicas", int64(st.TerminatingReplicas.Value)},
		{"status.collisionCount", int64(st.CollisionCount.Value)},
	} {
		if f.v < 0 {
			add(invalid(f.name, f.v, minimumZero))
		}
	}
	if pd := s.ProgressDeadlineSeconds; pd.Valid {
		switch {
		case pd.Value < 0:
			add(invalid("spec.progressDeadlineSeconds", int64(pd.Value), minimumZero))
		case pd.Value <= s.MinReadySeconds:
			add(invalid("spec.progressDeadlineSeconds", int64(pd.Value), "must be greater than minReadySeconds"))
		}
	}
	return errors.Join(errs...)
}

// unjoin returns the errors joined in err, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// ValidateReplicaSet reports the negative counts the API server would
// refuse in rs's spec and status, each field named after the ReplicaSet.
func ValidateReplicaSet(rs ReplicaSet) error {
	var errs []error
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"spec.replicas", int64(rs.Spec.Replicas)},
		{"spec.minReadySeconds", int64(rs.Spec.MinReadySeconds)},
		{"status.replicas", int64(rs.Status.Replicas)},
		{"status.readyReplicas", int64(rs.Status.ReadyReplicas)},
		{"status.availableReplicas", int64(rs.Status.AvailableReplicas)},
		{"status.terminatingReplicas", int64(rs.Status.TerminatingReplicas.Value)},
		{"status.observedGeneration", rs.Status.ObservedGeneration},
	} {
		if f.v < 0 {
			errs = append(errs, invalid(fmt.Sprintf("replicaset %s: %s", rs.Name, f.name), f.v, minimumZero))
		}
	}
	return errors.Join(errs...)
}
