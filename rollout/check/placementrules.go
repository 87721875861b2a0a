package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// RulePlacementWaits is the rule of a rollout whose new pods wait,
// pending, for old pods to leave the nodes: it finishes, later.
const RulePlacementWaits = "placement-waits"

// Allocatable is what each of Config.Nodes offers pods: quantities by
// resource name ("cpu", "memory", "pods", extended resources). A resource
// it does not list is not limited, except pods: its zero value offers
// 110 pods (the kubelet's default maxPods) and nothing else is counted.
type Allocatable struct {
	entries schema.ResourceList
}

// ParseAllocatable parses "cpu=4,memory=16Gi,pods=110" (the command's
// --node-allocatable): comma-separated NAME=QUANTITY, each name once,
// each quantity a Kubernetes quantity that is not negative. "" is the
// zero Allocatable.
func ParseAllocatable(s string) (Allocatable, error) {
	m := map[string]schema.Quantity{}
	if s == "" {
		return Allocatable{}, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || name == "" {
			return Allocatable{}, fmt.Errorf("check: node allocatable %q: want NAME=QUANTITY", part)
		}
		if _, dup := m[name]; dup {
			return Allocatable{}, fmt.Errorf("check: node allocatable %q: %s given twice", s, name)
		}
		q, err := schema.ParseQuantity(value)
		if err != nil {
			return Allocatable{}, fmt.Errorf("check: node allocatable %s=%q: %v", name, value, err)
		}
		if q.Sign() < 0 {
			return Allocatable{}, fmt.Errorf("check: node allocatable %s=%q: must not be negative", name, value)
		}
		m[name] = q
	}
	return Allocatable{schema.MakeResourceList(m)}, nil
}

// String formats a as ParseAllocatable reads it, names in order, pods
// included.
func (a Allocatable) String() string {
	var parts []string
	for _, e := range a.list() {
		parts = append(parts, e.Name+"="+e.Quantity.String())
	}
	return strings.Join(parts, ",")
}

// list returns a's entries, with pods 110 unless a sets pods.
func (a Allocatable) list() schema.ResourceList {
	m := a.entries.Map()
	if m == nil {
		m = map[string]schema.Quantity{}
	}
	if _, ok := m["pods"]; !ok {
		m["pods"] = schema.MustParseQuantity("110")
	}
	return schema.MakeResourceList(m)
}

// placementOf reads d's placement under the check's nodes.
func (f *checker) placementOf(in *Input, d rollout.Deployment) (placement, error) {
	return in.placementFor(d, in.nodes(f.nodes, f.allocatable), f.nodes)
}

// unplaced words why a rollout left pods pending for good, and what to
// change.
func (j *judgement) unplaced(end sim.Summary) string {
	pl, d := j.pol.place, j.d
	replicas := int64(d.Spec.Replicas)
	pl.places = pl.placesAt(d.Spec.Replicas)
	if pl.places < replicas {
		return fmt.Sprintf("%s; so the nodes hold %s of the Deployment at once, fewer than its %s: some never run (%s)",
			pl.why, words.Plural(int(min(pl.places, 1<<30)), "pod"), words.Plural(int(replicas), "replica"), end.Detail)
	}
	advice := "set maxSurge 0 and maxUnavailable ≥1, or use Recreate"
	if d.Spec.Strategy.Type == rollout.RollingUpdateStrategy && rollout.MaxUnavailable(d) > 0 {
		advice = "raise maxUnavailable so that old pods leave before new ones need their places, or use Recreate"
	}
	unavailable := d.Spec.Strategy.RollingUpdate.MaxUnavailable.String()
	if d.Spec.Strategy.RollingUpdate.MaxUnavailable.IsPercent() {
		unavailable += fmt.Sprintf(" (%d of %d replicas)", rollout.MaxUnavailable(d), replicas)
	}
	return fmt.Sprintf("%s; so the nodes hold %s of the Deployment at once, and no old pod leaves to make room for a surge pod while maxUnavailable is %s: %s (%s)",
		pl.why, words.Plural(int(min(pl.places, 1<<30)), "pod"), unavailable, advice, end.Detail)
}

// placeRelated adds the places of what decides the placement to the
// finding just added: the template's field, the claim, and the nodes
// the input gives (the first three).
func (j *judgement) placeRelated() {
	pl := j.pol.place
	var ps []Location
	if pl.field != "" {
		ps = append(ps, j.in.deploymentPlace(j.d, pl.field))
	}
	if c := pl.claim; c != nil {
		ps = append(ps, fieldPlace(c.obj.doc, "PersistentVolumeClaim", c.obj.obj.Namespace, c.obj.obj.Name, "spec.accessModes"))
	}
	for _, n := range pl.nodes[:min(len(pl.nodes), 3)] {
		if n.doc.Source != "" {
			p := fieldPlace(n.doc, "Node", "", n.name, "status.allocatable")
			p.Object = "Node " + n.name
			ps = append(ps, p)
		}
	}
	j.related(ps...)
}

// placementWaits warns of a rollout that finished with pods pending at
// some time: they waited for old pods to leave.
func (j *judgement) placementWaits(end sim.Summary) {
	if !j.pol.place.limited || end.Outcome != sim.OutcomeComplete {
		return
	}
	var (
		most int64
		at   time.Duration
	)
	for _, m := range j.moments {
		if m.pending > most {
			most, at = m.pending, m.at
		}
	}
	if most == 0 {
		return
	}
	j.add(RulePlacementWaits, SeverityWarning, at, CauseRollout,
		"up to %s wait pending for a place (%s; so the nodes hold %s of the Deployment at once): the rollout finishes in %s, as old pods leave",
		words.Plural(int(min(most, 1<<30)), "new pod"), j.pol.place.why, words.Plural(int(min(j.pol.place.placesAt(j.d.Spec.Replicas), 1<<30)), "pod"), words.Duration(end.Duration))
	j.placeRelated()
}

// placementRule is the rule's description for Rules.
var placementRule = Rule{RulePlacementWaits, "PlacementWaits", SeverityWarning, "The nodes have room for the rollout's surge pods.",
	"With nodes in the input (or --nodes), a new pod waits pending while the nodes have no place for it (resources, host ports, required pod anti-affinity, DoNotSchedule spread, ReadWriteOnce and ReadWriteOncePod claims): the rollout finishes only as old pods leave."}

// placementRules lists the rules of placement a check applies to d.
func placementRules(pl placement) []string {
	if !pl.limited {
		return nil
	}
	return []string{RulePlacementWaits}
}

// placementNotes says which claims placement could not judge: those the
// Deployments mount that the input lacks (their access modes unknown).
func placementNotes(deps []rollout.Deployment, policies []rolloutPolicy) []string {
	var out []string
	for k, p := range policies {
		if len(p.place.unknown) > 0 {
			out = append(out, fmt.Sprintf("Deployment %s mounts PersistentVolumeClaim %s, which the input lacks: its access mode is unknown, so placement leaves it out (add 'kubectl get pvc -n %s -o yaml')",
				Qualified(deps[k]), strings.Join(p.place.unknown, ", "), deps[k].Namespace))
		}
	}
	return out
}

// A Placement is what the nodes leave a Deployment's pods (see
// "Placement" in the package doc).
type Placement struct {
	// Nodes is false when there are no nodes to place the pods on (the
	// input has no Node, and no identical nodes were asked for): placement
	// is not checked, and the rest is zero.
	Nodes bool
	// Places is how many of the Deployment's pods the nodes hold at once
	// at spec.replicas, and Why the rule that decides it, in words.
	Places int64
	Why    string

	pl placement
}

// Placement works out what the nodes leave d's pods: n identical nodes
// of allocatable when n > 0, else the Nodes of the input, with the
// input's PersistentVolumeClaims and the Pods bound to nodes. Its error
// is that of a pod template that cannot be read.
func (in *Input) Placement(d rollout.Deployment, n int, allocatable Allocatable) (Placement, error) {
	pl, err := in.leaf(d).placementFor(d, in.leaf(d).nodes(n, allocatable), n)
	if err != nil || !pl.limited {
		return Placement{}, err
	}
	return Placement{Nodes: true, Places: pl.placesAt(d.Spec.Replicas), Why: pl.why, pl: pl}, nil
}

// PlacesAt returns how many of the Deployment's pods the nodes hold at
// once in a rollout at replicas (Places is PlacesAt(spec.replicas)): a
// ReadWriteOnce claim the scheduler sends new pods away from gives at
// most replicas. It is 0 without nodes.
func (p Placement) PlacesAt(replicas int32) int64 {
	if !p.Nodes {
		return 0
	}
	return p.pl.placesAt(replicas)
}

// Room returns the simulation's sim.PodModel.Room for a rollout at
// replicas: the places left when bound pods hold theirs. It is nil
// without nodes.
func (p Placement) Room(replicas int32) func(bound int64) int64 {
	if !p.Nodes {
		return nil
	}
	return p.pl.room(replicas)
}

// placementWords says, for the report's pod model, what the pods are
// placed on: "pods placed on 3 Nodes of the input", "pods placed on 5
// identical nodes (cpu=2,pods=110)", or "" when they are not.
func (f *checker) placementWords(in *Input) string {
	if f.nodes > 0 {
		return fmt.Sprintf("pods placed on %s (%s)", words.Plural(f.nodes, "identical node"), f.allocatable)
	}
	n := 0
	for _, p := range in.leaves() {
		if ns := p.policy[""]; ns != nil {
			n += len(ns.nodes)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("pods placed on %d Nodes of the input", n)
}
