package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// LoadOptions are the options of Load and Read.
type LoadOptions struct {
	// SkipValidation takes Deployments and ReplicaSets the API server
	// would refuse, as the controller would if handed one.
	SkipValidation bool
	// Namespace, if set, is that of the objects that name none, as
	// 'kubectl apply -n' gives it (else "default"); an object that names
	// another is a problem, as kubectl refuses it.
	Namespace string
	// Version is the API server's Kubernetes minor, which reads the
	// documents (see rollout.DecodeOptions.Version); the zero value is the
	// newest supported minor.
	Version rollout.Version
}

// Load decodes docs, several at once, into the input of a check: the
// Deployments, ReplicaSets and Pods, and the policy objects
// (ResourceQuotas, LimitRanges, PodDisruptionBudgets and
// HorizontalPodAutoscalers), each read as an API server of opts.Version reads it on
// create, in document order. A document it cannot take is left out and
// becomes a problem (see Problems), which Run reports; the rest is
// checked. name names the inputs in messages. Load does not modify docs.
func Load(name string, docs []manifest.Document, opts LoadOptions) *Input {
	return load(name, docs, opts, nil, borrowed)
}

// load is Load with the problems found before, and own saying whether
// docs are load's to change (see decode).
func load(name string, docs []manifest.Document, opts LoadOptions, problems []Finding, own ownership) *Input {
	d := decodeDocs(name, docs, opts, own)
	if len(d.repeated) > 0 {
		if in := split(name, docs, opts, problems); in != nil {
			in.docs = warned(docs)
			in.version = opts.Version
			return in
		}
	}
	in := d.Input
	in.version = opts.Version
	in.loadNotes = repeatNotes(d.repeated)
	in.skipped = d.skipped
	in.problems = append(problems, d.problems...)
	in.docs = warned(docs)
	in.makeIndex()
	return &in
}

// warned returns the warnings of docs, as documents that hold only them.
func warned(docs []manifest.Document) []manifest.Document {
	var out []manifest.Document
	for _, doc := range docs {
		if len(doc.Warnings) > 0 {
			out = append(out, manifest.Document{Source: doc.Source, Warnings: doc.Warnings})
		}
	}
	return out
}

// Read reads the named files and directories, and "-" for
// mopts.Stdin, as manifest.ReadNotes reads them, and loads their documents
// (see Load). The notes are what ReadNotes left out and why; problems
// reading a file are problems of the input, as those of its documents
// are.
func Read(mopts manifest.Options, opts LoadOptions, names ...string) (*Input, []string) {
	docs, notes, err := manifest.ReadNotes(mopts, names...)
	shown := slices.Clone(names)
	for i, n := range shown {
		if n == "-" {
			shown[i] = manifest.Stdin
		}
	}
	name := strings.Join(shown, ", ")
	return load(name, docs, opts, errorFindings(name, err), owned), notes
}

// Warnings returns what the documents hold but does not count, such as a
// YAML key given twice (of which the last counts, as with kubectl), each
// naming its line, in input order.
func (in *Input) Warnings() []string {
	var out []string
	for _, d := range in.docs {
		out = append(out, d.Warnings...)
	}
	return out
}

// Problems returns the problems of the input, one finding each of rule
// RuleInput: the documents that could not be read or taken, in input
// order. A command that needs a sound input fails on any.
func (in *Input) Problems() []Finding { return slices.Clone(in.problems) }

// Name names the inputs, as given to Load.
func (in *Input) Name() string { return in.names }

// Objects returns the Deployments, ReplicaSets and Pods of the input, in
// input order. The slices are the caller's; their elements share maps
// with the input, which the caller must not modify.
func (in *Input) Objects() rollout.Objects {
	return rollout.Objects{
		Deployments: slices.Clone(in.objs.Deployments),
		ReplicaSets: slices.Clone(in.objs.ReplicaSets),
		Pods:        slices.Clone(in.objs.Pods),
	}
}

// Found says what an input holds besides its Deployments, such as "found
// 2 ReplicaSets, 0 Pods, 1 StatefulSet", kinds in alphabetical order.
func (in *Input) Found() string { return decoding{Input: *in, skipped: in.skipped}.found() }

// Pick returns the Deployment named name (NAME or NAMESPACE/NAME), or the
// only one when name is empty. A NAME that several namespaces have is
// ambiguous: the error lists them.
func (in *Input) Pick(name string) (rollout.Deployment, error) { return in.pick(name) }

// Source returns the input d came from: its file, or the inputs' name.
func (in *Input) Source(d rollout.Deployment) string { return in.leaf(d).source(d) }

// State returns the sync state of d at now: the ReplicaSets and Pods of
// its namespace, as rollout.Objects.State gives it.
func (in *Input) State(d rollout.Deployment, now time.Time) rollout.State {
	return in.leaf(d).state(d, now)
}

// StartTime returns when a simulation starts: the latest time the input
// records (creation, deletion and condition times), so that the outcome
// depends on the input alone, or else 2026-01-01T00:00:00Z.
func (in *Input) StartTime() time.Time { return in.start() }

// OwnSets returns the ReplicaSets of the input that d controls (by the
// UID of their controller reference) or would adopt (an orphan its
// selector matches), in input order.
func (in *Input) OwnSets(d rollout.Deployment) []rollout.ReplicaSet { return in.leaf(d).ownSets(d) }

// ReplicaSetsIn returns the ReplicaSets of a namespace, in input order.
func (in *Input) ReplicaSetsIn(namespace string) []rollout.ReplicaSet {
	var out []rollout.ReplicaSet
	for _, p := range in.leaves() {
		out = append(out, p.namespaces[namespace].ReplicaSets...)
	}
	return out
}

// StartState returns the state a simulation of d starts from, and how it
// was built, in words: the input's ReplicaSets when it has d's, or d fully
// rolled out on its template, named as the controller of opts.Version
// names it; then the images' changes, if any. The state's Options are
// opts.
func (in *Input) StartState(d rollout.Deployment, images []Image, opts rollout.Options) (rollout.State, string, error) {
	return start(in.leaf(d), d, images, opts)
}

// HPA returns the name and the replica range of the
// HorizontalPodAutoscaler that scales d (the first of its namespace whose
// scale target is d), if any.
func (in *Input) HPA(d rollout.Deployment) (name string, minReplicas, maxReplicas int32, ok bool) {
	h, ok := in.leaf(d).hpaFor(d)
	if !ok {
		return "", 0, 0, false
	}
	return h.obj.Name, *h.obj.Spec.MinReplicas, h.obj.Spec.MaxReplicas, true
}

// Applied returns the input after manifests are applied onto live:
// deployments (where[i] the manifest of deployments[i]) as the API server
// stores them, in their order, with the ReplicaSets and Pods of live and
// sets, and the policy objects of both, a manifest's taking the place of
// the live one of its kind, namespace and name. The policy objects of an
// input split by directory (see Load) are not merged: Applied is for a
// set of manifests applied together onto one cluster's objects. The
// problems of both inputs, then refused (the applies kubectl or the API
// server refused, see ApplyProblem), are the problems of the result, which
// Run reports as findings of rule input.
func Applied(manifests, live *Input, deployments []rollout.Deployment, where []manifest.Document, sets []rollout.ReplicaSet, refused ...Finding) *Input {
	out := &Input{names: manifests.names, objs: rollout.Objects{
		Deployments: slices.Clone(deployments),
		ReplicaSets: append(slices.Clone(live.objs.ReplicaSets), sets...),
		Pods:        slices.Clone(live.objs.Pods),
	}, where: slices.Clone(where), policy: mergePolicy(live.policy, manifests.policy),
		problems: slices.Concat(manifests.problems, live.problems, refused)}
	out.makeIndex()
	return out
}

// A Policy is what the policy objects of a Deployment's namespace say
// about simulating one of its rollouts.
type Policy struct {
	// HPA is the HorizontalPodAutoscaler that scales the Deployment (""
	// none), and MinReplicas..MaxReplicas its range (spec.replicas
	// without one).
	HPA                      string
	MinReplicas, MaxReplicas int32
	// Blocked says why admission refuses every pod, as "file:line field:
	// message" ("" when it does not).
	Blocked string
	// Quota words the pod quota in short, and QuotaNote in full ("": no
	// quota).
	Quota, QuotaNote string

	pol rolloutPolicy
}

// Policy reads what the policy objects of d's namespace say about its
// rollout, a pod quota of quotaPods (0: none) overriding the
// ResourceQuotas.
func (in *Input) Policy(d rollout.Deployment, quotaPods int) (Policy, error) {
	pol, err := readPolicy(in.leaf(d), d, replicaRange{}, quotaPods, 1)
	if err != nil {
		return Policy{}, err
	}
	p := Policy{MinReplicas: pol.lo, MaxReplicas: pol.hi, pol: pol}
	if pol.hpa != nil {
		p.HPA = pol.hpa.obj.Name
	}
	for _, v := range pol.static {
		if v.Rule == RuleNeverFinish && p.Blocked == "" {
			p.Blocked = fmt.Sprintf("%s: %s", v.Location, v.Message)
		}
	}
	if quotaPods == 0 && pol.cap.pods >= 0 {
		p.Quota, p.QuotaNote = pol.cap.short(), pol.cap.why()
	}
	return p, nil
}

// MaxPods returns the pods the namespace's quotas leave the rollout of s
// (0: no quota).
func (p Policy) MaxPods(s rollout.State) int32 {
	if p.Quota == "" {
		return 0
	}
	return maxPods(p.pol.cap, s)
}

// Budgets words the PodDisruptionBudgets that select the Deployment's
// pods at replicas, each with its file.
func (p Policy) Budgets(replicas int32) []string {
	var out []string
	for _, b := range p.pol.budgets {
		out = append(out, b.describe(replicas)+" ("+b.pdb.doc.Source+")")
	}
	return out
}

// Model words the pod model and the controller's pace of cfg; quota says
// where its pod quota comes from ("" for none).
func Model(cfg sim.Config, quota string) string { return describeModel(cfg, quota) }

// Documents returns the document each Deployment came from: the i-th is
// that of Objects().Deployments[i]. An input from Read holds them packed
// (see manifest.Packer: JSON nil, Object converts again), one from Load
// lean (see manifest.Document.Lean).
func (in *Input) Documents() []manifest.Document { return slices.Clone(in.where) }

// Kubernetes names the minors a check models, for the head of a report:
// "Kubernetes 1.37", or "Kubernetes 1.37 API server, 1.36
// controller-manager" when they differ (during an upgrade the
// controller-manager may be a minor behind). Latest is named as the
// newest minor.
func Kubernetes(apiServer, controller rollout.Version) string {
	api, ctrl := apiServer.Resolve(), controller.Resolve()
	if api == ctrl {
		return "Kubernetes " + api.String()
	}
	return "Kubernetes " + api.String() + " API server, " + ctrl.String() + " controller-manager"
}
