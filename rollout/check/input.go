package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// An Input is what every Deployment, ReplicaSet and Pod of the
// inputs decoded to, in input order, and where each Deployment came from.
type Input struct {
	names   string          // the inputs, for messages
	version rollout.Version // the API server's minor that read them
	objs    rollout.Objects
	where   []manifest.Document // where[i] holds objs.Deployments[i]

	// Made once by index, for the commands that look up many
	// Deployments: the latest time the input records (zero: none), each
	// namespace's ReplicaSets and Pods, and where each Deployment is by
	// namespace/name.
	latest     time.Time
	namespaces map[string]rollout.Objects
	index      map[string]int

	// policy holds each namespace's policy objects, and quotas what its
	// quotas see (made as asked for, before any parallel work).
	policy map[string]*nsPolicy
	quotas map[string]*nsQuota
	// placedOn are the input's Pods bound to nodes, by node (see
	// placement).
	placedOn map[string][]placedPod
	usage    map[string]nodeUsage

	// parts are the inputs of each directory when the input is split
	// (see split), and loadNotes what the split says.
	parts     []*Input
	loadNotes []string

	// problems are the documents that could not be taken, and docs those
	// with warnings (their warnings only).
	problems []Finding
	docs     []manifest.Document

	// skipped counts the documents of kinds other than Deployment,
	// ReplicaSet and Pod.
	skipped map[string]int
}

// makeIndex makes the input's lookups.
func (in *Input) makeIndex() {
	in.latest = latestTime(in.objs)
	in.namespaces = map[string]rollout.Objects{}
	for _, rs := range in.objs.ReplicaSets {
		o := in.namespaces[rs.Namespace]
		o.ReplicaSets = append(o.ReplicaSets, rs)
		in.namespaces[rs.Namespace] = o
	}
	for _, p := range in.objs.Pods {
		o := in.namespaces[p.Namespace]
		o.Pods = append(o.Pods, p)
		in.namespaces[p.Namespace] = o
	}
	in.index = map[string]int{}
	for i, d := range in.objs.Deployments {
		in.index[d.Namespace+"/"+d.Name] = i
	}
	in.indexPolicy()
	in.placedOn = placedByNode(in.policy)
	in.usage = usageByNode(in.placedOn)
}

// pick returns the Deployment named name (NAME or NAMESPACE/NAME), or the
// only one when name is empty. A NAME that several namespaces have is
// ambiguous: the error lists them.
func (in *Input) pick(name string) (rollout.Deployment, error) {
	deps := in.objs.Deployments
	if name == "" {
		if len(deps) == 1 {
			return deps[0], nil
		}
		return rollout.Deployment{}, fmt.Errorf("%s: %d Deployments (%s): choose one with --deployment NAME",
			in.names, len(deps), strings.Join(in.list(deps), ", "))
	}
	var (
		match  []rollout.Deployment
		places []string
	)
	for i, d := range deps {
		if d.Name == name || d.Namespace+"/"+d.Name == name {
			match = append(match, d)
			places = append(places, in.where[i].String())
		}
	}
	if len(match) > 1 && !slices.ContainsFunc(match, func(d rollout.Deployment) bool { return Qualified(d) != Qualified(match[0]) }) {
		return rollout.Deployment{}, fmt.Errorf("%s: Deployment %s is in %d places (%s): name the file of one with -f",
			in.names, Qualified(match[0]), len(match), strings.Join(places, ", "))
	}
	switch len(match) {
	case 0:
		return rollout.Deployment{}, fmt.Errorf("%s: no Deployment %q (there are %s)", in.names, name, strings.Join(in.list(deps), ", "))
	case 1:
		return match[0], nil
	}
	return rollout.Deployment{}, fmt.Errorf("--deployment %s is ambiguous: %s; name one as NAMESPACE/NAME", name, strings.Join(in.list(match), ", "))
}

// source returns the input d came from.
func (in *Input) source(d rollout.Deployment) string {
	if i, ok := in.index[d.Namespace+"/"+d.Name]; ok {
		return in.where[i].Source
	}
	return in.names
}

// state returns the sync state of d at now: the ReplicaSets and Pods of
// its namespace, as rollout.Objects.State gives it.
func (in *Input) state(d rollout.Deployment, now time.Time) rollout.State {
	return in.namespaces[d.Namespace].State(d, now)
}

// start returns when a simulation starts: the latest time the input
// records, so that the output depends on the input alone, or else
// defaultStart.
func (in *Input) start() time.Time {
	if in.latest.IsZero() {
		return defaultStart()
	}
	return in.latest
}

// list names Deployments, namespace-qualified outside "default".
func (in *Input) list(deps []rollout.Deployment) []string {
	var out []string
	for _, d := range deps {
		out = append(out, Qualified(d))
	}
	return out
}

// Qualified names a Deployment as findings and reports name it: its name
// in the default namespace, NAMESPACE/NAME elsewhere.
func Qualified(d rollout.Deployment) string {
	if d.Namespace == rollout.DefaultNamespace {
		return d.Name
	}
	return d.Namespace + "/" + d.Name
}

// controls reports whether d controls rs, as the controller decides: by
// the UID of rs's controller reference.
func controls(d rollout.Deployment, rs rollout.ReplicaSet) bool {
	return rs.Namespace == d.Namespace && rollout.IsControlledBy(&rs.ObjectMeta, &d.ObjectMeta)
}

// ownSets returns the ReplicaSets of in that d controls or would adopt (an
// orphan its selector matches).
func (in *Input) ownSets(d rollout.Deployment) []rollout.ReplicaSet {
	var out []rollout.ReplicaSet
	for _, rs := range in.namespaces[d.Namespace].ReplicaSets {
		_, owned := rs.ControllerRef()
		if controls(d, rs) || (!owned && rs.Namespace == d.Namespace && d.Spec.Selector.Matches(rs.Labels)) {
			out = append(out, rs)
		}
	}
	return out
}

// latestTime returns the latest time recorded in objs (creation,
// deletion and condition times), or zero.
func latestTime(objs rollout.Objects) time.Time {
	var t time.Time
	see := func(ts ...time.Time) {
		for _, x := range ts {
			if x.After(t) {
				t = x
			}
		}
	}
	for _, d := range objs.Deployments {
		see(d.CreationTimestamp, d.DeletionTimestamp)
		for _, c := range d.Status.Conditions {
			see(c.LastUpdateTime, c.LastTransitionTime)
		}
	}
	for _, rs := range objs.ReplicaSets {
		see(rs.CreationTimestamp, rs.DeletionTimestamp)
		for _, c := range rs.Status.Conditions {
			see(c.LastTransitionTime)
		}
	}
	for _, p := range objs.Pods {
		see(p.CreationTimestamp, p.DeletionTimestamp)
	}
	return t
}
