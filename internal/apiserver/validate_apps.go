package apiserver

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of apps/v1 Deployments and ReplicaSets: upstream's
// pkg/apis/apps/validation.

// validateDeploymentSpec is ValidateDeploymentSpec. rollbackTo is the
// revision of the deprecated rollback annotation, which the internal form
// holds as spec.rollbackTo.
func validateDeploymentSpec(s *schema.DeploymentSpec, rollbackTo *int64, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	replicas := int32(0)
	if s.Replicas != nil {
		replicas = *s.Replicas
	}
	errs = append(errs, validateNonnegative(int64(replicas), p.Child("replicas"))...)
	errs = append(errs, validateSelectorAndTemplate(s.Selector, &s.Template, p, opts)...)
	errs = append(errs, validateDeploymentStrategy(&s.Strategy, p.Child("strategy"))...)
	errs = append(errs, validateNonnegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, validateNonnegative(int64(*s.RevisionHistoryLimit), p.Child("revisionHistoryLimit"))...)
	}
	if rollbackTo != nil {
		errs = append(errs, validateNonnegative(*rollbackTo, p.Child("rollback", "version"))...)
	}
	if s.ProgressDeadlineSeconds != nil {
		errs = append(errs, validateNonnegative(int64(*s.ProgressDeadlineSeconds), p.Child("progressDeadlineSeconds"))...)
		if *s.ProgressDeadlineSeconds <= s.MinReadySeconds {
			errs = append(errs, field.InvalidInt(p.Child("progressDeadlineSeconds"), int64(*s.ProgressDeadlineSeconds), "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateReplicaSetSpec is ValidateReplicaSetSpec.
func validateReplicaSetSpec(s *schema.ReplicaSetSpec, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	replicas := int32(0)
	if s.Replicas != nil {
		replicas = *s.Replicas
	}
	errs = append(errs, validateNonnegative(int64(replicas), p.Child("replicas"))...)
	errs = append(errs, validateNonnegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	return append(errs, validateSelectorAndTemplate(s.Selector, &s.Template, p, opts)...)
}

// validateSelectorAndTemplate is the part the two specs share: a required,
// valid, non-empty selector, and a template whose labels it matches.
func validateSelectorAndTemplate(sel *schema.LabelSelector, t *schema.PodTemplateSpec, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if sel == nil {
		errs = append(errs, field.RequiredValue(p.Child("selector"), ""))
	} else {
		errs = append(errs, validateLabelSelector(sel, false, p.Child("selector"))...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			errs = append(errs, field.InvalidValue(p.Child("selector"), "{}", "empty selector is invalid for deployment"))
		}
	}
	s, ok := selectorOf(sel)
	if !ok {
		return append(errs, field.InvalidValue(p.Child("selector"), "{...}", "invalid label selector"))
	}
	return append(errs, validatePodTemplateSpecForReplicaSet(t, s, p.Child("template"), opts)...)
}

// validatePodTemplateSpecForReplicaSet is ValidatePodTemplateSpecForReplicaSet:
// the selector matches the labels, the template is valid, it restarts
// always and has no active deadline.
func validatePodTemplateSpecForReplicaSet(t *schema.PodTemplateSpec, sel selector, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if !sel.empty() && !sel.matches(t.Labels) {
		errs = append(errs, field.InvalidValue(p.Child("metadata", "labels"), jsonMap(t.Labels), "`selector` does not match template `labels`"))
	}
	errs = append(errs, validatePodTemplateSpec(t, p, opts)...)
	if t.Spec.RestartPolicy != "Always" {
		errs = append(errs, field.NotSupported(p.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, []string{"Always"}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.ForbiddenField(p.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// validateDeploymentStrategy is ValidateDeploymentStrategy.
func validateDeploymentStrategy(s *schema.DeploymentStrategy, p *field.Path) field.ErrorList {
	switch s.Type {
	case "Recreate":
		if s.RollingUpdate != nil {
			return field.ErrorList{field.ForbiddenField(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
		return nil
	case "RollingUpdate":
		if s.RollingUpdate == nil {
			return field.ErrorList{field.RequiredValue(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, p.Child("rollingUpdate"))
	}
	return field.ErrorList{field.NotSupported(p, s.Type, []string{"Recreate", "RollingUpdate"})}
}

// validateRollingUpdateDeployment is ValidateRollingUpdateDeployment: two
// non-negative counts or percentages, not both zero, and maxUnavailable
// at most 100%.
func validateRollingUpdateDeployment(r *schema.RollingUpdateDeployment, p *field.Path) field.ErrorList {
	var unavailable, surge schema.IntOrString
	if r.MaxUnavailable != nil {
		unavailable = *r.MaxUnavailable
	}
	if r.MaxSurge != nil {
		surge = *r.MaxSurge
	}
	errs := validatePositiveIntOrPercent(unavailable, p.Child("maxUnavailable"))
	errs = append(errs, validatePositiveIntOrPercent(surge, p.Child("maxSurge"))...)
	if intOrPercentValue(unavailable) == 0 && intOrPercentValue(surge) == 0 {
		errs = append(errs, field.InvalidValue(p.Child("maxUnavailable"), intOrStringValue(unavailable), "may not be 0 when `maxSurge` is 0"))
	}
	if v, ok := percentValue(unavailable); ok && v > 100 {
		errs = append(errs, field.InvalidValue(p.Child("maxUnavailable"), intOrStringValue(unavailable), "must not be greater than 100%"))
	}
	return errs
}

// validatePositiveIntOrPercent is ValidatePositiveIntOrPercent.
func validatePositiveIntOrPercent(v schema.IntOrString, p *field.Path) field.ErrorList {
	switch v.Type {
	case schema.StringType:
		var errs field.ErrorList
		for _, msg := range isValidPercent(v.StrVal) {
			errs = append(errs, field.InvalidValue(p, intOrStringValue(v), msg))
		}
		return errs
	case schema.IntType:
		return validateNonnegative(int64(v.IntVal), p)
	}
	return field.ErrorList{field.InvalidValue(p, intOrStringValue(v), "must be an integer or percentage (e.g '5%%')")}
}

// percentValue is getPercentValue: the number of a valid percent string.
func percentValue(v schema.IntOrString) (int, bool) {
	if v.Type != schema.StringType || len(isValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, true
}

// intOrPercentValue is getIntOrPercentValue: the percent, or the integer
// (IntValue, which is 0 for a string that is not a number).
func intOrPercentValue(v schema.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.Type == schema.StringType {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// intOrStringValue renders an IntOrString as upstream's errors do.
func intOrStringValue(v schema.IntOrString) string {
	if v.Type == schema.StringType {
		return field.Quote(v.StrVal)
	}
	return strconv.Itoa(int(v.IntVal))
}
