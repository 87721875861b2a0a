package rollout

import (
	"errors"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Conversions from the API types of internal/schema, as the API server
// stores them, to this package's types, which keep what the controller
// reads.

// fieldErrors turns field errors into one error: nil, or the joined
// *FieldError values in order.
func fieldErrors(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = &FieldError{Field: e.Field, Kind: string(e.Type), Value: e.Value, Detail: e.Detail}
	}
	return errors.Join(out...)
}

func timeOf(t schema.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func optional(p *int32) OptionalInt32 {
	if p == nil {
		return OptionalInt32{}
	}
	return Int32(*p)
}

func metaFromSchema(m *schema.ObjectMeta) ObjectMeta {
	out := ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               m.UID,
		Generation:        m.Generation,
		CreationTimestamp: timeOf(m.CreationTimestamp),
		Labels:            nilIfEmpty(m.Labels),
		Annotations:       nilIfEmpty(m.Annotations),
	}
	if m.DeletionTimestamp != nil {
		out.DeletionTimestamp = timeOf(*m.DeletionTimestamp)
	}
	for _, r := range m.OwnerReferences {
		out.OwnerReferences = append(out.OwnerReferences, OwnerReference{
			APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: r.UID,
			Controller:         r.Controller != nil && *r.Controller,
			BlockOwnerDeletion: r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion,
		})
	}
	return out
}

func selectorFromSchema(s *schema.LabelSelector) LabelSelector {
	if s == nil {
		return LabelSelector{}
	}
	out := LabelSelector{MatchLabels: nilIfEmpty(s.MatchLabels)}
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, LabelSelectorRequirement{Key: r.Key, Operator: r.Operator, Values: r.Values})
	}
	return out
}

// limitFromSchema reads maxSurge or maxUnavailable: a number is a count, a
// string must be a percent as the API's grammar writes it.
func limitFromSchema(v *schema.IntOrString, name string) (surge.Value, error) {
	if v == nil {
		return surge.Percent(25), nil
	}
	if v.Type != schema.StringType {
		return surge.Count(v.IntVal), nil
	}
	out, err := surge.Parse(v.StrVal)
	if err != nil || !out.IsPercent() {
		if err == nil {
			err = surge.ErrSyntax
		}
		return surge.Value{}, &FieldError{Field: "spec.strategy.rollingUpdate." + name, Kind: kindInvalid,
			Value: field.Quote(v.StrVal), Detail: surge.PercentSyntaxDetail, Err: err}
	}
	return out, nil
}

func deploymentFromSchema(d *schema.Deployment) (Deployment, error) {
	s := &d.Spec
	out := Deployment{
		ObjectMeta: metaFromSchema(&d.ObjectMeta),
		Spec: DeploymentSpec{
			Replicas:                DefaultReplicas,
			Selector:                selectorFromSchema(s.Selector),
			Template:                templateFromSchema(&s.Template),
			Strategy:                Strategy{Type: StrategyType(s.Strategy.Type)},
			MinReadySeconds:         s.MinReadySeconds,
			RevisionHistoryLimit:    optional(s.RevisionHistoryLimit),
			Paused:                  s.Paused,
			ProgressDeadlineSeconds: optional(s.ProgressDeadlineSeconds),
		},
	}
	if s.Replicas != nil {
		out.Spec.Replicas = *s.Replicas
	}
	if ru := s.Strategy.RollingUpdate; out.Spec.Strategy.Type == RollingUpdateStrategy && ru != nil {
		var errs []error
		var err error
		if out.Spec.Strategy.RollingUpdate.MaxSurge, err = limitFromSchema(ru.MaxSurge, "maxSurge"); err != nil {
			errs = append(errs, err)
		}
		if out.Spec.Strategy.RollingUpdate.MaxUnavailable, err = limitFromSchema(ru.MaxUnavailable, "maxUnavailable"); err != nil {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			return Deployment{}, errors.Join(errs...)
		}
	}
	st := &d.Status
	out.Status = DeploymentStatus{
		ObservedGeneration:  st.ObservedGeneration,
		Replicas:            st.Replicas,
		UpdatedReplicas:     st.UpdatedReplicas,
		ReadyReplicas:       st.ReadyReplicas,
		AvailableReplicas:   st.AvailableReplicas,
		UnavailableReplicas: st.UnavailableReplicas,
		TerminatingReplicas: optional(st.TerminatingReplicas),
		CollisionCount:      optional(st.CollisionCount),
	}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, Condition{
			Type: ConditionType(c.Type), Status: ConditionStatus(c.Status),
			LastUpdateTime: timeOf(c.LastUpdateTime), LastTransitionTime: timeOf(c.LastTransitionTime),
			Reason: c.Reason, Message: c.Message,
		})
	}
	return out, nil
}

func replicaSetFromSchema(rs *schema.ReplicaSet) ReplicaSet {
	s := &rs.Spec
	out := ReplicaSet{
		ObjectMeta: metaFromSchema(&rs.ObjectMeta),
		Spec: ReplicaSetSpec{
			Replicas:        DefaultReplicas,
			MinReadySeconds: s.MinReadySeconds,
			Selector:        selectorFromSchema(s.Selector),
			Template:        templateFromSchema(&s.Template),
		},
	}
	if s.Replicas != nil {
		out.Spec.Replicas = *s.Replicas
	}
	st := &rs.Status
	out.Status = ReplicaSetStatus{
		Replicas:             st.Replicas,
		FullyLabeledReplicas: st.FullyLabeledReplicas,
		ReadyReplicas:        st.ReadyReplicas,
		AvailableReplicas:    st.AvailableReplicas,
		TerminatingReplicas:  optional(st.TerminatingReplicas),
		ObservedGeneration:   st.ObservedGeneration,
	}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, ReplicaSetCondition{
			Type: ConditionType(c.Type), Status: ConditionStatus(c.Status),
			LastTransitionTime: timeOf(c.LastTransitionTime), Reason: c.Reason, Message: c.Message,
		})
	}
	return out
}

func podFromSchema(p *schema.Pod) Pod {
	return Pod{ObjectMeta: metaFromSchema(&p.ObjectMeta), Phase: PodPhase(p.Status.Phase)}
}
