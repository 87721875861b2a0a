package main

import (
	"cmp"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

// defaultManifest is what simulate runs without -f: the seed example.
//
//go:embed testdata/nginx-deployment.yaml
var defaultManifest []byte

// The seed example's image change, applied when simulate runs the embedded
// manifest without --image.
const (
	defaultManifestName = "<embedded nginx-deployment.yaml>"
	defaultImage        = "nginx:1.9.3"
)

const simulateHelp = `rolloutctl simulate [-f FILE]... [--deployment NAME] [--image [CONTAINER=]IMAGE]...
       [--replicas N] [--max-surge V] [--max-unavailable V]
       [--ready-after D] [--ready-jitter D --seed N] [--never-ready IMAGE]...
       [--terminating D] [--quota-pods N] [--hpa D=N]...
       [--nodes N [--node-allocatable cpu=..,memory=..,pods=..]]
       [--model MODEL] [--kube-api-qps QPS] [--kube-api-burst N] [--interval D]
       [--max-work N] [--max-steps N] [-o text|json|yaml|svg] [--format F --output FILE]... [--live FILE]... [-n NAMESPACE]

Simulates a rollout sync by sync: the controllers' actions, and pods that
start, become ready and terminate as their template (or the flags) says.

The start is the state in FILE when it holds ReplicaSets of the Deployment
(a rollout in progress), or else the Deployment fully rolled out on its
template. Then --replicas, --max-surge and --max-unavailable change the
Deployment (before the start, for a Deployment alone), and --image changes
the template, which starts the rollout. The clock starts at the latest time
recorded in FILE.

Without -f, simulate reads standard input when something is piped in, and
otherwise runs the seed example: nginx-deployment, 10 replicas, maxSurge
25%, maxUnavailable 25%, image nginx:1.9 changed to nginx:1.9.3.

By default the Deployment and ReplicaSet controllers run as in
kube-controller-manager (--model controllers): event driven, each behind
its API client's rate limit (--kube-api-qps 20, --kube-api-burst 30;
negative QPS: no limit), the ReplicaSet controller creating pods in
slow-start batches and writing a ReplicaSet's status when its sync ends;
the table's syncs are the Deployment controller's. Pods are counted as
they exist, so the peak may pass replicas + maxSurge; where the
controllers race, the summary gives the range and judges the worse end.
--model interval syncs one controller every --interval (30s), as the
recordings of the real controller did (--interval D alone implies it);
--model event at each change.

A pod becomes ready as its template's readinessProbe and startupProbe say,
and a deleted pod terminates for its preStop sleep, within
terminationGracePeriodSeconds; --ready-after and --terminating set either
time instead. Every output names the Kubernetes minors it models
(--kubernetes-version; --controller-version when the controller-manager is
a minor behind, which names the ReplicaSets) and its pod model, with a
"pod times" line for each time read from the template. The namespace's
policy objects in the input count: the room a ResourceQuota leaves (after
LimitRange defaults) caps the pods unless --quota-pods is given, an HPA's
range bounds the replicas unless --replicas is given, and a
PodDisruptionBudget that selects the pods is named; admission that refuses
every pod is an error. With Nodes in the input, or --nodes N identical
ones, the pods are placed on them as 'rolloutctl check -h' says: a pod
without a place is pending (not ready) until one frees, a note says what
decides the places, and a rollout left with pods pending for good stops
as "stuck: pods cannot be placed".

Long regular phases (one pod at a time over many replicas) are
fast-forwarded, so their size costs little; a run whose syncs keep changing
irregularly stops after --max-work units of work (controller syncs and
pod writes taken one by one, and the pods they walk), and says so: its outcome is "limit
reached", and simulate exits 3 (no answer) after writing its reports.
The outputs show at most --max-steps syncs (100000): a longer rollout
(a million replicas one pod at a time takes some nine million syncs)
shows its first ones, says on stderr and in the output how many are left
out, and gives the whole run's summary, computed without keeping steps,
so that its memory and time stay bounded whatever the replicas.

-o text (or table) prints, per sync, each ReplicaSet's DESIRED CURRENT
READY AVAILABLE (TERMINATING when pods linger, PENDING when pods wait for
a place; old ReplicaSets that stay at zero left out) and the actions with their reasons, why a sync that
changes nothing waits, and runs of such syncs folded into one line; then a
summary: outcome, duration (until the status is first complete, as
'kubectl rollout status' waits; the last change when later), syncs, peak
pods against the ceiling and min available against the floor at that time,
time below the floor. -o json (or yaml) prints the same run as {title,
kubernetes, podModel, podTimes, policy, deployment, namespace, start,
initial, steps: [{at, offsetSeconds, replicas, floor, ceiling, sets,
actions, conditions, error}], summary} ('go doc' on this command lists
every field). -o svg prints a chart of the pods that exist: ready, not
ready, pending (dotted) and terminating per ReplicaSet, the available
pods, the floor and the ceiling as they move, and the events.

With --live, FILE holds the manifests to apply and --live the live objects:
the start is the Deployment after 'kubectl apply', with the live
ReplicaSets and Pods, so that the rollout the apply starts (if any) is the
one simulated; the output starts with whether the apply starts a rollout
(in -o json, "apply"; with -o svg, on stderr). See 'rolloutctl diff -h'.
`

// simFlags are the flags that shape a simulation, shared by simulate,
// check and undo; each registers those it offers.
type simFlags struct {
	input          inputFlags
	place          placeFlags
	images         imagesFlag
	replicas       replicasFlag
	maxSurge       valueFlag
	maxUnavailable valueFlag
	readyAfter     durationFlag
	readyJitter    time.Duration
	seed           uint64
	neverReady     listFlag
	terminating    durationFlag
	quotaPods      int
	hpa            hpaFlag
	interval       time.Duration
	model          string
	qps            float64
	burst          int
	maxWork        int
	maxSteps       int
}

// The defaults: pods ready and terminating as their template says (see
// check.PodTimes), and the Deployment and ReplicaSet controllers as kube-controller-manager runs
// them (sim.ModelControllers, its clients at QPS 20 and burst 30). The
// golden harness, which recorded the real controller with a sync every
// 30s, is --model interval --interval 30s.
const (
	defaultInterval = 0
	defaultModel    = "" // controllers, or interval when --interval is given
)

// The values of --model.
const (
	modelControllers = "controllers"
	modelEvent       = "event"
	modelInterval    = "interval"
)

func (f *simFlags) addSpec(fs *flag.FlagSet) {
	fs.Var(&f.images, "image", "`[CONTAINER=]IMAGE`: set the image of CONTAINER (default: the first container), which starts a rollout; repeatable, one per container")
	fs.Var(&f.replicas, "replicas", "set spec.replicas to `N`")
	fs.Var(&f.maxSurge, "max-surge", "set maxSurge to `V`, a count (2) or a percent (25%)")
	fs.Var(&f.maxUnavailable, "max-unavailable", "set maxUnavailable to `V`, a count (0) or a percent (25%)")
}

func (f *simFlags) addReady(fs *flag.FlagSet) {
	fs.Var(&f.readyAfter, "ready-after", "a new pod becomes ready `D` after it is created (default: as the template's readinessProbe and startupProbe say)")
	fs.Var(&f.neverReady, "never-ready", "pods running `IMAGE` never become ready (repeatable)")
}

func (f *simFlags) addTerminating(fs *flag.FlagSet) {
	fs.Var(&f.terminating, "terminating", "a deleted pod takes `D` to go away (default: its preStop sleep, within terminationGracePeriodSeconds)")
}

func (f *simFlags) addQuota(fs *flag.FlagSet) {
	fs.IntVar(&f.quotaPods, "quota-pods", 0, "a ResourceQuota of `N` pods in the namespace: creates beyond it fail (0: none)")
}

func (f *simFlags) addModel(fs *flag.FlagSet) {
	f.addReady(fs)
	fs.DurationVar(&f.readyJitter, "ready-jitter", 0, "add a random delay up to this to each pod's ready time (see --seed)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of --ready-jitter's random delays")
	f.addTerminating(fs)
	f.addQuota(fs)
	fs.Var(&f.hpa, "hpa", "`D=N`: at D after the start, set spec.replicas to N, as an autoscaler would (repeatable)")
	f.addControllers(fs, "time between two syncs of --model interval (default 30s)")
	f.addLimit(fs)
}

// addControllers adds the flags that choose the model of the controllers.
func (f *simFlags) addControllers(fs *flag.FlagSet, intervalUsage string) {
	fs.StringVar(&f.model, "model", defaultModel, "`MODEL` of the controllers: controllers (the Deployment and ReplicaSet controllers as they run, rate limited; the default), event (one controller, a sync at each write and pod event) or interval (a sync every --interval; the default when --interval is given)")
	fs.DurationVar(&f.interval, "interval", defaultInterval, intervalUsage)
	fs.Float64Var(&f.qps, "kube-api-qps", sim.DefaultQPS, "`QPS` of each controller's API client under --model controllers (negative: no limit)")
	fs.IntVar(&f.burst, "kube-api-burst", sim.DefaultBurst, "`N`, the burst of each controller's API client under --model controllers")
}

func (f *simFlags) addLimit(fs *flag.FlagSet) {
	fs.IntVar(&f.maxWork, "max-work", sim.DefaultMaxWork, "stop a simulation after `N` units of work: syncs computed one by one (fast-forwarded ones do not count; under --model controllers, both controllers' syncs and groups of pod writes, and a unit per 4,096 cohorts of pods beyond 256 that one event holds; check: the replica counts of a Deployment share them)")
}

// addSteps adds --max-steps, for the commands that show a run's steps.
func (f *simFlags) addSteps(fs *flag.FlagSet) {
	fs.IntVar(&f.maxSteps, "max-steps", sim.DefaultMaxSteps, "show at most the first `N` syncs of a run (0: all, every step held in memory; the summary is the whole run's)")
}

// check reports flag values that parse but make no sense.
func (f *simFlags) check() error {
	switch {
	case f.quotaPods < 0:
		return fmt.Errorf("--quota-pods %d: must not be negative", f.quotaPods)
	case f.readyJitter < 0:
		return fmt.Errorf("--ready-jitter must not be negative")
	case f.interval < 0:
		return fmt.Errorf("--interval %s: must not be negative", f.interval)
	case f.model != modelControllers && f.model != modelEvent && f.model != modelInterval && f.model != "":
		return fmt.Errorf("--model %q: must be controllers, event or interval", f.model)
	case f.interval > 0 && f.model != modelInterval && f.model != "":
		return fmt.Errorf("--interval %s: needs --model interval", f.interval)
	case f.qps == 0 || (f.qps > 0 && f.qps < 0.01) || f.qps != f.qps:
		return fmt.Errorf("--kube-api-qps %g: must be negative (no limit) or at least 0.01", f.qps)
	case f.burst < 1 || f.burst > 1_000_000:
		return fmt.Errorf("--kube-api-burst %d: must be in [1, 1000000]", f.burst)
	case f.maxWork <= 0:
		return fmt.Errorf("--max-work %d: must be positive", f.maxWork)
	case f.maxSteps < 0:
		return fmt.Errorf("--max-steps %d: must not be negative", f.maxSteps)
	}
	return nil
}

// config returns the simulation's configuration for the flags.
func (f *simFlags) config() sim.Config {
	cfg := sim.Config{
		Pods: sim.PodModel{
			ReadyAfter:  f.readyAfter.v,
			ReadyJitter: f.readyJitter,
			Seed:        f.seed,
			NeverReady:  slices.Clone([]string(f.neverReady)),
			Terminating: f.terminating.v,
			MaxPods:     int32(min(f.quotaPods, 1<<31-1)),
		},
		MaxWork: f.maxWork,
	}
	switch {
	case f.model == modelInterval || (f.model == "" && f.interval > 0):
		cfg.Model, cfg.Interval = sim.ModelSimple, cmp.Or(f.interval, 30*time.Second)
	case f.model == modelEvent:
		cfg.Model = sim.ModelSimple
	default: // controllers, sim.Config's zero Model
		cfg.Model = sim.ModelControllers
		cfg.Controllers = sim.Controllers{QPS: f.qps, Burst: f.burst}
	}
	for _, c := range f.hpa {
		cfg.Changes = append(cfg.Changes, sim.ReplicaChange{After: c.after, Replicas: c.replicas})
	}
	return cfg
}

func runSimulate(e *env, args []string) int {
	var f simFlags
	var outputs outputFlags
	var live liveFlags
	fs := newFlagSet("simulate")
	f.input.add(fs, "; else the embedded seed example", true)
	live.add(fs)
	f.addSpec(fs)
	f.place.add(fs)
	f.addModel(fs)
	f.addSteps(fs)
	f.input.addOptions(fs)
	outputs.addOutputs(fs, "text", "json", "yaml", "svg")
	if code := parse(e, fs, simulateHelp, args); code >= 0 {
		return code
	}
	outs, err := outputs.resolve(fs)
	if err != nil {
		return fail(e, "simulate", err)
	}
	if f.replicas.set && f.replicas.min != f.replicas.max {
		return fail(e, "simulate", fmt.Errorf("--replicas %s: simulate takes one count (check and bounds take a range)", f.replicas.String()))
	}
	if err := errors.Join(f.check(), f.place.check()); err != nil {
		return fail(e, "simulate", err)
	}
	in, answers, err := live.load(e, &f.input, "simulate")
	images := f.images
	if errors.Is(err, errNoInput) {
		in, err = parseExample(defaultManifestName, defaultManifest, f.input.apiVersion())
		f.input.options.Version = f.input.controllerVersion()
		if len(images) == 0 {
			images = imagesFlag{{image: defaultImage}}
		}
	}
	if err != nil {
		return fail(e, "simulate", err)
	}
	d, err := in.Pick(f.input.deployment)
	if err != nil {
		return fail(e, "simulate", err)
	}
	run, err := f.simulation(in, d, images)
	if err != nil {
		return fail(e, "simulate", err)
	}
	if len(answers) == 0 && len(in.OwnSets(d)) == 0 && in.Name() != defaultManifestName {
		fmt.Fprintf(e.stderr, "rolloutctl simulate: warning: %s: the input holds no ReplicaSet of Deployment %s: taking it as fully rolled out on its template; give 'kubectl get deploy,rs,pods -o yaml' output to start from the cluster's ReplicaSets\n",
			in.Source(d), check.Qualified(d))
	}
	if !rollsOut(run.res) {
		fmt.Fprintf(e.stderr, "rolloutctl simulate: note: nothing rolls out: the Deployment's template is that of its ReplicaSet, and no flag changes it; give --image [CONTAINER=]IMAGE to simulate a rollout of a new image\n")
	}
	noteStepsLeftOut(e, "simulate", run.res, run.left, f.maxSteps)
	mine := answerFor(answers, d)
	code := writeReports(e, "simulate", outs, func(format string, w io.Writer) error {
		switch format {
		case "json", "yaml":
			j := newSimJSON(run.title, run.state, run.res)
			j.Kubernetes, j.PodModel, j.PodTimes, j.Policy, j.StepsLeftOut = f.input.versionLine(), run.model, run.times, run.notes, run.left
			return encodeData(format, w, withAnswer(&j, answers, d), &j.Steps)
		case "svg":
			noteAnswers(e.stderr, mine)
			render.SVG(w, chartTitle(run.title, run.res, run.left), run.model, run.state, run.res, int(run.cfg.Pods.MaxPods))
			return nil
		}
		writeAnswers(w, mine)
		writeTable(w, tableHead{run.title, f.input.versionLine(), run.model, run.times, run.notes}, run.state, run.res)
		return nil
	})
	return noOutcome(e, "simulate", run.res, code)
}

// noOutcome is the exit code of a command that simulated res and wrote
// its reports with exit code code: exitLimit, with a line on stderr
// saying why, when the run stopped at a limit before its rollout came to
// an outcome (sim.OutcomeLimit: the rollout might still complete, fail
// its progress deadline or get stuck), so that a script tells an answer
// from none as it does for check; else code. A run that reached its own
// outcome (complete, progress deadline exceeded, stuck, stalled) keeps
// code, even where its run past the deadline stopped at a limit.
func noOutcome(e *env, name string, res sim.Result, code int) int {
	if code != exitOK || res.Summary.Outcome != sim.OutcomeLimit {
		return code
	}
	fmt.Fprintf(e.stderr, "rolloutctl %s: no outcome (exit %d): the simulation stopped at its limit before the rollout ended, so whether and when the rollout completes is not known, and the figures are those up to the stop; raise --max-work to run it further. It stopped at: %s\n",
		name, exitLimit, flagNames(res.Summary.Detail))
	return exitLimit
}

// simulation is one simulated rollout and what it ran under.
type simulation struct {
	title, model string
	notes        []string // what the policy objects changed
	times        []string // where the pods' times come from (check.PodTimes)
	state        rollout.State
	cfg          sim.Config
	res          sim.Result
	left         int // the syncs whose steps res leaves out (--max-steps)
}

// noteStepsLeftOut says on stderr, for a run whose steps stop before
// its end (sim.RunFirst), how many of its syncs the outputs show, and
// why: --max-steps, or --max-work reached sooner by the run that makes
// steps than by the one that does not.
func noteStepsLeftOut(e *env, name string, res sim.Result, left, maxSteps int) {
	if left == 0 {
		return
	}
	why := "--max-steps"
	if len(res.Steps) < maxSteps {
		why = "where making steps reached --max-work"
	}
	fmt.Fprintf(e.stderr, "rolloutctl %s: note: the rollout takes %d syncs; the outputs show the first %d (%s) and the summary of all of them\n",
		name, len(res.Steps)+left, len(res.Steps), why)
}

// chartTitle is the chart's title of a run whose steps stop after the
// first ones when left are left out (--max-steps).
func chartTitle(title string, res sim.Result, left int) string {
	if left == 0 {
		return title
	}
	return fmt.Sprintf("%s (the first %d of %d syncs)", title, len(res.Steps), len(res.Steps)+left)
}

// simulation runs the rollout of d the flags describe, under the policy
// objects of its namespace: an HPA's range bounds the replicas, a quota
// caps the pods (unless --quota-pods), a PodDisruptionBudget is named.
// check.Prepare sets it up as check.Simulate does for the playground,
// and sim.RunFirst runs it, keeping the first --max-steps steps; the
// errors of the spec's changes are worded here as the flags that made
// them.
func (f *simFlags) simulation(in *check.Input, d rollout.Deployment, imgs imagesFlag) (simulation, error) {
	c := check.Change{
		Replicas: f.replicas.min, SetReplicas: f.replicas.set,
		MaxSurge: f.maxSurge.v, SetMaxSurge: f.maxSurge.set,
		MaxUnavailable: f.maxUnavailable.v, SetMaxUnavailable: f.maxUnavailable.set,
		QuotaPods: f.quotaPods, Config: f.config(), FixedReady: f.readyAfter.set, FixedTerminating: f.terminating.set,
		Options: f.input.options,
		Nodes:   f.place.nodes, NodeAllocatable: f.place.allocatable.v,
	}
	for _, i := range imgs {
		c.Images = append(c.Images, check.Image{Container: i.container, Image: i.image})
	}
	r, err := check.Prepare(in, d, c)
	var invalid *check.ChangeError
	switch {
	case errors.Is(err, check.ErrStrategyChange):
		return simulation{}, fmt.Errorf("--max-surge and --max-unavailable need a RollingUpdate strategy; %s is %s", d.Name, d.Spec.Strategy.Type)
	case errors.As(err, &invalid):
		return simulation{}, fmt.Errorf("with the flags' changes, Deployment %q is invalid: %w", invalid.Deployment, invalid.Err)
	case err != nil:
		return simulation{}, err
	}
	// The steps shown are the first --max-steps, the summary the whole
	// run's (sim.RunFirst).
	res, left, err := sim.RunFirst(r.State, r.Config, f.maxSteps)
	if err != nil {
		return simulation{}, err
	}
	return simulation{title: r.Title, model: r.Model, notes: r.Notes, times: r.Times, state: r.State, cfg: r.Config, res: res, left: left}, nil
}

// rollsOut reports whether a run creates or scales a ReplicaSet: whether
// anything happens besides status updates.
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
