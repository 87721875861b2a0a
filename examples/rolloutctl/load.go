package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// inputFlags are the flags that name the input, which every command has.
type inputFlags struct {
	files      listFlag
	maxSize    sizeFlag
	deployment string
	// options are the rollout.Options of every sync; SkipValidation also
	// lets the input hold Deployments the API server would refuse.
	options rollout.Options
}

func (f *inputFlags) add(fs *flag.FlagSet, example string, pick bool) {
	fs.Var(&f.files, "f", "`FILE`, directory (recursively) or - for standard input; repeatable (default: standard input when piped"+example+")")
	f.maxSize = manifest.DefaultMaxBytes
	fs.Var(&f.maxSize, "max-input-size", "refuse an input larger than `SIZE`, such as 512MiB")
	if pick {
		fs.StringVar(&f.deployment, "deployment", "", "the Deployment, as NAME or NAMESPACE/NAME, when the input holds several")
	}
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
	in, bad := check.Load(strings.Join(shown, ", "), docs, check.LoadOptions{SkipValidation: skipValidation})
	problems = append(problems, bad...)
	if len(problems) == 0 && len(in.Objects().Deployments) == 0 {
		problems = append(problems, fmt.Sprintf("%s: no Deployment found (%s)", in.Name(), in.Found()))
	}
	if len(problems) > 0 {
		return nil, &inputError{problems}
	}
	return in, nil
}

// parseExample decodes an embedded manifest.
func parseExample(name string, data []byte) (*loaded, error) {
	docs, err := manifest.Parse(name, data)
	if err != nil {
		return nil, err
	}
	in, problems := check.Load(name, docs, check.LoadOptions{})
	if len(problems) > 0 {
		return nil, &inputError{problems}
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
