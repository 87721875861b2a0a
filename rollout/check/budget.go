package check

import (
	"fmt"
	"math"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// The time budget of a rollout: how long it takes against the two clocks
// that watch it.
//
// The Deployment controller's progress check (progressDeadlineSeconds)
// does not time the rollout as a whole. At each sync that sees progress
// (more updated, ready or available replicas than the status held, or
// fewer old ones: upstream's DeploymentProgressing) it moves the
// Progressing condition's lastUpdateTime to now, and it reports
// ProgressDeadlineExceeded at a sync that finds lastUpdateTime more than
// the deadline ago. So what must fit the deadline is each wave: the time
// from one progress update to the next. A CI job's timeout (kubectl
// rollout status --timeout) does time the whole rollout; Helm 3's
// upgrade --wait --timeout times it up to spec.replicas - maxUnavailable
// ready pods of the new ReplicaSet.

// The rules of the time budget, as a Finding names them.
const (
	RuleDeadlineMargin = "progress-deadline-margin"
	RuleTimeout        = "timeout"
)

// DeadlineMargin is the share of progressDeadlineSeconds above which a
// wave of a rollout that does meet the deadline is warned of
// (RuleDeadlineMargin): 80%, so that pods 25% slower than modelled (a
// slower image pull, a busier node) would still not exceed it.
const DeadlineMargin = 0.8

// A wave is the time between two progress updates of a rollout: the
// Progressing condition's lastUpdateTime moved at from, then at to. n
// counts the waves from 1.
type wave struct {
	n        int
	from, to time.Duration
}

func (w wave) length() time.Duration { return w.to - w.from }

// waves returns the waves of a run from its moments, in order, up to the
// moment the rollout is complete (the Progressing condition's reason
// NewReplicaSetAvailable) or the deadline exceeded, whichever comes
// first. A run without the Progressing condition (no deadline) has none.
// The first wave starts at the lastUpdateTime the first sync leaves, and
// no wave starts before the start of the rollout.
func waves(moments []moment) []wave {
	var out []wave
	started := false
	var last time.Duration
	for _, m := range moments {
		if m.deadlineReason != "" {
			break
		}
		if !m.hasProgress {
			continue
		}
		at := max(m.progressAt, 0)
		switch {
		case !started:
			started, last = true, at
		case at != last:
			out = append(out, wave{n: len(out) + 1, from: last, to: at})
			last = at
		}
		if m.complete {
			break
		}
	}
	return out
}

// longest returns the longest wave, the first of equal ones, and false
// when there is none.
func longest(ws []wave) (wave, bool) {
	var w wave
	for _, x := range ws {
		if x.length() > w.length() {
			w = x
		}
	}
	return w, len(ws) > 0
}

// lastProgress returns when the rollout last made progress before the
// deadline stopped it, and the number of the wave that exceeded it.
func lastProgress(moments []moment) (time.Duration, int) {
	ws := waves(moments)
	var at time.Duration
	started := false
	for _, m := range moments {
		if m.deadlineReason != "" {
			break
		}
		if m.hasProgress {
			at, started = max(m.progressAt, 0), true
		}
	}
	if !started {
		return 0, 1
	}
	return at, len(ws) + 1
}

// deadline returns the Deployment's progress deadline, and false when it
// has none (progressDeadlineSeconds is the Unlimited value).
func (j *judgement) deadline() (limit time.Duration, ok bool) {
	if !rollout.HasProgressDeadline(j.d) {
		return 0, false
	}
	return time.Duration(j.d.Spec.ProgressDeadlineSeconds.Value) * time.Second, true
}

// deadlineWords words the deadline: "progressDeadlineSeconds 300 (5m)",
// or "the default progressDeadlineSeconds 600 (10m)" when the manifest
// leaves it out.
func (j *judgement) deadlineWords(limit time.Duration) string {
	w := fmt.Sprintf("progressDeadlineSeconds %d (%s)", int64(limit/time.Second), words.Duration(limit))
	if !j.in.deploymentPlace(j.d, "spec.progressDeadlineSeconds").Written {
		return "the default " + w
	}
	return w
}

// budgetPlace adds a time budget finding, at the line of
// spec.progressDeadlineSeconds (or where to add it), with the strategy's
// fields, minReadySeconds and the probes that time the waves as related
// places.
func (j *judgement) budgetPlace(rule, severity string, at time.Duration, format string, args ...any) {
	j.add(rule, severity, at, CauseRollout, format, args...)
	// The deadline's line; where the manifest leaves it out, the line
	// to add it at (marked as a default), as RuleDeadline's.
	j.vs[len(j.vs)-1].Location = j.in.deploymentPlace(j.d, "spec.progressDeadlineSeconds")
	j.related(j.timingPlaces()...)
}

// timingPlaces returns the places of the fields that set how long the
// waves take, as the input writes them: the strategy, minReadySeconds,
// and the readiness and startup probes of the containers and sidecars.
func (j *judgement) timingPlaces() []Location {
	var paths []string
	if j.d.Spec.Strategy.Type == rollout.RecreateStrategy {
		paths = append(paths, "spec.strategy.type")
	} else {
		paths = append(paths, "spec.strategy.rollingUpdate.maxSurge", "spec.strategy.rollingUpdate.maxUnavailable")
	}
	paths = append(paths, "spec.minReadySeconds")
	spec, res := schema.DecodePodSpec(j.d.Spec.Template.Spec.JSON(), schema.DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 || res.Malformed || spec == nil {
		spec = &schema.PodSpec{} // validated on load: the places of the strategy alone
	}
	probes := func(list string, cs []schema.Container, only func(*schema.Container) bool) {
		for i := range cs {
			c := &cs[i]
			if only != nil && !only(c) {
				continue
			}
			if c.StartupProbe != nil {
				paths = append(paths, fmt.Sprintf("spec.template.spec.%s[%d].startupProbe", list, i))
			}
			if c.ReadinessProbe != nil {
				paths = append(paths, fmt.Sprintf("spec.template.spec.%s[%d].readinessProbe", list, i))
			}
		}
	}
	probes("initContainers", spec.InitContainers, func(c *schema.Container) bool { return c.RestartPolicy != nil && *c.RestartPolicy == "Always" })
	probes("containers", spec.Containers, nil)
	var out []Location
	for _, p := range paths {
		if l := j.in.deploymentPlace(j.d, p); l.Written {
			out = append(out, l)
		}
	}
	return out
}

// deadlineMargin warns of a rollout that meets its progress deadline
// with less than a fifth of it to spare in some wave (RuleDeadlineMargin).
// A rollout that exceeds it is RuleDeadline's.
func (j *judgement) deadlineMargin() {
	limit, ok := j.deadline()
	if !ok || limit <= 0 {
		return
	}
	if _, stopped := j.deadlineAt(); stopped {
		return
	}
	w, ok := longest(waves(j.moments))
	if !ok || float64(w.length()) <= DeadlineMargin*float64(limit) {
		return
	}
	j.budgetPlace(RuleDeadlineMargin, SeverityWarning, w.from,
		"wave %d waits %s for progress, from +%s to +%s: %.0f%% of %s, above the %.0f%% margin; pods a little slower than modelled exceed it",
		w.n, words.Duration(w.length()), words.Duration(w.from), words.Duration(w.to),
		100*float64(w.length())/float64(limit), j.deadlineWords(limit), 100*DeadlineMargin)
}

// goesOn adds to RuleDeadline's finding, if any, when the rollout that
// went on past the deadline (end is how it ended) completed: the
// deadline only reports, the controller does not stop. The wave that
// exceeded the deadline lasts as long as in the run past it.
func (j *judgement) goesOn(end time.Duration) {
	lasts := ""
	if w, ok := j.exceedingWave(); ok {
		lasts = fmt.Sprintf(" (wave %d lasts %s, to +%s)", w.n, words.Duration(w.length()), words.Duration(w.to))
	}
	for i := range j.vs {
		if v := &j.vs[i]; v.Rule == RuleDeadline {
			v.Message += fmt.Sprintf("; kubectl rollout status fails here, but the controller goes on%s, and the rollout completes at +%s", lasts, words.Duration(end))
		}
	}
}

// exceedingWave returns the wave that exceeded the progress deadline, as
// the run past the deadline has it, and false without that run.
func (j *judgement) exceedingWave() (wave, bool) {
	from, n := lastProgress(j.moments)
	for _, w := range waves(j.past) {
		if w.n == n && w.from == from {
			return w, true
		}
	}
	return wave{}, false
}

// pastDeadline runs the rollout of s under cfg once more, with a progress
// deadline it cannot exceed: longer than took, the time the rollout
// takes without one, which no wave outlasts. It returns the moments,
// whose Progressing condition gives the waves past the deadline of s, or
// nil if the run ends otherwise than complete (the deadline's re-checks
// wake the controller, so the run may differ from the one without a
// deadline), or when took is too long for such a deadline. It also
// returns what the run cost (nothing when it did not run).
func pastDeadline(s rollout.State, cfg sim.Config, took time.Duration) ([]moment, sim.Cost, error) {
	secs := int64(took/time.Second) + 2
	if secs >= math.MaxInt32 {
		return nil, sim.Cost{}, nil
	}
	s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(int32(secs))
	var moments []moment
	cfg.OmitSteps = true
	cfg.Observe = func(st sim.Step) { moments = append(moments, momentOf(st, s.Now)) }
	res, cost, err := sim.RunCost(s, cfg)
	if err != nil || res.Summary.Outcome != sim.OutcomeComplete {
		return nil, cost, err
	}
	return moments, cost, nil
}

// deadlineWave words the wave that exceeded the progress deadline, for
// RuleDeadline's message: "wave 3 made no progress from +2m for more than
// progressDeadlineSeconds 60 (1m)".
func (j *judgement) deadlineWave() string {
	limit, ok := j.deadline()
	if !ok {
		return ""
	}
	from, n := lastProgress(j.moments)
	return fmt.Sprintf("wave %d made no progress from +%s for more than %s", n, words.Duration(from), j.deadlineWords(limit))
}

// timeout judges a rollout that completed in took against Config.Timeout
// (RuleTimeout): the CI job waiting for it gives up first. kubectl
// rollout status waits for the rollout to be complete, and fails at once
// when the progress deadline is exceeded; Helm 3's --wait (its
// ReadyChecker) only until the new ReplicaSet has spec.replicas -
// maxUnavailable ready pods, which the message gives when it differs.
func (j *judgement) timeout(took time.Duration) {
	limit := j.f.timeout
	if limit <= 0 || took <= limit {
		return
	}
	why := "kubectl rollout status --timeout gives up while the rollout goes on"
	slowest := ""
	if at, ok := j.deadlineAt(); ok {
		from, n := lastProgress(j.moments)
		why = fmt.Sprintf("kubectl rollout status fails before, at +%s, when wave %d (from +%s) exceeds the progress deadline", words.Duration(at), n, words.Duration(from))
		if w, ok := longest(waves(j.past)); ok {
			slowest = fmt.Sprintf("; its slowest wave, %d, waits %s for progress from +%s", w.n, words.Duration(w.length()), words.Duration(w.from))
		}
	} else if w, ok := longest(waves(j.moments)); ok {
		slowest = fmt.Sprintf("; its slowest wave, %d, waits %s for progress from +%s", w.n, words.Duration(w.length()), words.Duration(w.from))
	}
	if need, at, ok := j.helmReady(); ok && at < took {
		verdict := "after the timeout too"
		if at <= limit {
			verdict = "within the timeout"
		}
		why += fmt.Sprintf("; helm upgrade --wait (Helm 3) waits only for %d ready pods of the new ReplicaSet (spec.replicas - maxUnavailable): at +%s, %s", need, words.Duration(at), verdict)
	}
	j.budgetPlace(RuleTimeout, SeverityError, limit, "the rollout is expected to take %s, longer than the timeout %s: %s%s",
		words.Duration(took), words.Duration(limit), why, slowest)
}

// deadlineAt returns when the run stopped at the progress deadline, if
// it did.
func (j *judgement) deadlineAt() (time.Duration, bool) {
	for _, m := range j.moments {
		if m.deadlineReason != "" {
			return m.at, true
		}
	}
	return 0, false
}

// helmReady returns when Helm 3's --wait takes the Deployment for ready:
// the first sync after which its new ReplicaSet has spec.replicas -
// maxUnavailable ready pods (all of them for Recreate), and that count.
func (j *judgement) helmReady() (need int64, at time.Duration, ok bool) {
	for _, m := range j.moments {
		d := j.d
		d.Spec.Replicas = m.replicas
		need = int64(m.replicas) - int64(rollout.MaxUnavailable(d))
		if m.newReady >= need {
			return need, m.at, true
		}
	}
	return need, 0, false
}
