package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/words"
)

// A limiter is one rule's count of the places on some nodes, and why.
type limiter struct {
	places int64
	why    string
	field  string
}

// evaluate works out the places of m's pod on nodes with the claims it
// mounts: the fewest that any rule leaves (see the package doc,
// Placement).
func (m *placeModel) evaluate(nodes []node, claims []mountedClaim) placement {
	var ok []node
	fits := map[string]int64{}
	for _, n := range nodes {
		if m.eligible(n) {
			ok = append(ok, n)
			fits[n.name] = m.fit(n)
		}
	}
	m.nEligible = len(ok)
	pl := placement{nodes: ok}
	for _, c := range claims {
		if c.mode != "ReadWriteOnce" || len(slices.Compact(slices.Sorted(slices.Values(m.ownNodes)))) > 1 {
			// The input's pods of the Deployment running on two nodes
			// show a claim that one node does not hold (a driver that
			// attaches it to several): nothing is known of it.
			continue
		}
		// Every pod mounts the claim, which one node holds: where the
		// input's pods of the Deployment run, else the first node (by
		// name) with room for one.
		holder := ""
		for _, name := range slices.Sorted(slices.Values(m.ownNodes)) {
			if slices.ContainsFunc(ok, func(n node) bool { return n.name == name }) {
				holder = name
				break
			}
		}
		where := "where the Deployment's pods run"
		if holder == "" {
			where = "the first node with room for one"
			for _, n := range ok {
				if fits[n.name] > 0 {
					holder = n.name
					break
				}
			}
		}
		cc := c
		pl.claim = &cc
		pl.field = c.field
		i := slices.IndexFunc(ok, func(n node) bool { return n.name == holder })
		if i < 0 {
			pl.places, pl.nodes = 0, nil
			pl.why = fmt.Sprintf("the ReadWriteOnce claim %s ties every pod to one node, and no eligible node has room for one", c.obj.obj.Name)
			return pl
		}
		// The scheduler does not know where the claim is attached, and
		// its default spreading (PodTopologySpread's system defaults,
		// ScheduleAnyway by hostname and zone) prefers the nodes
		// without the Deployment's pods: a new pod goes to another
		// eligible node with room, where it waits on Multi-Attach.
		elsewhere := ""
		for _, n := range ok {
			if n.name != holder && fits[n.name] > 0 {
				elsewhere = n.name
				break
			}
		}
		ok = ok[i : i+1]
		pl.nodes = ok
		lim := m.least(ok, fits)
		pl.places = lim.places
		pl.why = fmt.Sprintf("the ReadWriteOnce claim %s ties every pod to the node holding it, %s (%s), where %s", c.obj.obj.Name, holder, where, lim.why)
		if elsewhere != "" {
			pl.onlyOld = true
			pl.why = fmt.Sprintf("the ReadWriteOnce claim %s is attached to %s (%s), where %s; and the scheduler does not know it: its default spreading puts a new pod on a node without the Deployment's pods, such as %s, where it waits on Multi-Attach while a pod on %s uses the claim",
				c.obj.obj.Name, holder, where, lim.why, elsewhere, holder)
		}
		return m.oncePod(pl, claims)
	}
	lim := m.least(ok, fits)
	pl.places, pl.why, pl.field = lim.places, lim.why, lim.field
	return m.oncePod(pl, claims)
}

// oncePod applies a ReadWriteOncePod claim to pl: one pod at all.
func (m *placeModel) oncePod(pl placement, claims []mountedClaim) placement {
	for _, c := range claims {
		if c.mode == "ReadWriteOncePod" && pl.places > 1 {
			cc := c
			pl.places, pl.claim, pl.field = 1, &cc, c.field
			pl.why = fmt.Sprintf("the ReadWriteOncePod claim %s lets one pod at all use it", c.obj.obj.Name)
		}
	}
	return pl
}

// least returns the fewest places that the rules leave on nodes (each
// eligible, with fits pods): resources, host ports, required pod
// anti-affinity against the Deployment's own pods, and topology spread
// constraints that DoNotSchedule. On a tie the first in that order says
// why.
func (m *placeModel) least(nodes []node, fits map[string]int64) limiter {
	var total int64
	for _, n := range nodes {
		total = min(total+times(fits[n.name], n.count()), manyPlaces)
	}
	best := limiter{places: total, why: m.capacityWhy(nodes, total), field: m.requestField()}
	if len(m.ports) > 0 {
		var ports []string
		for _, p := range m.ports {
			ports = append(ports, p.String())
		}
		why := fmt.Sprintf("host port %s takes one pod per node: %s", strings.Join(ports, ", "), m.capacityWhy(nodes, total))
		best = limiter{total, why, m.portField()}
	}
	consider := func(l limiter) {
		if l.places < best.places {
			best = l
		}
	}
	s := &m.pod.Spec
	if a := s.Affinity; a != nil && a.PodAntiAffinity != nil {
		for i, term := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			if !m.selectsOwn(term.LabelSelector, term.MatchLabelKeys) || (len(term.Namespaces) > 0 && !slices.Contains(term.Namespaces, m.d.Namespace)) {
				continue
			}
			field := fmt.Sprintf("spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[%d]", i)
			consider(m.antiAffinity(nodes, fits, term, field))
		}
	}
	for i, c := range s.TopologySpreadConstraints {
		if c.WhenUnsatisfiable != "DoNotSchedule" || !m.selectsOwn(c.LabelSelector, c.MatchLabelKeys) {
			continue
		}
		if l, ok := m.spread(nodes, fits, c, fmt.Sprintf("spec.template.spec.topologySpreadConstraints[%d]", i)); ok {
			consider(l)
		}
	}
	return best
}

// selectsOwn reports whether a selector of the template selects the
// Deployment's pods of every revision: it matches the template's labels,
// and matchLabelKeys does not narrow it to one revision.
func (m *placeModel) selectsOwn(sel *schema.LabelSelector, matchLabelKeys []string) bool {
	return !slices.Contains(matchLabelKeys, "pod-template-hash") && apiserver.SelectorMatches(sel, m.d.Spec.Template.Labels)
}

// antiAffinity counts the places of a required anti-affinity term: one
// pod per domain of its topology key (none where another pod it selects
// runs), and the fits of nodes without the key.
func (m *placeModel) antiAffinity(nodes []node, fits map[string]int64, term schema.PodAffinityTerm, field string) limiter {
	key := term.TopologyKey
	domains := map[string]int64{}
	var free int64
	taken := map[string]bool{}
	sel := apiserver.ParseSelector(term.LabelSelector)
	for _, o := range m.others {
		if o.namespace == m.d.Namespace && sel.Matches(o.labels) {
			for _, n := range nodes {
				if n.name == o.node {
					if v, ok := n.labels[key]; ok {
						taken[v] = true
					}
				}
			}
		}
	}
	weights := map[string]int64{} // domains a value stands for
	for _, n := range nodes {
		v, ok := n.labels[key]
		if !ok {
			if !m.synthetic {
				free = min(free+times(fits[n.name], n.count()), manyPlaces)
			}
			continue
		}
		domains[v] = min(domains[v]+fits[n.name], manyPlaces)
		weights[v] = n.count() // more than 1 only for a hostname of Config.Nodes
	}
	if m.synthetic && key != hostnameKey {
		return limiter{places: 1 << 62} // --nodes knows no zones
	}
	places := free
	var open int64
	for v, k := range domains {
		if k > 0 && !taken[v] {
			open += weights[v]
		}
	}
	places = min(places+open, manyPlaces)
	why := fmt.Sprintf("required pod anti-affinity on %s allows one pod per %s: %s with room", key, domainWord(key), words.Plural(int(min(open, 1<<30)), domainWord(key)))
	return limiter{places, why, field}
}

// spread counts the places of a topology spread constraint that does not
// schedule beyond maxSkew: over its domains (the values of its key on the
// nodes its node affinity policy admits), the fullest holds at most
// maxSkew more than the emptiest. ok is false when --nodes knows nothing
// of the key.
func (m *placeModel) spread(nodes []node, fits map[string]int64, c schema.TopologySpreadConstraint, field string) (limiter, bool) {
	key := c.TopologyKey
	if m.synthetic && key != hostnameKey {
		return limiter{}, false
	}
	domains := map[string]int64{}
	// Domains come from the nodes the pod's node affinity admits
	// (nodeAffinityPolicy Honor, the default), tainted ones included
	// (nodeTaintsPolicy Ignore, the default).
	for _, n := range m.allNodes(nodes) {
		if c.NodeAffinityPolicy != nil && *c.NodeAffinityPolicy == "Ignore" || m.matchesNode(n) {
			if c.NodeTaintsPolicy != nil && *c.NodeTaintsPolicy == "Honor" && !m.tolerates(n) {
				continue
			}
			if v, ok := n.labels[key]; ok {
				domains[v] += 0
			}
		}
	}
	weights := map[string]int64{}
	for _, n := range m.allNodes(nodes) {
		if v, ok := n.labels[key]; ok {
			weights[v] = n.count()
		}
	}
	for _, n := range nodes {
		if v, ok := n.labels[key]; ok {
			domains[v] = min(domains[v]+fits[n.name], manyPlaces)
		}
	}
	if len(domains) == 0 {
		return limiter{0, fmt.Sprintf("topology spread on %s: no eligible node has the label", key), field}, true
	}
	low := manyPlaces
	var count int64
	for v, k := range domains {
		low = min(low, k)
		count += max(weights[v], 1)
	}
	if c.MinDomains != nil && int64(*c.MinDomains) > count {
		low = 0
	}
	var places int64
	for v, k := range domains {
		places = min(places+times(min(k, low+int64(c.MaxSkew)), max(weights[v], 1)), manyPlaces)
	}
	why := fmt.Sprintf("topology spread on %s (maxSkew %d, DoNotSchedule) over %s, the emptiest with room for %d",
		key, c.MaxSkew, words.Plural(int(min(count, 1<<30)), domainWord(key)), low)
	return limiter{places, why, field}, true
}

// allNodes returns the nodes to take spread domains from: every node of
// the check, eligible or not (set by evaluate's caller through m).
func (m *placeModel) allNodes(eligible []node) []node {
	if len(m.every) > 0 {
		return m.every
	}
	return eligible
}

// capacityWhy words the room of nodes: "3 eligible nodes of 4 have room
// for 6 pods requesting cpu 500m, memory 1Gi".
func (m *placeModel) capacityWhy(nodes []node, total int64) string {
	var req []string
	for _, r := range slices.Sorted(maps.Keys(m.requests)) {
		q := m.requests[r]
		req = append(req, r+" "+q.String())
	}
	what := "pods"
	if total == 1 {
		what = "pod"
	}
	if len(req) > 0 {
		what += " requesting " + strings.Join(req, ", ")
	}
	if len(nodes) < m.nEligible { // one node a claim holds
		return fmt.Sprintf("it has room for %d %s", total, what)
	}
	of := ""
	if len(m.every) > len(nodes) {
		of = fmt.Sprintf(" of %d (taints, unschedulable, node selector or affinity)", len(m.every))
	}
	var count int64
	for _, n := range nodes {
		count += n.count()
	}
	c := int(min(count, 1<<30))
	return fmt.Sprintf("%s%s %s room for %d %s", words.Plural(c, "eligible node"), of, hasHave(c), total, what)
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// domainWord names the domains of a topology key.
func domainWord(key string) string {
	switch key {
	case hostnameKey:
		return "node"
	case "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone":
		return "zone"
	}
	return "domain"
}

// requestField is the field of the template's first container request,
// or its containers.
func (m *placeModel) requestField() string {
	for i, c := range m.pod.Spec.Containers {
		if len(c.Resources.Requests) > 0 {
			return fmt.Sprintf("spec.template.spec.containers[%d].resources.requests", i)
		}
	}
	return "spec.template.spec.containers"
}

// portField is the field of the template's first host port.
func (m *placeModel) portField() string {
	for i, c := range m.pod.Spec.Containers {
		for k, p := range c.Ports {
			if p.HostPort > 0 {
				return fmt.Sprintf("spec.template.spec.containers[%d].ports[%d].hostPort", i, k)
			}
		}
	}
	return "spec.template.spec.containers"
}
