package apiserver

import (
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// What the ResourceQuota admission plugin charges for a pod and when it
// refuses one: upstream's pod evaluator (pkg/quota/v1/evaluator/core/
// pods.go) with component-helpers' PodRequests and PodLimits.

// PodUsage is what a ResourceQuota charges for a pod being created
// (PodUsageFunc): count/pods and pods 1; the pod's requests (cpu, memory,
// ephemeral-storage, each also as requests.*, and huge pages also as
// requests.hugepages-*) and limits (as limits.*), summed over its
// containers as the scheduler does (sidecars run beside the containers,
// other init containers one at a time), pod-level resources taking the
// place of the containers' for cpu and memory, and the runtime overhead
// added. Resources not set are absent.
func PodUsage(p *schema.Pod) map[string]schema.Quantity {
	requests := podAggregateContainerResources(&p.Spec, func(r *schema.ResourceRequirements) schema.ResourceList { return r.Requests })
	limits := podAggregateContainerResources(&p.Spec, func(r *schema.ResourceRequirements) schema.ResourceList { return r.Limits })
	if r := p.Spec.Resources; r != nil {
		for _, e := range r.Requests {
			if isPodLevelResource(e.Name) {
				requests.Set(e.Name, e.Quantity)
			}
		}
		for _, e := range r.Limits {
			if isPodLevelResource(e.Name) {
				limits.Set(e.Name, e.Quantity)
			}
		}
	}
	for _, o := range p.Spec.Overhead {
		q, _ := requests.Get(o.Name)
		q.Add(o.Quantity)
		requests.Set(o.Name, q)
		if l, ok := limits.Get(o.Name); ok && !l.IsZero() {
			l.Add(o.Quantity)
			limits.Set(o.Name, l)
		}
	}
	usage := computeUsage(requests, limits)
	usage["count/pods"] = schema.MustParseQuantity("1")
	return usage
}

func isPodLevelResource(name string) bool {
	return name == "cpu" || name == "memory" || strings.HasPrefix(name, hugePagesPrefix)
}

// computeUsage is podComputeUsageHelper: the quota's names for a pod's
// (or a container's) requests and limits.
func computeUsage(requests, limits schema.ResourceList) map[string]schema.Quantity {
	out := map[string]schema.Quantity{"pods": schema.MustParseQuantity("1")}
	for _, k := range []string{"cpu", "memory", "ephemeral-storage"} {
		if q, ok := requests.Get(k); ok {
			out[k] = q
			out["requests."+k] = q
		}
		if q, ok := limits.Get(k); ok {
			out["limits."+k] = q
		}
	}
	for _, e := range requests {
		switch k := e.Name; {
		case strings.HasPrefix(k, hugePagesPrefix):
			out[k] = e.Quantity
			out[requestsPrefix+k] = e.Quantity
		case isExtendedResourceName(k) || strings.HasPrefix(k, deviceClassPrefix):
			// Only requests.<name> quotas exist for extended resources.
			out[requestsPrefix+k] = e.Quantity
		}
	}
	return out
}

// deviceClassPrefix starts the implicit extended resource names of DRA
// device classes (schedutil.IsDRAExtendedResourceName).
const deviceClassPrefix = "deviceclass.resource.kubernetes.io/"

// QuotaMissingMessage words missing as the quota's admission error does:
// "must specify cpu for: bar,foo; memory for: bar,foo" ("" for none).
func QuotaMissingMessage(missing []QuotaMissing) string {
	if len(missing) == 0 {
		return ""
	}
	var parts []string
	for _, m := range missing {
		names := slices.Clone(m.Containers)
		slices.Sort(names)
		parts = append(parts, m.Resource+" for: "+strings.Join(slices.Compact(names), ","))
	}
	return "must specify " + strings.Join(parts, "; ")
}

// QuotaCharges reports whether quota q charges a pod like p: whether p is
// in its scopes (Terminating: p has an active deadline; BestEffort: p sets
// no cpu or memory; PriorityClass: p's priority class matches;
// CrossNamespacePodAffinity: p's affinity terms reach other namespaces).
func QuotaCharges(q *schema.ResourceQuota, p *schema.Pod) bool {
	for _, scope := range q.Spec.Scopes {
		if !podInScope(p, schema.ScopedResourceSelectorRequirement{ScopeName: scope, Operator: "Exists"}) {
			return false
		}
	}
	if q.Spec.ScopeSelector != nil {
		for _, r := range q.Spec.ScopeSelector.MatchExpressions {
			if !podInScope(p, r) {
				return false
			}
		}
	}
	return true
}

// podInScope is podMatchesScopeFunc.
func podInScope(p *schema.Pod, r schema.ScopedResourceSelectorRequirement) bool {
	terminating := p.Spec.ActiveDeadlineSeconds != nil && *p.Spec.ActiveDeadlineSeconds >= 0
	switch r.ScopeName {
	case "Terminating":
		return terminating
	case "NotTerminating":
		return !terminating
	case "BestEffort":
		return isBestEffort(p)
	case "NotBestEffort":
		return !isBestEffort(p)
	case "PriorityClass":
		class, has := p.Spec.PriorityClassName, p.Spec.PriorityClassName != ""
		switch r.Operator {
		case "Exists":
			return has
		case "DoesNotExist":
			return !has
		case "In":
			return has && slices.Contains(r.Values, class)
		case "NotIn":
			return !has || !slices.Contains(r.Values, class)
		}
	case "CrossNamespacePodAffinity":
		return crossNamespaceAffinity(p.Spec.Affinity)
	}
	return false
}

// isBestEffort is the BestEffort QoS class: no container (nor the pod)
// requests or limits cpu or memory.
func isBestEffort(p *schema.Pod) bool {
	sets := func(r *schema.ResourceRequirements) bool {
		for _, k := range []string{"cpu", "memory"} {
			if r.Requests.Has(k) || r.Limits.Has(k) {
				return true
			}
		}
		return false
	}
	if p.Spec.Resources != nil && sets(p.Spec.Resources) {
		return false
	}
	for _, cs := range [][]schema.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			if sets(&cs[i].Resources) {
				return false
			}
		}
	}
	return true
}

func crossNamespaceAffinity(a *schema.Affinity) bool {
	if a == nil {
		return false
	}
	cross := func(t *schema.PodAffinityTerm) bool { return len(t.Namespaces) != 0 || t.NamespaceSelector != nil }
	var required []schema.PodAffinityTerm
	var preferred []schema.WeightedPodAffinityTerm
	if a.PodAffinity != nil {
		required = append(required, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
		preferred = append(preferred, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution...)
	}
	if a.PodAntiAffinity != nil {
		required = append(required, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
		preferred = append(preferred, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution...)
	}
	for i := range required {
		if cross(&required[i]) {
			return true
		}
	}
	for i := range preferred {
		if cross(&preferred[i].PodAffinityTerm) {
			return true
		}
	}
	return false
}

// A QuotaMissing is a resource that a quota tracks (cpu or memory,
// requests or limits) and that containers of a pod do not set, so that
// the quota refuses the pod: "must specify requests.cpu for: app".
type QuotaMissing struct {
	Resource   string
	Containers []string // names, containers then init containers, in order
	Fields     []string // each one's field: "spec.containers[0]"
}

// QuotaConstraints is the pod evaluator's Constraints: for each of cpu,
// memory, requests.* and limits.* of them that quota q sets a hard limit
// for, the containers of p that do not set it, by resource name. A pod
// with pod-level resources is exempt.
func QuotaConstraints(q *schema.ResourceQuota, p *schema.Pod) []QuotaMissing {
	if r := p.Spec.Resources; r != nil {
		for _, l := range []schema.ResourceList{r.Requests, r.Limits} {
			for k := range l.Names() {
				if isPodLevelResource(k) {
					return nil
				}
			}
		}
	}
	var required []string
	for k := range q.Spec.Hard.Names() {
		if slices.Contains(podComputeQuotaResourceNames, k) {
			required = append(required, k)
		}
	}
	if len(required) == 0 {
		return nil
	}
	type container struct {
		name, at string
		usage    map[string]schema.Quantity
	}
	var cs []container
	each(p, func(c *schema.Container, at string) {
		cs = append(cs, container{c.Name, at, computeUsage(c.Resources.Requests, c.Resources.Limits)})
	})
	var out []QuotaMissing
	for _, k := range required {
		m := QuotaMissing{Resource: k}
		for _, c := range cs {
			if _, ok := c.usage[k]; !ok {
				m.Containers = append(m.Containers, c.name)
				m.Fields = append(m.Fields, c.at)
			}
		}
		if len(m.Containers) > 0 {
			out = append(out, m)
		}
	}
	return out
}
