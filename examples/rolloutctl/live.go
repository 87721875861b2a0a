package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// liveFlags are --live and -n: with them, plan, simulate, check and diff
// take -f as the manifests a user is about to apply, apply each onto the
// live Deployment of its namespace and name as `kubectl apply` does
// (package rollout/apply), and work on what the API server then holds.
type liveFlags struct {
	files     listFlag
	namespace namespaceFlag
	version   rollout.Version // the API server's minor, set by load
}

func (l *liveFlags) add(fs *flag.FlagSet) {
	fs.Var(&l.files, "live", "`FILE`, directory or - holding the live objects ('kubectl get deploy,rs,pods -o yaml'): apply the -f manifests onto them as 'kubectl apply' does, and say first whether a rollout starts; repeatable")
	fs.Var(&l.namespace, "n", "the `NAMESPACE` of the manifests that name none, as 'kubectl apply -n' (default: default); a manifest of another namespace is refused")
	fs.Var(&l.namespace, "namespace", "the same as -n `NAMESPACE`")
}

// namespaceFlag is -n (also --namespace): a namespace, given once.
type namespaceFlag struct {
	name string
	set  bool
}

func (f *namespaceFlag) String() string { return f.name }

func (f *namespaceFlag) Set(s string) error {
	switch {
	case f.set:
		return fmt.Errorf("given twice (%q, then %q): -n and --namespace name one namespace", f.name, s)
	case s == "":
		return errors.New("empty namespace")
	}
	f.name, f.set = s, true
	return nil
}

// An answer is what applying one manifest's Deployment does: kubectl
// apply's result, for the Deployment named (namespace/name) where the
// manifest is.
type answer struct {
	name   string
	where  manifest.Document
	live   manifest.Document // the live Deployment, when there is one
	result apply.Result
}

// String is the answer in one line, "namespace/name: " and the Summary.
func (a answer) String() string { return a.name + ": " + a.result.Summary() }

// load reads the commands' input. Without --live it is inputFlags.load,
// and there are no answers. With --live, -f (or standard input) holds the
// manifests and --live the live objects: each Deployment of the
// manifests is applied onto the live Deployment of the same namespace
// and name (apply.Apply), or created when there is none (apply.Create).
// The loaded input is then the Deployments as the API server stores them
// after the apply, in manifest order, with every live ReplicaSet and Pod;
// the answers say what each apply did. Every problem of either input,
// and every apply the API server or kubectl refuses, is an error, one
// line each.
func (l *liveFlags) load(e *env, input *inputFlags, command string) (*check.Input, []answer, error) {
	l.version = input.apiVersion()
	if len(l.files) == 0 {
		input.namespace = l.namespace.name // as 'kubectl apply -n'
		in, err := input.load(e, command)
		return in, nil, err
	}
	if slices.Contains(l.files, "-") {
		if len(input.files) == 0 {
			return nil, nil, errors.New("--live - reads the live objects from standard input: name the manifests with -f")
		}
		if slices.Contains(input.files, "-") {
			return nil, nil, errors.New("-f - and --live -: standard input holds the manifests or the live objects, not both")
		}
	}
	manifests, err := input.read(e, command, true)
	if errors.Is(err, errNoInput) || errors.Is(err, errEmptyPipe) {
		return nil, nil, errors.New("no manifests: name the files to apply with -f (- for standard input), or pipe them in; --live names the live objects")
	}
	if err != nil {
		return nil, nil, err
	}
	live, err := l.read(e, input.maxSize, command)
	if err != nil {
		return nil, nil, err
	}
	if objs := manifests.Objects(); len(objs.ReplicaSets)+len(objs.Pods) > 0 {
		fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s: %d ReplicaSets and %d Pods left out: with --live, the live ones count\n",
			command, manifests.Name(), len(objs.ReplicaSets), len(objs.Pods))
	}
	answers, refused := l.applyAll(manifests, live)
	if len(refused) > 0 {
		return nil, nil, &inputError{problemLines(refused, 0)}
	}
	return l.applied(e, input, command, manifests, live, answers, refused), answers, nil
}

// gather is load for check: every problem of either input, and every
// apply kubectl or the API server refuses, is kept in the loaded input as
// a finding at its file and line (see check.Applied), and the other
// Deployments are applied and checked. Only a missing input is an error.
func (l *liveFlags) gather(e *env, input *inputFlags, command string) (*check.Input, []answer, error) {
	l.version = input.apiVersion()
	if slices.Contains(l.files, "-") {
		if len(input.files) == 0 {
			return nil, nil, errors.New("--live - reads the live objects from standard input: name the manifests with -f")
		}
		if slices.Contains(input.files, "-") {
			return nil, nil, errors.New("-f - and --live -: standard input holds the manifests or the live objects, not both")
		}
	}
	manifests, err := input.gather(e, command, true)
	if errors.Is(err, errNoInput) || errors.Is(err, errEmptyPipe) {
		return nil, nil, errors.New("no manifests: name the files to apply with -f (- for standard input), or pipe them in; --live names the live objects")
	}
	if err != nil {
		return nil, nil, err
	}
	live, notes := check.Read(manifest.Options{Stdin: e.stdin, MaxBytes: int64(input.maxSize), MaxTotalBytes: int64(input.maxSize)},
		check.LoadOptions{Version: l.version}, l.files...)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "rolloutctl %s: note: %s\n", command, n)
	}
	for _, w := range live.Warnings() {
		fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s\n", command, w)
	}
	if objs := manifests.Objects(); len(objs.ReplicaSets)+len(objs.Pods) > 0 {
		fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s: %d ReplicaSets and %d Pods left out: with --live, the live ones count\n",
			command, manifests.Name(), len(objs.ReplicaSets), len(objs.Pods))
	}
	answers, refused := l.applyAll(manifests, live)
	return l.applied(e, input, command, manifests, live, answers, refused), answers, nil
}

// applied is the input after the applies of answers: the Deployments as
// the API server stores them, with the live ReplicaSets and Pods, and the
// problems of both inputs and refused.
func (l *liveFlags) applied(e *env, input *inputFlags, command string, manifests, live *check.Input, answers []answer, refused []check.Finding) *check.Input {
	liveSets := live.Objects().ReplicaSets
	var (
		deps  []rollout.Deployment
		where []manifest.Document
		sets  []rollout.ReplicaSet
	)
	for _, a := range answers {
		for _, w := range a.result.Warnings {
			fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s: %s\n", command, a.where, w)
		}
		deps = append(deps, a.result.After)
		where = append(where, a.where)
		if before := a.result.Before; before != nil && before.Status.Replicas > 0 && !slices.ContainsFunc(liveSets, func(rs rollout.ReplicaSet) bool { return controls(*before, rs) }) {
			// Only the Deployment is known, and its status counts pods:
			// take it as fully rolled out on its live template, as it
			// most often is. A status without pods (a Deployment paused
			// before its first sync) says it has no ReplicaSet: none is
			// made up.
			s := sim.FromDeploymentWith(*before, live.StartTime(), input.options)
			sets = append(sets, s.ReplicaSets...)
			fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s: the live objects hold no ReplicaSet of Deployment %s: taking it as fully rolled out on its live template (%s)\n",
				command, a.live, a.name, s.ReplicaSets[0].Name)
		}
	}
	return check.Applied(manifests, live, deps, where, sets, refused...)
}

// read reads and decodes the live objects, as inputFlags.load reads -f.
// They may hold no Deployment: then every manifest is a first apply.
func (l *liveFlags) read(e *env, maxSize sizeFlag, command string) (*check.Input, error) {
	docs, err := manifest.Read(manifest.Options{Stdin: e.stdin, MaxBytes: int64(maxSize), MaxTotalBytes: int64(maxSize)}, l.files...)
	for _, d := range docs {
		for _, w := range d.Warnings {
			fmt.Fprintf(e.stderr, "rolloutctl %s: warning: %s\n", command, w)
		}
	}
	problems := lines(err)
	if errors.Is(err, manifest.ErrTooLarge) {
		problems = append(problems, fmt.Sprintf("(the cap is %s: raise it with --max-input-size)", formatSize(int64(maxSize))))
	}
	shown := slices.Clone([]string(l.files))
	for i, n := range shown {
		if n == "-" {
			shown[i] = manifest.Stdin
		}
	}
	live := check.Load(strings.Join(shown, ", "), docs, check.LoadOptions{Version: l.version})
	problems = append(problems, problemLines(live.Problems(), maxSize)...)
	if len(problems) > 0 {
		return nil, &inputError{problems}
	}
	return live, nil
}

// applyAll is check.ApplyAll with -n and the API server's minor: the
// answers of the applies that succeeded, and every refused apply, a
// finding at its manifest.
func (l *liveFlags) applyAll(manifests *check.Input, live *check.Input) ([]answer, []check.Finding) {
	o := check.ApplyOptions{Version: l.version}
	if l.namespace.set {
		o.Namespace = l.namespace.name
	}
	done, refused := check.ApplyAll(manifests, live, o)
	answers := make([]answer, len(done))
	for i, a := range done {
		answers[i] = answer{name: a.Name, where: a.Manifest, live: a.Live, result: a.Result}
	}
	return answers, refused
}

// answerFor returns the answer about d, if any.
func answerFor(answers []answer, d rollout.Deployment) []answer {
	for _, a := range answers {
		if a.name == d.Namespace+"/"+d.Name {
			return []answer{a}
		}
	}
	return nil
}

// writeAnswers prints one answer a line, then a blank line before what
// follows; nothing when there are no answers.
func writeAnswers(w io.Writer, answers []answer) {
	noteAnswers(w, answers)
	if len(answers) > 0 {
		fmt.Fprintln(w)
	}
}

// noteAnswers prints one answer a line: diff's output, and simulate's on
// stderr next to an SVG chart, which has no room for them.
func noteAnswers(w io.Writer, answers []answer) {
	for _, a := range answers {
		fmt.Fprintln(w, a)
	}
}

// answerJSON is an answer in JSON output:
//
//	{"deployment": "default/web", "summary": "rollout: spec.template.spec.containers[name=app].image changed",
//	 "rollout": true, "created": false,
//	 "changes": [{"path": "spec.template.spec.containers[name=app].image", "from": "web:1", "to": "web:2"}]}
//
// from and to are the JSON values, from left out for a field the apply
// adds and to for one it removes; created is true for a first apply.
type answerJSON struct {
	Deployment string       `json:"deployment"`
	Summary    string       `json:"summary"`
	Rollout    bool         `json:"rollout"`
	Created    bool         `json:"created"`
	Changes    []changeJSON `json:"changes"`
	Warnings   []string     `json:"warnings,omitempty"`
}

type changeJSON struct {
	Path string          `json:"path"`
	From json.RawMessage `json:"from,omitempty"`
	To   json.RawMessage `json:"to,omitempty"`
}

func (a answer) json() answerJSON {
	r := a.result
	out := answerJSON{Deployment: a.name, Summary: r.Summary(), Rollout: r.Rollout(), Created: r.Before == nil,
		Changes: make([]changeJSON, 0, len(r.Changes)), Warnings: r.Warnings}
	for _, c := range r.Changes {
		out.Changes = append(out.Changes, changeJSON{Path: c.Path, From: rawJSON(c.From), To: rawJSON(c.To)})
	}
	return out
}

// rawJSON is s, which package apply gives as JSON, as a raw value (a
// string if it were not JSON, so that nothing is lost).
func rawJSON(s string) json.RawMessage {
	if s == "" || json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	q, _ := json.Marshal(s)
	return q
}

// withApply is a JSON object v with an "apply" member first: the answer
// about the one Deployment v is about (plan, simulate), or every answer
// (check). Without answers it is v as it is.
type withApply struct {
	v       any
	answers []answer
	list    bool
}

// withAnswer returns v with the answer about d, if any.
func withAnswer(v any, answers []answer, d rollout.Deployment) any {
	return withAnswers(v, answerFor(answers, d), false)
}

// withAnswers returns v with the answers, as a list when list is set.
func withAnswers(v any, answers []answer, list bool) any {
	if len(answers) == 0 {
		return v
	}
	return withApply{v, answers, list}
}

func (w withApply) MarshalJSON() ([]byte, error) {
	body, err := json.Marshal(w.v)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("apply answers go in a JSON object, not %.20s", body)
	}
	var a any = w.answers[0].json()
	if w.list {
		all := make([]answerJSON, len(w.answers))
		for i, x := range w.answers {
			all[i] = x.json()
		}
		a = all
	}
	head, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"apply":`), head...)
	if string(body) != "{}" {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}
