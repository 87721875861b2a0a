package apiserver

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of ResourceQuotas and LimitRanges: upstream's
// ValidateResourceQuota, validateResourceQuotaScopes,
// validateScopeSelector and ValidateLimitRange (pkg/apis/core/validation),
// with the resource name helpers of pkg/apis/core/helper. Maps are walked
// in key order, so the errors come out in a stable order.

// The resources a quota may name without a prefix (helper's
// standardQuotaResources, besides huge pages), and those its scopes
// restrict (podObjectCountQuotaResources, podComputeQuotaResources).
var (
	standardQuotaResourceNames = []string{
		"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.storage",
		"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods",
		"resourcequotas", "services", "replicationcontrollers", "secrets", "persistentvolumeclaims",
		"configmaps", "services.nodeports", "services.loadbalancers",
	}
	podComputeQuotaResourceNames = []string{"cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"}
	quotaScopes                  = []string{"Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass",
		"VolumeAttributesClass", "CrossNamespacePodAffinity"}
)

// isStandardQuotaResourceName is helper.IsStandardQuotaResourceName.
func isStandardQuotaResourceName(name string) bool {
	return slices.Contains(standardQuotaResourceNames, name) || strings.HasPrefix(name, hugePagesPrefix) ||
		strings.HasPrefix(name, requestsPrefix+hugePagesPrefix)
}

// scopeValidForResource is helper.IsResourceQuotaScopeValidForResource.
func scopeValidForResource(scope, name string) bool {
	switch scope {
	case "Terminating", "NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity":
		return name == "pods" || slices.Contains(podComputeQuotaResourceNames, name)
	case "BestEffort":
		return name == "pods"
	case "VolumeAttributesClass":
		return name == "persistentvolumeclaims" || name == "requests.storage"
	}
	return true
}

// validateQuotaResourceList checks the names and quantities of a quota's
// hard or used list.
func validateQuotaResourceList(l schema.ResourceList, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, e := range l {
		name := e.Name
		rp := p.Key(name)
		errs = append(errs, validateResourceName(name, rp)...)
		if !strings.Contains(name, "/") && !isStandardQuotaResourceName(name) {
			errs = append(errs, field.InvalidString(rp, name, "must be a standard resource for quota"))
		}
		errs = append(errs, validateResourceQuantityValue(name, e.Quantity, rp)...)
	}
	return errs
}

// validateResourceQuotaSpec is ValidateResourceQuotaSpec.
func validateResourceQuotaSpec(s *schema.ResourceQuotaSpec, p *field.Path) field.ErrorList {
	errs := validateQuotaResourceList(s.Hard, p.Child("hard"))
	// The scopes apply to the standard resources they can restrict: one
	// error per scope and standard resource of spec.hard it cannot.
	unfit := func(scope string) int {
		n := 0
		for k := range s.Hard.Names() {
			if isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k) {
				n++
			}
		}
		return n
	}
	// One error per pair of conflicting scopes present.
	conflicts := func(scopes []string) int {
		n := 0
		for _, pair := range [][2]string{{"BestEffort", "NotBestEffort"}, {"Terminating", "NotTerminating"}} {
			if slices.Contains(scopes, pair[0]) && slices.Contains(scopes, pair[1]) {
				n++
			}
		}
		return n
	}
	// Upstream prints the spec's scopes (a list) as the bad value, also for
	// the scope selector's conflicts, where nil prints as null.
	scopes := jsonValue(s.Scopes)
	if len(s.Scopes) > 0 {
		sp := p.Child("scopes")
		for _, scope := range s.Scopes {
			if !slices.Contains(quotaScopes, scope) {
				errs = append(errs, field.InvalidValue(sp, scopes, "unsupported scope"))
			}
			for range unfit(scope) {
				errs = append(errs, field.InvalidValue(sp, scopes, "unsupported scope applied to resource"))
			}
		}
		for range conflicts(s.Scopes) {
			errs = append(errs, field.InvalidValue(sp, scopes, "conflicting scopes"))
		}
	}
	if s.ScopeSelector == nil {
		return errs
	}
	mp := p.Child("scopeSelector", "matchExpressions")
	var names []string
	for _, r := range s.ScopeSelector.MatchExpressions {
		if !slices.Contains(quotaScopes, r.ScopeName) {
			errs = append(errs, field.InvalidString(mp.Child("scopeName"), r.ScopeName, "unsupported scope"))
		}
		for range unfit(r.ScopeName) {
			errs = append(errs, field.InvalidValue(mp, scopeSelectorValue(s.ScopeSelector), "unsupported scope applied to resource"))
		}
		switch r.ScopeName {
		case "BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity":
			if r.Operator != "Exists" {
				errs = append(errs, field.InvalidString(mp.Child("operator"), r.Operator,
					"must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"))
			}
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				errs = append(errs, field.RequiredValue(mp.Child("values"), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) != 0 {
				errs = append(errs, field.InvalidValue(mp.Child("values"), jsonValue(r.Values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
			}
		default:
			errs = append(errs, field.InvalidString(mp.Child("operator"), r.Operator, "not a valid selector operator"))
		}
		names = append(names, r.ScopeName)
	}
	for range conflicts(names) {
		errs = append(errs, field.InvalidValue(mp, scopes, "conflicting scopes"))
	}
	return errs
}

// scopeSelectorValue renders a scope selector as upstream prints the
// internal core.ScopeSelector in an error: JSON with Go's field names.
func scopeSelectorValue(sel *schema.ScopeSelector) string {
	type requirement struct {
		ScopeName string
		Operator  string
		Values    []string
	}
	var v struct{ MatchExpressions []requirement }
	for _, r := range sel.MatchExpressions {
		v.MatchExpressions = append(v.MatchExpressions, requirement{r.ScopeName, r.Operator, r.Values})
	}
	return jsonValue(v)
}

// ValidateLimitRange reports what create validation refuses in l: its
// metadata, each item's type (once each), resource names, and the order
// min <= defaultRequest <= default <= max, with maxLimitRequestRatio at
// least 1 and no more than max / min, as the API server of g's minor does
// (the limit range rules are the same in the three minors; the metadata
// rules differ in v1.37). A Version that is not Valid is refused.
func ValidateLimitRange(l *schema.LimitRange, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	errs := validateObjectMeta(&l.ObjectMeta, true, nameIsDNSSubdomain, field.NewPath("metadata"), g.minor())
	p := field.NewPath("spec", "limits")
	seen := map[string]bool{}
	for i := range l.Spec.Limits {
		it := &l.Spec.Limits[i]
		ip := p.Index(i)
		errs = append(errs, validateLimitRangeType(it.Type, ip.Child("type"))...)
		if seen[it.Type] {
			errs = append(errs, field.DuplicateValue(ip.Child("type"), field.Quote(it.Type)))
		}
		seen[it.Type] = true
		nameFn := validateResourceName
		if it.Type == "Pod" || it.Type == "Container" {
			nameFn = validateContainerResourceName
		}
		keys := map[string]bool{}
		check := func(child string, l schema.ResourceList) {
			for k := range l.Names() {
				errs = append(errs, nameFn(k, ip.Child(child).Key(k))...)
				keys[k] = true
			}
		}
		check("max", it.Max)
		check("min", it.Min)
		if it.Type == "Pod" {
			if len(it.Default) > 0 {
				errs = append(errs, field.ForbiddenField(ip.Child("default"), "may not be specified when `type` is 'Pod'"))
			}
			if len(it.DefaultRequest) > 0 {
				errs = append(errs, field.ForbiddenField(ip.Child("defaultRequest"), "may not be specified when `type` is 'Pod'"))
			}
		} else {
			check("default", it.Default)
			check("defaultRequest", it.DefaultRequest)
		}
		if it.Type == "PersistentVolumeClaim" {
			if !it.Min.Has("storage") && !it.Max.Has("storage") {
				errs = append(errs, field.RequiredValue(ip.Child("limits"), "either minimum or maximum storage value is required, but neither was provided"))
			}
		}
		check("maxLimitRequestRatio", it.MaxLimitRequestRatio)
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			errs = append(errs, validateLimitRangeOrder(it, k, ip)...)
		}
	}
	return dedupFrom137(errs, g)
}

// validateLimitRangeType is validateLimitRangeTypeName.
func validateLimitRangeType(t string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isQualifiedName(t) {
		errs = append(errs, field.InvalidString(p, t, msg))
	}
	if len(errs) == 0 && !strings.Contains(t, "/") && t != "Pod" && t != "Container" && t != "PersistentVolumeClaim" {
		errs = append(errs, field.InvalidString(p, t, "must be a standard limit type or fully qualified"))
	}
	return errs
}

// validateLimitRangeOrder checks one resource of an item, in upstream's
// order of checks.
func validateLimitRangeOrder(it *schema.LimitRangeItem, k string, ip *field.Path) field.ErrorList {
	var errs field.ErrorList
	lo, hasLo := it.Min.Get(k)
	hi, hasHi := it.Max.Get(k)
	def, hasDef := it.Default.Get(k)
	req, hasReq := it.DefaultRequest.Get(k)
	ratio, hasRatio := it.MaxLimitRequestRatio.Get(k)
	bad := func(child string, q schema.Quantity, msg string) {
		errs = append(errs, field.InvalidString(ip.Child(child).Key(k), q.String(), msg))
	}
	if hasLo && hasHi && lo.Cmp(hi) > 0 {
		bad("min", lo, "min value "+lo.String()+" is greater than max value "+hi.String())
	}
	if hasReq && hasLo && lo.Cmp(req) > 0 {
		bad("defaultRequest", req, "min value "+lo.String()+" is greater than default request value "+req.String())
	}
	if hasReq && hasHi && req.Cmp(hi) > 0 {
		bad("defaultRequest", req, "default request value "+req.String()+" is greater than max value "+hi.String())
	}
	if hasReq && hasDef && req.Cmp(def) > 0 {
		bad("defaultRequest", req, "default request value "+req.String()+" is greater than default limit value "+def.String())
	}
	if hasDef && hasLo && lo.Cmp(def) > 0 {
		bad("default", lo, "min value "+lo.String()+" is greater than default value "+def.String())
	}
	if hasDef && hasHi && def.Cmp(hi) > 0 {
		bad("default", hi, "default value "+def.String()+" is greater than max value "+hi.String())
	}
	if hasRatio && ratio.Cmp(schema.MustParseQuantity("1")) < 0 {
		bad("maxLimitRequestRatio", ratio, "ratio "+ratio.String()+" is less than 1")
	}
	if hasRatio && hasLo && hasHi {
		const maxMilliValue = math.MaxInt64 / 1000
		r, lv, hv := float64(ratio.Value()), lo.Value(), hi.Value()
		if ratio.Value() < maxMilliValue && lv < maxMilliValue && hv < maxMilliValue {
			r, lv, hv = float64(ratio.MilliValue())/1000, lo.MilliValue(), hi.MilliValue()
		}
		if limit := float64(hv) / float64(lv); r > limit {
			bad("maxLimitRequestRatio", ratio, fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), limit))
		}
	}
	// Resources that cannot be overcommitted (huge pages, extended
	// resources) need equal default limits and requests.
	if !isOvercommitAllowed(k) && hasDef && hasReq && def.Cmp(req) != 0 {
		bad("defaultRequest", req, fmt.Sprintf("default value %s must equal to defaultRequest value %s in %s", def.String(), req.String(), k))
	}
	return errs
}
