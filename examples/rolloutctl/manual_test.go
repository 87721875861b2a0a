package main

import (
	"os"
	"strings"
	"testing"
)

// TestManualHasHelpTexts holds the manual (README.md) and the help texts
// equal, so that the manual is written once: the top-level usage and each
// command's help text (what -h prints before the flags) are in it
// verbatim, and every flag of a command is named in it.
func TestManualHasHelpTexts(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	manual := string(b)
	r := runCLI(t, "", "--help")
	if !strings.Contains(manual, "```\n"+strings.TrimRight(r.stdout, "\n")+"\n```") {
		t.Errorf("README.md does not hold 'rolloutctl --help' as it prints:\n%s", r.stdout)
	}
	for _, c := range commands() {
		r := runCLI(t, "", c.name, "-h")
		r.wantCode(t, []string{c.name, "-h"}, exitOK)
		help, _, _ := strings.Cut(strings.TrimPrefix(r.stdout, "Usage: "), "Flags:\n")
		if !strings.Contains(manual, "### "+c.name+"\n\n```\n"+strings.TrimRight(help, "\n")+"\n```") {
			t.Errorf("README.md's section %q does not hold 'rolloutctl %s -h' as it prints:\n%s", c.name, c.name, help)
		}
	}
	for _, c := range completionCommands() {
		for _, f := range c.flags {
			if !strings.Contains(manual, "-"+f) {
				t.Errorf("README.md does not name %s's flag -%s", c.name, f)
			}
		}
	}
}

// TestREADMEIsAFrontDoor holds the top-level README to what issue 27 asks
// of it: at most 300 lines, and the install line before any other
// command.
func TestREADMEIsAFrontDoor(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300", n)
	}
	install := strings.Index(readme, "go install github.com/rolloutmath/rolloutmath/examples/rolloutctl@latest")
	first := strings.Index(readme, "\n```\n")
	if install < 0 || first < 0 || install > strings.Index(readme[first+5:], "```")+first+5 {
		t.Errorf("README.md's first command block does not hold the go install line")
	}
	for _, want := range []string{"go run ./examples/rolloutctl simulate", "go test ./...", "## Kubernetes versions"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not hold %q", want)
		}
	}
}
