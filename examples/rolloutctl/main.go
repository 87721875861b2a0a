// Command rolloutctl answers questions about a Deployment rollout from its
// manifest, with the rollout package's model of the Kubernetes Deployment
// controller (1.35, 1.36 or 1.37, chosen by --kubernetes-version and
// --controller-version; the newest by default), the rollout/sim simulator
// and the rollout/check gate:
//
//	rolloutctl plan     -f FILE   one controller sync: the API calls it makes, and why
//	rolloutctl simulate [-f FILE] the whole rollout, sync by sync (table, JSON, YAML or SVG)
//	rolloutctl bounds   -f FILE   surge, unavailable, peak pods and min available per replica count
//	rolloutctl check    DIR...    rules every rollout must keep, against the flags and the
//	                              namespaces' ResourceQuotas, LimitRanges, PDBs and HPAs
//	rolloutctl undo     -f FILE   what `kubectl rollout undo` would restore, and the roll back
//	rolloutctl diff     -f FILE --live LIVE   whether `kubectl apply -f FILE` starts a rollout
//	rolloutctl history  -f FILE   the revisions of a Deployment, a revision's template, a diff
//	rolloutctl version            the version, and the Kubernetes version it models
//	rolloutctl completion SHELL   a completion script for bash, zsh or fish
//
// Install it with
//
//	go install github.com/rolloutmath/rolloutmath/examples/rolloutctl@latest
//
// Its manual is README.md beside this file: the input, the live objects,
// the reports and exit codes, the JSON shapes, check in CI, and each
// command's help text, which `rolloutctl COMMAND -h` prints and a test
// holds equal to the manual's.
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

	"github.com/rolloutmath/rolloutmath/rollout"
)

func main() {
	var stdin io.Reader = os.Stdin
	if info, err := os.Stdin.Stat(); err != nil || info.Mode()&os.ModeCharDevice != 0 {
		stdin = nil // a terminal: nothing is piped in
	}
	e := &env{stdin: stdin, stdout: os.Stdout, stderr: os.Stderr}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		e.memory = newMemoryLimiter()
	}
	if info, err := os.Stderr.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
		e.stderrTerminal = true
	}
	os.Exit(e.run(os.Args[1:]))
}

// Exit codes.
const (
	exitOK        = 0
	exitViolation = 1 // check: at least one rule broken
	exitBadInput  = 2 // usage error or input that cannot be used
	exitLimit     = 3 // check: no rule broken, but a simulation hit its limit; simulate, undo: the run did
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
	// stderrTerminal is set when standard error is a terminal: long
	// commands then say how far they got.
	stderrTerminal bool
	// memory sets the process's soft memory limit from the input's size
	// (see memoryLimiter): main makes it unless GOMEMLIMIT sets a limit;
	// tests, which run commands inside the test process, leave it nil.
	memory *memoryLimiter
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
with a model of the Kubernetes Deployment controller of 1.35, 1.36 or 1.37
(--kubernetes-version; the newest by default).

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
or bad input, 3 no answer (a simulation of check, simulate or undo hit
its limit before its rollout ended).
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
	return (&env{stdin: stdin, stdout: stdout, stderr: stderr}).run(args)
}

// run is the whole program in e.
func (e *env) run(args []string) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		usage(stderr)
		return exitBadInput
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	case "--version", "-version":
		return runVersion(e, args[1:])
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

// parse parses args into fs. An argument that is not a flag is an input,
// as -f names it (kube-linter and kubeconform take paths so), in a
// command that has -f; flags may follow it. parse returns -1 to go on, or
// the exit code: 0 after printing the usage for -h/--help, 2 after
// reporting a bad flag, a flag given twice that takes one value, or an
// argument where the command takes none.
func parse(e *env, fs *flag.FlagSet, help string, args []string) int {
	refuseRepeats(fs)
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			printUsage(e.stdout, fs, help)
			return exitOK
		case err != nil:
			fmt.Fprintf(e.stderr, "%s: %v\nRun '%s -h' for usage.\n", fs.Name(), err, fs.Name())
			return exitBadInput
		case fs.NArg() == 0:
			return -1
		case fs.Lookup("f") == nil:
			fmt.Fprintf(e.stderr, "%s: unexpected argument %q (this command takes flags only)\nRun '%s -h' for usage.\n", fs.Name(), fs.Arg(0), fs.Name())
			return exitBadInput
		}
		if err := fs.Set("f", fs.Arg(0)); err != nil {
			fmt.Fprintf(e.stderr, "%s: argument %q: %v\n", fs.Name(), fs.Arg(0), err)
			return exitBadInput
		}
		args = fs.Args()[1:]
	}
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

// modelled names the Kubernetes releases whose controller and API server
// the command models (--kubernetes-version chooses one; the newest by
// default).
func modelled() string {
	var s []string
	for _, v := range rollout.SupportedVersions() {
		s = append(s, v.Patch())
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

const versionHelp = `rolloutctl version

Prints the command's version, the Kubernetes version whose Deployment
controller and API server it models, and the Go version and platform.
`

func runVersion(e *env, args []string) int {
	fs := newFlagSet("version")
	if code := parse(e, fs, versionHelp, args); code >= 0 {
		return code
	}
	fmt.Fprintf(e.stdout, "rolloutctl %s (models Kubernetes %s; %s %s/%s)\n", version(), modelled(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}
