package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestMaxStepsBoundsTheStepsShown: simulate and undo show at most
// --max-steps syncs of a run, say so on stderr and in each output, and
// give the whole run's summary: the same as with --max-steps 0 (all the
// steps) but for the fast-forwarded count, as the run without steps
// jumps further. A run within --max-steps is shown whole, with no note.
func TestMaxStepsBoundsTheStepsShown(t *testing.T) {
	in := oneByOne(40) // 360 syncs under the controllers model
	args := []string{"simulate", "--image", "app:2", "-o", "json"}
	all := runDefault(t, strings.NewReader(in), append(args, "--max-steps", "0")...)
	all.wantCode(t, args, exitOK)
	var whole simJSONRead
	if err := json.Unmarshal([]byte(all.stdout), &whole); err != nil {
		t.Fatal(err)
	}
	n := len(whole.Steps)
	if n < 100 || whole.StepsLeftOut != 0 || strings.Contains(all.stderr, "--max-steps") {
		t.Fatalf("--max-steps 0: %d steps, %d left out, stderr %q", n, whole.StepsLeftOut, all.stderr)
	}
	for _, keep := range []int{1, 57, n - 1, n, n + 1} {
		r := runDefault(t, strings.NewReader(in), append(args, "--max-steps", itoa(keep))...)
		r.wantCode(t, args, exitOK)
		var got simJSONRead
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatal(err)
		}
		shown := min(keep, n)
		if len(got.Steps) != shown || got.StepsLeftOut != n-shown {
			t.Errorf("--max-steps %d of %d: %d steps shown, %d left out", keep, n, len(got.Steps), got.StepsLeftOut)
		}
		for i := range got.Steps {
			if string(got.Steps[i]) != string(whole.Steps[i]) {
				t.Fatalf("--max-steps %d: step %d differs:\n%s\nwant:\n%s", keep, i, got.Steps[i], whole.Steps[i])
			}
		}
		want, gotSum := whole.Summary, got.Summary
		delete(want, "fastForwarded")
		delete(gotSum, "fastForwarded")
		if b, c := mustJSON(t, want), mustJSON(t, gotSum); b != c {
			t.Errorf("--max-steps %d: summary\n%s\nwant the whole run's:\n%s", keep, c, b)
		}
		note := "rolloutctl simulate: note: the rollout takes " + itoa(n) + " syncs; the outputs show the first " + itoa(keep) + " (--max-steps)"
		if strings.Contains(r.stderr, note) != (keep < n) {
			t.Errorf("--max-steps %d of %d: stderr %q", keep, n, r.stderr)
		}
	}

	text := runDefault(t, strings.NewReader(in), "simulate", "--image", "app:2", "--max-steps", "57")
	if !strings.HasSuffix(text.stdout, "\nsyncs 58 to "+itoa(n)+" are not shown (--max-steps 57); the summary is of all "+itoa(n)+"\n") {
		t.Errorf("the table does not say which syncs it leaves out:\n%s", text.stdout)
	}
	svg := runDefault(t, strings.NewReader(in), "simulate", "--image", "app:2", "--max-steps", "57", "-o", "svg")
	if !strings.Contains(svg.stdout, "(the first 57 of "+itoa(n)+" syncs)") {
		t.Errorf("the chart's title does not say it shows the first 57 syncs:\n%.600s", svg.stdout)
	}

	undo := runDefault(t, nil, "undo", "-f", manifestPath("web-mid-rollout.yaml"), "--max-steps", "2", "-o", "json")
	undo.wantCode(t, []string{"undo"}, exitOK)
	var u struct {
		Rollback simJSONRead `json:"rollback"`
	}
	if err := json.Unmarshal([]byte(undo.stdout), &u); err != nil {
		t.Fatal(err)
	}
	if len(u.Rollback.Steps) != 2 || u.Rollback.StepsLeftOut < 1 || !strings.Contains(undo.stderr, "rolloutctl undo: note: the rollout takes") {
		t.Errorf("undo --max-steps 2: %d steps, %d left out; stderr %q", len(u.Rollback.Steps), u.Rollback.StepsLeftOut, undo.stderr)
	}
}

// simJSONRead reads what TestMaxStepsBoundsTheStepsShown compares of
// simulate -o json.
type simJSONRead struct {
	Steps        []json.RawMessage `json:"steps"`
	StepsLeftOut int               `json:"stepsLeftOut"`
	Summary      map[string]any    `json:"summary"`
}

// TestMaxStepsDefaultIsSims: the help texts give --max-steps' default as
// the flag has it, sim.DefaultMaxSteps.
func TestMaxStepsDefaultIsSims(t *testing.T) {
	r := runCLI(t, "", "simulate", "-h")
	if want := "--max-steps syncs (" + itoa(sim.DefaultMaxSteps) + ")"; !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), want) {
		t.Errorf("simulate -h does not say %q:\n%s", want, r.stdout)
	}
}
