package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// inputFlags are the flags that name the input, which every command has.
type inputFlags struct {
	files      listFlag
	maxSize    sizeFlag
	deployment string
	// options are the rollout.Options of every sync; SkipValidation also
	// lets the input hold Deployments the API server would refuse. Their
	// Version is the controller-manager's minor, set by read.
	options rollout.Options
	// kubernetes is the API server's minor, controller the
	// controller-manager's (the API server's unless set).
	kubernetes, controller versionFlag
}

// versionLine names the minors modelled, for the head of a text output:
// "Kubernetes 1.37", or "Kubernetes 1.37 API server, 1.36
// controller-manager" when they differ.
func (f *inputFlags) versionLine() string {
	api, ctrl := f.apiVersion(), f.controllerVersion()
	if api == ctrl {
		return "Kubernetes " + api.String()
	}
	return "Kubernetes " + api.String() + " API server, " + ctrl.String() + " controller-manager"
}

// apiVersion is the API server's minor: the flag's, or the newest.
func (f *inputFlags) apiVersion() rollout.Version { return f.kubernetes.v.Resolve() }

// controllerVersion is the controller-manager's minor: the flag's, or the
// API server's.
func (f *inputFlags) controllerVersion() rollout.Version {
	if f.controller.set {
		return f.controller.v
	}
	return f.apiVersion()
}

func (f *inputFlags) add(fs *flag.FlagSet, example string, pick bool) {
	fs.Var(&f.files, "f", "`FILE`, directory (recursively) or - for standard input; repeatable (default: standard input when piped"+example+")")
	f.maxSize = manifest.DefaultMaxBytes
	fs.Var(&f.maxSize, "max-input-size", "refuse an input larger than `SIZE`, such as 512MiB")
	if pick {
		fs.StringVar(&f.deployment, "deployment", "", "the Deployment, as NAME or NAMESPACE/NAME, when the input holds several")
	}
	fs.Var(&f.kubernetes, "kubernetes-version", "the API server's Kubernetes `MINOR`: 1.35, 1.36 or 1.37 (default the newest); it reads the manifests, and names the ReplicaSets unless --controller-version is given")
	fs.Var(&f.controller, "controller-version", "the controller-manager's Kubernetes `MINOR`, when an upgrade leaves it a minor behind the API server: it names the ReplicaSets (default --kubernetes-version)")
}

// addOptions registers a flag for each field of rollout.Options.
func (f *inputFlags) addOptions(fs *flag.FlagSet) {
	fs.BoolVar(&f.options.OmitTerminatingReplicas, "omit-terminating-replicas", false,
		"leave status.terminatingReplicas unset, as with the DeploymentReplicaSetTerminatingReplicas feature gate off")
	fs.BoolVar(&f.options.RefreshStaleAnnotations, "refresh-stale-annotations", false,
		"fix upstream bug Q-1: refresh a stale desired-replicas annotation, which otherwise stops rollouts")
	fs.BoolVar(&f.options.SkipValidation, "skip-validation", false,
		"take and plan Deployments that the API server would refuse, as the controller would if handed one")
}

// errNoInput is the error of a command without -f, a terminal on standard
// input and no embedded example.
var errNoInput = errors.New("no input: name files or directories with -f (- for standard input), or pipe a manifest in")

// A loaded input is what every Deployment, ReplicaSet and Pod of the
// inputs decoded to, in input order, and where each Deployment came from.
type loaded struct {
	names string // the inputs, for messages
	objs  rollout.Objects
	where []manifest.Document // where[i] holds objs.Deployments[i]

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

	// options are the syncs' options, whose Version names the
	// ReplicaSets that the input lacks (see sim.FromDeploymentWith).
	options rollout.Options
}

// index makes the loaded input's lookups.
func (in *loaded) makeIndex() {
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
}

// load reads the inputs the flags name (standard input when they name
// none and it is not a terminal; errNoInput otherwise) and decodes them,
// several documents at once. It fails with every problem, one per line;
// what the input holds but does not count (a YAML key given twice) it
// reports on stderr as the command's warnings.
func (f *inputFlags) load(e *env, command string) (*loaded, error) {
	return f.read(e, command, f.options.SkipValidation)
}

// read is load, validating the objects as the API server would unless
// skipValidation: manifests applied onto live objects are decoded strictly
// but not validated alone, since a manifest may leave out what the live
// object holds (kubectl apply merges it, and the API server validates the
// merged object, which rollout/apply does too).
func (f *inputFlags) read(e *env, command string, skipValidation bool) (*loaded, error) {
	f.options.Version = f.controllerVersion()
	names := []string(f.files)
	stdin := e.stdin
	if len(names) == 0 {
		if stdin == nil {
			return nil, errNoInput
		}
		// An empty pipe, as CI jobs have, pipes nothing in.
		b := bufio.NewReader(stdin)
		if _, err := b.Peek(1); err == io.EOF {
			return nil, errNoInput
		}
		stdin, names = b, []string{"-"}
	}
	docs, err := manifest.Read(manifest.Options{Stdin: stdin, MaxBytes: int64(f.maxSize)}, names...)
	for _, d := range docs {
		for _, w := range d.Warnings {
			fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s\n", command, w)
		}
	}
	var problems []string
	if err != nil {
		problems = lines(err)
		if errors.Is(err, manifest.ErrTooLarge) {
			problems = append(problems, fmt.Sprintf("(the cap is %s: raise it with --max-input-size)", formatSize(int64(f.maxSize))))
		}
	}
	shown := slices.Clone(names)
	for i, n := range shown {
		if n == "-" {
			shown[i] = manifest.Stdin
		}
	}
	in := decode(strings.Join(shown, ", "), docs, skipValidation, f.apiVersion())
	in.options = f.options
	problems = append(problems, in.problems...)
	if len(problems) == 0 && len(in.objs.Deployments) == 0 {
		problems = append(problems, fmt.Sprintf("%s: no Deployment found (%s)", in.names, in.found()))
	}
	if len(problems) > 0 {
		return nil, &inputError{problems}
	}
	in.makeIndex()
	return &in.loaded, nil
}

// parseExample decodes an embedded manifest as the API of minor v.
func parseExample(name string, data []byte, v rollout.Version) (*loaded, error) {
	docs, err := manifest.Parse(name, data)
	if err != nil {
		return nil, err
	}
	in := decode(name, docs, false, v)
	if len(in.problems) > 0 {
		return nil, &inputError{in.problems}
	}
	in.makeIndex()
	return &in.loaded, nil
}

// lines returns the lines of err's message (errors.Join puts one error on
// each), none for nil.
func lines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
}

// An inputError lists every problem found in the input, one line each,
// each line naming the file and, where known, the line, document, object
// and field.
type inputError struct{ problems []string }

func (e *inputError) Error() string { return strings.Join(e.problems, "\n") }

// pick returns the Deployment named name (NAME or NAMESPACE/NAME), or the
// only one when name is empty. A NAME that several namespaces have is
// ambiguous: the error lists them.
func (in *loaded) pick(name string) (rollout.Deployment, error) {
	deps := in.objs.Deployments
	if name == "" {
		if len(deps) == 1 {
			return deps[0], nil
		}
		return rollout.Deployment{}, fmt.Errorf("%s: %d Deployments (%s): choose one with --deployment NAME",
			in.names, len(deps), strings.Join(in.list(deps), ", "))
	}
	var match []rollout.Deployment
	for _, d := range deps {
		if d.Name == name || d.Namespace+"/"+d.Name == name {
			match = append(match, d)
		}
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
func (in *loaded) source(d rollout.Deployment) string {
	if i, ok := in.index[d.Namespace+"/"+d.Name]; ok {
		return in.where[i].Source
	}
	return in.names
}

// state returns the sync state of d at now: the ReplicaSets and Pods of
// its namespace, as rollout.Objects.State gives it.
func (in *loaded) state(d rollout.Deployment, now time.Time) rollout.State {
	return in.namespaces[d.Namespace].State(d, now)
}

// start returns when a simulation starts: the latest time the input
// records, so that the output depends on the input alone, or else
// defaultStart.
func (in *loaded) start() time.Time {
	if in.latest.IsZero() {
		return defaultStart()
	}
	return in.latest
}

// list names Deployments, namespace-qualified outside "default".
func (in *loaded) list(deps []rollout.Deployment) []string {
	var out []string
	for _, d := range deps {
		out = append(out, qualified(d))
	}
	return out
}

func qualified(d rollout.Deployment) string {
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
func (in *loaded) ownSets(d rollout.Deployment) []rollout.ReplicaSet {
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
