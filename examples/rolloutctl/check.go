package main

import (
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const checkHelp = `rolloutctl check [-f FILE]... [--max-pods N] [--min-available N|P%] [--max-duration D]
       [--replicas MIN..MAX] [--quota-pods N] [--ready-after D] [--never-ready IMAGE]...
       [--interval D] [--max-work N] [--workers N] [-o text|json]

Simulates a rollout of EACH Deployment in the input, at each replica count
of --replicas (default: its spec.replicas), and checks these rules:

  max-pods           at most --max-pods pods exist at any time
  min-available      at least --min-available pods are available at any time
                     (N, or P% of the replicas of the moment, rounded up)
  max-duration       the rollout completes within --max-duration
  never-finishes     the rollout can complete at all. Said only when the
                     simulation proves it cannot: it stopped where nothing
                     is left to happen (the quota leaves no room to surge
                     and maxUnavailable is 0; the new pods never become
                     ready (--never-ready) and maxUnavailable is 0; the
                     Deployment is paused; ...)
  progress-deadline  Progressing never turns False with ProgressDeadlineExceeded
  full-outage        (a warning) the strategy lets every pod go down at once:
                     maxUnavailable of all the replicas, or one replica
                     whose maxSurge and maxUnavailable both round to 0

The rollout changes the pod template as 'kubectl rollout restart' does
(with an annotation), or, with --never-ready, the first container's image
to the marker image "rolloutctl/next"; when the input holds the
Deployment's ReplicaSets in the middle of a rollout, it rolls out the
template as given instead. --never-ready new stands for the images the
rollout brings in. Pods are
ready as soon as they are created (--ready-after) and the controller syncs
every 30s (--interval). Long regular phases are fast-forwarded, so 100,000
replicas one pod at a time take no longer to check than 10.

Each violation is listed with the Deployment, the replicas and the time
after the start of the sync where it happened; one that the input already
holds before the first sync is marked (input). A simulation that stops at
its limit (--max-work syncs computed one by one) before its rollout ends
decides nothing: it is listed as LIMIT. Output is in input order, whatever
--workers. Exit 1 when a rule is broken (warnings do not count), else 3
when a simulation hit its limit, else 0 (one OK line per Deployment); 2 on
bad input. A progress line goes to stderr when more than 100 rollouts are
checked.
`

// markerImage is the image check rolls out to with --never-ready.
const markerImage = "rolloutctl/next"

// restartAnnotation is the pod template annotation `kubectl rollout
// restart` sets to the time, which check sets to start a rollout without
// --never-ready.
const restartAnnotation = "kubectl.kubernetes.io/restartedAt"

// checkProgressRuns is the number of rollouts from which check reports
// progress.
const checkProgressRuns = 100

// Rules.
const (
	ruleMaxPods      = "max-pods"
	ruleMinAvailable = "min-available"
	ruleMaxDuration  = "max-duration"
	ruleNeverFinish  = "never-finishes"
	ruleDeadline     = "progress-deadline"
	ruleOutage       = "full-outage"
	ruleLimit        = "limit"
)

// Severities: an error breaks a rule, a warning does not, a limit leaves
// the rules undecided.
const (
	severityError   = "error"
	severityWarning = "warning"
	severityLimit   = "limit"
)

// violation is one broken rule, in check's output.
type violation struct {
	Deployment string  `json:"deployment"`
	Replicas   int32   `json:"replicas"`
	Rule       string  `json:"rule"`
	Severity   string  `json:"severity"`
	At         float64 `json:"atSeconds"`
	// Cause is "input" for what the input holds before the first sync,
	// and "rollout" for what the rollout does.
	Cause   string `json:"cause"`
	Message string `json:"message"`
}

// checked is the outcome for one Deployment over its replica range.
type checked struct {
	Deployment   string `json:"deployment"`
	MinReplicas  int32  `json:"minReplicas"`
	MaxReplicas  int32  `json:"maxReplicas"`
	Rollouts     int64  `json:"rollouts"`
	OK           bool   `json:"ok"`
	PeakPods     int64  `json:"peakPods"`
	MinAvailable int64  `json:"minAvailable"`
	// Longest is the longest of the rollouts that completed.
	Longest float64 `json:"longestSeconds"`
	// Undecided counts the rollouts whose simulation stopped at its limit.
	Undecided int64 `json:"undecided"`
}

// checkJSON is check -o json.
type checkJSON struct {
	OK          bool        `json:"ok"`
	Deployments []checked   `json:"deployments"`
	Violations  []violation `json:"violations"`
}

type checkFlags struct {
	simFlags
	maxPods      int
	minAvailable minAvailableFlag
	maxDuration  time.Duration
	workers      int
	output       string
}

func runCheck(e *env, args []string) int {
	var f checkFlags
	fs := newFlagSet("check")
	f.input.add(fs, "", false)
	fs.IntVar(&f.maxPods, "max-pods", 0, "rule: at most `N` pods at any time (0: no rule)")
	fs.Var(&f.minAvailable, "min-available", "rule: at least `N|P%` pods available at any time")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "rule: the rollout completes within this (0: no rule)")
	fs.Var(&f.replicas, "replicas", "check each replica count `MIN..MAX` (or N) instead of spec.replicas")
	f.addQuota(fs)
	f.addReady(fs)
	fs.DurationVar(&f.interval, "interval", defaultInterval, "time between two syncs; 0: event driven")
	f.addLimit(fs)
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "simulate `N` rollouts at once (the default is the number of cores)")
	fs.StringVar(&f.output, "o", "text", "output `format`: text or json")
	if code := parse(e, fs, checkHelp, args); code >= 0 {
		return code
	}
	if f.output != "text" && f.output != "json" {
		return fail(e, "check", fmt.Errorf("-o %q: want text or json", f.output))
	}
	if f.maxPods < 0 || f.maxDuration < 0 {
		return fail(e, "check", fmt.Errorf("--max-pods and --max-duration must not be negative"))
	}
	if f.workers < 1 {
		return fail(e, "check", fmt.Errorf("--workers %d: must be at least 1", f.workers))
	}
	if err := f.check(); err != nil {
		return fail(e, "check", err)
	}
	in, err := f.input.load(e, "check")
	if err != nil {
		return fail(e, "check", err)
	}
	// One job per Deployment and replica count, numbered in input order:
	// job i is Deployment k at replicas lo_k + i - first[k].
	deps := in.objs.Deployments
	first := make([]int64, len(deps)+1)
	for k, d := range deps {
		lo, hi := f.rangeFor(d)
		first[k+1] = first[k] + int64(hi) - int64(lo) + 1
	}
	total := first[len(deps)]
	var (
		out      = checkJSON{OK: true, Deployments: []checked{}, Violations: []violation{}}
		limited  bool
		text     strings.Builder
		progress = newProgress(e.stderr, "check:", "rollouts", total, checkProgressRuns)
		failure  error
		c        checked
	)
	job := func(i int64) (int, int32) {
		k, _ := slices.BinarySearch(first, i+1)
		k--
		lo, _ := f.rangeFor(deps[k])
		return k, int32(int64(lo) + i - first[k])
	}
	inOrder(total, f.workers, func(i int64) rolloutCheck {
		k, r := job(i)
		return f.checkOne(in, deps[k], r)
	}, func(i int64, r rolloutCheck) bool {
		k, replicas := job(i)
		d := deps[k]
		if r.err != nil {
			failure = fmt.Errorf("%s: Deployment %s at %d replicas: %w", in.source(d), qualified(d), replicas, r.err)
			return false
		}
		if i == first[k] {
			lo, hi := f.rangeFor(d)
			c = checked{Deployment: qualified(d), MinReplicas: lo, MaxReplicas: hi, OK: true, MinAvailable: -1}
		}
		c.Rollouts++
		c.PeakPods = max(c.PeakPods, r.sum.PeakPods)
		if c.MinAvailable < 0 || r.sum.MinAvailable < c.MinAvailable {
			c.MinAvailable = r.sum.MinAvailable
		}
		if r.sum.Outcome == sim.OutcomeComplete {
			c.Longest = max(c.Longest, r.sum.Duration.Seconds())
		}
		for _, v := range r.violations {
			switch v.Severity {
			case severityError:
				c.OK, out.OK = false, false
			case severityLimit:
				c.Undecided++
				limited = true
			}
			out.Violations = append(out.Violations, v)
			writeViolation(&text, v)
		}
		if i == first[k+1]-1 {
			out.Deployments = append(out.Deployments, c)
			if c.OK && c.Undecided == 0 {
				writeOK(&text, c)
			}
		}
		progress.add(1)
		return true
	})
	if failure != nil {
		return fail(e, "check", failure)
	}
	if f.output == "json" {
		if code := writeJSON(e, "check", out); code != exitOK {
			return code
		}
	} else {
		io.WriteString(e.stdout, text.String())
	}
	switch {
	case !out.OK:
		return exitViolation
	case limited:
		return exitLimit
	}
	return exitOK
}

// rangeFor returns the replica counts to check for d.
func (f *checkFlags) rangeFor(d rollout.Deployment) (int32, int32) {
	if f.replicas.set {
		return f.replicas.min, f.replicas.max
	}
	return d.Spec.Replicas, d.Spec.Replicas
}

// rolloutCheck is what checking one rollout comes to: its violations,
// and the summary of its run (of the run past the progress deadline, when
// the deadline stopped the first).
type rolloutCheck struct {
	violations []violation
	sum        sim.Summary
	err        error
}

// checkOne simulates the rollout of d at replicas and returns the rules it
// breaks, in the order they happen.
func (f *checkFlags) checkOne(in *loaded, d rollout.Deployment, replicas int32) rolloutCheck {
	d = d.DeepCopy()
	d.Spec.Replicas = replicas
	if err := rollout.Validate(d); err != nil {
		return rolloutCheck{err: err}
	}
	var images []imageFlag
	restart := false
	if own := in.ownSets(d); len(own) == 0 || !inRollout(d, own) {
		if len(f.neverReady) > 0 {
			images = []imageFlag{{image: markerImage}}
		} else {
			restart = true
		}
	}
	s, _, err := start(in, d, images)
	if err != nil {
		return rolloutCheck{err: err}
	}
	if restart {
		s, err = sim.WithTemplateChange(s, func(t *rollout.PodTemplate) error {
			t.Annotations = maps.Clone(t.Annotations)
			if t.Annotations == nil {
				t.Annotations = map[string]string{}
			}
			t.Annotations[restartAnnotation] = s.Now.UTC().Format(time.RFC3339)
			return nil
		})
		if err != nil {
			return rolloutCheck{err: err}
		}
	}
	cfg := f.config()
	cfg.Pods.NeverReady = nil
	for _, img := range f.neverReady {
		if img == "new" {
			cfg.Pods.NeverReady = append(cfg.Pods.NeverReady, newImages(s)...)
		} else {
			cfg.Pods.NeverReady = append(cfg.Pods.NeverReady, img)
		}
	}
	var moments []moment
	observe := cfg
	observe.OmitSteps = true
	observe.Observe = func(st sim.Step) { moments = append(moments, momentOf(st, s.Now)) }
	res, err := sim.Run(s, observe)
	if err != nil {
		return rolloutCheck{err: err}
	}
	j := f.judge(s, res, moments)
	end := res.Summary
	if end.Outcome == sim.OutcomeDeadlineExceeded {
		// The deadline only reports; the controller goes on. Without it,
		// does the rollout finish, and when?
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
		s.Deployment.Status = rollout.RemoveDeploymentCondition(s.Deployment.Status, rollout.Progressing)
		cfg.OmitSteps = true
		again, err := sim.Run(s, cfg)
		if err != nil {
			return rolloutCheck{err: err}
		}
		end = again.Summary
	}
	j.ending(end)
	return rolloutCheck{violations: j.sorted(), sum: end}
}

// inRollout reports whether d is in the middle of a rollout over its
// ReplicaSets own: none has its template yet, or an old one still has
// replicas.
func inRollout(d rollout.Deployment, own []rollout.ReplicaSet) bool {
	if _, ok := rollout.FindNewReplicaSet(d, own); !ok {
		return true
	}
	withReplicas, _ := rollout.FindOldReplicaSets(d, own)
	return len(withReplicas) > 0
}

// newImages returns the images of the Deployment's template that no other
// ReplicaSet's template uses: what the rollout brings in.
func newImages(s rollout.State) []string {
	old := map[string]bool{}
	for _, rs := range s.ReplicaSets {
		if !rollout.EqualIgnoreHash(rs.Spec.Template, s.Deployment.Spec.Template) {
			for _, img := range templateImages(rs.Spec.Template) {
				old[img] = true
			}
		}
	}
	var out []string
	for _, img := range templateImages(s.Deployment.Spec.Template) {
		if !old[img] {
			out = append(out, img)
		}
	}
	return out
}

func writeViolation(w io.Writer, v violation) {
	label := map[string]string{severityError: "FAIL", severityWarning: "WARN", severityLimit: "LIMIT"}[v.Severity]
	at := "+" + fmtDuration(time.Duration(v.At*float64(time.Second)))
	if v.Cause == causeInput {
		at += " (input)"
	}
	fmt.Fprintf(w, "%-4s %s replicas=%d at %s: %s: %s\n", label, v.Deployment, v.Replicas, at, v.Rule, v.Message)
}

func writeOK(w io.Writer, c checked) {
	longest := fmtDuration(time.Duration(c.Longest * float64(time.Second)))
	if c.Rollouts == 1 {
		fmt.Fprintf(w, "OK   %s replicas=%d: peak pods %d, min available %d, complete in %s\n",
			c.Deployment, c.MinReplicas, c.PeakPods, c.MinAvailable, longest)
		return
	}
	fmt.Fprintf(w, "OK   %s replicas=%d..%d (%d rollouts): peak pods %d, min available %d, longest %s\n",
		c.Deployment, c.MinReplicas, c.MaxReplicas, c.Rollouts, c.PeakPods, c.MinAvailable, longest)
}
