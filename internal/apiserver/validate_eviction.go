package apiserver

import (
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// v1.37's spec.evictionResponders (gate EvictionRequestAPI) has no
// handwritten validation: its rules are declarative (k8s.io/kubernetes
// pkg/apis/core/v1 zz_generated.validations.go, Validate_PodSpec and
// Validate_EvictionResponder, with the custom checks of validation.go), at
// the standard level, so the API server reports them. The one alpha rule,
// schedulingGroup forbidden together with evictionResponders
// (DependentForbidden ... MarkAlpha), is shadowed, but the handwritten
// validatePodSpec has the same rule (MarkCoveredByDeclarative), which
// stays; validatePodSpec in validate.go writes it.

// maxEvictionResponders is the +k8s:maxItems of PodSpec.EvictionResponders.
const maxEvictionResponders = 10

// validateEvictionResponders is the declarative validation of
// spec.evictionResponders: at most 10 (and nothing else is checked when
// there are more), unique names (a repeat is reported at each later
// entry, with the whole entry as its value), and each entry valid
// (validateEvictionResponder). old is the stored template's list on
// update (nil on create): as declarative validation does, an unchanged
// list, and an entry equal to the stored one of its name, are not
// validated again, and an entry whose name matched a stored one has its
// name checks skipped.
func validateEvictionResponders(rs, old []schema.EvictionResponder, update bool, p *field.Path) field.ErrorList {
	if update && slices.EqualFunc(rs, old, sameEvictionResponder) {
		return nil
	}
	if len(rs) > maxEvictionResponders {
		return field.ErrorList{field.TooManyItems(p, len(rs), maxEvictionResponders)}
	}
	if len(rs) == 0 {
		return nil
	}
	var errs field.ErrorList
	var dups []int
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[i].Name == rs[j].Name && !slices.Contains(dups, j) {
				dups = append(dups, j)
			}
		}
	}
	slices.Sort(dups)
	for _, j := range dups {
		errs = append(errs, field.DuplicateValue(p.Index(j), jsonValue(rs[j])))
	}
	for i := range rs {
		var prev *schema.EvictionResponder
		if update {
			if k := slices.IndexFunc(old, func(o schema.EvictionResponder) bool { return o.Name == rs[i].Name }); k >= 0 {
				prev = &old[k]
			}
		}
		if prev != nil && sameEvictionResponder(*prev, rs[i]) {
			continue
		}
		errs = append(errs, validateEvictionResponder(&rs[i], prev, p.Index(i))...)
	}
	return errs
}

// sameEvictionResponder is equality.Semantic.DeepEqual of two entries.
func sameEvictionResponder(a, b schema.EvictionResponder) bool {
	if a.Name != b.Name || (a.Priority == nil) != (b.Priority == nil) {
		return false
	}
	return a.Priority == nil || *a.Priority == *b.Priority
}

// validateEvictionResponder is Validate_EvictionResponder: a name that is
// required, outside the reserved *.k8s.io and *.kubernetes.io domains
// (ValidateCustom_EvictionResponder_Name) and a prefixed label key; a
// priority that is required, not in 0..999, which Kubernetes' own
// responders keep (ValidateCustom_EvictionResponder_Priority), and in
// 0..100000. A missing name or priority stops that field's other checks.
// prev is the stored entry of the same name on update, whose unchanged
// fields are not checked again.
func validateEvictionResponder(r, prev *schema.EvictionResponder, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	np := p.Child("name")
	switch {
	case prev != nil && prev.Name == r.Name:
	case r.Name == "":
		errs = append(errs, field.RequiredValue(np, ""))
	default:
		errs = append(errs, forbiddenReservedDomains(r.Name, np)...)
		for _, msg := range isPrefixedLabelKey(r.Name) {
			errs = append(errs, field.InvalidString(np, r.Name, msg))
		}
	}
	pp := p.Child("priority")
	switch {
	case prev != nil && prev.Priority != nil && r.Priority != nil && *prev.Priority == *r.Priority:
	case r.Priority == nil:
		errs = append(errs, field.RequiredValue(pp, ""))
	default:
		v := int64(*r.Priority)
		if v >= 0 && v < 1000 {
			errs = append(errs, field.InvalidInt(pp, v, "priorities 0-999 are reserved for responders with *.k8s.io suffix"))
		}
		if v > 100000 {
			errs = append(errs, field.InvalidInt(pp, v, "must be less than or equal to 100000"))
		}
		if v < 0 {
			errs = append(errs, field.InvalidInt(pp, v, "must be greater than or equal to 0"))
		}
	}
	return errs
}

// forbiddenReservedDomains is ValidateForbiddenReservedDomainSuffixes with
// the suffixes .k8s.io and .kubernetes.io: the part before the first '/',
// lowercased, trimmed of spaces and trailing dots, may not be one of those
// domains or end in one.
func forbiddenReservedDomains(v string, p *field.Path) field.ErrorList {
	prefix, _, _ := strings.Cut(v, "/")
	clean := strings.TrimRight(strings.TrimSpace(strings.ToLower(prefix)), ".")
	for _, suffix := range []string{".k8s.io", ".kubernetes.io"} {
		if strings.HasSuffix(clean, suffix) || clean == suffix[1:] {
			return field.ErrorList{field.InvalidString(p, v, "domain names *.k8s.io, *.kubernetes.io are reserved")}
		}
	}
	return nil
}

// isPrefixedLabelKey is content.IsPrefixedLabelKey (apimachinery v0.37):
// a label key (isQualifiedName's rules and words) that has a prefix.
func isPrefixedLabelKey(v string) []string {
	if errs := isQualifiedName(v); len(errs) > 0 {
		return errs
	}
	if strings.Count(v, "/") != 1 {
		return []string{"must include a prefix (e.g. 'example.com/key')"}
	}
	return nil
}
