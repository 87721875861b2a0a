// Command playground is the rollout playground: a static web page that
// runs rolloutmath compiled to WebAssembly, so that a person can paste a
// Deployment, change its image, replicas, maxSurge, maxUnavailable, pod
// times, the controllers' model and API client rate, or Kubernetes minor,
// and see every sync of the rollout with its reasons, the chart, the
// summary and the check's findings, as `rolloutctl simulate` and `rolloutctl check` print them,
// with nothing sent to a server. The whole state is in the URL fragment
// (see Fragment), so a link shows the same result.
//
// Built for GOOS=js GOARCH=wasm, the package is the page's module (see
// main_js.go). Built for anything else, it is the server: `go run
// ./examples/playground` builds the module, serves the page on --addr
// (127.0.0.1:8080) and prints its URL; --out DIR writes the static site
// instead, for any static host. See README.md.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
	"github.com/rolloutmath/rolloutmath/surge"
)

// A Result is what the page shows for a State, but for the findings (see
// Check). When OK, Timeline is the
// text `rolloutctl simulate` prints for the same input and flags (read
// from standard input), Summary the summary at its end, SummaryLine that
// summary in one line, and Chart the SVG of `rolloutctl simulate -o svg`.
// Otherwise Errors say why, each at its line of the manifest (0: not
// one line) or its control.
type Result struct {
	OK          bool      `json:"ok"`
	Title       string    `json:"title,omitempty"`
	Kubernetes  string    `json:"kubernetes,omitempty"`
	Timeline    string    `json:"timeline,omitempty"`
	Summary     string    `json:"summary,omitempty"`
	SummaryLine string    `json:"summaryLine,omitempty"`
	Chart       string    `json:"chart,omitempty"`
	Notes       []string  `json:"notes,omitempty"`
	Errors      []Problem `json:"errors,omitempty"`
	// Deployments are the Deployments of the manifest, for a choice when
	// there are several, as NAME or NAMESPACE/NAME.
	Deployments []string `json:"deployments,omitempty"`
	// Versions are the Kubernetes minors to choose from, newest first.
	Versions []string `json:"versions"`
}

// A Problem is an error or a finding: its message, and where it is: a
// line of the manifest (0 when it is not one line), or a control (the
// State's JSON name, "" when it is not one). Severity and Rule are a
// check finding's.
type Problem struct {
	Line     int    `json:"line,omitempty"`
	Control  string `json:"control,omitempty"`
	Severity string `json:"severity,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Message  string `json:"message"`
}

// Play computes the Result of a State: it reads the manifest as the API
// server of the chosen minor reads it on create, simulates the rollout
// the controls describe as `rolloutctl simulate` does (check.Simulate
// under the controllers model of kube-controller-manager), renders it
// with package render. Play never panics on any State and depends on it
// alone.
func Play(st State) Result {
	res := Result{Versions: versions()}
	c, problems := change(st)
	if len(problems) > 0 {
		res.Errors = problems
		return res
	}
	apiVersion := c.Options.Version
	in, _ := check.Read(manifest.Options{Stdin: strings.NewReader(st.Manifest)}, check.LoadOptions{Version: apiVersion}, "-")
	for _, p := range in.Problems() {
		res.Errors = append(res.Errors, Problem{Line: p.Location.Line, Message: p.Message})
	}
	for _, d := range in.Objects().Deployments {
		res.Deployments = append(res.Deployments, check.Qualified(d))
	}
	if len(res.Errors) > 0 {
		return res
	}
	if len(in.Objects().Deployments) == 0 {
		res.Errors = []Problem{{Message: fmt.Sprintf("%s: no Deployment found (%s)", in.Name(), in.Found())}}
		return res
	}
	d, err := in.Pick(st.Deployment)
	if err != nil {
		res.Errors = []Problem{{Control: "deployment", Message: err.Error()}}
		return res
	}
	run, err := check.Simulate(in, d, c)
	if err != nil {
		res.Errors = simulateErrors(err)
		return res
	}
	res.OK, res.Title = true, run.Title
	res.Kubernetes = check.Kubernetes(apiVersion, c.Options.Version)
	if len(in.OwnSets(d)) == 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("the manifest holds no ReplicaSet of Deployment %s: it is taken as fully rolled out on its template", check.Qualified(d)))
	}
	if !rollsOut(run.Result) {
		res.Notes = append(res.Notes, "nothing rolls out: the Deployment's template is that of its ReplicaSet; set an image to simulate a rollout of a new image")
	}
	if sm := run.Result.Summary; sm.Outcome == sim.OutcomeLimit && sm.Syncs >= maxSyncs {
		res.Notes = append(res.Notes, syncsNote)
	} else if sm.Outcome == sim.OutcomeLimit {
		res.Notes = append(res.Notes, fmt.Sprintf("the playground stops after %d units of work (controller syncs and pod writes taken one by one, and the pods they walk), so that it answers at once: `rolloutctl simulate` goes on to %d (--max-work)", maxWork, sim.DefaultMaxWork))
	}
	r := run.Result
	r.Summary.Detail = strings.ReplaceAll(r.Summary.Detail, "(MaxWork)", "(--max-work)") // as the command words it
	r.Summary.Detail = strings.ReplaceAll(r.Summary.Detail, "(MaxSyncs)", "(the playground's limit)")
	var b bytes.Buffer
	render.Table(&b, render.Head{Title: run.Title, Version: res.Kubernetes, Model: run.Model, Times: run.Times, Notes: run.Notes}, run.State, r)
	res.Timeline = b.String()
	b.Reset()
	render.Summary(&b, r.Summary)
	res.Summary = b.String()
	res.SummaryLine = render.SummaryLine(run.State.Deployment, r.Summary)
	b.Reset()
	render.SVG(&b, run.Title, run.Model, run.State, r, int(run.Config.Pods.MaxPods))
	res.Chart = b.String()
	return res
}

// Check returns the findings of `rolloutctl check --replicas N` on the
// manifest of st for the Deployment Play shows, N its replicas there (the
// replicas control, or spec.replicas within an HPA's range), with the
// pod model of the controls, each at its line (see Problem): what the
// page shows after the rollout. One replica count keeps the check to one
// rollout, as long as Play's, where an HPA's whole range could take
// minutes. It returns nil when Play shows errors for st.
func Check(st State) []Problem {
	c, problems := change(st)
	if len(problems) > 0 {
		return nil
	}
	in, _ := check.Read(manifest.Options{Stdin: strings.NewReader(st.Manifest)}, check.LoadOptions{Version: c.Options.Version}, "-")
	if len(in.Problems()) > 0 {
		return nil
	}
	d, err := in.Pick(st.Deployment)
	if err != nil {
		return nil
	}
	if !c.SetReplicas {
		pol, err := in.Policy(d, c.QuotaPods)
		if err != nil {
			return nil
		}
		c.Replicas = d.Spec.Replicas
		if pol.HPA != "" {
			c.Replicas = min(max(d.Spec.Replicas, pol.MinReplicas), pol.MaxReplicas)
		}
	}
	return findings(in, check.Qualified(d), c)
}

// simulateErrors places an error of check.Simulate at its control when a
// change caused it (the strategy, the validation of the changed spec, an
// image for a container that does not exist); one Problem a line.
func simulateErrors(err error) []Problem {
	var invalid *check.ChangeError
	switch {
	case errors.Is(err, check.ErrStrategyChange):
		return []Problem{{Control: "maxSurge", Message: err.Error()}}
	case errors.As(err, &invalid):
		return []Problem{{Control: "replicas", Message: err.Error()}}
	}
	var out []Problem
	for _, l := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		p := Problem{Message: l}
		if strings.HasPrefix(l, "--image ") { // check's words for an image change it cannot make
			p.Control = "image"
		}
		out = append(out, p)
	}
	return out
}

// findings checks the input as `rolloutctl check --replicas N` does
// with the change's pod model and N its Replicas, and returns the
// findings of the Deployment named deployment (see check.Qualified).
// The rollout checked is the change's image edit, as Play simulates it
// (check.Config.Images), so that the findings name the ReplicaSet the
// timeline creates; without an image, check's restart.
func findings(in *check.Input, deployment string, c check.Change) []Problem {
	cfg := check.Config{
		Images:    c.Images,
		QuotaPods: c.QuotaPods, Sim: c.Config,
		ReadyAfterFixed: c.FixedReady, TerminatingFixed: c.FixedTerminating,
		Options: c.Options, Workers: 1,
		MinReplicas: c.Replicas, MaxReplicas: c.Replicas, ReplicasSet: true,
	}
	var out []Problem
	for _, f := range check.Run(in, cfg).Findings {
		if f.Deployment != deployment {
			continue
		}
		msg := fmt.Sprintf("%s: %s at %d replicas, +%s: %s (%s)", f.Rule, f.Deployment, f.Replicas, formatSeconds(f.At), f.Message, where(f.Location))
		for _, r := range f.Related {
			msg += "; see " + where(r)
		}
		out = append(out, Problem{Line: f.Location.Line, Severity: f.Severity, Rule: f.Rule, Message: msg})
	}
	return out
}

// where words a Location of the manifest: "line 13 spec.replicas", with
// the object when it is not the Deployment's.
func where(l check.Location) string {
	s := l.Field
	if l.Line > 0 {
		s = fmt.Sprintf("line %d %s", l.Line, l.Field)
	}
	if !strings.HasPrefix(l.Object, "Deployment ") && l.Object != "" {
		s += " of " + l.Object
	}
	if !l.Written {
		s += " (default)"
	}
	return s
}

// formatSeconds words a finding's time (seconds after the start) as
// rolloutctl check prints it: words.Duration, to the millisecond.
func formatSeconds(s float64) string {
	return words.Duration(time.Duration(s * float64(time.Second)))
}

// maxWork bounds the syncs a page computes one by one, so that a change
// answers within seconds whatever the replicas (2,147,483,647 included):
// the page is `rolloutctl simulate --max-work 20000`, which differs from
// the command's default (sim.DefaultMaxWork) only for runs that reach it.
const maxWork = 20_000

// maxSyncs bounds the syncs a page shows: a rollout of many replicas one
// pod at a time is fast-forwarded, so costs little work, but makes nine
// syncs a replica, each a step the page holds. `rolloutctl simulate`
// shows the first sim.DefaultMaxSteps of a run (--max-steps) and the
// whole run's summary; the page stops the run there.
const maxSyncs = sim.DefaultMaxSteps

// syncsNote is the note of a run stopped at maxSyncs
// (TestPlayLongRolloutStopsAtItsSyncs holds its figures to maxSyncs).
const syncsNote = "the playground stops after 100000 syncs, so that the page holds its steps: `rolloutctl simulate` shows the first 100000 (--max-steps) and the whole run's summary"

// change reads the controls of st as `rolloutctl simulate` reads its
// flags, with its defaults but for --max-work (see maxWork): the
// controllers model at QPS 20 and burst 30 (the model control gives
// --model event, or --model interval with its 30s), pods ready and
// terminating as the template says.
func change(st State) (check.Change, []Problem) {
	var problems []Problem
	bad := func(control, format string, args ...any) {
		problems = append(problems, Problem{Control: control, Message: fmt.Sprintf(format, args...)})
	}
	c := check.Change{Config: sim.Config{
		Model:       sim.ModelControllers,
		Controllers: sim.Controllers{QPS: sim.DefaultQPS, Burst: sim.DefaultBurst},
		Pods:        sim.PodModel{Seed: 1},
		MaxWork:     maxWork,
		MaxSyncs:    maxSyncs,
	}}
	v, err := rollout.ParseVersion(strings.TrimSpace(st.Version))
	if err != nil {
		bad("version", "Kubernetes version %q: %v", st.Version, err)
	}
	c.Options.Version = v.Resolve()
	seen := map[string]bool{}
	for item := range strings.SplitSeq(st.Image, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		var i check.Image
		if name, img, ok := strings.Cut(item, "="); ok {
			i = check.Image{Container: name, Image: img}
			if name == "" {
				bad("image", "%q names no container: want CONTAINER=IMAGE, or IMAGE for the first container", item)
				continue
			}
		} else {
			i.Image = item
		}
		if i.Image == "" || strings.ContainsAny(i.Image, " \t") {
			bad("image", "%q is not an image", i.Image)
			continue
		}
		if seen[i.Container] {
			bad("image", "two images for the same container in %q", st.Image)
			continue
		}
		seen[i.Container] = true
		c.Images = append(c.Images, i)
	}
	if s := strings.TrimSpace(st.Replicas); s != "" {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			bad("replicas", "replicas %q: want a count from 0 to 2147483647", s)
		}
		c.Replicas, c.SetReplicas = int32(n), err == nil && n >= 0
	}
	value := func(control, s string) (surge.Value, bool) {
		s = strings.TrimSpace(s)
		if s == "" {
			return surge.Value{}, false
		}
		v, err := surge.Parse(s)
		if err != nil {
			bad(control, "%s %q: %v", control, s, err)
			return surge.Value{}, false
		}
		return v, true
	}
	c.MaxSurge, c.SetMaxSurge = value("maxSurge", st.MaxSurge)
	c.MaxUnavailable, c.SetMaxUnavailable = value("maxUnavailable", st.MaxUnavailable)
	duration := func(control, s string) (time.Duration, bool) {
		s = strings.TrimSpace(s)
		if s == "" {
			return 0, false
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			bad(control, "%s %q: want a duration such as 5s or 1m30s, not negative", control, s)
			return 0, false
		}
		return d, true
	}
	c.Config.Pods.ReadyAfter, c.FixedReady = duration("readyAfter", st.ReadyAfter)
	c.Config.Pods.Terminating, c.FixedTerminating = duration("terminating", st.Terminating)
	switch strings.TrimSpace(st.Model) {
	case "", "controllers":
	case "event":
		c.Config.Model, c.Config.Controllers = sim.ModelSimple, sim.Controllers{}
	case "interval":
		c.Config.Model, c.Config.Controllers, c.Config.Interval = sim.ModelSimple, sim.Controllers{}, 30*time.Second
	default:
		bad("model", "model %q: want controllers, event or interval", st.Model)
	}
	if s := strings.TrimSpace(st.QPS); s != "" {
		q, err := strconv.ParseFloat(s, 64)
		if err != nil || q == 0 || (q > 0 && q < 0.01) || q != q {
			bad("qps", "QPS %q: want at least 0.01, or a negative number for no limit", s)
		}
		c.Config.Controllers.QPS = q
	}
	return c, problems
}

// versions lists the supported Kubernetes minors, newest first.
func versions() []string {
	var out []string
	for _, v := range rollout.SupportedVersions() {
		out = append([]string{v.String()}, out...)
	}
	return out
}

// rollsOut reports whether a run creates or scales a ReplicaSet.
func rollsOut(res sim.Result) bool {
	for _, st := range res.Steps {
		for _, a := range st.Actions {
			switch a.Type {
			case rollout.CreateReplicaSet, rollout.ScaleReplicaSet:
				return true
			}
		}
	}
	return false
}
