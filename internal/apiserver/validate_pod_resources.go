package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of a pod's own resources (pod-level requests and limits, and
// the overhead of its runtime class), with the parts of upstream's
// resource-requirement validation they share with containers'
// (pkg/apis/core/validation, pkg/apis/core/helper and component-helpers'
// resource package).

// validatePodResources is upstream's validatePodResources: none for a
// Windows pod; no claims; valid names and quantities, requests within
// limits; and room for the containers: pod requests at least the
// containers' aggregate requests, pod hugepage limits at least their
// aggregate limits, pod limits at least each container's limit.
func validatePodResources(s *schema.PodSpec, claims map[string]bool, p *field.Path, opts podOptions) field.ErrorList {
	if s.Resources == nil {
		return nil
	}
	rp := p.Child("resources")
	if s.OS != nil && s.OS.Name == "windows" {
		return field.ErrorList{field.ForbiddenField(rp, "may not be set for a windows pod")}
	}
	var errs field.ErrorList
	if s.Resources.Claims != nil {
		errs = append(errs, field.ForbiddenField(rp.Child("claims"), "claims may not be set for Resources at pod-level"))
	}
	errs = append(errs, podResourceRequirements(s.Resources, podLevelResourceName, claims, rp, opts)...)
	return append(errs, validatePodResourceConsistency(s, rp)...)
}

// validatePodResourceConsistency is upstream's validatePodResourceConsistency.
// Upstream reports a container's limit at resources.containers[i][name].limits.
func validatePodResourceConsistency(s *schema.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	requests := podAggregateContainerResources(s, func(r *schema.ResourceRequirements) map[string]schema.Quantity { return r.Requests })
	for _, name := range sortedKeys(requests) {
		podRequest, ok := s.Resources.Requests[name]
		if !ok {
			continue
		}
		if sum := requests[name]; sum.Cmp(podRequest) > 0 {
			errs = append(errs, field.InvalidString(p.Child("requests").Key(name), podRequest.String(), "must be greater than or equal to aggregate container requests of "+sum.String()))
		}
	}
	limits := podAggregateContainerResources(s, func(r *schema.ResourceRequirements) map[string]schema.Quantity { return r.Limits })
	for _, name := range sortedKeys(limits) {
		if !podIsHugePageResourceName(name) {
			continue
		}
		podLimit, ok := s.Resources.Limits[name]
		if !ok {
			continue
		}
		if sum := limits[name]; sum.Cmp(podLimit) > 0 {
			errs = append(errs, field.InvalidString(p.Child("limits").Key(name), podLimit.String(), "must be greater than or equal to aggregate container limits of "+sum.String()))
		}
	}
	for i, c := range s.Containers {
		for _, name := range sortedKeys(c.Resources.Limits) {
			podLimit, ok := s.Resources.Limits[name]
			if !ok {
				continue
			}
			if limit := c.Resources.Limits[name]; limit.Cmp(podLimit) > 0 {
				errs = append(errs, field.InvalidString(p.Child("containers").Index(i).Key(name).Child("limits"), limit.String(), "must be less than or equal to pod limits of "+podLimit.String()))
			}
		}
	}
	return errs
}

// podAggregateContainerResources is component-helpers'
// AggregateContainerRequests (or Limits, as of picks one or the other):
// the regular containers and the sidecars (init containers that restart
// Always) run together, and each other init container runs beside the
// sidecars started before it; the pod needs the larger of the two.
func podAggregateContainerResources(s *schema.PodSpec, of func(*schema.ResourceRequirements) map[string]schema.Quantity) map[string]schema.Quantity {
	total := map[string]schema.Quantity{}
	for i := range s.Containers {
		podAddResources(total, of(&s.Containers[i].Resources))
	}
	sidecars := map[string]schema.Quantity{}
	initPeak := map[string]schema.Quantity{}
	for i := range s.InitContainers {
		c := &s.InitContainers[i]
		own := of(&c.Resources)
		var running map[string]schema.Quantity
		if c.RestartPolicy != nil && *c.RestartPolicy == "Always" {
			podAddResources(total, own)
			podAddResources(sidecars, own)
			running = sidecars
		} else {
			running = map[string]schema.Quantity{}
			podAddResources(running, own)
			podAddResources(running, sidecars)
		}
		podMaxResources(initPeak, running)
	}
	podMaxResources(total, initPeak)
	return total
}

// podAddResources adds more into list, name by name.
func podAddResources(list, more map[string]schema.Quantity) {
	for _, name := range sortedKeys(more) {
		q := more[name]
		if v, ok := list[name]; ok {
			v.Add(q)
			list[name] = v
		} else {
			list[name] = q
		}
	}
}

// podMaxResources raises each of list's amounts to more's where that is
// larger.
func podMaxResources(list, more map[string]schema.Quantity) {
	for _, name := range sortedKeys(more) {
		q := more[name]
		if v, ok := list[name]; !ok || q.Cmp(v) > 0 {
			list[name] = q
		}
	}
}

// validateOverhead is upstream's validateOverhead: the overhead is checked
// as a container's limits would be (so upstream's errors name
// overhead.limits[...]).
func validateOverhead(o map[string]schema.Quantity, p *field.Path, opts podOptions) field.ErrorList {
	return podResourceRequirements(&schema.ResourceRequirements{Limits: o}, podContainerResourceName, nil, p, opts)
}

// podResourceRequirements is upstream's validateResourceRequirements:
// each name valid (by nameFn) with a valid, non-negative quantity and
// hugepages in whole pages; each request at most its limit (equal to it
// for resources that cannot be overcommitted, whose limit is required);
// hugepages only with cpu or memory; claims that name the pod's claims.
func podResourceRequirements(r *schema.ResourceRequirements, nameFn func(string, *field.Path) field.ErrorList, claims map[string]bool, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := p.Child("limits"), p.Child("requests")
	cpuOrMemory, hugePages := false, false
	for _, name := range sortedKeys(r.Limits) {
		q := r.Limits[name]
		fp := limPath.Key(name)
		errs = append(errs, nameFn(name, fp)...)
		errs = append(errs, podResourceQuantity(name, q, fp)...)
		if podIsHugePageResourceName(name) {
			hugePages = true
			errs = append(errs, podHugePageQuantity(name, q, fp, opts)...)
		}
		cpuOrMemory = cpuOrMemory || name == "cpu" || name == "memory"
	}
	for _, name := range sortedKeys(r.Requests) {
		q := r.Requests[name]
		fp := reqPath.Key(name)
		errs = append(errs, nameFn(name, fp)...)
		errs = append(errs, podResourceQuantity(name, q, fp)...)
		if limit, ok := r.Limits[name]; ok {
			if q.Cmp(limit) != 0 && !podIsOvercommitAllowed(name) {
				errs = append(errs, field.InvalidString(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String())))
			} else if q.Cmp(limit) > 0 {
				errs = append(errs, field.InvalidString(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
			}
		} else if !podIsOvercommitAllowed(name) {
			errs = append(errs, field.RequiredValue(limPath, "Limit must be set for non overcommitable resources"))
		}
		if podIsHugePageResourceName(name) {
			hugePages = true
			errs = append(errs, podHugePageQuantity(name, q, fp, opts)...)
		}
		cpuOrMemory = cpuOrMemory || name == "cpu" || name == "memory"
	}
	if !cpuOrMemory && hugePages {
		errs = append(errs, field.ForbiddenField(p, "HugePages require cpu or memory"))
	}
	return append(errs, podResourceClaimRefs(r.Claims, claims, p.Child("claims"))...)
}

// podResourceQuantity is upstream's ValidateResourceQuantityValue: not
// negative, and whole for resources counted in integers.
func podResourceQuantity(name string, q schema.Quantity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if q.Sign() < 0 {
		errs = append(errs, field.InvalidString(p, q.String(), isNegativeErrorMsg))
	}
	if podIsIntegerResourceName(name) && q.UpstreamScaledValue(-3)%1000 != 0 {
		errs = append(errs, field.InvalidString(p, q.String(), "must be an integer"))
	}
	return errs
}

// podHugePageQuantity is upstream's validateResourceQuantityHugePageValue:
// a whole number of pages, unless opts allow otherwise. A page size whose
// value overflows to 0 (hugepages-1e19) makes upstream divide by zero and
// the API server answer with an internal error; ours reports that error.
func podHugePageQuantity(name string, q schema.Quantity, p *field.Path, opts podOptions) field.ErrorList {
	if opts.AllowIndivisibleHugePagesValues {
		return nil
	}
	switch podHugePageValueDivisible(name, q) {
	case hugePageDivisible:
		return nil
	case hugePageZeroSize:
		return field.ErrorList{{Type: field.Internal, Field: p.String(), Detail: "the page size of " + name + " overflows to 0: upstream divides by zero here"}}
	}
	return field.ErrorList{field.InvalidString(p, q.String(), fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), name))}
}

// The outcomes of podHugePageValueDivisible.
const (
	hugePageDivisible = iota
	hugePageNotDivisible
	hugePageZeroSize
)

// podHugePageValueDivisible is upstream's IsHugePageResourceValueDivisible:
// whether the page size (the name's suffix) is a positive whole quantity
// that divides q, or hugePageZeroSize where upstream would divide by zero.
func podHugePageValueDivisible(name string, q schema.Quantity) int {
	page, err := schema.ParseQuantity(strings.TrimPrefix(name, podHugePagesPrefix))
	if err != nil || page.Sign() <= 0 || page.UpstreamScaledValue(-3)%1000 != 0 {
		return hugePageNotDivisible
	}
	size := page.UpstreamScaledValue(0)
	switch {
	case size == 0:
		return hugePageZeroSize
	case q.UpstreamScaledValue(0)%size == 0:
		return hugePageDivisible
	}
	return hugePageNotDivisible
}

// podResourceClaimRefs is upstream's validateResourceClaimNames: each
// entry names a claim of the pod, at most once, either whole or by
// distinct DNS-label requests (not both).
func podResourceClaimRefs(cs []schema.ResourceClaim, podClaims map[string]bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, c := range cs {
		cp := p.Index(i)
		if c.Name == "" {
			errs = append(errs, field.RequiredValue(cp, ""))
			continue
		}
		if seen[c.Name] {
			errs = append(errs, field.DuplicateValue(cp, field.Quote(c.Name)))
		} else {
			key := c.Name
			if c.Request != "" {
				errs = append(errs, validateDNS1123Label(c.Request, cp.Child("request"))...)
				key += "/" + c.Request
			}
			switch {
			case seen[key]:
				errs = append(errs, field.DuplicateValue(cp, field.Quote(key)))
			case c.Request == "":
				for _, k := range sortedKeys(seen) {
					if claim, _, ok := strings.Cut(k, "/"); ok && claim == c.Name {
						errs = append(errs, field.DuplicateValue(cp, field.Quote(c.Name)))
					}
				}
			}
			seen[key] = true
		}
		if !podClaims[c.Name] {
			e := field.NotFoundValue(cp, field.Quote(c.Name))
			e.Detail = "must be one of the names in pod.spec.resourceClaims"
			if len(podClaims) == 0 {
				e.Detail += " which is empty"
			} else {
				e.Detail += ": " + strings.Join(sortedKeys(podClaims), ", ")
			}
			errs = append(errs, e)
		}
	}
	return errs
}

// podLevelResourceName is upstream's validatePodResourceName: a valid
// resource name that pod-level resources support (cpu, memory,
// hugepages-*).
func podLevelResourceName(name string, p *field.Path) field.ErrorList {
	if errs := podResourceName(name, p); len(errs) != 0 {
		return errs
	}
	if name != "cpu" && name != "memory" && !podIsHugePageResourceName(name) {
		return field.ErrorList{field.NotSupported(p, name, []string{"cpu", podHugePagesPrefix, "memory"})}
	}
	return nil
}

// podContainerResourceName is upstream's validateContainerResourceName: a
// valid resource name that containers may request: a standard one, or an
// extended one outside kubernetes.io.
func podContainerResourceName(name string, p *field.Path) field.ErrorList {
	errs := podResourceName(name, p)
	if !strings.Contains(name, "/") {
		if !podIsStandardContainerResourceName(name) {
			errs = append(errs, field.InvalidString(p, name, "must be a standard resource for containers"))
		}
	} else if !podIsNativeResource(name) && !podIsExtendedResourceName(name) {
		errs = append(errs, field.InvalidString(p, name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// podResourceName is upstream's validateResourceName: a qualified name,
// standard when it has no domain.
func podResourceName(name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isQualifiedName(name) {
		errs = append(errs, field.InvalidString(p, name, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if !strings.Contains(name, "/") && !podIsStandardResourceName(name) {
		errs = append(errs, field.InvalidString(p, name, "must be a standard resource type or fully qualified"))
	}
	return errs
}

const podHugePagesPrefix = "hugepages-"

// podStandardResources are the resource names of Kubernetes itself
// (helper's podStandardResources).
var podStandardResources = []string{
	"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
	"limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
	"replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage",
	"requests.storage", "services.nodeports", "services.loadbalancers",
}

// podIntegerResources are the standard resources counted in whole units.
var podIntegerResources = []string{
	"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
	"persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
}

func podIsHugePageResourceName(name string) bool { return strings.HasPrefix(name, podHugePagesPrefix) }

func podIsStandardResourceName(name string) bool {
	return slices.Contains(podStandardResources, name) || podIsHugePageResourceName(name) || strings.HasPrefix(name, "requests."+podHugePagesPrefix)
}

func podIsStandardContainerResourceName(name string) bool {
	return name == "cpu" || name == "memory" || name == "ephemeral-storage" || podIsHugePageResourceName(name)
}

// podIsNativeResource: no domain, or kubernetes.io's.
func podIsNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
}

// podIsExtendedResourceName: not native, not a quota name, and a qualified
// name once "requests." is put before it.
func podIsExtendedResourceName(name string) bool {
	if podIsNativeResource(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(isQualifiedName("requests."+name)) == 0
}

// podIsOvercommitAllowed: native resources but hugepages may be requested
// below their limit.
func podIsOvercommitAllowed(name string) bool {
	return podIsNativeResource(name) && !podIsHugePageResourceName(name)
}

func podIsIntegerResourceName(name string) bool {
	return slices.Contains(podIntegerResources, name) || podIsExtendedResourceName(name)
}
