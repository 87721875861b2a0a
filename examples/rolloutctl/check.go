package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const checkHelp = `rolloutctl check -f FILE [--max-pods N] [--min-available N|P%] [--max-duration D]
       [--replicas MIN..MAX] [--quota-pods N] [--ready-after D] [--never-ready IMAGE]...
       [--interval D] [-o text|json]

Simulates a rollout of EACH Deployment in FILE, at each replica count of
--replicas (default: its spec.replicas), and checks these rules:

  max-pods           at most --max-pods pods exist at any sync
  min-available      at least --min-available pods are available at any sync
                     (N, or P% of the replicas rounded up)
  max-duration       the rollout completes within --max-duration
  never-finishes     the rollout completes at all: not blocked by the quota
                     (--quota-pods) with no room to surge and maxUnavailable 0,
                     not stuck on pods that never become ready (--never-ready)
                     with maxUnavailable 0, not paused
  progress-deadline  Progressing never turns False with ProgressDeadlineExceeded
  single-replica-outage (a warning) one replica with maxSurge 0 forces
                     maxUnavailable to 1: the only pod goes down

The rollout changes the first container's image to the marker image
"rolloutctl/next"; when FILE holds the Deployment's ReplicaSets in the middle
of a rollout, it rolls out the template as given instead. --never-ready new
stands for the images the rollout brings in. Pods are ready as soon as they
are created (--ready-after) and the controller syncs every 30s (--interval).

Each violation is listed with the Deployment, the replicas and the time
after the start of the sync where it happened. Exit 1 when a rule is broken
(warnings do not count), 0 when all pass (one OK line per Deployment), 2 on
bad input. A progress line goes to stderr when more than 100 rollouts are
checked.
`

// markerImage is the image check rolls out to.
const markerImage = "rolloutctl/next"

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
	ruleOneReplica   = "single-replica-outage"
)

// violation is one broken rule, in check's output.
type violation struct {
	Deployment string  `json:"deployment"`
	Replicas   int32   `json:"replicas"`
	Rule       string  `json:"rule"`
	Severity   string  `json:"severity"` // "error" or "warning"
	At         float64 `json:"atSeconds"`
	Message    string  `json:"message"`
}

// checked is the outcome for one Deployment over its replica range.
type checked struct {
	Deployment   string  `json:"deployment"`
	MinReplicas  int32   `json:"minReplicas"`
	MaxReplicas  int32   `json:"maxReplicas"`
	Rollouts     int64   `json:"rollouts"`
	OK           bool    `json:"ok"`
	PeakPods     int64   `json:"peakPods"`
	MinAvailable int64   `json:"minAvailable"`
	Longest      float64 `json:"longestSeconds"`
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
	output       string
}

func runCheck(e *env, args []string) int {
	var f checkFlags
	fs := newFlagSet("check")
	fs.StringVar(&f.file, "f", "", "manifest `FILE` (YAML or JSON); - for standard input")
	fs.IntVar(&f.maxPods, "max-pods", 0, "rule: at most `N` pods at any time (0: no rule)")
	fs.Var(&f.minAvailable, "min-available", "rule: at least `N|P%` pods available at any time")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "rule: the rollout completes within this (0: no rule)")
	fs.Var(&f.replicas, "replicas", "check each replica count `MIN..MAX` (or N) instead of spec.replicas")
	f.addQuota(fs)
	f.addReady(fs)
	fs.DurationVar(&f.interval, "interval", defaultInterval, "time between two syncs; 0: event driven")
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
	if err := f.check(); err != nil {
		return fail(e, "check", err)
	}
	m, err := loadManifest(f.file, e.stdin)
	if err != nil {
		return fail(e, "check", err)
	}
	var total int64
	for _, d := range m.objs.Deployments {
		lo, hi := f.rangeFor(d)
		total += int64(hi) - int64(lo) + 1
	}
	var (
		out  = checkJSON{OK: true, Deployments: []checked{}, Violations: []violation{}}
		done int64
		text strings.Builder
	)
	for _, d := range m.objs.Deployments {
		lo, hi := f.rangeFor(d)
		c := checked{Deployment: qualified(d), MinReplicas: lo, MaxReplicas: hi, OK: true, MinAvailable: -1}
		for r := int64(lo); r <= int64(hi); r++ {
			vs, sm, err := f.checkOne(m, d, int32(r))
			if err != nil {
				return fail(e, "check", fmt.Errorf("%s: Deployment %s at %d replicas: %w", m.name, qualified(d), r, err))
			}
			c.Rollouts++
			c.PeakPods = max(c.PeakPods, sm.PeakPods)
			if c.MinAvailable < 0 || sm.MinAvailable < c.MinAvailable {
				c.MinAvailable = sm.MinAvailable
			}
			c.Longest = max(c.Longest, sm.Duration.Seconds())
			for _, v := range vs {
				if v.Severity == "error" {
					c.OK, out.OK = false, false
				}
				out.Violations = append(out.Violations, v)
				writeViolation(&text, v)
			}
			done++
			if total > checkProgressRuns && done*10/total != (done-1)*10/total {
				fmt.Fprintf(e.stderr, "check: %d%% (%d of %d rollouts)\n", done*100/total, done, total)
			}
		}
		out.Deployments = append(out.Deployments, c)
		if c.OK {
			writeOK(&text, c)
		}
	}
	if f.output == "json" {
		if code := writeJSON(e, "check", out); code != exitOK {
			return code
		}
	} else {
		io.WriteString(e.stdout, text.String())
	}
	if !out.OK {
		return exitViolation
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

// checkOne simulates the rollout of d at replicas and returns the rules it
// breaks, in the order they happen.
func (f *checkFlags) checkOne(m *manifest, d rollout.Deployment, replicas int32) ([]violation, sim.Summary, error) {
	d = d.DeepCopy()
	d.Spec.Replicas = replicas
	if err := rollout.Validate(d); err != nil {
		return nil, sim.Summary{}, err
	}
	var image imageFlag
	if !m.hasReplicaSets(d) || !inRollout(m.objs.State(d, time.Time{})) {
		image.image = markerImage
	}
	s, _, err := start(m, d, image)
	if err != nil {
		return nil, sim.Summary{}, err
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
	res, err := sim.Run(s, cfg)
	if err != nil {
		return nil, sim.Summary{}, err
	}
	vs := f.judge(s, res)
	if res.Summary.Outcome == sim.OutcomeDeadlineExceeded {
		// The deadline only reports; the controller goes on. Without it,
		// does the rollout finish?
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
		s.Deployment.Status = rollout.RemoveDeploymentCondition(s.Deployment.Status, rollout.Progressing)
		again, err := sim.Run(s, cfg)
		if err != nil {
			return nil, sim.Summary{}, err
		}
		if sm := again.Summary; sm.Outcome != sim.OutcomeComplete {
			b := sim.ComputeBounds(d.Spec.Strategy, d.Spec.Replicas)
			vs = append(vs, violation{Deployment: qualified(d), Replicas: d.Spec.Replicas, Rule: ruleNeverFinish, Severity: "error",
				At: sm.Duration.Seconds(), Message: "the rollout can never finish: " + neverFinishReason(d, b, f.quotaPods, sm)})
			sortViolations(vs)
		}
	}
	return vs, res.Summary, nil
}

// sortViolations orders violations by time, stably.
func sortViolations(vs []violation) {
	slices.SortStableFunc(vs, func(a, b violation) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
}

// judge applies the rules to a run.
func (f *checkFlags) judge(s rollout.State, res sim.Result) []violation {
	d := s.Deployment
	var vs []violation
	add := func(rule, severity string, at time.Duration, format string, args ...any) {
		vs = append(vs, violation{Deployment: qualified(d), Replicas: d.Spec.Replicas, Rule: rule, Severity: severity,
			At: at.Seconds(), Message: fmt.Sprintf(format, args...)})
	}
	sm := res.Summary
	offset := func(st sim.Step) time.Duration { return st.At.Sub(s.Now) }

	// Per sync: pods, availability, the progress deadline.
	var seenPods, seenAvail, seenDeadline, seenOutage bool
	need := int64(-1)
	if f.minAvailable.set {
		need = int64(f.minAvailable.of(d.Spec.Replicas))
	}
	b := sim.ComputeBounds(d.Spec.Strategy, d.Spec.Replicas)
	outage := d.Spec.Strategy.Type == rollout.RollingUpdateStrategy && d.Spec.Replicas == 1 && b.Surge == 0 && b.Unavailable == 1
	for _, st := range res.Steps {
		var pods, avail int64
		for _, c := range st.Sets {
			pods += int64(c.Current) + int64(c.Terminating)
			avail += int64(c.Available)
		}
		if f.maxPods > 0 && pods > int64(f.maxPods) && !seenPods {
			seenPods = true
			add(ruleMaxPods, "error", offset(st), "%d pods exist, above --max-pods %d (peak %d)", pods, f.maxPods, sm.PeakPods)
		}
		if need >= 0 && avail < need && !seenAvail {
			seenAvail = true
			add(ruleMinAvailable, "error", offset(st), "%d pods available, below --min-available %d (lowest %d)", avail, need, sm.MinAvailable)
		}
		if outage && avail == 0 && !seenOutage {
			seenOutage = true
			add(ruleOneReplica, "warning", offset(st), "one replica with maxSurge 0 forces maxUnavailable to 1: the only pod goes down during the rollout")
		}
		if c, ok := findCondition(st.Conditions, rollout.Progressing); ok && c.Reason == rollout.ReasonProgressDeadlineExceeded && !seenDeadline {
			seenDeadline = true
			add(ruleDeadline, "error", offset(st), "progress deadline exceeded: %s", c.Message)
		}
	}
	// Peaks between syncs, which the steps do not show.
	if f.maxPods > 0 && !seenPods && sm.PeakPods > int64(f.maxPods) {
		add(ruleMaxPods, "error", sm.Duration, "%d pods existed between syncs, above --max-pods %d", sm.PeakPods, f.maxPods)
	}
	if need >= 0 && !seenAvail && sm.MinAvailable < need {
		add(ruleMinAvailable, "error", sm.Duration, "%d pods available between syncs, below --min-available %d", sm.MinAvailable, need)
	}
	if outage && !seenOutage {
		add(ruleOneReplica, "warning", 0, "one replica with maxSurge 0 forces maxUnavailable to 1: the only pod goes down during the rollout")
	}

	switch {
	case sm.Outcome == sim.OutcomeComplete:
		if f.maxDuration > 0 && sm.Duration > f.maxDuration {
			at := sm.Duration
			for _, st := range res.Steps {
				if offset(st) > f.maxDuration {
					at = offset(st)
					break
				}
			}
			add(ruleMaxDuration, "error", at, "the rollout takes %s, longer than --max-duration %s", fmtDuration(sm.Duration), fmtDuration(f.maxDuration))
		}
	case sm.Outcome == sim.OutcomeDeadlineExceeded:
		if !seenDeadline {
			add(ruleDeadline, "error", sm.Duration, "progress deadline exceeded: %s", sm.Detail)
		}
	default:
		add(ruleNeverFinish, "error", sm.Duration, "the rollout can never finish: %s", neverFinishReason(d, b, f.quotaPods, sm))
	}
	sortViolations(vs)
	return vs
}

// neverFinishReason explains a rollout that stopped without completing.
func neverFinishReason(d rollout.Deployment, b sim.Bounds, quota int, sm sim.Summary) string {
	why := string(sm.Outcome)
	if sm.Detail != "" {
		why += " (" + sm.Detail + ")"
	}
	rolling := d.Spec.Strategy.Type == rollout.RollingUpdateStrategy
	switch sm.Outcome {
	case sim.OutcomeQuota:
		if rolling && b.Unavailable == 0 && quota > 0 && int64(quota) <= int64(d.Spec.Replicas) {
			return fmt.Sprintf("the quota of %d pods leaves no room above %d replicas for a surge pod, and maxUnavailable is 0: %s", quota, d.Spec.Replicas, why)
		}
	case sim.OutcomeNeverReady:
		if rolling && b.Unavailable == 0 {
			return "maxUnavailable is 0 and the new pods never become ready, so no old pod may go: " + why
		}
	case sim.OutcomeLimit:
		return "not complete when the simulation stopped: " + why
	}
	return why
}

// inRollout reports whether s is in the middle of a rollout: no
// ReplicaSet has the Deployment's template yet, or an old one still has
// replicas.
func inRollout(s rollout.State) bool {
	var own []rollout.ReplicaSet
	for _, rs := range s.ReplicaSets {
		if ref, ok := rs.ControllerRef(); (ok && ref.Name == s.Deployment.Name && ref.Kind == "Deployment") ||
			(!ok && s.Deployment.Spec.Selector.Matches(rs.Labels)) {
			own = append(own, rs)
		}
	}
	if _, ok := rollout.FindNewReplicaSet(s.Deployment, own); !ok {
		return true
	}
	withReplicas, _ := rollout.FindOldReplicaSets(s.Deployment, own)
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

func templateImages(t rollout.PodTemplate) []string {
	var spec struct {
		Containers     []struct{ Image string } `json:"containers"`
		InitContainers []struct{ Image string } `json:"initContainers"`
	}
	if json.Unmarshal(t.Spec.JSON(), &spec) != nil {
		return nil
	}
	var out []string
	for _, c := range append(spec.Containers, spec.InitContainers...) {
		out = append(out, c.Image)
	}
	return out
}

func findCondition(cs []rollout.Condition, t rollout.ConditionType) (rollout.Condition, bool) {
	for _, c := range cs {
		if c.Type == t {
			return c, true
		}
	}
	return rollout.Condition{}, false
}

func writeViolation(w io.Writer, v violation) {
	label := "FAIL"
	if v.Severity == "warning" {
		label = "WARN"
	}
	at := time.Duration(v.At * float64(time.Second))
	fmt.Fprintf(w, "%s %s replicas=%d at +%s: %s: %s\n", label, v.Deployment, v.Replicas, fmtDuration(at), v.Rule, v.Message)
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
