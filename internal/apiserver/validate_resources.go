package apiserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Compute resources: upstream's validateResourceRequirements (for
// containers, ValidateContainerResourceRequirements), the resource name
// rules, ValidateResourceQuantityValue, the huge pages rules and
// validateResourceClaimNames. The kinds of names (pkg/apis/core/helper)
// are in validate_resource_names_ctr.go. Maps are walked in key order.

const isNotIntegerErrorMsg = "must be an integer"

// The outcomes of hugePageValueDivisible.
const (
	hugePageDivisible = iota
	hugePageNotDivisible
	hugePageZeroSize
)

// hugePageValueDivisible is helper.IsHugePageResourceValueDivisible: the
// name's page size parses to a positive whole number of bytes that divides
// q. A page size whose value overflows to 0 (hugepages-1e19) makes
// upstream divide by zero (the API server answers with an internal
// error): that is hugePageZeroSize here.
func hugePageValueDivisible(name string, q schema.Quantity) int {
	page, err := schema.ParseQuantity(strings.TrimPrefix(name, hugePagesPrefix))
	if err != nil || page.Sign() <= 0 || page.MilliValue()%1000 != 0 {
		return hugePageNotDivisible
	}
	size := page.Value()
	switch {
	case size == 0:
		return hugePageZeroSize
	case q.Value()%size == 0:
		return hugePageDivisible
	}
	return hugePageNotDivisible
}

// validateResourceName is upstream's validateResourceName: a qualified
// name, and when unprefixed, a standard one.
func validateResourceName(name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isQualifiedName(name) {
		errs = append(errs, field.InvalidString(p, name, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	if !strings.Contains(name, "/") && !isStandardResourceName(name) {
		errs = append(errs, field.InvalidString(p, name, "must be a standard resource type or fully qualified"))
	}
	return errs
}

// validateContainerResourceName is upstream's
// validateContainerResourceName: a valid resource name that, unprefixed,
// is cpu, memory, ephemeral-storage or huge pages, and, prefixed outside
// kubernetes.io, is an extended resource name.
func validateContainerResourceName(name string, p *field.Path) field.ErrorList {
	errs := validateResourceName(name, p)
	if !strings.Contains(name, "/") {
		if !isStandardContainerResourceName(name) {
			errs = append(errs, field.InvalidString(p, name, "must be a standard resource for containers"))
		}
	} else if !isNativeResource(name) && !isExtendedResourceName(name) {
		errs = append(errs, field.InvalidString(p, name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// validateResourceQuantityValue is upstream's ValidateResourceQuantityValue:
// not negative, and whole for resources counted in units.
func validateResourceQuantityValue(name string, q schema.Quantity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if q.Sign() < 0 {
		errs = append(errs, field.InvalidString(p, q.String(), isNegativeErrorMsg))
	}
	if isIntegerResourceName(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, field.InvalidString(p, q.String(), isNotIntegerErrorMsg))
	}
	return errs
}

// validateContainerResourceRequirements is upstream's
// ValidateContainerResourceRequirements.
func validateContainerResourceRequirements(r *schema.ResourceRequirements, claims map[string]bool, p *field.Path, opts podOptions) field.ErrorList {
	return validateResourceRequirements(r, validateContainerResourceName, claims, p, opts)
}

// validateResourceRequirements is upstream's validateResourceRequirements:
// valid names (as nameFn says) and quantities; requests no greater than
// their limits, and equal to them for resources that cannot be
// overcommitted (which need limits); huge pages in whole pages and only
// beside cpu or memory; and claims that name the pod's resource claims.
func validateResourceRequirements(r *schema.ResourceRequirements, nameFn func(string, *field.Path) field.ErrorList, claims map[string]bool, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := p.Child("limits"), p.Child("requests")
	cpuOrMemory, hugePages := false, false
	check := func(name string, q schema.Quantity, qp *field.Path) {
		errs = append(errs, nameFn(name, qp)...)
		errs = append(errs, validateResourceQuantityValue(name, q, qp)...)
	}
	checkHugePages := func(name string, q schema.Quantity, qp *field.Path) {
		if !isHugePageResourceName(name) {
			return
		}
		hugePages = true
		if opts.AllowIndivisibleHugePagesValues {
			return
		}
		switch hugePageValueDivisible(name, q) {
		case hugePageZeroSize:
			errs = append(errs, &field.Error{Type: field.Internal, Field: qp.String(), Detail: "the page size of " + name + " overflows to 0: upstream divides by zero here"})
		case hugePageNotDivisible:
			errs = append(errs, field.InvalidString(qp, q.String(), fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), name)))
		}
	}
	for _, e := range r.Limits {
		name, q, qp := e.Name, e.Quantity, limPath.Key(e.Name)
		check(name, q, qp)
		checkHugePages(name, q, qp)
		cpuOrMemory = cpuOrMemory || name == "cpu" || name == "memory"
	}
	for _, e := range r.Requests {
		name, q, qp := e.Name, e.Quantity, reqPath.Key(e.Name)
		check(name, q, qp)
		if lim, ok := r.Limits.Get(name); ok {
			if q.Cmp(lim) != 0 && !isOvercommitAllowed(name) {
				errs = append(errs, field.InvalidString(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, lim.String())))
			} else if q.Cmp(lim) > 0 {
				errs = append(errs, field.InvalidString(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim.String())))
			}
		} else if !isOvercommitAllowed(name) {
			errs = append(errs, field.RequiredValue(limPath, "Limit must be set for non overcommitable resources"))
		}
		checkHugePages(name, q, qp)
		cpuOrMemory = cpuOrMemory || name == "cpu" || name == "memory"
	}
	if hugePages && !cpuOrMemory {
		errs = append(errs, field.ForbiddenField(p, "HugePages require cpu or memory"))
	}
	return append(errs, validateResourceClaimNames(r.Claims, claims, p.Child("claims"))...)
}

// validateResourceClaimNames is upstream's validateResourceClaimNames:
// each claim names one of the pod's resource claims, with an optional
// request that is a DNS label, and no claim, or request of a claim, is
// named twice (a whole claim covers all its requests).
func validateResourceClaimNames(claims []schema.ResourceClaim, podClaims map[string]bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{} // claim names and claim/request keys
	for i, c := range claims {
		ip := p.Index(i)
		if c.Name == "" {
			errs = append(errs, field.RequiredValue(ip, ""))
			continue
		}
		if seen[c.Name] {
			errs = append(errs, field.DuplicateValue(ip, field.Quote(c.Name)))
		} else {
			key := c.Name
			if c.Request != "" {
				errs = append(errs, validateDNS1123Label(c.Request, ip.Child("request"))...)
				key += "/" + c.Request
			}
			if seen[key] {
				errs = append(errs, field.DuplicateValue(ip, field.Quote(key)))
			} else if c.Request == "" {
				for _, k := range slices.Sorted(maps.Keys(seen)) {
					if claim, _, ok := strings.Cut(k, "/"); ok && claim == c.Name {
						errs = append(errs, field.DuplicateValue(ip, field.Quote(c.Name)))
					}
				}
			}
			seen[key] = true
		}
		if !podClaims[c.Name] {
			detail := "must be one of the names in pod.spec.resourceClaims"
			if len(podClaims) == 0 {
				detail += " which is empty"
			} else {
				detail += ": " + strings.Join(slices.Sorted(maps.Keys(podClaims)), ", ")
			}
			errs = append(errs, field.NotFoundDetail(ip, field.Quote(c.Name), detail))
		}
	}
	return errs
}
