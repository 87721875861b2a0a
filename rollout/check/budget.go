package check

import (
	"cmp"
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
	return allWaves(moments[:untilDeadline(moments)])
}

// untilDeadline returns how many of moments come before the first that
// finds the progress deadline exceeded: all of them when none does.
func untilDeadline(moments []moment) int {
	for i, m := range moments {
		if m.deadline {
			return i
		}
	}
	return len(moments)
}

// allWaves returns the waves of a run from its moments, in order, up to
// the moment the rollout is complete, past the progress deadline too, as
// the controllers go on: the sync that finds the deadline exceeded sets
// the Progressing condition False (its lastUpdateTime then is that
// sync's, not progress), and the next sync that sees progress sets it
// True again at its own time, which ends the wave that exceeded the
// deadline. Up to the deadline they are waves' waves.
func allWaves(moments []moment) []wave {
	var out []wave
	started := false
	var last time.Duration
	for _, m := range moments {
		if m.deadline || !m.hasProgress {
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
		if m.deadline {
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

// goesOn adds to RuleDeadline's finding, if any, how the rollout goes
// on past the deadline: the deadline only reports, and the controllers
// go on. sm is the run's summary, end how the rollout ended (see
// afterDeadline, conclude). Under the controllers model the run went on
// past the deadline, and the rollout completes at
// sm.CompleteAfterDeadline, the wave that exceeded the deadline lasting
// as long as the run's own moments past it say; or it is not complete
// where the run stops, Config.Sim.PastDeadline (an hour) after the
// deadline; or it gets stuck, or the work budget runs out, which
// RuleNeverFinish and RuleLimit tell. Under the other models, which stop
// at the deadline, end is a run's without one. A run that stopped at
// the deadline for a negative PastDeadline says so.
func (j *judgement) goesOn(sm, end sim.Summary) {
	if sm.Outcome != sim.OutcomeDeadlineExceeded {
		return
	}
	lasts, without := "", ""
	if w, ok := j.exceedingWave(); ok {
		lasts = fmt.Sprintf(" (wave %d lasts %s, to +%s)", w.n, words.Duration(w.length()), words.Duration(w.to))
	}
	if j.without {
		without = ", as a run without the deadline has it (this model stops at the deadline)"
	}
	var then string
	switch {
	case end.Outcome == sim.OutcomeDeadlineExceeded:
		then = "; kubectl rollout status fails here, and the simulation stops here too (Config.Sim.PastDeadline is negative): how the controllers go on is not judged"
	case end.Outcome == sim.OutcomeComplete:
		then = fmt.Sprintf("; kubectl rollout status fails here, but the controllers go on%s, and the rollout completes at +%s%s", lasts, words.Duration(end.Duration), without)
	case end.Outcome == sim.OutcomeLimit && !j.without && !j.limited:
		then = fmt.Sprintf("; kubectl rollout status fails here, and the controllers go on%s, but the rollout is not complete %s after it (+%s), where the simulation stops",
			lasts, words.Duration(j.f.pastDeadline()), words.Duration(j.stopsAt(sm)))
	case end.Outcome == sim.OutcomeLimit:
		then = fmt.Sprintf("; kubectl rollout status fails here, and the controllers go on%s, but the simulation stops at its work limit (+%s) before the rollout completes%s", lasts, words.Duration(end.Duration), without)
	default:
		then = fmt.Sprintf("; kubectl rollout status fails here, and the controllers go on%s, but the rollout can never complete (%s)%s", lasts, end.Outcome, without)
	}
	for i := range j.vs {
		if v := &j.vs[i]; v.Rule == RuleDeadline {
			v.Message += then
		}
	}
}

// pastDeadline returns how long the runs go on past a progress deadline
// they exceed: Config.Sim.PastDeadline, or sim.DefaultPastDeadline.
func (f *checker) pastDeadline() time.Duration {
	return cmp.Or(f.sim.PastDeadline, sim.DefaultPastDeadline)
}

// stopsAt returns where a run that went on past its progress deadline
// and stopped at a time limit stopped: PastDeadline after the deadline,
// or at Config.Sim.MaxTime if that comes first.
func (j *judgement) stopsAt(sm sim.Summary) time.Duration {
	at := sm.DeadlineExceededAt + min(j.f.pastDeadline(), math.MaxInt64-sm.DeadlineExceededAt) // no overflow
	if mt := j.f.sim.MaxTime; mt > 0 {
		at = min(at, mt)
	}
	return at
}

// exceedingWave returns the wave that exceeded the progress deadline, as
// the run's moments past the deadline have it, and false when the run
// has no progress after the deadline.
func (j *judgement) exceedingWave() (wave, bool) {
	from, n := lastProgress(j.moments)
	for _, w := range allWaves(j.moments) {
		if w.n == n && w.from == from {
			return w, true
		}
	}
	return wave{}, false
}

// afterDeadline returns how the rollout of a run ended, as ending judges
// it: the run's summary sm, or, for a run that went on past its progress
// deadline, sm as it would be without the deadline: complete at
// CompleteAfterDeadline, or else the outcome the run past the deadline
// came to (AfterDeadline), at its last change; for a stuck rollout, at
// the last moment its pods changed (moments are the start's and the
// steps'), as the deadline's own status write is a change but not
// progress: where the rollout got stuck.
func afterDeadline(sm sim.Summary, moments []moment) sim.Summary {
	if sm.Outcome != sim.OutcomeDeadlineExceeded || sm.AfterDeadline == "" {
		return sm
	}
	end := sm
	if sm.CompleteAfterDeadline > 0 {
		end.Outcome, end.Detail, end.Duration = sim.OutcomeComplete, "", sm.CompleteAfterDeadline
		return end
	}
	end.Outcome, end.Detail, end.Duration = sm.AfterDeadline, sm.AfterDeadlineDetail, sm.LastChange
	if end.Outcome.Stuck() {
		end.Duration = min(lastPodChange(moments), sm.LastChange)
	}
	return end
}

// lastPodChange returns the offset of the last of moments whose pods,
// ready or available pods, ReplicaSet sizes, replicas or pending pods
// differ from the moment before it: 0 when none does.
func lastPodChange(moments []moment) time.Duration {
	var at time.Duration
	for i := 1; i < len(moments); i++ {
		a, b := moments[i-1], moments[i]
		if a.pods != b.pods || a.avail != b.avail || a.ready != b.ready || a.newReady != b.newReady || a.desired != b.desired || a.replicas != b.replicas || a.pending != b.pending {
			at = b.at
		}
	}
	return at
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
		if w, ok := longest(allWaves(j.moments)); ok {
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
		why += fmt.Sprintf("; helm upgrade --wait (Helm 3) waits only for %s of the new ReplicaSet (spec.replicas - maxUnavailable): at +%s, %s", words.Plural(int(need), "ready pod"), words.Duration(at), verdict)
	}
	j.budgetPlace(RuleTimeout, SeverityError, limit, "the rollout is expected to take %s, longer than the timeout %s: %s%s",
		words.Duration(took), words.Duration(limit), why, slowest)
}

// deadlineAt returns when the run stopped at the progress deadline, if
// it did.
func (j *judgement) deadlineAt() (time.Duration, bool) {
	for _, m := range j.moments {
		if m.deadline {
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

// unfinished judges a rollout whose run stopped at, not complete, at or
// past its progress deadline, against Config.Timeout and the
// max-duration rule: a limit before that is broken, however the
// rollout goes on after.
func (j *judgement) unfinished(at time.Duration) {
	if limit := j.f.timeout; limit > 0 && at > limit {
		why := "kubectl rollout status --timeout gives up first"
		if dl, ok := j.deadlineAt(); ok && dl <= limit {
			from, n := lastProgress(j.moments)
			why = fmt.Sprintf("kubectl rollout status fails before, at +%s, when wave %d (from +%s) exceeds the progress deadline", words.Duration(dl), n, words.Duration(from))
		}
		j.budgetPlace(RuleTimeout, SeverityError, limit, "the rollout is not complete at +%s, where the simulation stops, longer than the timeout %s: %s",
			words.Duration(at), words.Duration(limit), why)
	}
	if max := j.f.maxDuration; max > 0 && at > max {
		j.add(RuleMaxDuration, SeverityError, max, CauseRollout, "the rollout is not complete at +%s, where the simulation stops, longer than the max-duration limit %s", words.Duration(at), words.Duration(max))
	}
}
