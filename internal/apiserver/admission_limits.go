package apiserver

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// What the API server does to a pod that a ReplicaSet creates, between
// decoding and storage: SetDefaults_Pod (requests default to limits) and
// the LimitRanger admission plugin (plugin/pkg/admission/limitranger):
// default requests and limits for containers that set none, then the
// min, max and maxLimitRequestRatio of every Container and Pod item.

// A LimitDefault is a request or limit that a LimitRange gave a container
// that set none.
type LimitDefault struct {
	LimitRange string // the LimitRange's name
	Item       string // its field: "spec.limits[0].defaultRequest[cpu]"
	Field      string // the pod's: "spec.containers[0].resources.requests.cpu"
	Value      schema.Quantity
}

// A LimitProblem is one reason LimitRanger refuses a pod.
type LimitProblem struct {
	LimitRange string // the LimitRange's name
	Item       string // its field: "spec.limits[0].max[cpu]"
	Field      string // the pod's field at fault: a container's request or limit, or "spec" for a Pod item
	Message    string // upstream's words: "maximum cpu usage per Container is 1, but limit is 2"
}

// TemplatePod returns the pod a ReplicaSet creates from template t, as the
// API server decodes it: the template's labels, annotations and spec, with
// a container's limits copied to its missing requests (SetDefaults_Pod).
// The pod shares nothing with t that admission changes.
func TemplatePod(t *schema.PodTemplateSpec) *schema.Pod {
	p := &schema.Pod{Spec: t.Spec}
	p.Labels, p.Annotations = t.Labels, t.Annotations
	for _, cs := range []*[]schema.Container{&p.Spec.Containers, &p.Spec.InitContainers} {
		*cs = append([]schema.Container(nil), *cs...)
		for i := range *cs {
			r := &(*cs)[i].Resources
			r.Requests, r.Limits = r.Requests.Clone(), r.Limits.Clone()
		}
	}
	setDefaultsPod(p)
	return p
}

// AdmitLimits is LimitRanger on pod p (from [TemplatePod]) in a namespace
// whose LimitRanges are ranges, in order: it sets on p the defaults of
// every Container item for the requests and limits its containers lack,
// and returns them, and every problem that makes LimitRanger refuse p.
func AdmitLimits(p *schema.Pod, ranges []*schema.LimitRange) ([]LimitDefault, []LimitProblem) {
	var defaults []LimitDefault
	var problems []LimitProblem
	for _, lr := range ranges {
		defaults = append(defaults, mutateLimits(p, lr)...)
	}
	for _, lr := range ranges {
		problems = append(problems, validateLimits(p, lr)...)
	}
	return defaults, problems
}

// mutateLimits is PodMutateLimitFunc: the defaults of the Container items
// (a later item's override an earlier's), for each container and init
// container, resource by resource.
func mutateLimits(p *schema.Pod, lr *schema.LimitRange) []LimitDefault {
	type def struct {
		item string
		q    schema.Quantity
	}
	requests, limits := map[string]def{}, map[string]def{}
	for i, it := range lr.Spec.Limits {
		if it.Type != "Container" {
			continue
		}
		for _, e := range it.DefaultRequest {
			requests[e.Name] = def{fmt.Sprintf("spec.limits[%d].defaultRequest[%s]", i, e.Name), e.Quantity}
		}
		for _, e := range it.Default {
			limits[e.Name] = def{fmt.Sprintf("spec.limits[%d].default[%s]", i, e.Name), e.Quantity}
		}
	}
	var out []LimitDefault
	each(p, func(c *schema.Container, at string) {
		for _, set := range []struct {
			what string
			list *schema.ResourceList
			defs map[string]def
		}{{"limits", &c.Resources.Limits, limits}, {"requests", &c.Resources.Requests, requests}} {
			for _, k := range slices.Sorted(maps.Keys(set.defs)) {
				if set.list.Has(k) {
					continue
				}
				if *set.list == nil {
					*set.list = schema.ResourceList{}
				}
				set.list.Set(k, set.defs[k].q)
				out = append(out, LimitDefault{LimitRange: lr.Name, Item: set.defs[k].item,
					Field: at + ".resources." + set.what + "." + k, Value: set.defs[k].q})
			}
		}
	})
	return out
}

// each calls f with every container of p, then every init container, and
// its field path.
func each(p *schema.Pod, f func(c *schema.Container, at string)) {
	for i := range p.Spec.Containers {
		f(&p.Spec.Containers[i], fmt.Sprintf("spec.containers[%d]", i))
	}
	for i := range p.Spec.InitContainers {
		f(&p.Spec.InitContainers[i], fmt.Sprintf("spec.initContainers[%d]", i))
	}
}

// validateLimits is PodValidateLimitFunc.
func validateLimits(p *schema.Pod, lr *schema.LimitRange) []LimitProblem {
	var out []LimitProblem
	for i, it := range lr.Spec.Limits {
		check := func(requests, limits schema.ResourceList, at string) {
			for _, c := range []struct {
				name string
				l    schema.ResourceList
				fn   func(typ, k string, enforced schema.Quantity, req, lim schema.ResourceList) (string, string)
			}{{"min", it.Min, minConstraint}, {"max", it.Max, maxConstraint}, {"maxLimitRequestRatio", it.MaxLimitRequestRatio, ratioConstraint}} {
				for _, e := range c.l {
					k := e.Name
					if msg, which := c.fn(it.Type, k, e.Quantity, requests, limits); msg != "" {
						field := at
						if it.Type == "Container" {
							field = at + ".resources." + which + "." + k
						}
						out = append(out, LimitProblem{LimitRange: lr.Name, Item: fmt.Sprintf("spec.limits[%d].%s[%s]", i, c.name, k), Field: field, Message: msg})
					}
				}
			}
		}
		switch it.Type {
		case "Container":
			each(p, func(c *schema.Container, at string) { check(c.Resources.Requests, c.Resources.Limits, at) })
		case "Pod":
			requests := podAggregateContainerResources(&p.Spec, func(r *schema.ResourceRequirements) schema.ResourceList { return r.Requests })
			limits := podAggregateContainerResources(&p.Spec, func(r *schema.ResourceRequirements) schema.ResourceList { return r.Limits })
			if r := p.Spec.Resources; r != nil {
				for _, k := range []string{"cpu", "memory"} {
					if q, ok := r.Requests.Get(k); ok {
						requests.Set(k, q)
					}
					if q, ok := r.Limits.Get(k); ok {
						limits.Set(k, q)
					}
				}
			}
			check(requests, limits, "spec")
		}
	}
	return out
}

// enforcedValues is requestLimitEnforcedValues: the three values in milli
// units when none is too large for them, else in units.
func enforcedValues(req, lim, enforced schema.Quantity) (int64, int64, int64) {
	const maxMilliValue = math.MaxInt64 / 1000
	r, l, e := req.Value(), lim.Value(), enforced.Value()
	if r <= maxMilliValue && l <= maxMilliValue && e <= maxMilliValue {
		return req.MilliValue(), lim.MilliValue(), enforced.MilliValue()
	}
	return r, l, e
}

// minConstraint is upstream's: its message, and which of the requests or
// limits is at fault.
func minConstraint(typ, k string, enforced schema.Quantity, requests, limits schema.ResourceList) (string, string) {
	req, hasReq := requests.Get(k)
	lim, hasLim := limits.Get(k)
	r, l, e := enforcedValues(req, lim, enforced)
	switch {
	case !hasReq:
		return fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", k, typ, enforced.String()), "requests"
	case r < e:
		return fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", k, typ, enforced.String(), req.String()), "requests"
	case hasLim && l < e:
		return fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", k, typ, enforced.String(), lim.String()), "limits"
	}
	return "", ""
}

// maxConstraint is upstream's.
func maxConstraint(typ, k string, enforced schema.Quantity, requests, limits schema.ResourceList) (string, string) {
	req, hasReq := requests.Get(k)
	lim, hasLim := limits.Get(k)
	r, l, e := enforcedValues(req, lim, enforced)
	switch {
	case !hasLim:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", k, typ, enforced.String()), "limits"
	case l > e:
		return fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", k, typ, enforced.String(), lim.String()), "limits"
	case hasReq && r > e:
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, enforced.String(), req.String()), "requests"
	}
	return "", ""
}

// ratioConstraint is limitRequestRatioConstraint.
func ratioConstraint(typ, k string, enforced schema.Quantity, requests, limits schema.ResourceList) (string, string) {
	req, hasReq := requests.Get(k)
	lim, hasLim := limits.Get(k)
	r, l, _ := enforcedValues(req, lim, enforced)
	switch {
	case !hasReq || r == 0:
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", k, typ, enforced.String()), "requests"
	case !hasLim || l == 0:
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", k, typ, enforced.String()), "limits"
	}
	observed := float64(l) / float64(r)
	shown, maxRatio := observed, float64(enforced.Value())
	if enforced.Value() <= math.MaxInt64/1000 {
		observed, maxRatio = observed*1000, float64(enforced.MilliValue())
	}
	if observed > maxRatio {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", k, typ, enforced.String(), shown), "limits"
	}
	return "", ""
}
