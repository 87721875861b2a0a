package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const undoHelp = `rolloutctl undo [-f FILE]... [--deployment NAME] [--to-revision N] [-o text|json|yaml]
       [--ready-after D] [--never-ready IMAGE]... [--model MODEL] [--interval D] ...

Previews 'kubectl rollout undo' on the state in FILE (a Deployment with its
ReplicaSets): the ReplicaSet whose template comes back (the previous
revision, or --to-revision N), whether the undo is a no-op (that template is
already the Deployment's), the revision the rolled back template gets and
the revision history it keeps. Then it simulates the roll back, sync by
sync, as simulate does (same pod model flags). A revision that does not
exist is an error (exit 2), as it is for kubectl, and so is a paused
Deployment, which kubectl refuses to roll back. A roll back whose
simulation stops at --max-work before it ends exits 3, as simulate does;
the roll back's steps stop at --max-steps, as simulate's do.
`

// undoJSON is undo -o json.
type undoJSON struct {
	Deployment  string   `json:"deployment"`
	Target      string   `json:"target"`
	Revision    int64    `json:"revision"`
	NoOp        bool     `json:"noOp"`
	NewRevision int64    `json:"newRevision"`
	History     string   `json:"history,omitempty"`
	Images      []string `json:"images"`
	Rollback    *simJSON `json:"rollback,omitempty"`
}

func runUndo(e *env, args []string) int {
	var (
		f          simFlags
		toRevision int64
		outputs    outputFlags
	)
	fs := newFlagSet("undo")
	f.input.add(fs, "", true)
	fs.Int64Var(&toRevision, "to-revision", 0, "the revision to roll back to (0: the previous one)")
	f.addModel(fs)
	f.addSteps(fs)
	f.input.addOptions(fs)
	outputs.addOutputs(fs, "text", "json", "yaml")
	if code := parse(e, fs, undoHelp, args); code >= 0 {
		return code
	}
	outs, err := outputs.resolve(fs)
	if err != nil {
		return fail(e, "undo", err)
	}
	if toRevision < 0 {
		return fail(e, "undo", fmt.Errorf("--to-revision %d: must not be negative", toRevision))
	}
	if err := f.check(); err != nil {
		return fail(e, "undo", err)
	}
	in, err := f.input.load(e, "undo")
	if err != nil {
		return fail(e, "undo", err)
	}
	d, err := in.Pick(f.input.deployment)
	if err != nil {
		return fail(e, "undo", err)
	}
	if d.Spec.Paused {
		return fail(e, "undo", fmt.Errorf("%s: Deployment %s is paused, and kubectl refuses to roll back a paused Deployment: resume it first (kubectl rollout resume)", in.Source(d), check.Qualified(d)))
	}
	now := in.StartTime()
	s := in.State(d, now)
	s.Options = f.input.options
	p, err := sim.PreviewUndo(s, toRevision)
	if err != nil {
		return fail(e, "undo", fmt.Errorf("%s: Deployment %s: %w", in.Source(d), check.Qualified(d), err))
	}
	if p.NotFound != "" {
		return fail(e, "undo", fmt.Errorf("%s: Deployment %s: %s (revisions: %s)", in.Source(d), check.Qualified(d), p.NotFound, revisions(s)))
	}
	images := templateImages(p.Deployment.Spec.Template)
	out := undoJSON{Deployment: check.Qualified(d), Target: p.Target, Revision: p.Revision, NoOp: p.NoOp,
		NewRevision: p.NewRevision, History: p.History, Images: images}
	var res sim.Result
	var left int
	back := s
	// The pods the roll back creates are of the target's template.
	cfg := f.config()
	var times []string
	if cfg.Pods, times, err = check.PodTimes(p.Deployment, cfg.Pods, f.readyAfter.set, f.terminating.set); err != nil {
		return fail(e, "undo", err)
	}
	if !p.NoOp {
		back = p.State
		res, left, err = sim.RunFirst(back, cfg, f.maxSteps)
		if err != nil {
			return fail(e, "undo", err)
		}
		noteStepsLeftOut(e, "undo", res, left, f.maxSteps)
	}
	title := fmt.Sprintf("%s: roll back to revision %d (%s)", check.Qualified(d), p.Revision, p.Target)
	model := check.Model(cfg, "")
	if !p.NoOp {
		j := newSimJSON(title, back, res)
		j.Kubernetes, j.PodModel, j.PodTimes, j.StepsLeftOut = f.input.versionLine(), model, times, left
		out.Rollback = &j
	}
	code := writeReports(e, "undo", outs, func(format string, w io.Writer) error {
		if format != "text" {
			if out.Rollback != nil {
				return encodeData(format, w, out, &out.Rollback.Steps)
			}
			return encodeData(format, w, out, nil)
		}
		writeUndoText(w, d, p, images, title, f.input.versionLine(), model, times, back, res)
		return nil
	})
	return noOutcome(e, "undo", res, code)
}

// writeUndoText prints the undo preview and the roll back's table.
func writeUndoText(w io.Writer, d rollout.Deployment, p sim.UndoPreview, images []string, title, version, model string, times []string, back rollout.State, res sim.Result) {
	fmt.Fprintf(w, "undo %s\n", check.Qualified(d))
	fmt.Fprintf(w, "  target:       ReplicaSet %s, revision %d\n", p.Target, p.Revision)
	fmt.Fprintf(w, "  images:       %s (now %s)\n", strings.Join(images, ", "), strings.Join(templateImages(d.Spec.Template), ", "))
	if p.NoOp {
		fmt.Fprintf(w, "  no-op:        revision %d has the Deployment's template already; the controller only clears the request\n", p.Revision)
		return
	}
	fmt.Fprintf(w, "  new revision: %d (ReplicaSet %s takes it; revision %d is gone from the list)\n", p.NewRevision, p.Target, p.Revision)
	if p.History != "" {
		fmt.Fprintf(w, "  history:      %s\n", p.History)
	}
	fmt.Fprintln(w)
	writeTable(w, tableHead{title: title, version: version, model: model, times: times}, back, res)
}

// revisions lists the revisions of the ReplicaSets the Deployment of s
// controls, in increasing order, or "none".
func revisions(s rollout.State) string {
	var revs []int64
	for _, rs := range s.ReplicaSets {
		if !controls(s.Deployment, rs) {
			continue
		}
		if r, err := rollout.Revision(rs); err == nil && r > 0 {
			revs = append(revs, r)
		}
	}
	if len(revs) == 0 {
		return "none"
	}
	slices.Sort(revs)
	var parts []string
	for _, r := range slices.Compact(revs) {
		parts = append(parts, strconv.FormatInt(r, 10))
	}
	return strings.Join(parts, ", ")
}
