package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of a pod's affinity: node affinity (node selector terms of
// label expressions and field expressions) and pod affinity and
// anti-affinity terms (pkg/apis/core/validation).

// validateAffinity is upstream's validateAffinity.
func validateAffinity(a *schema.Affinity, opts podOptions, p *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if a.NodeAffinity != nil {
		errs = append(errs, validateNodeAffinity(a.NodeAffinity, opts, p.Child("nodeAffinity"))...)
	}
	if a.PodAffinity != nil {
		errs = append(errs, validatePodAffinityTerms(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
			opts.AllowInvalidLabelValueInSelector, p.Child("podAffinity"))...)
	}
	if a.PodAntiAffinity != nil {
		errs = append(errs, validatePodAffinityTerms(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
			opts.AllowInvalidLabelValueInSelector, p.Child("podAntiAffinity"))...)
	}
	return errs
}

// validateNodeAffinity is upstream's validateNodeAffinity: the required
// node selector (whose values must be label values unless opts allow
// otherwise) and the preferred terms (whose values need not be).
func validateNodeAffinity(na *schema.NodeAffinity, opts podOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		errs = append(errs, validateNodeSelector(na.RequiredDuringSchedulingIgnoredDuringExecution, opts.AllowInvalidLabelValueInRequiredNodeAff,
			p.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
	}
	for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		tp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if t.Weight <= 0 || t.Weight > 100 {
			errs = append(errs, field.InvalidInt(tp.Child("weight"), int64(t.Weight), "must be in the range 1-100"))
		}
		errs = append(errs, validateNodeSelectorTerm(&t.Preference, true, tp.Child("preference"))...)
	}
	return errs
}

// validateNodeSelector is upstream's ValidateNodeSelector: at least one
// term, each valid.
func validateNodeSelector(ns *schema.NodeSelector, allowInvalidValues bool, p *field.Path) field.ErrorList {
	tp := p.Child("nodeSelectorTerms")
	if len(ns.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.RequiredValue(tp, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i := range ns.NodeSelectorTerms {
		errs = append(errs, validateNodeSelectorTerm(&ns.NodeSelectorTerms[i], allowInvalidValues, tp.Index(i))...)
	}
	return errs
}

// validateNodeSelectorTerm is upstream's ValidateNodeSelectorTerm.
func validateNodeSelectorTerm(t *schema.NodeSelectorTerm, allowInvalidValues bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, r := range t.MatchExpressions {
		errs = append(errs, validateNodeSelectorRequirement(r, allowInvalidValues, p.Child("matchExpressions").Index(j))...)
	}
	for j, r := range t.MatchFields {
		errs = append(errs, validateNodeFieldSelectorRequirement(r, p.Child("matchFields").Index(j))...)
	}
	return errs
}

// validateNodeSelectorRequirement is upstream's
// ValidateNodeSelectorRequirement: values as the operator needs them (some
// for In and NotIn, none for Exists and DoesNotExist, exactly one for Gt
// and Lt), a qualified key, and label values unless allowed otherwise.
func validateNodeSelectorRequirement(r schema.NodeSelectorRequirement, allowInvalidValues bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch r.Operator {
	case "In", "NotIn":
		if len(r.Values) == 0 {
			errs = append(errs, field.RequiredValue(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case "Exists", "DoesNotExist":
		if len(r.Values) > 0 {
			errs = append(errs, field.ForbiddenField(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case "Gt", "Lt":
		if len(r.Values) != 1 {
			errs = append(errs, field.RequiredValue(p.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		errs = append(errs, field.InvalidString(p.Child("operator"), r.Operator, "not a valid selector operator"))
	}
	errs = append(errs, validateLabelName(r.Key, p.Child("key"))...)
	if !allowInvalidValues {
		for i, v := range r.Values {
			for _, msg := range isValidLabelValue(v) {
				errs = append(errs, field.InvalidString(p.Child("values").Index(i), v, msg))
			}
		}
	}
	return errs
}

// validateNodeFieldSelectorRequirement is upstream's
// ValidateNodeFieldSelectorRequirement: In or NotIn with exactly one
// value, on metadata.name, whose values are node names.
func validateNodeFieldSelectorRequirement(r schema.NodeSelectorRequirement, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch r.Operator {
	case "In", "NotIn":
		if len(r.Values) != 1 {
			errs = append(errs, field.RequiredValue(p.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	default:
		errs = append(errs, field.InvalidString(p.Child("operator"), r.Operator, "not a valid selector operator"))
	}
	if r.Key != "metadata.name" {
		return append(errs, field.InvalidString(p.Child("key"), r.Key, "not a valid field selector key"))
	}
	for i, v := range r.Values {
		for _, msg := range nameIsDNSSubdomain(v, false) {
			errs = append(errs, field.InvalidString(p.Child("values").Index(i), v, msg))
		}
	}
	return errs
}

// validatePodAffinityTerms is upstream's validatePodAffinity and
// validatePodAntiAffinity (which check the same): the required terms, and
// the preferred ones with a weight from 1 to 100.
func validatePodAffinityTerms(required []schema.PodAffinityTerm, preferred []schema.WeightedPodAffinityTerm, allowInvalidValues bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range required {
		errs = append(errs, validatePodAffinityTerm(&required[i], allowInvalidValues, p.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
	}
	for i := range preferred {
		tp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if w := preferred[i].Weight; w <= 0 || w > 100 {
			errs = append(errs, field.InvalidInt(tp.Child("weight"), int64(w), "must be in the range 1-100"))
		}
		errs = append(errs, validatePodAffinityTerm(&preferred[i].PodAffinityTerm, allowInvalidValues, tp.Child("podAffinityTerm"))...)
	}
	return errs
}

// validatePodAffinityTerm is upstream's validatePodAffinityTerm: valid
// label and namespace selectors, namespaces that are DNS labels (reported
// under "namespace", as upstream does), valid matchLabelKeys and
// mismatchLabelKeys, and a topologyKey that is a non-empty qualified name.
func validatePodAffinityTerm(t *schema.PodAffinityTerm, allowInvalidValues bool, p *field.Path) field.ErrorList {
	errs := validateLabelSelector(t.LabelSelector, allowInvalidValues, p.Child("labelSelector"))
	errs = append(errs, validateLabelSelector(t.NamespaceSelector, allowInvalidValues, p.Child("namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, msg := range nameIsDNSLabel(ns, false) {
			errs = append(errs, field.InvalidString(p.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, validateMatchLabelKeysAndMismatchLabelKeys(p, t.MatchLabelKeys, t.MismatchLabelKeys, t.LabelSelector)...)
	if t.TopologyKey == "" {
		errs = append(errs, field.RequiredValue(p.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, validateLabelName(t.TopologyKey, p.Child("topologyKey"))...)
}

// validateMatchLabelKeysAndMismatchLabelKeys is upstream's
// ValidateMatchLabelKeysAndMismatchLabelKeys: both lists need a label
// selector and hold qualified names; a matchLabelKeys key may not appear
// in the selector more than once (the server merges matchLabelKeys into
// a pod's selector, so a second appearance means the user wrote it too;
// upstream reports it at p[i], not under matchLabelKeys), nor in
// mismatchLabelKeys.
func validateMatchLabelKeysAndMismatchLabelKeys(p *field.Path, match, mismatch []string, sel *schema.LabelSelector) field.ErrorList {
	errs := validateLabelKeys(p.Child("matchLabelKeys"), match, sel)
	errs = append(errs, validateLabelKeys(p.Child("mismatchLabelKeys"), mismatch, sel)...)
	if sel != nil {
		index := map[string]int{}
		for i, k := range match {
			index[k] = i
		}
		inSelector := map[string]bool{}
		for k := range sel.MatchLabels {
			inSelector[k] = true
		}
		for _, r := range sel.MatchExpressions {
			if i, ok := index[r.Key]; ok && inSelector[r.Key] {
				errs = append(errs, field.InvalidString(p.Index(i), r.Key, "exists in both matchLabelKeys and labelSelector"))
			}
			inSelector[r.Key] = true
		}
	}
	mismatched := map[string]bool{}
	for _, k := range mismatch {
		mismatched[k] = true
	}
	for i, k := range match {
		if mismatched[k] {
			errs = append(errs, field.InvalidString(p.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	return errs
}

// validateLabelKeys is upstream's validateLabelKeys: keys need a label
// selector and are qualified names.
func validateLabelKeys(p *field.Path, keys []string, sel *schema.LabelSelector) field.ErrorList {
	if len(keys) == 0 {
		return nil
	}
	if sel == nil {
		return field.ErrorList{field.ForbiddenField(p, "must not be specified when labelSelector is not set")}
	}
	var errs field.ErrorList
	for i, k := range keys {
		errs = append(errs, validateLabelName(k, p.Index(i))...)
	}
	return errs
}
