package main

import (
	"bytes"
	"flag"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// manifests is the module's directory of real manifests.
const manifests = "../../testdata/manifests"

func manifestPath(name string) string { return filepath.Join(manifests, name) }

// result is what one run printed and returned.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI calls run as main does, with stdin piped into standard input,
// or with a terminal there when stdin is "".
func runCLI(t testing.TB, stdin string, args ...string) result {
	t.Helper()
	var in io.Reader
	if stdin != "" {
		in = strings.NewReader(stdin)
	}
	return runWith(t, in, args...)
}

// runWith calls run with stdin as standard input (nil: a terminal).
//
// The figures of most tests were worked out under the golden harness's
// model, a sync every 30s, the commands' default before issue 23: for a
// command that simulates, runWith asks for it (--model interval) unless
// the arguments choose a model. Tests of the default model use
// runDefault.
func runWith(t testing.TB, stdin io.Reader, args ...string) result {
	t.Helper()
	if len(args) > 0 && slices.Contains([]string{"simulate", "check", "undo"}, args[0]) &&
		!slices.ContainsFunc(args, func(a string) bool { return a == "--model" || strings.HasPrefix(a, "--model=") }) {
		args = append([]string{args[0], "--model", "interval"}, args[1:]...)
	}
	return runDefault(t, stdin, args...)
}

// runDefault calls run with stdin as standard input (nil: a terminal)
// and args as they are.
func runDefault(t testing.TB, stdin io.Reader, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, stdin, &out, &errOut)
	r := result{code, out.String(), errOut.String()}
	for _, bad := range []string{"panic", "goroutine ", ".go:"} {
		if strings.Contains(r.stderr, bad) || strings.Contains(r.stdout, bad) {
			t.Errorf("run(%q) printed %q, like a crash:\nstdout:\n%s\nstderr:\n%s", args, bad, r.stdout, r.stderr)
		}
	}
	return r
}

// wantCode fails the test unless r has the exit code want.
func (r result) wantCode(t testing.TB, args []string, want int) {
	t.Helper()
	if r.code != want {
		t.Fatalf("run(%q) = %d, want %d\nstdout:\n%s\nstderr:\n%s", args, r.code, want, r.stdout, r.stderr)
	}
}

func TestTopLevelHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		r := runCLI(t, "", args...)
		r.wantCode(t, args, exitOK)
		for _, c := range commands() {
			if !strings.Contains(r.stdout, "  "+c.name+" ") {
				t.Errorf("run(%q): usage does not list %q:\n%s", args, c.name, r.stdout)
			}
		}
		if r.stderr != "" {
			t.Errorf("run(%q): stderr %q, want none", args, r.stderr)
		}
	}
}

func TestSubcommandHelp(t *testing.T) {
	for _, c := range commands() {
		for _, h := range []string{"-h", "--help"} {
			args := []string{c.name, h}
			r := runCLI(t, "", args...)
			r.wantCode(t, args, exitOK)
			flagless := c.name == "version" || c.name == "completion"
			if !strings.HasPrefix(r.stdout, "Usage: rolloutctl "+c.name) || !flagless && !strings.Contains(r.stdout, "Flags:\n  -") {
				t.Errorf("run(%q) usage:\n%s", args, r.stdout)
			}
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no command", nil, "Commands:"},
		{"unknown command", []string{"deploy"}, `unknown command "deploy"`},
		{"unknown flag", []string{"plan", "--bogus"}, "flag provided but not defined: -bogus"},
		{"stray argument", []string{"version", "extra"}, `unexpected argument "extra" (this command takes flags only)`},
		{"bad output", []string{"plan", "-o", "svg", "-f", manifestPath("recreate.yaml")}, `-o "svg": want text, json or yaml`},
		{"bad now", []string{"plan", "--now", "yesterday", "-f", manifestPath("recreate.yaml")}, `--now "yesterday"`},
		{"bad replicas range", []string{"bounds", "-f", manifestPath("recreate.yaml"), "--replicas", "9..3"}, "MIN must not exceed MAX"},
		{"bad surge", []string{"simulate", "--max-surge", "lots"}, `invalid value "lots" for flag -max-surge`},
		{"bad hpa", []string{"simulate", "--hpa", "20"}, "want DURATION=REPLICAS"},
		{"bad min-available", []string{"check", "-f", manifestPath("recreate.yaml"), "--min-available", "x%"}, "-min-available"},
		// Issue 11, defect 8: a flag that takes one value, given twice.
		{"output twice", []string{"bounds", "-o", "json", "-o", "table"}, `invalid value "table" for flag -o: given twice ("json", then "table"): it takes one value`},
		{"replicas twice", []string{"simulate", "--replicas", "3", "--replicas", "4"}, "given twice"},
		{"same container twice", []string{"simulate", "--image", "nginx=a:1", "--image", "nginx=b:2"}, `two images for container "nginx" (a:1 and b:2)`},
		{"first container twice", []string{"simulate", "--image", "a:1", "--image", "b:2"}, "two images for the first container"},
		{"same hpa time twice", []string{"simulate", "--hpa", "1m=3", "--hpa", "1m=4"}, "two changes at 1m0s"},
		// Issue 11, defect 12.
		{"image without container", []string{"simulate", "--image", "=x"}, `"=x" names no container`},
		{"min-available over 100%", []string{"check", "--min-available", "101%"}, "101% is more than all the replicas: at most 100%"},
		{"bad input size", []string{"check", "--max-input-size", "lots"}, `"lots" is not a size`},
		{"bad workers", []string{"check", "-f", manifestPath("recreate.yaml"), "--workers", "0"}, "--workers 0: must be at least 1"},
		{"bad step", []string{"bounds", "-f", manifestPath("recreate.yaml"), "--step", "-2"}, "--step -2: must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, "", tt.args...)
			r.wantCode(t, tt.args, exitBadInput)
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("run(%q) stderr = %q, want it to contain %q", tt.args, r.stderr, tt.want)
			}
			if r.stdout != "" {
				t.Errorf("run(%q) stdout = %q, want nothing", tt.args, r.stdout)
			}
		})
	}
}
