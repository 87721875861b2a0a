package main

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEShowsDefaultSimulation keeps the README's first screen true:
// the output it shows for `go run ./examples/rolloutctl simulate` is what
// the command prints. The README, being rewritten elsewhere, still shows
// the golden harness's model (a sync every 30s), the default before issue
// 23, so runCLI asks for it (--model interval); once it shows the
// default, testdata/simulate-default.golden, this test is to run
// runDefault.
func TestREADMEShowsDefaultSimulation(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The README shows a v1.36 cluster's names.
	r := runCLI(t, "", "simulate", "--kubernetes-version", "1.36")
	r.wantCode(t, []string{"simulate", "--kubernetes-version", "1.36"}, exitOK)
	want := strings.TrimRight(r.stdout, "\n")
	if !strings.Contains(string(readme), "```\n"+want+"\n```") {
		t.Errorf("README.md does not show the output of `rolloutctl simulate`; paste it again:\n%s", want)
	}
}
