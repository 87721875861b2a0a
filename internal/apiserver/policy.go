package apiserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The policy objects a rollout is checked against, as a client reads them
// (Read*: this version's defaults, stored form; an object of another
// apiVersion or kind refused, as for a Deployment) and as the server's
// create validation judges them (Validate*). An autoscaling/v1
// HorizontalPodAutoscaler is read as autoscaling/v2 once
// schema.DecodeHorizontalPodAutoscalerV1 has converted it.
//
//	SetObjectDefaults_ResourceQuota (core/v1)          ReadResourceQuota
//	SetObjectDefaults_LimitRange, _LimitRangeItem      ReadLimitRange
//	SetObjectDefaults_HorizontalPodAutoscaler (v2)     ReadHorizontalPodAutoscaler
//	core validation.ValidateResourceQuota              ValidateResourceQuota
//	core validation.ValidateLimitRange                 ValidateLimitRange
//	policy validation.ValidatePodDisruptionBudget      ValidatePodDisruptionBudget
//	autoscaling validation.ValidateHorizontalPodAutoscaler ValidateHorizontalPodAutoscaler
//
// policy/v1 has no defaults for a PodDisruptionBudget.

// ReadResourceQuota defaults q as the server does when it reads it from
// storage (quantities rounded up to milli units) and leaves it in stored
// form.
func ReadResourceQuota(q *schema.ResourceQuota) field.ErrorList {
	if errs := checkTypeMeta(q.TypeMeta, "v1", "ResourceQuota"); errs != nil {
		return errs
	}
	setDefaultsResourceList(q.Spec.Hard)
	setDefaultsResourceList(q.Status.Hard)
	setDefaultsResourceList(q.Status.Used)
	q.TypeMeta = schema.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"}
	schema.StoredResourceQuota(q)
	return nil
}

// ReadLimitRange is [ReadResourceQuota] for a LimitRange: for a Container
// item, a missing default limit is the max, a missing default request the
// default limit, or else the min.
func ReadLimitRange(l *schema.LimitRange) field.ErrorList {
	if errs := checkTypeMeta(l.TypeMeta, "v1", "LimitRange"); errs != nil {
		return errs
	}
	for i := range l.Spec.Limits {
		it := &l.Spec.Limits[i]
		setDefaultsLimitRangeItem(it)
		for _, l := range []schema.ResourceList{it.Max, it.Min, it.Default, it.DefaultRequest, it.MaxLimitRequestRatio} {
			setDefaultsResourceList(l)
		}
	}
	l.TypeMeta = schema.TypeMeta{APIVersion: "v1", Kind: "LimitRange"}
	schema.StoredLimitRange(l)
	return nil
}

// setDefaultsLimitRangeItem is SetDefaults_LimitRangeItem.
func setDefaultsLimitRangeItem(it *schema.LimitRangeItem) {
	if it.Type != "Container" {
		return
	}
	if it.Default == nil {
		it.Default = schema.ResourceList{}
	}
	if it.DefaultRequest == nil {
		it.DefaultRequest = schema.ResourceList{}
	}
	fill := func(dst *schema.ResourceList, src schema.ResourceList) {
		for _, e := range src {
			if !dst.Has(e.Name) {
				dst.Set(e.Name, e.Quantity)
			}
		}
	}
	fill(&it.Default, it.Max)
	fill(&it.DefaultRequest, it.Default)
	fill(&it.DefaultRequest, it.Min)
}

// ReadPodDisruptionBudget brings p to stored form; policy/v1 defaults
// nothing.
func ReadPodDisruptionBudget(p *schema.PodDisruptionBudget) field.ErrorList {
	if errs := checkTypeMeta(p.TypeMeta, "policy/v1", "PodDisruptionBudget"); errs != nil {
		return errs
	}
	p.TypeMeta = schema.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}
	schema.StoredPodDisruptionBudget(p)
	return nil
}

// ReadHorizontalPodAutoscaler is [ReadResourceQuota] for an autoscaling/v2
// HorizontalPodAutoscaler: minReplicas 1, a CPU utilization target of 80%
// when no metric is given, and the scaling rules of a behavior filled in.
func ReadHorizontalPodAutoscaler(h *schema.HorizontalPodAutoscaler) field.ErrorList {
	if errs := checkTypeMeta(h.TypeMeta, "autoscaling/v2", "HorizontalPodAutoscaler"); errs != nil {
		return errs
	}
	if h.Spec.MinReplicas == nil {
		h.Spec.MinReplicas = ptr[int32](1)
	}
	if len(h.Spec.Metrics) == 0 {
		h.Spec.Metrics = []schema.MetricSpec{{Type: "Resource", Resource: &schema.ResourceMetricSource{
			Name: "cpu", Target: schema.MetricTarget{Type: "Utilization", AverageUtilization: ptr[int32](80)}}}}
	}
	if b := h.Spec.Behavior; b != nil {
		b.ScaleUp = withScalingDefaults(b.ScaleUp, schema.HPAScalingRules{
			StabilizationWindowSeconds: ptr[int32](0), SelectPolicy: ptr("Max"),
			Policies: []schema.HPAScalingPolicy{{Type: "Pods", Value: 4, PeriodSeconds: 15}, {Type: "Percent", Value: 100, PeriodSeconds: 15}},
		})
		b.ScaleDown = withScalingDefaults(b.ScaleDown, schema.HPAScalingRules{
			SelectPolicy: ptr("Max"),
			Policies:     []schema.HPAScalingPolicy{{Type: "Percent", Value: 100, PeriodSeconds: 15}},
		})
	}
	h.TypeMeta = schema.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"}
	schema.StoredHorizontalPodAutoscaler(h)
	return nil
}

// withScalingDefaults is GenerateHPAScaleUpRules and its twin: the rules
// given, their unset fields taken from def.
func withScalingDefaults(r *schema.HPAScalingRules, def schema.HPAScalingRules) *schema.HPAScalingRules {
	if r == nil {
		return &def
	}
	if r.SelectPolicy != nil {
		def.SelectPolicy = r.SelectPolicy
	}
	if r.StabilizationWindowSeconds != nil {
		def.StabilizationWindowSeconds = r.StabilizationWindowSeconds
	}
	if r.Policies != nil {
		def.Policies = r.Policies
	}
	if r.Tolerance != nil {
		def.Tolerance = r.Tolerance
	}
	return &def
}

// ValidateResourceQuota reports what create validation refuses in q: its
// metadata, resource names (standard quota resources, or qualified names
// such as count/replicasets.apps), quantities (not negative, whole for
// counted resources) and scopes, as the API server of g's minor does (its
// metadata rules differ in v1.37, VERSIONS.md V10, V11). A Version that is
// not Valid is refused.
func ValidateResourceQuota(q *schema.ResourceQuota, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	errs := validateObjectMeta(&q.ObjectMeta, true, nameIsDNSSubdomain, field.NewPath("metadata"), g.minor())
	errs = append(errs, validateResourceQuotaSpec(&q.Spec, field.NewPath("spec"))...)
	status := field.NewPath("status")
	errs = append(errs, validateQuotaResourceList(q.Status.Hard, status.Child("hard"))...)
	errs = append(errs, validateQuotaResourceList(q.Status.Used, status.Child("used"))...)
	return dedupFrom137(errs, g)
}

// ValidatePodDisruptionBudget reports what create validation refuses in
// p: its metadata (a name that fits a URL path segment), minAvailable and
// maxUnavailable (not both; counts not negative, percents at most 100%),
// its selector and its unhealthy pod eviction policy, as the API server of
// g's minor does (pkg/apis/policy/validation is the same in the three
// minors; the metadata rules differ in v1.37). A Version that is not Valid
// is refused.
func ValidatePodDisruptionBudget(p *schema.PodDisruptionBudget, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if p.Spec.MinAvailable != nil && p.Spec.MaxUnavailable != nil {
		errs = append(errs, field.InvalidValue(spec, pdbSpecValue(&p.Spec), "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, v := range []struct {
		name string
		v    *schema.IntOrString
	}{{"minAvailable", p.Spec.MinAvailable}, {"maxUnavailable", p.Spec.MaxUnavailable}} {
		if v.v != nil {
			errs = append(errs, validatePositiveIntOrPercent(*v.v, spec.Child(v.name))...)
			if n, ok := percentValue(*v.v); ok && n > 100 {
				errs = append(errs, field.InvalidValue(spec.Child(v.name), intOrStringValue(*v.v), "must not be greater than 100%"))
			}
		}
	}
	errs = append(errs, validateLabelSelector(p.Spec.Selector, false, spec.Child("selector"))...)
	if pol := p.Spec.UnhealthyPodEvictionPolicy; pol != nil && *pol != "IfHealthyBudget" && *pol != "AlwaysAllow" {
		errs = append(errs, field.NotSupported(spec.Child("unhealthyPodEvictionPolicy"), *pol, []string{"AlwaysAllow", "IfHealthyBudget"}))
	}
	errs = append(errs, validateObjectMeta(&p.ObjectMeta, true, nameIsPathSegment, field.NewPath("metadata"), g.minor())...)
	return dedupFrom137(errs, g)
}

// pdbSpecValue renders a PodDisruptionBudget's spec as upstream prints the
// internal policy.PodDisruptionBudgetSpec in an error: JSON with Go's
// field names, in its field order, an absent pointer as null.
func pdbSpecValue(s *schema.PodDisruptionBudgetSpec) string {
	intOrString := func(v *schema.IntOrString) json.RawMessage {
		if v == nil {
			return json.RawMessage("null")
		}
		return json.RawMessage(intOrStringValue(*v))
	}
	return jsonValue(struct {
		MinAvailable               json.RawMessage
		Selector                   *schema.LabelSelector
		MaxUnavailable             json.RawMessage
		UnhealthyPodEvictionPolicy *string
	}{intOrString(s.MinAvailable), s.Selector, intOrString(s.MaxUnavailable), s.UnhealthyPodEvictionPolicy})
}

// nameIsPathSegment is path.ValidatePathSegmentName, which every object's
// name must pass: a name the API puts in a URL path.
func nameIsPathSegment(name string, prefix bool) []string {
	if !prefix && (name == "." || name == "..") {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// A Selector is a parsed label selector, as labels.Selector: a nil one
// selects nothing, an empty one everything.
type Selector struct {
	sel selector
	ok  bool
}

// ParseSelector parses a label selector once, for many matches. A
// selector that does not parse (an unknown operator, a bad key or value)
// selects nothing.
func ParseSelector(s *schema.LabelSelector) Selector {
	sel, ok := selectorOf(s)
	return Selector{sel, ok}
}

// Matches reports whether the selector selects labels.
func (s Selector) Matches(labels map[string]string) bool { return s.ok && s.sel.matches(labels) }

// SelectorMatches reports whether a label selector selects labels:
// ParseSelector(s).Matches(labels).
func SelectorMatches(s *schema.LabelSelector, labels map[string]string) bool {
	return ParseSelector(s).Matches(labels)
}

// dedupFrom137 is what v1.37's declarative validation does to the
// handwritten errors of every object whose strategy runs it (Deployments,
// ReplicaSets and the policy objects: rest.ValidateCreate and
// ValidateUpdate call ValidateDeclarativelyWithMigrationChecks, which
// filters them through field.ErrorList.Filter, whose ToAggregate keeps
// only the first of errors with the same message). Earlier minors keep
// repeats (a ResourceQuota whose scopes do not fit two of its resources
// says so twice in v1.36, once in v1.37). errs is not modified.
func dedupFrom137(errs field.ErrorList, g FeatureGates) field.ErrorList {
	if g.minor() < kubeversion.V1_37 || len(errs) < 2 {
		return errs
	}
	seen := map[string]bool{}
	var out field.ErrorList
	for _, e := range errs {
		if msg := e.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, e)
		}
	}
	return out
}
