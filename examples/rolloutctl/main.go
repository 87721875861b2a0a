// Command rolloutctl answers questions about a Deployment rollout from its
// manifest, with the rollout package's model of the Kubernetes v1.36
// Deployment controller and the rollout/sim simulator:
//
//	rolloutctl plan     -f FILE   one controller sync: the API calls it makes, and why
//	rolloutctl simulate [-f FILE] the whole rollout, sync by sync (table, JSON, YAML or SVG)
//	rolloutctl bounds   -f FILE   surge, unavailable, peak pods and min available per replica count
//	rolloutctl check    -f DIR    rules every rollout must keep, against the flags and the
//	                              namespaces' ResourceQuotas, LimitRanges, PDBs and HPAs
//	rolloutctl undo     -f FILE   what `kubectl rollout undo` would restore, and the roll back
//	rolloutctl diff     -f FILE --live LIVE   whether `kubectl apply -f FILE` starts a rollout
//	rolloutctl history  -f FILE   the revisions of a Deployment, a revision's template, a diff
//	rolloutctl version            the version, and the Kubernetes version it models
//	rolloutctl completion SHELL   a completion script for bash, zsh or fish
//
// Run `rolloutctl COMMAND -h` for a command's flags.
//
// # Input
//
// -f names a file, a directory (its .json, .yaml and .yml files,
// recursively, as kubectl -f DIR -R reads them) or "-" for standard input;
// give it as often as needed. Without -f, a command reads standard input
// when something is piped in (it is not a terminal, and not empty);
// otherwise simulate runs its embedded example and the other commands say
// what they need. A file is what `kubectl get deploy,rs,pods -o yaml` (or
// -o json) prints (a List), a multi-document YAML manifest ("---" between
// documents), or JSON objects, read by package rollout/manifest: JSON
// without conversion, binary data refused from its first bytes, and an
// input over --max-input-size (256MiB) refused. Deployments, ReplicaSets
// and Pods are read, with the API server's defaults; so are
// ResourceQuotas, LimitRanges, PodDisruptionBudgets and
// HorizontalPodAutoscalers, each validated as the API server validates it
// on create; other kinds are skipped; two objects of the same kind,
// namespace and name are an error. Every Deployment must pass
// rollout.Validate (unless --skip-validation). Problems are reported one
// per line, naming the file, the line and document where known, the List
// item, the object and the field. ReplicaSets owned by another Deployment
// (by the UID of their controller reference) are passed along: the
// controller leaves them alone.
//
// # Live objects
//
// With --live LIVE (plan, simulate, check; diff requires it), -f holds the
// manifests about to be applied and LIVE the objects of the cluster, as
// `kubectl get deploy,rs,pods -o yaml` prints them. Each Deployment of the
// manifests is applied onto the live Deployment of its namespace and name
// as client-side `kubectl apply` does (package rollout/apply), or created
// when there is none; -n names the namespace of manifests that name none.
// The command then works on the Deployments the API server would store,
// with the live ReplicaSets and Pods, and its output starts with one line
// per Deployment that says whether the apply starts a rollout
// ("default/web: rollout: spec.template.spec.containers[name=app].image
// changed"); -o json has it as "apply". diff prints only these lines.
//
// Simulations start at the latest time recorded in FILE (creation and
// condition times), so that their output depends on FILE alone; plan syncs
// at --now, or the current time.
//
// # Reports
//
// Every command writes text, json and yaml (simulate also svg; check also
// sarif, junit and github): -o F to standard output, and --format F
// --output FILE pairs, repeated, to files. Standard output holds one
// report at most, and nothing else: progress and warnings go to standard
// error. Every finding of check names the file, the line and the path of
// the field to change.
//
// # Exit codes
//
// 0 success; 1 check found a violation (a warning too, with --fail-on
// warning), or diff a rollout; 2 bad usage or bad input (an apply that
// kubectl or the API server refuses too); 3 check found no violation, but
// a simulation stopped at its limit (--max-work) before its rollout ended,
// so check cannot tell. plan exits 0 when the sync itself fails, reporting
// the error in its output: that is an answer about the Deployment, not a
// problem with the input.
//
// # JSON output
//
// plan -o json prints rollout.Report, the plan contract of the golden
// tests. simulate -o json prints:
//
//	{"title", "podModel", "policy", "deployment", "namespace", "start",
//	 "initial": the state before the first sync, a step without actions,
//	 "steps": [{"at", "offsetSeconds", "replicas", "floor", "ceiling",
//	            "sets": [{"name", "revision", "new", "desired", "current", "ready", "available", "terminating"}],
//	            "actions": [{"type", "replicaSet", "from", "to", "event", "reason"}],
//	            "conditions": [{"type", "status", "lastUpdateTime", "lastTransitionTime", "reason", "message"}],
//	            "error"}],
//	 "summary": {"outcome", "detail", "durationSeconds", "lastChangeSeconds", "syncs", "fastForwarded",
//	             "peakDesired", "peakPods", "peakPodsAtSeconds", "ceiling", "minAvailable",
//	             "minAvailableAtSeconds", "peakPodsLow", "peakPodsHigh", "minAvailableHigh",
//	             "floor", "belowFloorSeconds", "failedCreates"}}
//
// (sets oldest first, after the sync and the pods' catching up; from and
// to only for ReplicaSet creates, scales and updates; error only for a
// failed sync; the summary's ceiling and floor are those at its peak and
// its fewest available pods; policy only when the input's policy objects
// changed the run). bounds -o json prints a list of {"deployment",
// "strategy", "maxSurge", "maxUnavailable", "specReplicas", "step",
// "rows": [{"replicas", "surge", "unavailable", "peakPods",
// "minAvailable", "minSteps", "changed"}]}, written row by row. check -o
// json prints {"ok", "podModel", "deployments": [{"deployment",
// "minReplicas", "maxReplicas", "rollouts", "ok", "peakPods",
// "minAvailable", "longestSeconds", "undecided", "rules", "location"}],
// "violations": [{"deployment", "replicas", "rule", "severity",
// "atSeconds", "cause", "message", "location", "related"}]}, severity
// being error, warning or limit, cause input or rollout, and a location
// {"file", "line", "field", "object", "written"}. undo -o json prints
// {"deployment", "target", "revision", "noOp", "newRevision", "history",
// "images", "rollback"}, rollback being simulate's shape. history -o json
// prints {"deployment", "revisions": [{"revision", "replicaSet",
// "created", "images", "replicas", "changeCause", "current"}],
// "template", "diff"}. diff -o json prints {"rollout", "apply":
// [answer]}, each answer being {"deployment", "summary", "rollout",
// "created", "changes": [{"path", "from", "to"}]} (from and to JSON
// values, from left out for an added field and to for a removed one);
// with --live, plan and simulate put the Deployment's answer first as
// "apply", and check the list of them. The YAML of each is its JSON as
// YAML.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

func main() {
	var stdin io.Reader = os.Stdin
	if info, err := os.Stdin.Stat(); err != nil || info.Mode()&os.ModeCharDevice != 0 {
		stdin = nil // a terminal: nothing is piped in
	}
	os.Exit(run(os.Args[1:], stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK        = 0
	exitViolation = 1 // check: at least one rule broken
	exitBadInput  = 2 // usage error or input that cannot be used
	exitLimit     = 3 // check: no rule broken, but a simulation hit its limit
)

// A command is one subcommand: its name, its one-line summary and its run
// function, which gets the arguments after the subcommand's name.
type command struct {
	name, summary string
	run           func(env *env, args []string) int
}

// env is what a command reads and writes; nothing else is shared between
// runs.
type env struct {
	stdin          io.Reader // nil when standard input is a terminal
	stdout, stderr io.Writer
}

func commands() []command {
	return []command{
		{"plan", "one controller sync of a Deployment: the API calls and why", runPlan},
		{"simulate", "simulate a whole rollout, sync by sync (table, json or svg)", runSimulate},
		{"bounds", "surge, unavailable, peak pods and min available per replica count", runBounds},
		{"check", "check that rollouts keep limits on pods, availability and time", runCheck},
		{"undo", "preview `kubectl rollout undo` and simulate the roll back", runUndo},
		{"diff", "whether applying manifests onto live objects starts a rollout", runDiff},
		{"history", "the revisions of a Deployment: images, change-cause, template diffs", runHistory},
		{"version", "print the version, and the Kubernetes version it models", runVersion},
		{"completion", "print a shell completion script: bash, zsh or fish", runCompletion},
	}
}

const topUsage = `rolloutctl answers questions about a Deployment rollout, from its manifest,
with a model of the Kubernetes v1.36 Deployment controller.

Usage:
  rolloutctl <command> [flags]

Commands:
%s
Input (-f FILE, repeatable): files, directories (recursively) and '-' for
standard input, holding what 'kubectl get deploy,rs,pods -o yaml' or
'-o json' prints, multi-document YAML or JSON, with the namespaces'
ResourceQuotas, LimitRanges, PodDisruptionBudgets and HPAs. Without -f,
standard input when something is piped in; else simulate runs its
embedded example. With --live LIVE (plan, simulate, check, diff), -f holds
the manifests to apply onto the live objects in LIVE, as 'kubectl apply'
merges them.

Reports: -o FORMAT, or --format FORMAT [--output FILE], repeatable: text,
json and yaml for every command, svg for simulate, sarif, junit and
github for check.

Exit codes: 0 ok, 1 check found violations or diff a rollout, 2 bad usage
or bad input, 3 check could not decide (a simulation hit its limit).
Run 'rolloutctl <command> -h' for a command's flags.
`

func usage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, topUsage, b.String())
}

// run is the whole program: it parses args (without the program name),
// runs the subcommand and returns the exit code. stdin is nil when
// standard input is a terminal.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitBadInput
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "rolloutctl: unknown command %q\nRun 'rolloutctl --help' for the list of commands.\n", args[0])
	return exitBadInput
}

// newFlagSet returns a flag set for a subcommand. Errors and usage are
// reported by parse, not by the flag package.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("rolloutctl "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args into fs. It returns -1 to go on, or the exit code: 0
// after printing the usage for -h/--help, 2 after reporting a bad flag, a
// flag given twice that takes one value, or a stray argument.
func parse(e *env, fs *flag.FlagSet, help string, args []string) int {
	refuseRepeats(fs)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(e.stdout, fs, help)
		return exitOK
	case err != nil:
		fmt.Fprintf(e.stderr, "%s: %v\nRun '%s -h' for usage.\n", fs.Name(), err, fs.Name())
		return exitBadInput
	case fs.NArg() > 0:
		fmt.Fprintf(e.stderr, "%s: unexpected argument %q (flags only; name inputs with -f)\nRun '%s -h' for usage.\n", fs.Name(), fs.Arg(0), fs.Name())
		return exitBadInput
	}
	return -1
}

// printUsage writes the help text (a synopsis line, a blank line and a
// description) and the flags, each with its default.
func printUsage(w io.Writer, fs *flag.FlagSet, help string) {
	fmt.Fprintf(w, "Usage: %s", help)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "Flags:\n")
	unwrapOnce(fs)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// fail reports err on stderr, one line per problem, and returns exit code 2.
func fail(e *env, name string, err error) int {
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		fmt.Fprintf(e.stderr, "rolloutctl %s: %s\n", name, line)
	}
	return exitBadInput
}

// version returns the module's version as the build recorded it, or
// "devel" for a build from a work tree.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// modelled is the Kubernetes version whose controller and API server the
// command models.
const modelled = "v1.36.3"

const versionHelp = `rolloutctl version

Prints the command's version, the Kubernetes version whose Deployment
controller and API server it models, and the Go version and platform.
`

func runVersion(e *env, args []string) int {
	fs := newFlagSet("version")
	if code := parse(e, fs, versionHelp, args); code >= 0 {
		return code
	}
	fmt.Fprintf(e.stdout, "rolloutctl %s (models Kubernetes %s; %s %s/%s)\n", version(), modelled, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}
