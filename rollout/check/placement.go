package check

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// Placement: how many pods of a Deployment the nodes hold at once. The
// nodes are the input's Nodes or Config.Nodes identical ones; the pods
// are the Deployment's template as admission makes it (LimitRange
// defaults). The model comes to one count, the places: at most that many
// of the Deployment's pods (old and new, terminating ones included) are
// bound at once, and the simulation keeps the others pending
// (sim.PodModel.Room). The package doc says what it models and what it
// leaves out.

// hostnameKey is the label of a node's name.
const hostnameKey = "kubernetes.io/hostname"

// syntheticNodes is how many nodes stand for Config.Nodes: the last
// stands for the rest too (node.weight), so that a check of any number
// of identical nodes costs as little as of these.
const syntheticNodes = 64

// manyPlaces stands for more places than any rollout needs: more pods
// than 2 × the largest spec.replicas exist at no time.
const manyPlaces = int64(1) << 40

// placedPod is a Pod of the input bound to a node (spec.nodeName), with
// what the scheduler counts of it.
type placedPod struct {
	namespace, name, node string
	owner                 string // the name of its controller, if a ReplicaSet
	labels                map[string]string
	requests              map[string]schema.Quantity
	ports                 []hostPort
}

// hostPort is a port of a node a pod takes.
type hostPort struct {
	port     int32
	protocol string
}

// String words p as "8080/TCP".
func (p hostPort) String() string { return fmt.Sprintf("%d/%s", p.port, p.protocol) }

// placedPods reads the Pod of doc as bound to a node: none when it is
// not bound, or has ended (phase Succeeded or Failed).
func placedPods(doc manifest.Document, namespace string, v rollout.Version) []placedPod {
	o := apiserver.SequenceOptions{Lenient: true, Namespace: namespace, Gates: apiserver.FeatureGates{Version: v}}
	p, res := apiserver.DecodePod(doc.JSON, o)
	if len(res.Errs) > 0 || res.Malformed || p.Spec.NodeName == "" || p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed" {
		return nil
	}
	out := placedPod{namespace: p.Namespace, name: p.Name, node: p.Spec.NodeName, labels: p.Labels,
		requests: podRequests(p), ports: hostPorts(&p.Spec)}
	for _, r := range p.OwnerReferences {
		if r.Controller != nil && *r.Controller && r.Kind == "ReplicaSet" {
			out.owner = r.Name
		}
	}
	return []placedPod{out}
}

// podRequests returns what the scheduler counts of a pod's requests: the
// containers' (init containers' peaks, overhead and pod-level resources
// included, as quota usage counts them), by resource name.
func podRequests(p *schema.Pod) map[string]schema.Quantity {
	out := map[string]schema.Quantity{}
	for k, q := range apiserver.PodUsage(p) {
		if name, ok := strings.CutPrefix(k, "requests."); ok && q.Sign() > 0 {
			out[name] = q
		}
	}
	return out
}

// hostPorts returns the node ports a pod spec takes, in a fixed order.
func hostPorts(s *schema.PodSpec) []hostPort {
	var out []hostPort
	for _, cs := range [][]schema.Container{s.InitContainers, s.Containers} {
		for _, c := range cs {
			for _, p := range c.Ports {
				if p.HostPort > 0 {
					out = append(out, hostPort{p.HostPort, cmp.Or(p.Protocol, "TCP")})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b hostPort) int {
		return cmp.Or(cmp.Compare(a.port, b.port), cmp.Compare(a.protocol, b.protocol))
	})
	return slices.Compact(out)
}

// A node is a node pods are placed on: the input's, or one of
// Config.Nodes.
type node struct {
	name          string
	labels        map[string]string
	taints        []schema.Taint
	unschedulable bool
	allocatable   schema.ResourceList
	doc           manifest.Document // zero for Config.Nodes
	// weight is how many identical nodes n stands for (0: 1), each its
	// own hostname domain.
	weight int64
}

// count returns how many nodes n stands for.
func (n node) count() int64 { return max(n.weight, 1) }

// times returns a × b for counts of places, at most manyPlaces.
func times(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > manyPlaces/b {
		return manyPlaces
	}
	return min(a*b, manyPlaces)
}

// nodes returns the nodes of a check: n identical ones with allocatable
// when n > 0, else the input's Nodes, by name.
func (in *Input) nodes(n int, allocatable Allocatable) []node {
	var out []node
	if n > 0 {
		for i := range min(n, syntheticNodes) {
			name := fmt.Sprintf("node-%d", i+1)
			out = append(out, node{name: name, labels: map[string]string{hostnameKey: name}, allocatable: allocatable.list(), weight: 1})
		}
		out[len(out)-1].weight = int64(n - len(out) + 1)
		return out
	}
	if p := in.policy[""]; p != nil {
		for _, o := range p.nodes {
			out = append(out, node{name: o.obj.Name, labels: o.obj.Labels, taints: o.obj.Spec.Taints,
				unschedulable: o.obj.Spec.Unschedulable, allocatable: o.obj.Status.Allocatable, doc: o.doc})
		}
	}
	slices.SortStableFunc(out, func(a, b node) int { return strings.Compare(a.name, b.name) })
	return out
}

// A placement is what the nodes leave a Deployment: room for places of
// its pods at once (when limited), why, and where.
type placement struct {
	limited bool
	places  int64
	why     string // what decides places
	field   string // the template's field that decides it ("" none)
	claim   *mountedClaim
	nodes   []node // the nodes that decide it
	// unknown are the claims the template mounts that the input lacks.
	unknown []string
	// onlyOld: a new pod has a place only where an old one left (a
	// ReadWriteOnce claim the scheduler sends new pods away from): the
	// places are at most the replicas of the run.
	onlyOld bool
}

// placesAt returns the places of a run at replicas.
func (p placement) placesAt(replicas int32) int64 {
	if p.onlyOld {
		return min(p.places, int64(replicas))
	}
	return p.places
}

// room is the simulation's sim.PodModel.Room of a run at replicas: the
// places left when bound pods hold theirs.
func (p placement) room(replicas int32) func(bound int64) int64 {
	places := p.placesAt(replicas)
	return func(bound int64) int64 { return places - bound }
}

// placementFor works out d's placement on nodes. Without nodes it is
// unlimited.
func (in *Input) placementFor(d rollout.Deployment, nodes []node, syntheticCount int) (placement, error) {
	synthetic := syntheticCount > 0
	if len(nodes) == 0 {
		return placement{}, nil
	}
	spec, res := schema.DecodePodSpec(d.Spec.Template.Spec.JSON(), schema.DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 {
		return placement{}, fmt.Errorf("the pod template of Deployment %s: %v", Qualified(d), res.Errs[0])
	}
	t := &schema.PodTemplateSpec{Spec: *spec}
	t.Labels, t.Annotations = d.Spec.Template.Labels, d.Spec.Template.Annotations
	pod := apiserver.TemplatePod(t)
	ns := in.policy[d.Namespace]
	if ns != nil {
		var ranges []*schema.LimitRange
		for _, lr := range ns.ranges {
			ranges = append(ranges, lr.obj)
		}
		apiserver.AdmitLimits(pod, ranges)
	}
	m := placeModel{d: d, pod: pod, requests: podRequests(pod), ports: hostPorts(&pod.Spec), synthetic: synthetic, every: nodes,
		own: map[string]bool{}, onNode: in.placedOn, usage: in.usage}
	for _, rs := range in.ownSets(d) {
		m.own[rs.Name] = true
	}
	if ns != nil {
		for _, p := range ns.placed {
			if m.owns(p) {
				m.ownNodes = append(m.ownNodes, p.node)
			} else {
				m.others = append(m.others, p)
			}
		}
	}
	pl := m.evaluate(nodes, in.claimsOf(d, pod))
	pl.limited = true
	for _, v := range pod.Spec.Volumes {
		if src := v.VolumeSource.PersistentVolumeClaim; src != nil && (ns == nil ||
			!slices.ContainsFunc(ns.claims, func(c policyObject[*schema.PersistentVolumeClaim]) bool { return c.obj.Name == src.ClaimName })) {
			pl.unknown = append(pl.unknown, src.ClaimName)
		}
	}
	return pl, nil
}

// A mountedClaim is a PersistentVolumeClaim a template mounts, with
// where.
type mountedClaim struct {
	field string // spec.template.spec.volumes[i].persistentVolumeClaim
	obj   policyObject[*schema.PersistentVolumeClaim]
	mode  string // ReadWriteOncePod or ReadWriteOnce
}

// claimsOf returns the claims d's pods mount that one node or one pod
// holds (ReadWriteOncePod first, then ReadWriteOnce; a claim that also
// allows ReadWriteMany or ReadOnlyMany is neither), as the input's
// PersistentVolumeClaims say: a claim the input lacks is not known.
func (in *Input) claimsOf(d rollout.Deployment, pod *schema.Pod) []mountedClaim {
	ns := in.policy[d.Namespace]
	if ns == nil {
		return nil
	}
	var out []mountedClaim
	for i, v := range pod.Spec.Volumes {
		src := v.VolumeSource.PersistentVolumeClaim
		if src == nil {
			continue
		}
		k := slices.IndexFunc(ns.claims, func(c policyObject[*schema.PersistentVolumeClaim]) bool { return c.obj.Name == src.ClaimName })
		if k < 0 {
			continue
		}
		modes := ns.claims[k].obj.Spec.AccessModes
		mode := ""
		switch {
		case slices.Contains(modes, "ReadWriteMany") || slices.Contains(modes, "ReadOnlyMany"):
		case slices.Contains(modes, "ReadWriteOncePod"):
			mode = "ReadWriteOncePod"
		case slices.Contains(modes, "ReadWriteOnce"):
			mode = "ReadWriteOnce"
		}
		if mode != "" {
			out = append(out, mountedClaim{fmt.Sprintf("spec.template.spec.volumes[%d].persistentVolumeClaim", i), ns.claims[k], mode})
		}
	}
	slices.SortStableFunc(out, func(a, b mountedClaim) int { return cmp.Compare(b.mode, a.mode) }) // ReadWriteOncePod first
	return out
}

// placeModel is one Deployment's pod against the nodes.
type placeModel struct {
	d         rollout.Deployment
	pod       *schema.Pod
	requests  map[string]schema.Quantity
	ports     []hostPort
	ownNodes  []string               // where the input's pods of the Deployment are
	others    []placedPod            // the other pods of its namespace bound to nodes
	onNode    map[string][]placedPod // every pod bound to each node, its own too
	own       map[string]bool        // the names of its ReplicaSets
	usage     map[string]nodeUsage   // what every bound pod uses of each node
	synthetic bool                   // Config.Nodes: labels other than the hostname are unknown
	every     []node                 // every node of the check, eligible or not
	nEligible int                    // how many of them are eligible
}

// fit returns how many of the pod fit on n, with the other pods of the
// input there: by every resource it requests (one an input Node lacks
// holds none; one --node-allocatable leaves out is not limited) and by
// allocatable pods, and at most one where it takes a host
// port (none where another pod holds it).
func (m *placeModel) fit(n node) int64 {
	free := map[string]schema.Quantity{}
	for _, e := range n.allocatable {
		free[e.Name] = e.Quantity
	}
	// What every bound pod uses, less the Deployment's own (few, where
	// the input is live): their places are the Deployment's.
	u := m.usage[n.name]
	used := u.pods
	ports := maps.Clone(u.ports)
	for r, q := range u.requests {
		if f, ok := free[r]; ok && m.requested(r) {
			f.Sub(q)
			free[r] = f
		}
	}
	for _, o := range m.onNode[n.name] {
		if !m.owns(o) {
			continue
		}
		used--
		for r, q := range o.requests {
			if f, ok := free[r]; ok && m.requested(r) {
				f.Add(q)
				free[r] = f
			}
		}
		for _, p := range o.ports {
			ports[p]--
		}
	}
	for _, p := range m.ports {
		if ports[p] > 0 {
			return 0
		}
	}
	k := manyPlaces
	if pods, ok := n.allocatable.Get("pods"); ok {
		k = max(pods.Value()-used, 0)
	}
	for _, r := range slices.Sorted(maps.Keys(m.requests)) {
		q, ok := free[r]
		switch {
		case !ok && m.synthetic:
			continue // --node-allocatable leaves it out: not limited
		case !ok:
			return 0
		}
		k = min(k, q.Quotient(m.requests[r]))
	}
	if len(m.ports) > 0 {
		k = min(k, 1)
	}
	return k
}

// eligible reports whether the pod may go on n at all: n is schedulable
// (or tolerated as not), every NoSchedule and NoExecute taint of n is
// tolerated, and n matches the nodeSelector and the required node
// affinity.
func (m *placeModel) eligible(n node) bool {
	return m.tolerates(n) && m.matchesNode(n)
}

func (m *placeModel) tolerates(n node) bool {
	s := &m.pod.Spec
	if n.unschedulable && !tolerated(s.Tolerations, schema.Taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}) {
		return false
	}
	for _, t := range n.taints {
		if (t.Effect == "NoSchedule" || t.Effect == "NoExecute") && !tolerated(s.Tolerations, t) {
			return false
		}
	}
	return true
}

// matchesNode is the nodeSelector and the required node affinity. The
// nodes of Config.Nodes, whose labels are unknown, match every one.
func (m *placeModel) matchesNode(n node) bool {
	if m.synthetic {
		return true
	}
	s := &m.pod.Spec
	for k, v := range s.NodeSelector {
		if got, ok := n.labels[k]; !ok || got != v {
			return false
		}
	}
	if s.Affinity == nil || s.Affinity.NodeAffinity == nil || s.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true
	}
	for _, term := range s.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		if termMatches(term, n) {
			return true
		}
	}
	return false
}

// tolerated reports whether a toleration of ts tolerates taint t.
func tolerated(ts []schema.Toleration, t schema.Taint) bool {
	for _, x := range ts {
		if x.Effect != "" && x.Effect != t.Effect {
			continue
		}
		switch x.Operator {
		case "Exists":
			if x.Key == "" || x.Key == t.Key {
				return true
			}
		case "", "Equal":
			if x.Key == t.Key && x.Value == t.Value {
				return true
			}
		}
	}
	return false
}

// termMatches reports whether a node selector term matches n: every
// expression and field requirement; a term with neither matches no node.
func termMatches(term schema.NodeSelectorTerm, n node) bool {
	if len(term.MatchExpressions)+len(term.MatchFields) == 0 {
		return false
	}
	for _, r := range term.MatchExpressions {
		v, ok := n.labels[r.Key]
		if !requirementMatches(r, v, ok) {
			return false
		}
	}
	for _, r := range term.MatchFields {
		if r.Key != "metadata.name" || !requirementMatches(r, n.name, true) {
			return false
		}
	}
	return true
}

// requirementMatches is a node selector requirement on a value (has:
// the node has the label).
func requirementMatches(r schema.NodeSelectorRequirement, v string, has bool) bool {
	switch r.Operator {
	case "In":
		return has && slices.Contains(r.Values, v)
	case "NotIn":
		return !has || !slices.Contains(r.Values, v)
	case "Exists":
		return has
	case "DoesNotExist":
		return !has
	case "Gt", "Lt":
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == "Gt" {
			return a > b
		}
		return a < b
	}
	return false
}

// owns reports whether p is a pod of the Deployment: a ReplicaSet of it
// controls p.
func (m *placeModel) owns(p placedPod) bool {
	return p.namespace == m.d.Namespace && p.owner != "" && m.own[p.owner]
}

// placedByNode indexes the bound pods of every namespace by node, each
// node's in namespace and name order.
func placedByNode(policy map[string]*nsPolicy) map[string][]placedPod {
	out := map[string][]placedPod{}
	for _, ns := range slices.Sorted(maps.Keys(policy)) {
		for _, p := range policy[ns].placed {
			out[p.node] = append(out[p.node], p)
		}
	}
	for _, pods := range out {
		slices.SortStableFunc(pods, func(a, b placedPod) int {
			return cmp.Or(strings.Compare(a.namespace, b.namespace), strings.Compare(a.name, b.name))
		})
	}
	return out
}

// nodeUsage is what the bound pods of the input use of a node: how many
// there are, the sum of their requests, and their host ports.
type nodeUsage struct {
	pods     int64
	requests map[string]schema.Quantity
	ports    map[hostPort]int
}

// usageByNode sums the bound pods of each node of placedOn.
func usageByNode(placedOn map[string][]placedPod) map[string]nodeUsage {
	out := make(map[string]nodeUsage, len(placedOn))
	for node, pods := range placedOn {
		u := nodeUsage{requests: map[string]schema.Quantity{}, ports: map[hostPort]int{}}
		for _, p := range pods {
			u.pods++
			for r, q := range p.requests {
				sum := u.requests[r]
				sum.Add(q)
				u.requests[r] = sum
			}
			for _, hp := range p.ports {
				u.ports[hp]++
			}
		}
		out[node] = u
	}
	return out
}

// requested reports whether the pod requests resource r (a positive
// quantity).
func (m *placeModel) requested(r string) bool {
	_, ok := m.requests[r]
	return ok
}
