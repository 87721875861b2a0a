package apiserver

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of an autoscaling/v2 HorizontalPodAutoscaler on create:
// upstream's ValidateHorizontalPodAutoscaler (pkg/apis/autoscaling/
// validation) with the options its registry strategy passes for a new
// object: minReplicas at least 1, or at least 0 where the HPAScaleToZero
// gate is on (the default from v1.37), a scale target with an API group,
// described objects of Object metrics possibly without one.

// The limits of scaling rules: upstream's MaxPeriodSeconds and
// MaxStabilizationWindowSeconds.
const (
	maxPeriodSeconds              = 1800
	maxStabilizationWindowSeconds = 3600
)

// ValidateHorizontalPodAutoscaler reports what create validation refuses
// in h: its metadata, its replica range, its scale target, its metrics
// and its scaling behavior, as the API server of g's minor does: v1.35
// words a maxReplicas below 1 otherwise (VERSIONS.md V24), v1.37 accepts
// minReplicas 0 (HPAScaleToZero on by default, V25), and the metadata
// rules differ in v1.37 (V10, V11). A Version that is not Valid is
// refused.
func ValidateHorizontalPodAutoscaler(h *schema.HorizontalPodAutoscaler, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	errs := validateObjectMeta(&h.ObjectMeta, true, nameIsDNSSubdomain, field.NewPath("metadata"), g.minor())
	s, p := &h.Spec, field.NewPath("spec")
	var lowest int32 = 1 // the strategy's MinReplicasLowerBound
	if g.enabled(gateHPAScaleToZero) {
		lowest = 0
	}
	if s.MinReplicas != nil && *s.MinReplicas < lowest {
		errs = append(errs, field.InvalidInt(p.Child("minReplicas"), int64(*s.MinReplicas), "must be greater than or equal to "+strconv.Itoa(int(lowest))))
	}
	switch {
	case g.minor() == kubeversion.V1_35 && s.MaxReplicas < 1:
		errs = append(errs, field.InvalidInt(p.Child("maxReplicas"), int64(s.MaxReplicas), "must be greater than 0"))
	case g.minor() == kubeversion.V1_35:
	case s.MaxReplicas == 0 && g.minor() >= kubeversion.V1_37:
		// v1.37 runs declarative validation on HPAs: its +k8s:required
		// replaces the handwritten error it covers, without a detail.
		errs = append(errs, field.RequiredValue(p.Child("maxReplicas"), ""))
	case s.MaxReplicas == 0:
		errs = append(errs, field.RequiredValue(p.Child("maxReplicas"), "must be set and greater than 0"))
	case s.MaxReplicas < 0:
		errs = append(errs, field.InvalidInt(p.Child("maxReplicas"), int64(s.MaxReplicas), "must be greater than or equal to 1"))
	}
	if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		errs = append(errs, field.InvalidInt(p.Child("maxReplicas"), int64(s.MaxReplicas), "must be greater than or equal to `minReplicas`"))
	}
	// The only scalable kind of the core group may have no group.
	errs = append(errs, validateObjectReference(s.ScaleTargetRef, s.ScaleTargetRef.Kind == "ReplicationController", p.Child("scaleTargetRef"))...)
	// validateMetrics: scaling to zero needs an Object or External metric
	// (in every minor; minReplicas 0 is refused too where the gate is off).
	scalesOnObjects := false
	for i := range s.Metrics {
		errs = append(errs, validateMetricSpec(&s.Metrics[i], p.Child("metrics").Index(i))...)
		scalesOnObjects = scalesOnObjects || s.Metrics[i].Type == "Object" || s.Metrics[i].Type == "External"
	}
	if s.MinReplicas != nil && *s.MinReplicas == 0 && !scalesOnObjects {
		errs = append(errs, field.ForbiddenField(p.Child("metrics"), "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	if b := s.Behavior; b != nil {
		errs = append(errs, validateScalingRules(b.ScaleUp, p.Child("behavior", "scaleUp"))...)
		errs = append(errs, validateScalingRules(b.ScaleDown, p.Child("behavior", "scaleDown"))...)
	}
	return dedupFrom137(errs, g)
}

// validateObjectReference is ValidateCrossVersionObjectReference.
func validateObjectReference(r schema.CrossVersionObjectReference, emptyGroup bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct{ name, v string }{{"kind", r.Kind}, {"name", r.Name}} {
		if f.v == "" {
			errs = append(errs, field.RequiredValue(p.Child(f.name), ""))
			continue
		}
		for _, msg := range nameIsPathSegment(f.v, false) {
			errs = append(errs, field.InvalidString(p.Child(f.name), f.v, msg))
		}
	}
	if msg := apiVersionProblem(r.APIVersion, emptyGroup); msg != "" {
		errs = append(errs, field.InvalidString(p.Child("apiVersion"), r.APIVersion, msg))
	}
	return errs
}

// apiVersionProblem is ValidateAPIVersion's error: schema.ParseGroupVersion
// fails, or the group is empty where one is needed.
func apiVersionProblem(v string, emptyGroup bool) string {
	group := ""
	if v != "" && v != "/" {
		switch strings.Count(v, "/") {
		case 0:
		case 1:
			group = v[:strings.IndexByte(v, '/')]
		default:
			return "unexpected GroupVersion string: " + v
		}
	}
	if !emptyGroup && group == "" {
		return "apiVersion must specify API group"
	}
	return ""
}

var metricSourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

// validateMetricSpec is validateMetricSpec: a known type, exactly the
// source of that type, and a valid source.
func validateMetricSpec(m *schema.MetricSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.Type == "" {
		errs = append(errs, field.RequiredValue(p.Child("type"), "must specify a metric source type"))
	}
	known := false
	for _, t := range metricSourceTypes {
		known = known || m.Type == t
	}
	if !known {
		errs = append(errs, field.NotSupported(p.Child("type"), m.Type, metricSourceTypes))
	}
	type source struct {
		name, typ string
		set       bool
		check     func() field.ErrorList
	}
	sources := []source{
		{"object", "Object", m.Object != nil, func() field.ErrorList { return validateObjectSource(m.Object, p.Child("object")) }},
		{"external", "External", m.External != nil, func() field.ErrorList {
			return validateIdentifiedTarget(m.External.Metric, m.External.Target, true, p.Child("external"))
		}},
		{"pods", "Pods", m.Pods != nil, func() field.ErrorList {
			return validateIdentifiedTarget(m.Pods.Metric, m.Pods.Target, false, p.Child("pods"))
		}},
		{"resource", "Resource", m.Resource != nil, func() field.ErrorList {
			return validateResourceTarget(m.Resource.Name, m.Resource.Target, nil, p.Child("resource"))
		}},
		{"containerResource", "ContainerResource", m.ContainerResource != nil, func() field.ErrorList {
			return validateResourceTarget(m.ContainerResource.Name, m.ContainerResource.Target, &m.ContainerResource.Container, p.Child("containerResource"))
		}},
	}
	present := 0
	for _, s := range sources {
		if s.set {
			present++
			if present == 1 {
				errs = append(errs, s.check()...)
			}
		}
	}
	expected := ""
	for _, s := range sources {
		if m.Type == s.typ {
			expected = s.name
			if !s.set {
				errs = append(errs, field.RequiredValue(p.Child(s.name), "must populate information for the given metric source"))
			}
		}
	}
	if present > 1 {
		for _, s := range sources {
			if s.set && s.name != expected {
				errs = append(errs, field.ForbiddenField(p.Child(s.name), "must populate the given metric source only"))
			}
		}
	}
	return errs
}

func validateObjectSource(s *schema.ObjectMetricSource, p *field.Path) field.ErrorList {
	errs := validateObjectReference(s.DescribedObject, true, p.Child("describedObject"))
	errs = append(errs, validateMetricIdentifier(s.Metric, p.Child("metric"))...)
	errs = append(errs, validateMetricTarget(s.Target, p.Child("target"))...)
	if s.Target.Value == nil && s.Target.AverageValue == nil {
		errs = append(errs, field.RequiredValue(p.Child("target", "averageValue"), "must set either a target value or averageValue"))
	}
	return errs
}

// validateIdentifiedTarget is validateExternalSource (external) and
// validatePodsSource.
func validateIdentifiedTarget(id schema.MetricIdentifier, t schema.MetricTarget, external bool, p *field.Path) field.ErrorList {
	errs := validateMetricIdentifier(id, p.Child("metric"))
	errs = append(errs, validateMetricTarget(t, p.Child("target"))...)
	switch {
	case !external && t.AverageValue == nil:
		errs = append(errs, field.RequiredValue(p.Child("target", "averageValue"), "must specify a positive target averageValue"))
	case external && t.Value == nil && t.AverageValue == nil:
		errs = append(errs, field.RequiredValue(p.Child("target", "averageValue"), "must set either a target value for metric or a per-pod target"))
	case external && t.Value != nil && t.AverageValue != nil:
		errs = append(errs, field.ForbiddenField(p.Child("target", "value"), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

// validateResourceTarget is validateResourceSource, and
// validateContainerResourceSource when container is not nil.
func validateResourceTarget(name string, t schema.MetricTarget, container *string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.RequiredValue(p.Child("name"), "must specify a resource name"))
	} else if container != nil {
		errs = append(errs, validateContainerResourceName(name, p.Child("name"))...)
	}
	if container != nil {
		if *container == "" {
			errs = append(errs, field.RequiredValue(p.Child("container"), "must specify a container"))
		} else {
			errs = append(errs, validateDNS1123Label(*container, p.Child("container"))...)
		}
	}
	errs = append(errs, validateMetricTarget(t, p.Child("target"))...)
	if t.AverageUtilization == nil && t.AverageValue == nil {
		errs = append(errs, field.RequiredValue(p.Child("target", "averageUtilization"), "must set either a target raw value or a target utilization"))
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		errs = append(errs, field.ForbiddenField(p.Child("target", "averageValue"), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

func validateMetricTarget(t schema.MetricTarget, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Type == "" {
		errs = append(errs, field.RequiredValue(p.Child("type"), "must specify a metric target type"))
	}
	if t.Type != "Utilization" && t.Type != "Value" && t.Type != "AverageValue" {
		errs = append(errs, field.InvalidString(p.Child("type"), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.Value != nil && t.Value.Sign() != 1 {
		errs = append(errs, field.InvalidString(p.Child("value"), t.Value.String(), "must be positive"))
	}
	if t.AverageValue != nil && t.AverageValue.Sign() != 1 {
		errs = append(errs, field.InvalidString(p.Child("averageValue"), t.AverageValue.String(), "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, field.InvalidInt(p.Child("averageUtilization"), int64(*t.AverageUtilization), "must be greater than 0"))
	}
	return errs
}

func validateMetricIdentifier(id schema.MetricIdentifier, p *field.Path) field.ErrorList {
	if id.Name == "" {
		return field.ErrorList{field.RequiredValue(p.Child("name"), "must specify a metric name")}
	}
	var errs field.ErrorList
	for _, msg := range nameIsPathSegment(id.Name, false) {
		errs = append(errs, field.InvalidString(p.Child("name"), id.Name, msg))
	}
	return errs
}

// validateScalingRules is validateScalingRules and validateScalingPolicy.
func validateScalingRules(r *schema.HPAScalingRules, p *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil && *w < 0 {
		errs = append(errs, field.InvalidInt(p.Child("stabilizationWindowSeconds"), int64(*w), "must be greater than or equal to zero"))
	} else if w != nil && *w > maxStabilizationWindowSeconds {
		errs = append(errs, field.InvalidInt(p.Child("stabilizationWindowSeconds"), int64(*w), "must be less than or equal to "+strconv.Itoa(maxStabilizationWindowSeconds)))
	}
	if s := r.SelectPolicy; s != nil && *s != "Max" && *s != "Min" && *s != "Disabled" {
		errs = append(errs, field.NotSupported(p.Child("selectPolicy"), *s, []string{"Disabled", "Max", "Min"}))
	}
	pp := p.Child("policies")
	if len(r.Policies) == 0 {
		errs = append(errs, field.RequiredValue(pp, "must specify at least one Policy"))
	}
	for i, pol := range r.Policies {
		ip := pp.Index(i)
		if pol.Type != "Pods" && pol.Type != "Percent" {
			errs = append(errs, field.NotSupported(ip.Child("type"), pol.Type, []string{"Percent", "Pods"}))
		}
		if pol.Value <= 0 {
			errs = append(errs, field.InvalidInt(ip.Child("value"), int64(pol.Value), "must be greater than zero"))
		}
		if pol.PeriodSeconds <= 0 {
			errs = append(errs, field.InvalidInt(ip.Child("periodSeconds"), int64(pol.PeriodSeconds), "must be greater than zero"))
		}
		if pol.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, field.InvalidInt(ip.Child("periodSeconds"), int64(pol.PeriodSeconds), "must be less than or equal to "+strconv.Itoa(maxPeriodSeconds)))
		}
	}
	if r.Tolerance != nil && r.Tolerance.Sign() < 0 {
		errs = append(errs, field.InvalidString(p.Child("tolerance"), r.Tolerance.String(), isNegativeErrorMsg))
	}
	return errs
}
