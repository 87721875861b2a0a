package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

const planHelp = `rolloutctl plan [-f FILE]... [--now RFC3339] [-o json|text] [--deployment NAME]

One sync of the Deployment controller on the state in FILE (a Deployment,
and the ReplicaSets and Pods of its namespace): the API calls it makes, in
order, each with the reason, the events it records, when it checks progress
again, and the error that ends a failed sync. -o json prints the plan
contract (rollout.Report). The exit code is 0 even when the sync fails:
the error is part of the answer, in the output. Bad input exits 2.
`

// planFlags are plan's options.
type planFlags struct {
	input       inputFlags
	now, output string
}

func runPlan(e *env, args []string) int {
	var f planFlags
	fs := newFlagSet("plan")
	f.input.add(fs, "", true)
	fs.StringVar(&f.now, "now", "", "time of the sync, RFC3339 (default: the current time)")
	fs.StringVar(&f.output, "o", "text", "output `format`: text or json")
	if code := parse(e, fs, planHelp, args); code >= 0 {
		return code
	}
	if f.output != "text" && f.output != "json" {
		return fail(e, "plan", fmt.Errorf("-o %q: want text or json", f.output))
	}
	now := time.Now() // the only clock read: the library takes now as a parameter
	if f.now != "" {
		t, err := time.Parse(time.RFC3339, f.now)
		if err != nil {
			return fail(e, "plan", fmt.Errorf("--now %q: want an RFC3339 time such as 2026-01-01T00:10:30Z", f.now))
		}
		now = t
	}
	in, err := f.input.load(e, "plan")
	if err != nil {
		return fail(e, "plan", err)
	}
	d, err := in.pick(f.input.deployment)
	if err != nil {
		return fail(e, "plan", err)
	}
	actions, planErr := rollout.Plan(in.state(d, now))
	report := rollout.NewReport(now, actions, planErr)
	if f.output == "json" {
		return writeJSON(e, "plan", report)
	}
	writePlanText(e.stdout, actions, report)
	return exitOK
}

// writePlanText prints each action with its reason, then the events, the
// progress re-check and the error.
func writePlanText(w io.Writer, actions []rollout.Action, r rollout.Report) {
	n := 0
	for _, a := range actions {
		if a.Type == rollout.RecheckProgress {
			continue
		}
		n++
		fmt.Fprintln(w, a.String())
		if a.Reason != "" {
			fmt.Fprintf(w, "  why: %s\n", a.Reason)
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "no actions: the Deployment is as the controller wants it")
	}
	if len(r.Events) > 0 {
		fmt.Fprintln(w, "events:")
		for _, ev := range r.Events {
			fmt.Fprintf(w, "  %s\n", ev)
		}
	}
	if !r.RecheckAt.IsZero() {
		fmt.Fprintf(w, "recheck progress at: %s (in %s)\n", r.RecheckAt.UTC().Format(time.RFC3339), r.RecheckAt.Sub(r.Now).Round(time.Second))
	}
	if r.Error != "" {
		fmt.Fprintf(w, "error: %s\n", r.Error)
	}
}

// writeJSON prints v as indented JSON.
func writeJSON(e *env, name string, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fail(e, name, fmt.Errorf("encoding JSON: %w", err))
	}
	b = append(b, '\n')
	if _, err := e.stdout.Write(b); err != nil {
		return fail(e, name, err)
	}
	return exitOK
}
