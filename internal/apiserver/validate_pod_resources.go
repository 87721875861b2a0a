package apiserver

import (
	"maps"
	"slices"

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
	errs = append(errs, validateResourceRequirements(s.Resources, podLevelResourceName, claims, rp, opts)...)
	return append(errs, validatePodResourceConsistency(s, rp)...)
}

// validatePodResourceConsistency is upstream's validatePodResourceConsistency.
// Upstream reports a container's limit at resources.containers[i][name].limits.
func validatePodResourceConsistency(s *schema.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	requests := podAggregateContainerResources(s, func(r *schema.ResourceRequirements) map[string]schema.Quantity { return r.Requests })
	for _, name := range slices.Sorted(maps.Keys(requests)) {
		podRequest, ok := s.Resources.Requests[name]
		if !ok {
			continue
		}
		if sum := requests[name]; sum.Cmp(podRequest) > 0 {
			errs = append(errs, field.InvalidString(p.Child("requests").Key(name), podRequest.String(), "must be greater than or equal to aggregate container requests of "+sum.String()))
		}
	}
	limits := podAggregateContainerResources(s, func(r *schema.ResourceRequirements) map[string]schema.Quantity { return r.Limits })
	for _, name := range slices.Sorted(maps.Keys(limits)) {
		if !isHugePageResourceName(name) {
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
		for _, name := range slices.Sorted(maps.Keys(c.Resources.Limits)) {
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
	for _, name := range slices.Sorted(maps.Keys(more)) {
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
	for _, name := range slices.Sorted(maps.Keys(more)) {
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
	return validateResourceRequirements(&schema.ResourceRequirements{Limits: o}, validateContainerResourceName, nil, p, opts)
}

// podLevelResourceName is upstream's validatePodResourceName: a valid
// resource name that pod-level resources support (cpu, memory,
// hugepages-*).
func podLevelResourceName(name string, p *field.Path) field.ErrorList {
	if errs := validateResourceName(name, p); len(errs) != 0 {
		return errs
	}
	if name != "cpu" && name != "memory" && !isHugePageResourceName(name) {
		return field.ErrorList{field.NotSupported(p, name, []string{"cpu", hugePagesPrefix, "memory"})}
	}
	return nil
}
