package main

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEShowsDefaultSimulation keeps the README's first screen true:
// the output it shows for `go run ./examples/rolloutctl simulate` is what
// the command prints by default.
func TestREADMEShowsDefaultSimulation(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	r := runDefault(t, nil, "simulate")
	r.wantCode(t, []string{"simulate"}, exitOK)
	want := strings.TrimRight(r.stdout, "\n")
	if !strings.Contains(string(readme), "```\n"+want+"\n```") {
		t.Errorf("README.md does not show the output of `rolloutctl simulate`; paste it again:\n%s", want)
	}
}
