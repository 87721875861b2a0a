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
