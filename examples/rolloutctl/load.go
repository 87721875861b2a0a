package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// inputFlags are the flags that name the input, which every command has.
type inputFlags struct {
	files   listFlag
	exclude listFlag
	maxSize sizeFlag
	// namespace is -n: the namespace of the objects that name none.
	namespace  string
	deployment string
	// options are the rollout.Options of every sync; SkipValidation also
	// lets the input hold Deployments the API server would refuse. Their
	// Version is the controller-manager's minor, set by gather (and by
	// simulate for its example).
	options rollout.Options
	// kubernetes is the API server's minor, controller the
	// controller-manager's (the API server's unless set).
	kubernetes, controller versionFlag
}

// versionLine names the minors modelled, for the head of an output (see
// check.Kubernetes).
func (f *inputFlags) versionLine() string {
	return check.Kubernetes(f.apiVersion(), f.controllerVersion())
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
	fs.Var(&f.files, "f", "`FILE`, directory (recursively) or - for standard input; repeatable, and also given as arguments (default: standard input when piped"+example+")")
	fs.Var(&f.files, "filename", "the same as -f `FILE`")
	fs.Var(&f.exclude, "exclude", "leave out the files and directories that `GLOB` matches (path or base name) when reading a directory; repeatable")
	f.maxSize = manifest.DefaultMaxBytes
	fs.Var(&f.maxSize, "max-input-size", "refuse inputs larger than `SIZE` together, such as 512MiB")
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

// errEmptyPipe is the error of a command without -f whose standard input
// is a pipe or file that holds nothing: what a failed 'helm template' or
// 'kustomize build' leaves. It is not errNoInput, so that simulate does
// not run its example in its place.
var errEmptyPipe = errors.New("standard input is empty: nothing was piped in (did the command before the pipe fail?); name inputs with -f")

// load reads the inputs the flags name (standard input when they name
// none and it is not a terminal; errNoInput otherwise) and decodes them,
// several documents at once. It fails with every problem, one per line;
// what the input holds but does not count (a YAML key given twice) it
// reports on stderr as the command's warnings.
func (f *inputFlags) load(e *env, command string) (*check.Input, error) {
	return f.read(e, command, f.options.SkipValidation)
}

// read is load, validating the objects as the API server would unless
// skipValidation: manifests applied onto live objects are decoded strictly
// but not validated alone, since a manifest may leave out what the live
// object holds (kubectl apply merges it, and the API server validates the
// merged object, which rollout/apply does too).
func (f *inputFlags) read(e *env, command string, skipValidation bool) (*check.Input, error) {
	in, err := f.gather(e, command, skipValidation)
	if err != nil {
		return nil, err
	}
	problems := problemLines(in.Problems(), f.maxSize)
	if len(problems) == 0 && len(in.Objects().Deployments) == 0 {
		problems = append(problems, fmt.Sprintf("%s: no Deployment found (%s)", in.Name(), in.Found()))
	}
	if len(problems) > 0 {
		return nil, &inputError{problems}
	}
	return in, nil
}

// gather reads the inputs the flags name (standard input when they name
// none and it is not a terminal; errNoInput otherwise) and decodes them,
// several documents at once, keeping their problems in the input (see
// check.Input.Problems). It writes on stderr what it leaves out and why,
// as notes, and the YAML that is read but does not count, as warnings.
// It sets the options' Version to the controller-manager's minor, which
// names the ReplicaSets of every sync (check reads its input here, not
// through read).
func (f *inputFlags) gather(e *env, command string, skipValidation bool) (*check.Input, error) {
	f.options.Version = f.controllerVersion()
	names := []string(f.files)
	stdin := e.stdin
	if len(names) == 0 {
		if stdin == nil {
			return nil, errNoInput
		}
		// An empty pipe pipes nothing in.
		b := bufio.NewReader(stdin)
		if _, err := b.Peek(1); err == io.EOF {
			return nil, errEmptyPipe
		}
		stdin, names = b, []string{"-"}
	}
	if e.memory != nil {
		if size, ok := manifest.Size(manifest.Options{Exclude: f.exclude}, names...); ok {
			e.memory.load(size)
			defer e.memory.release() // check and bounds keep it
		}
	}
	in, notes := check.Read(manifest.Options{Stdin: stdin, MaxBytes: int64(f.maxSize), MaxTotalBytes: int64(f.maxSize), Exclude: f.exclude},
		check.LoadOptions{SkipValidation: skipValidation, Namespace: f.namespace, Version: f.apiVersion()}, names...)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "rolloutctl %s: note: %s\n", command, n)
	}
	for _, w := range in.Warnings() {
		fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s\n", command, w)
	}
	return in, nil
}

// problemLines words the problems of an input one a line, with a hint
// after an input too large.
func problemLines(problems []check.Finding, maxSize sizeFlag) []string {
	var out []string
	hinted := false
	for _, p := range problems {
		out = append(out, p.ProblemText())
		if !hinted && strings.Contains(p.Message, manifest.ErrTooLarge.Error()) {
			hinted = true
			out = append(out, fmt.Sprintf("(the cap is %s: raise it with --max-input-size)", formatSize(int64(maxSize))))
		}
	}
	return out
}

// parseExample decodes an embedded manifest as the API of minor v.
func parseExample(name string, data []byte, v rollout.Version) (*check.Input, error) {
	docs, err := manifest.Parse(name, data)
	if err != nil {
		return nil, err
	}
	in := check.Load(name, docs, check.LoadOptions{Version: v})
	if problems := in.Problems(); len(problems) > 0 {
		return nil, &inputError{problemLines(problems, 0)}
	}
	return in, nil
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
