package apiserver

import (
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
	requests := podAggregateContainerResources(s, func(r *schema.ResourceRequirements) schema.ResourceList { return r.Requests })
	for _, sum := range requests {
		podRequest, ok := s.Resources.Requests.Get(sum.Name)
		if !ok {
			continue
		}
		if sum.Quantity.Cmp(podRequest) > 0 {
			errs = append(errs, field.InvalidString(p.Child("requests").Key(sum.Name), podRequest.String(), "must be greater than or equal to aggregate container requests of "+sum.Quantity.String()))
		}
	}
	limits := podAggregateContainerResources(s, func(r *schema.ResourceRequirements) schema.ResourceList { return r.Limits })
	for _, sum := range limits {
		if !isHugePageResourceName(sum.Name) {
			continue
		}
		podLimit, ok := s.Resources.Limits.Get(sum.Name)
		if !ok {
			continue
		}
		if sum.Quantity.Cmp(podLimit) > 0 {
			errs = append(errs, field.InvalidString(p.Child("limits").Key(sum.Name), podLimit.String(), "must be greater than or equal to aggregate container limits of "+sum.Quantity.String()))
		}
	}
	for i, c := range s.Containers {
		for _, limit := range c.Resources.Limits {
			podLimit, ok := s.Resources.Limits.Get(limit.Name)
			if !ok {
				continue
			}
			if limit.Quantity.Cmp(podLimit) > 0 {
				errs = append(errs, field.InvalidString(p.Child("containers").Index(i).Key(limit.Name).Child("limits"), limit.Quantity.String(), "must be less than or equal to pod limits of "+podLimit.String()))
			}
		}
	}
	return errs
}

// podAggregateContainerResources is component-helpers'
// AggregateContainerRequests (or Limits, as of picks one or the other):
// the regular containers and the sidecars (init containers that restart
// Always) run together, and each other init container runs beside the
// sidecars started before it; the pod needs the larger of the two. The
// list it returns shares no memory with s.
func podAggregateContainerResources(s *schema.PodSpec, of func(*schema.ResourceRequirements) schema.ResourceList) schema.ResourceList {
	total := schema.ResourceList{}
	for i := range s.Containers {
		podAddResources(&total, of(&s.Containers[i].Resources))
	}
	var sidecars, initPeak schema.ResourceList
	for i := range s.InitContainers {
		c := &s.InitContainers[i]
		own := of(&c.Resources)
		var running schema.ResourceList
		if c.RestartPolicy != nil && *c.RestartPolicy == "Always" {
			podAddResources(&total, own)
			podAddResources(&sidecars, own)
			running = sidecars
		} else {
			podAddResources(&running, own)
			podAddResources(&running, sidecars)
		}
		podMaxResources(&initPeak, running)
	}
	podMaxResources(&total, initPeak)
	return total
}

// podAddResources adds more into list, name by name. The entries it adds
// are new memory (ResourceList.Set), so that the sums never change what
// they were added from.
func podAddResources(list *schema.ResourceList, more schema.ResourceList) {
	for _, e := range more {
		if v, ok := list.Get(e.Name); ok {
			v.Add(e.Quantity)
			list.Set(e.Name, v)
		} else {
			list.Set(e.Name, e.Quantity)
		}
	}
}

// podMaxResources raises each of list's amounts to more's where that is
// larger.
func podMaxResources(list *schema.ResourceList, more schema.ResourceList) {
	for _, e := range more {
		if v, ok := list.Get(e.Name); !ok || e.Quantity.Cmp(v) > 0 {
			list.Set(e.Name, e.Quantity)
		}
	}
}

// validateOverhead is upstream's validateOverhead: the overhead is checked
// as a container's limits would be (so upstream's errors name
// overhead.limits[...]).
func validateOverhead(o schema.ResourceList, p *field.Path, opts podOptions) field.ErrorList {
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
