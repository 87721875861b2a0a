package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

const planHelp = `rolloutctl plan [-f FILE]... [--now RFC3339] [--deployment NAME] [-o text|json|yaml]
       [--live FILE]... [-n NAMESPACE]

One sync of the Deployment controller on the state in FILE (a Deployment,
and the ReplicaSets and Pods of its namespace): the API calls it makes, in
order, each with the reason, the events it records, when it checks progress
again, and the error that ends a failed sync. A sync that makes no call
says why it waits. Where upstream writes one object twice in a sync (its
quirk Q-2), a note says that a real API server answers the second write
with a Conflict. -o json (or yaml) prints the plan contract
(rollout.Report). The exit code is 0 even when the sync fails: the error
is part of the answer, in the output. Bad input exits 2.

With --live, FILE holds the manifests to apply and --live the live objects:
the sync is of the Deployment after 'kubectl apply', with the live
ReplicaSets and Pods, and the output starts with whether the apply starts a
rollout (in -o json, "apply"). See 'rolloutctl diff -h'.
`

// planFlags are plan's options.
type planFlags struct {
	input   inputFlags
	live    liveFlags
	now     string
	outputs outputFlags
}

func runPlan(e *env, args []string) int {
	var f planFlags
	fs := newFlagSet("plan")
	f.input.add(fs, "", true)
	f.live.add(fs)
	fs.StringVar(&f.now, "now", "", "time of the sync, RFC3339 (default: the current time)")
	f.input.addOptions(fs)
	f.outputs.addOutputs(fs, "text", "json", "yaml")
	if code := parse(e, fs, planHelp, args); code >= 0 {
		return code
	}
	outs, err := f.outputs.resolve(fs)
	if err != nil {
		return fail(e, "plan", err)
	}
	now := time.Now() // the only clock read: the library takes now as a parameter
	if f.now != "" {
		t, err := time.Parse(time.RFC3339, f.now)
		if err != nil {
			return fail(e, "plan", fmt.Errorf("--now %q: want an RFC3339 time such as 2026-01-01T00:10:30Z", f.now))
		}
		now = t
	}
	in, answers, err := f.live.load(e, &f.input, "plan")
	if err != nil {
		return fail(e, "plan", err)
	}
	d, err := in.Pick(f.input.deployment)
	if err != nil {
		return fail(e, "plan", err)
	}
	if len(answers) == 0 && len(in.OwnSets(d)) == 0 {
		fmt.Fprintf(e.stderr, "rolloutctl plan: warning: %s: the input holds no ReplicaSet of Deployment %s: this is the first sync of a Deployment just created; to plan the sync of one that runs, give 'kubectl get deploy,rs,pods -o yaml' output, or the manifest with --live\n",
			in.Source(d), check.Qualified(d))
	}
	state := in.State(d, now)
	state.Options = f.input.options
	actions, planErr := rollout.Plan(state)
	report := rollout.NewReport(now, actions, planErr)
	return writeReports(e, "plan", outs, func(format string, w io.Writer) error {
		if format != "text" {
			return encodeData(format, w, withAnswer(report, answers, d), nil)
		}
		fmt.Fprintln(w, f.input.versionLine())
		writeAnswers(w, answerFor(answers, d))
		writePlanText(w, state, actions, report)
		return nil
	})
}

// writePlanText prints each action with its reason, then the events, the
// progress re-check and the error; a sync that scales nothing says why it
// waits.
func writePlanText(w io.Writer, s rollout.State, actions []rollout.Action, r rollout.Report) {
	n, scaled := 0, false
	for i, a := range actions {
		if a.Type == rollout.RecheckProgress {
			continue
		}
		n++
		fmt.Fprintln(w, a.String())
		if a.Reason != "" {
			fmt.Fprintf(w, "  why: %s\n", a.Reason)
		}
		if render.DoubleWrite(actions, i) {
			fmt.Fprintf(w, "  note: %s\n", render.ConflictNote)
		}
		scaled = scaled || a.Type == rollout.CreateReplicaSet || a.Type == rollout.ScaleReplicaSet
	}
	wait := ""
	if !scaled && r.Error == "" {
		wait = render.WaitReason(s.Deployment, stateStep(s), false)
	}
	switch {
	case wait != "":
		fmt.Fprintf(w, "waits: %s\n", wait)
	case n == 0:
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

// stateStep describes a state's ReplicaSets as a simulation step at its
// time, for waitReason: the Deployment's ReplicaSets (by UID), oldest
// first, the one with its template new.
func stateStep(s rollout.State) sim.Step {
	st := sim.Step{At: s.Now, Replicas: s.Deployment.Spec.Replicas, Floor: rollout.MinAvailable(s.Deployment),
		Ceiling: int64(s.Deployment.Spec.Replicas) + int64(rollout.MaxSurge(s.Deployment))}
	var own []rollout.ReplicaSet
	for _, rs := range s.ReplicaSets {
		if controls(s.Deployment, rs) {
			own = append(own, rs)
		}
	}
	newRS, _ := rollout.FindNewReplicaSet(s.Deployment, own)
	slices.SortStableFunc(own, func(a, b rollout.ReplicaSet) int { return rollout.CompareByCreation(&a, &b) })
	for _, rs := range own {
		term := int32(0)
		if rs.Status.TerminatingReplicas.Valid {
			term = rs.Status.TerminatingReplicas.Value
		}
		st.Sets = append(st.Sets, sim.SetCount{Name: rs.Name, New: rs.Name == newRS.Name, Desired: rs.Spec.Replicas,
			Current: rs.Status.Replicas, Ready: rs.Status.ReadyReplicas, Available: rs.Status.AvailableReplicas, Terminating: term})
	}
	return st
}
