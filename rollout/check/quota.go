package check

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/internal/workers"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// What a namespace's ResourceQuotas and LimitRanges leave a rollout: each
// Deployment's pods as admission makes them (LimitRange defaults), what a
// quota charges for one, how many pods the quota's headroom holds, and the
// pods admission refuses outright. A namespace is worked out once, its
// Deployments' pods several at once; the words of a finding are made only
// for the findings.

// podProfile is what admission makes of one pod of a Deployment's
// template in its namespace.
type podProfile struct {
	usage   map[string]schema.Quantity // what a quota charges for it
	refused []apiserver.LimitProblem   // why LimitRanger refuses it
	charged []bool                     // by each quota of the namespace
	missing [][]apiserver.QuotaMissing // the requests each quota needs and it lacks
}

// profileOf admits a pod of d's template in a namespace with policy.
func profileOf(d rollout.Deployment, policy *nsPolicy) (podProfile, error) {
	spec, res := schema.DecodePodSpec(d.Spec.Template.Spec.JSON(), schema.DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 {
		return podProfile{}, fmt.Errorf("the pod template of Deployment %s: %v", Qualified(d), res.Errs[0])
	}
	t := &schema.PodTemplateSpec{Spec: *spec}
	t.Labels, t.Annotations = d.Spec.Template.Labels, d.Spec.Template.Annotations
	pod := apiserver.TemplatePod(t)
	var ranges []*schema.LimitRange
	for _, lr := range policy.ranges {
		ranges = append(ranges, lr.obj)
	}
	var p podProfile
	_, p.refused = apiserver.AdmitLimits(pod, ranges)
	p.usage = apiserver.PodUsage(pod)
	for _, q := range policy.quotas {
		charged := apiserver.QuotaCharges(q.obj, pod)
		p.charged = append(p.charged, charged)
		var missing []apiserver.QuotaMissing
		if charged {
			missing = apiserver.QuotaConstraints(q.obj, pod)
		}
		p.missing = append(p.missing, missing)
	}
	return p, nil
}

// nsQuota is a namespace's Deployments as its quotas see them.
type nsQuota struct {
	policy  *nsPolicy
	deps    []rollout.Deployment
	profile []podProfile
	errs    []error // why a Deployment's pod could not be admitted
	current []int64 // the pods each runs now
	surge   []int64 // the pods each rollout adds at its peak
	sets    int64   // ReplicaSets in the input
	at      map[string]int
	// usage is what the Deployments use of each resource of each quota.
	usage map[quotaKey]*quotaUsage
}

// quotaKey is a resource of the quota at an index of a namespace's.
type quotaKey struct {
	quota    int
	resource string
}

// quotaViews works out every namespace with quotas or LimitRanges, for
// rollouts at once (--max-rollouts): the Deployments' pods several at
// once, on every core. A Deployment whose pod cannot be admitted has its
// error in errs, and counts for nothing.
func (in *Input) quotaViews() {
	if in.quotas != nil {
		return
	}
	in.quotas = map[string]*nsQuota{}
	type job struct {
		v *nsQuota
		k int
	}
	var jobs []job
	for _, ns := range slices.Sorted(maps.Keys(in.policy)) {
		p := in.policy[ns]
		if len(p.quotas)+len(p.ranges) == 0 {
			continue
		}
		v := &nsQuota{policy: p, at: map[string]int{}, usage: map[quotaKey]*quotaUsage{}, sets: int64(len(in.namespaces[ns].ReplicaSets))}
		for _, d := range in.objs.Deployments {
			if d.Namespace == ns {
				v.at[d.Name] = len(v.deps)
				v.deps = append(v.deps, d)
				v.current = append(v.current, in.currentPods(d))
				b := sim.ComputeBounds(d.Spec.Strategy, d.Spec.Replicas)
				v.surge = append(v.surge, max(b.PeakPods-int64(d.Spec.Replicas), 0))
				jobs = append(jobs, job{v, len(v.deps) - 1})
			}
		}
		v.profile, v.errs = make([]podProfile, len(v.deps)), make([]error, len(v.deps))
		in.quotas[ns] = v
	}
	workers.InOrder(int64(len(jobs)), runtime.GOMAXPROCS(0), func(i int64) bool {
		j := jobs[i]
		j.v.profile[j.k], j.v.errs[j.k] = profileOf(j.v.deps[j.k], j.v.policy)
		return true
	}, func(int64, bool) bool { return true })
	for _, v := range in.quotas {
		for qi, q := range v.policy.quotas {
			for r := range q.obj.Spec.Hard.Names() {
				v.usage[quotaKey{qi, r}] = v.measure(qi, r)
			}
		}
	}
}

// currentPods is how many pods d runs now, as the input shows: those its
// ReplicaSets report, or its own status, or, for a manifest never
// applied, spec.replicas.
func (in *Input) currentPods(d rollout.Deployment) int64 {
	if own := in.ownSets(d); len(own) > 0 {
		var n int64
		for _, rs := range own {
			n += int64(rs.Status.Replicas)
		}
		return n
	}
	if isLive(d) {
		return int64(d.Status.Replicas)
	}
	return int64(d.Spec.Replicas)
}

// quotaCap is what the quotas leave one Deployment: how many of its pods
// fit (pods -1: no quota charges them) and the quota, resource and
// numbers that decide it, worded by its methods.
type quotaCap struct {
	pods                     int64
	quota                    policyObject[*schema.ResourceQuota]
	resource                 string
	hard, others, surge, per schema.Quantity
	rollouts                 int
}

// why words the cap: "ResourceQuota compute allows requests.cpu 6, of
// which other pods use 0: room for 12 pods of 500m each".
func (c quotaCap) why() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ResourceQuota %s allows %s %s, of which other pods use %s", c.quota.obj.Name, c.resource, c.hard.String(), c.others.String())
	if !c.surge.IsZero() {
		fmt.Fprintf(&b, ", and %s goes to the surge of %s rolling out at once", c.surge.String(), words.Plural(c.rollouts-1, "other Deployment"))
	}
	if c.resource == "pods" || c.resource == "count/pods" {
		fmt.Fprintf(&b, ": room for %s", words.Plural(int(c.pods), "pod"))
	} else {
		fmt.Fprintf(&b, ": room for %s of %s each", words.Plural(int(c.pods), "pod"), c.per.String())
	}
	return b.String()
}

// short names the quota and resource: "ResourceQuota compute,
// requests.cpu 6".
func (c quotaCap) short() string {
	return fmt.Sprintf("ResourceQuota %s, %s %s", c.quota.obj.Name, c.resource, c.hard.String())
}

// where is the quota's field that decides the cap, or no place for no
// cap.
func (c quotaCap) where() Location {
	if c.pods < 0 {
		return Location{}
	}
	q := c.quota.obj
	return fieldPlace(c.quota.doc, "ResourceQuota", q.Namespace, q.Name, "spec.hard["+c.resource+"]")
}

// capFor computes the pods of the k-th Deployment of v that fit in every
// quota that charges them, while the other Deployments keep their pods
// and the rollouts-1 others with the largest surge roll out at once.
func (v *nsQuota) capFor(k int, rollouts int) quotaCap {
	c := quotaCap{pods: -1}
	me := v.profile[k]
	for qi, q := range v.policy.quotas {
		if !me.charged[qi] {
			continue
		}
		for _, e := range q.obj.Spec.Hard {
			r, hard := e.Name, e.Quantity
			per, ok := me.usage[r]
			if !ok || per.Sign() <= 0 {
				continue
			}
			others, surge := v.usedBy(qi, r, k, rollouts)
			room := hard
			room.Sub(others)
			room.Sub(surge)
			if n := room.Quotient(per); c.pods < 0 || n < c.pods {
				c = quotaCap{pods: n, quota: q, resource: r, hard: hard, others: others, surge: surge, per: per, rollouts: rollouts}
			}
		}
	}
	return c
}

// quotaUsage is what a namespace uses of one resource by one quota's
// count: in all (the quota's status.used when the input has it, else the
// Deployments' current pods), each Deployment's part, and the
// Deployments by the surge of their rollouts, largest first.
type quotaUsage struct {
	used  schema.Quantity
	own   []schema.Quantity
	order []int
	surge []schema.Quantity
}

// usedBy returns what the pods other than the k-th Deployment's use of
// resource r by the qi-th quota's count, and the surge of the rollouts-1
// largest other rollouts.
func (v *nsQuota) usedBy(qi int, r string, k, rollouts int) (others, surge schema.Quantity) {
	u := v.usage[quotaKey{qi, r}]
	others = u.used
	others.Sub(u.own[k])
	if others.Sign() < 0 {
		others = schema.Quantity{}
	}
	for _, i := range u.order {
		if rollouts <= 1 {
			break
		}
		if i != k {
			surge.Add(u.surge[i])
			rollouts--
		}
	}
	return others, surge
}

// measure makes the quotaUsage of resource r by the qi-th quota.
func (v *nsQuota) measure(qi int, r string) *quotaUsage {
	q := v.policy.quotas[qi].obj
	u := &quotaUsage{own: make([]schema.Quantity, len(v.deps)), surge: make([]schema.Quantity, len(v.deps))}
	for i, p := range v.profile {
		if p.charged[qi] {
			per := p.usage[r]
			u.own[i], u.surge[i] = per.Times(v.current[i]), per.Times(v.surge[i])
			u.order = append(u.order, i)
		}
	}
	if used, ok := q.Status.Used.Get(r); ok {
		u.used = used
	} else {
		for i := range v.deps {
			u.used.Add(u.own[i])
		}
	}
	slices.SortStableFunc(u.order, func(a, b int) int { return u.surge[b].Cmp(u.surge[a]) })
	return u
}

// admission returns what refuses every pod of the k-th Deployment
// outright, as never-finishes findings at +0s: LimitRanger's limits, a
// quota that needs requests the containers do not set, no room for one
// pod, no room for the new ReplicaSet.
func (v *nsQuota) admission(in *Input, k int, rollouts int, c quotaCap) []Finding {
	d, me := v.deps[k], v.profile[k]
	var out []Finding
	add := func(where Location, related []Location, format string, args ...any) {
		out = append(out, Finding{Deployment: Qualified(d), Replicas: d.Spec.Replicas, Rule: RuleNeverFinish, Severity: SeverityError,
			Cause: CauseInput, Message: "the rollout can never finish: " + fmt.Sprintf(format, args...), Location: where, Related: related})
	}
	for _, p := range me.refused {
		i := slices.IndexFunc(v.policy.ranges, func(lr policyObject[*schema.LimitRange]) bool { return lr.obj.Name == p.LimitRange })
		lr := v.policy.ranges[i]
		add(in.deploymentPlace(d, "spec.template."+p.Field), []Location{fieldPlace(lr.doc, "LimitRange", lr.obj.Namespace, lr.obj.Name, p.Item)},
			"LimitRange %s refuses every pod: %s", p.LimitRange, p.Message)
	}
	for qi, q := range v.policy.quotas {
		if !me.charged[qi] {
			continue
		}
		for _, m := range me.missing[qi] {
			field := "spec.template." + m.Fields[0] + ".resources." + containerResource(m.Resource)
			add(in.deploymentPlace(d, field), []Location{fieldPlace(q.doc, "ResourceQuota", q.obj.Namespace, q.obj.Name, "spec.hard["+m.Resource+"]")},
				"ResourceQuota %s tracks %s, so it refuses every pod that does not set it (%s), and no LimitRange gives a default",
				q.obj.Name, m.Resource, apiserver.QuotaMissingMessage([]apiserver.QuotaMissing{m}))
		}
		const sets = "count/replicasets.apps"
		if hard, ok := q.obj.Spec.Hard.Get(sets); ok {
			used := schema.MustParseQuantity(fmt.Sprint(v.sets))
			if u, ok := q.obj.Status.Used.Get(sets); ok {
				used = u
			} else if v.sets == 0 {
				used = schema.MustParseQuantity(fmt.Sprint(len(v.deps))) // one ReplicaSet each
			}
			room := hard
			room.Sub(used)
			if need := int64(min(rollouts, len(v.deps))); room.Quotient(schema.MustParseQuantity("1")) < need {
				add(in.deploymentPlace(d, "spec.revisionHistoryLimit"), []Location{fieldPlace(q.doc, "ResourceQuota", q.obj.Namespace, q.obj.Name, "spec.hard["+sets+"]")},
					"ResourceQuota %s allows %s ReplicaSets and the namespace has %s: no room for the new ReplicaSet of %s", q.obj.Name, hard.String(), used.String(), words.Plural(int(need), "rollout"))
			}
		}
	}
	if c.pods == 0 && d.Spec.Replicas > 0 && len(out) == 0 {
		add(in.deploymentPlace(d, "spec.template.spec.containers"), []Location{c.where()}, "not one pod fits: %s", c.why())
	}
	return out
}

// containerResource is the field of a container's resources that a quota
// resource name stands for: requests.cpu for cpu, limits.cpu for itself.
func containerResource(r string) string {
	if strings.HasPrefix(r, "requests.") || strings.HasPrefix(r, "limits.") {
		return r
	}
	return "requests." + r
}

// maxPods turns a cap on a Deployment's own pods into the simulator's pod
// quota, which counts every pod of the state: the cap plus the pods of
// the namespace's other ReplicaSets in s (controlled by another owner, or
// orphans its selector does not match). It returns 0 (no quota) for no
// cap, and caps at MaxInt32.
func maxPods(c quotaCap, s rollout.State) int32 {
	if c.pods < 0 {
		return 0
	}
	n := c.pods
	d := s.Deployment
	for _, rs := range s.ReplicaSets {
		ref, owned := rs.ControllerRef()
		mine := owned && ref.UID == d.UID || !owned && d.Spec.Selector.Matches(rs.Labels)
		if !mine && rs.Namespace == d.Namespace {
			n += int64(rs.Status.Replicas)
		}
	}
	return int32(min(max(n, 1), math.MaxInt32))
}
