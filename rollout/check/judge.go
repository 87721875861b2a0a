package check

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// Causes of a violation: what the input holds before the first sync, or
// what the rollout does.
const (
	CauseInput   = "input"
	CauseRollout = "rollout"
)

// A moment is what check needs of a step: when it was, the pods and
// available pods, the replicas, and the progress deadline's message if it
// was exceeded. Check keeps moments rather than steps, so that a long run
// costs little memory.
type moment struct {
	at                 time.Duration
	pods, avail, ready int64
	replicas           int32
	// deadline says the Progressing condition is False with
	// ProgressDeadlineExceeded. Its message is the run's (deadlineOf),
	// not the moment's: a moment holds no pointer, so that the
	// collector need not scan the millions of them a long run keeps.
	deadline bool
	refused  bool // a ReplicaSet reports pods the quota refused
	// progressAt is the Progressing condition's lastUpdateTime after the
	// start, when hasProgress; complete is its reason
	// NewReplicaSetAvailable. (The four flags lie together: 72 bytes a
	// moment.)
	hasProgress, complete bool
	progressAt            time.Duration
	newReady              int64 // ready pods of the new ReplicaSet
	desired               int64 // the ReplicaSets' spec.replicas, summed
	pending               int64 // pods bound to no node (see placement)
}

func momentOf(st sim.Step, start time.Time) moment {
	m := moment{at: st.At.Sub(start), replicas: st.Replicas}
	m.pods, m.avail = st.Pods()
	for _, c := range st.Sets {
		m.ready += int64(c.Ready)
		m.desired += int64(c.Desired)
		if c.New {
			m.newReady += int64(c.Ready)
		}
		m.pending += int64(c.Pending)
	}
	status := rollout.DeploymentStatus{Conditions: st.Conditions}
	c, ok := rollout.GetDeploymentCondition(status, rollout.Progressing)
	m.deadline = ok && c.Status == rollout.ConditionFalse && c.Reason == rollout.ReasonProgressDeadlineExceeded
	if ok {
		m.progressAt, m.hasProgress = c.LastUpdateTime.Sub(start), true
		m.complete = c.Reason == rollout.ReasonNewReplicaSetAvailable
	}
	if c, ok := rollout.GetDeploymentCondition(status, rollout.ReplicaFailure); ok && c.Status == rollout.ConditionTrue {
		m.refused = true
	}
	return m
}

// deadlineOf returns the message of a step's Progressing condition: the
// reason of a moment whose deadline is exceeded, as the controller
// words it.
func deadlineOf(st sim.Step) string {
	c, _ := rollout.GetDeploymentCondition(rollout.DeploymentStatus{Conditions: st.Conditions}, rollout.Progressing)
	return c.Message
}

// A judgement applies check's rules to one run, each at the time it
// breaks.
type judgement struct {
	f       *checker
	in      *Input
	pol     *rolloutPolicy
	d       rollout.Deployment // at the start
	res     sim.Result         // without its steps
	moments []moment
	// deadlineMessage is the Progressing condition's message at the
	// first moment whose deadline is exceeded.
	deadlineMessage string
	vs              []Finding
	// budget is the work the rollout's run had (see workbudget.go), and
	// limited says that the run stopped at it; syncsCapped that it
	// stopped at the syncs a check run may make (checker.maxSyncs).
	budget      int
	limited     bool
	syncsCapped bool
	// without says that how the rollout ends comes from a run without
	// the progress deadline, under a model that stops at it.
	without bool

	startPods, startAvail int64
	inputPods, inputAvail bool // the input already breaks the rule
	seenPods, seenAvail   bool
	// seenHigh: the warning of the order that defers deletions was given.
	seenHigh bool
	// pastDeadline: in a run that went on past its progress deadline,
	// the judgement is past the sync that found it exceeded, and the
	// figures up to it were judged between syncs (see steps).
	pastDeadline bool
}

// judge applies the rules that a run decides by itself: pods and
// availability, from the input on, the progress deadline and the
// strategy's outage warning. ending adds how the rollout ends.
func (f *checker) judge(in *Input, pol *rolloutPolicy, s rollout.State, res sim.Result, moments []moment, deadline string) *judgement {
	j := &judgement{f: f, in: in, pol: pol, d: s.Deployment, res: res, moments: moments, deadlineMessage: deadline}
	j.input()
	j.steps()
	j.betweenSyncs()
	j.outage()
	j.deadlineMargin()
	return j
}

func (j *judgement) add(rule, severity string, at time.Duration, cause, format string, args ...any) {
	field := j.field(rule)
	if cause == CauseInput {
		field = "spec.replicas" // the pods the input already runs
	}
	j.vs = append(j.vs, Finding{Deployment: Qualified(j.d), Replicas: j.d.Spec.Replicas, Rule: rule, Severity: severity,
		At: at.Seconds(), Cause: cause, Message: fmt.Sprintf(format, args...), Location: j.in.deploymentPlace(j.d, field)})
}

// field is the field of the Deployment to change for a rule: the part of
// the strategy that lets pods exceed a limit or availability drop, the
// replicas the input already exceeds, the deadline.
func (j *judgement) field(rule string) string {
	recreate := j.d.Spec.Strategy.Type == rollout.RecreateStrategy
	switch {
	case rule == RuleDeadline:
		return "spec.progressDeadlineSeconds"
	case rule == RuleLimit:
		return "spec.replicas"
	case j.d.Spec.Paused && rule == RuleNeverFinish:
		return "spec.paused"
	case recreate && rule == RuleMaxPods:
		return "spec.replicas"
	case recreate:
		return "spec.strategy.type"
	case rule == RuleMinAvailable, rule == RuleNeverFinish, rule == RuleOutage:
		return "spec.strategy.rollingUpdate.maxUnavailable"
	}
	return "spec.strategy.rollingUpdate.maxSurge"
}

// related adds the places of the objects involved to the violation just
// added.
func (j *judgement) related(ps ...Location) {
	v := &j.vs[len(j.vs)-1]
	for _, p := range ps {
		if p.File != "" {
			v.Related = append(v.Related, p)
		}
	}
}

// throttled warns of a quota that refused pods during a rollout that
// completed all the same (end is how it ended): it waited for room.
func (j *judgement) throttled(end sim.Summary) {
	if end.FailedCreates == 0 || end.Outcome != sim.OutcomeComplete {
		return
	}
	var at time.Duration
	for _, m := range j.moments {
		if m.refused {
			at = m.at
			break
		}
	}
	j.add(RuleThrottled, SeverityWarning, at, CauseRollout,
		"%s: the quota refused pods %s, and the rollout waited for old pods to go; the ReplicaSet controller retries with a backoff of up to 16m40s (kubernetes#98656), and real runs can take minutes longer than the simulation's",
		j.quotaWhy(), words.Plural(end.FailedCreates, "time"))
	j.related(j.pol.cap.where())
}

// quotaWhy words the pod quota of the run: --quota-pods, or what the
// ResourceQuotas leave.
func (j *judgement) quotaWhy() string {
	if j.f.quotaPods > 0 || j.pol.cap.pods < 0 {
		return fmt.Sprintf("a pod quota of %d", j.f.quotaPods)
	}
	return j.pol.cap.why()
}

// need returns the available pods --min-available asks of replicas, or -1
// without the rule.
func (j *judgement) need(replicas int32) int64 {
	if !j.f.minAvailable.set {
		return -1
	}
	return int64(j.f.minAvailable.of(replicas))
}

// input reports what the input breaks before the first sync.
func (j *judgement) input() {
	j.startPods, j.startAvail = j.res.Start.Pods()
	if max := int64(j.f.maxPods); max > 0 && j.startPods > max {
		j.inputPods = true
		j.add(RuleMaxPods, SeverityError, 0, CauseInput, "the input already has %s, above the max-pods limit %d, before the first sync", words.Plural(int(j.startPods), "pod"), max)
	}
	if n := j.need(j.res.Start.Replicas); n >= 0 && j.startAvail < n {
		j.inputAvail = true
		j.add(RuleMinAvailable, SeverityError, 0, CauseInput, "the input has %s available, below the min-available limit %d, before the first sync", words.Plural(int(j.startAvail), "pod"), n)
	}
}

// steps reports the first sync that breaks each rule. Where the input
// already broke it, the rollout breaks it only by going further. A sync
// whose counts go beyond the run's peak or fewest available breaks no
// pod rule: under sim.ModelControllers a step's counts are the
// ReplicaSets' statuses, which lag the pods that exist (a new
// ReplicaSet's ready pods not yet in its status), while the summary
// counts the pods; betweenSyncs then judges the summary's figures.
//
// In a run that went on past its progress deadline, the syncs up to the
// one that found it exceeded are judged by the figures up to it
// (sim.Summary.UpToDeadline), and what they leave is judged between
// syncs before any sync past it, as a run stopped at the deadline judges
// it; the syncs past it are judged by the whole run's figures.
func (j *judgement) steps() {
	sm := j.res.Summary
	seenDeadline := false
	for _, m := range j.moments {
		if sm.AfterDeadline != "" && !j.pastDeadline && m.at > sm.DeadlineExceededAt {
			j.crossDeadline()
		}
		e := j.figures()
		if max := int64(j.f.maxPods); max > 0 && !j.seenPods && m.pods > max && m.pods <= e.PeakPods && (!j.inputPods || m.pods > j.startPods) {
			j.seenPods = true
			j.add(RuleMaxPods, SeverityError, m.at, CauseRollout, "%s, above the max-pods limit %d (peak %d%s)%s%s", podsExist(m.pods), max, e.PeakPods, j.overWords(e.PeakPodsAt), j.pastWords(m.at), j.laterPeak(e))
		}
		if n := j.need(m.replicas); n >= 0 && !j.seenAvail && m.avail < n && m.avail >= e.MinAvailable && (!j.inputAvail || m.avail < j.startAvail) {
			j.seenAvail = true
			j.add(RuleMinAvailable, SeverityError, m.at, CauseRollout, "%s available, below the min-available limit %d (lowest %d%s)%s%s", words.Plural(int(m.avail), "pod"), n, e.MinAvailable, j.overWords(e.MinAvailableAt), j.pastWords(m.at), j.laterLow(e))
		}
		if m.deadline && !seenDeadline {
			seenDeadline = true
			j.add(RuleDeadline, SeverityError, m.at, CauseRollout, "progress deadline exceeded: %s; %s", strings.TrimSuffix(j.deadlineMessage, "."), j.deadlineWave())
			j.related(j.timingPlaces()...)
			if sm.AfterDeadline != "" && m.at >= sm.DeadlineExceededAt {
				// The sync that found the deadline exceeded: a run
				// stopped there ends with it.
				j.crossDeadline()
			}
		}
	}
}

// figures returns the figures the pods are judged by now: up to the
// progress deadline of a run that went on past it, those up to it;
// otherwise the whole run's.
func (j *judgement) figures() sim.Extremes {
	sm := j.res.Summary
	if sm.AfterDeadline != "" && !j.pastDeadline {
		return sm.UpToDeadline
	}
	return sm.Extremes()
}

// crossDeadline ends the judgement up to the progress deadline of a run
// that went on past it: the figures up to it are judged between syncs,
// as the run stopped there judges them, and the whole run's from then on.
func (j *judgement) crossDeadline() {
	j.between(j.figures())
	j.pastDeadline = true
}

// betweenSyncs reports the extremes the steps do not show: pods that
// existed, or were unavailable, between two syncs (those up to the
// progress deadline first, if steps has not judged them).
func (j *judgement) betweenSyncs() {
	if j.res.Summary.AfterDeadline != "" && !j.pastDeadline {
		j.crossDeadline()
	}
	j.between(j.figures())
}

// laterPeak, laterLow and laterHigh word the whole run's figure where it
// is worse than e's, the figures up to the progress deadline a finding
// quotes, after what the run stopped at the deadline says: the
// controllers go on, and the rule's one finding must not hide the worse
// figure past the deadline ("" where the finding is past the deadline,
// or the whole run's figure is e's).
func (j *judgement) laterPeak(e sim.Extremes) string {
	if sm := j.res.Summary; j.upToDeadline() && sm.PeakPods > e.PeakPods {
		return fmt.Sprintf("%s%s at +%s", pastDeadlineLead, podsExist(sm.PeakPods), words.Duration(sm.PeakPodsAt))
	}
	return ""
}

func (j *judgement) laterLow(e sim.Extremes) string {
	if sm := j.res.Summary; j.upToDeadline() && sm.MinAvailable < e.MinAvailable {
		return fmt.Sprintf("%s%s available at +%s", pastDeadlineLead, words.Plural(int(sm.MinAvailable), "pod"), words.Duration(sm.MinAvailableAt))
	}
	return ""
}

func (j *judgement) laterHigh(e sim.Extremes) string {
	if sm := j.res.Summary; j.upToDeadline() && sm.PeakPodsHigh > e.PeakPodsHigh {
		return fmt.Sprintf("%sup to %s can exist", pastDeadlineLead, words.Plural(int(sm.PeakPodsHigh), "pod"))
	}
	return ""
}

// pastDeadlineLead starts the words of a worse figure past the progress
// deadline (laterPeak).
const pastDeadlineLead = "; past the progress deadline, as the controllers go on, "

// upToDeadline reports whether the judgement is of the figures up to the
// progress deadline of a run that went on past it.
func (j *judgement) upToDeadline() bool {
	return j.res.Summary.AfterDeadline != "" && !j.pastDeadline
}

// between reports the figures e when they break a rule and no earlier
// finding did.
func (j *judgement) between(e sim.Extremes) {
	j.peakBetween(e)
	if max := int64(j.f.maxPods); max > 0 && !j.seenPods && !j.seenHigh && e.PeakPodsHigh > max && (!j.inputPods || e.PeakPodsHigh > j.startPods) {
		// The likelier orders of the controllers' racing work stay within
		// the limit; the order that defers every deletion of an instant
		// does not (see sim's package doc, Races).
		j.seenHigh = true
		j.add(RuleMaxPods, SeverityWarning, e.PeakPodsAt, CauseRollout,
			"up to %s can exist if the ReplicaSet controller deletes old pods after creating new ones at each instant, above the max-pods limit %d (the likelier orders peak at %d%s)%s", words.Plural(int(e.PeakPodsHigh), "pod"), max, e.PeakPods, j.overWords(e.PeakPodsAt), j.laterHigh(e))
	}
	j.lowBetween(e)
}

// peakBetween reports the peak pods e.PeakPods when they break
// --max-pods and no earlier sync did: at +0s too, where a run whose pods
// are ready at once makes its whole rollout; a peak the input already
// had is the input's finding (input), so it counts only above the
// input's pods.
func (j *judgement) peakBetween(e sim.Extremes) {
	if max := int64(j.f.maxPods); max > 0 && !j.seenPods && e.PeakPods > max && (!j.inputPods || e.PeakPods > j.startPods) {
		j.seenPods = true
		j.add(RuleMaxPods, SeverityError, e.PeakPodsAt, CauseRollout, "%s between syncs, above the max-pods limit %d%s%s", podsExist(e.PeakPods), max, j.pastWords(e.PeakPodsAt), j.laterPeak(e))
	}
}

// lowBetween reports the fewest available pods e.MinAvailable when they
// break --min-available and no earlier sync did, at +0s too (as
// peakBetween), below the input's available pods where the input
// already broke the rule.
func (j *judgement) lowBetween(e sim.Extremes) {
	if n := j.need(j.replicasAt(e.MinAvailableAt)); n >= 0 && !j.seenAvail && e.MinAvailable < n &&
		(!j.inputAvail || e.MinAvailable < j.startAvail) {
		j.seenAvail = true
		j.add(RuleMinAvailable, SeverityError, e.MinAvailableAt, CauseRollout, "%s available between syncs, below the min-available limit %d%s%s", words.Plural(int(e.MinAvailable), "pod"), n, j.pastWords(e.MinAvailableAt), j.laterLow(e))
	}
}

// overWords words the span a run's figure (its peak, its fewest
// available) covers, when it was reached at an offset after the progress
// deadline of a run that went on past it, and judged past it: the time
// past it too, as the controllers go on ("" otherwise: a figure reached
// before the deadline is the same for a run stopped there, and so are the
// figures up to it, which a racing order may reach past the deadline of
// the order in which work is taken as it comes, before its own).
func (j *judgement) overWords(at time.Duration) string {
	sm := j.res.Summary
	if sm.AfterDeadline == "" || !j.pastDeadline || at <= sm.DeadlineExceededAt {
		return ""
	}
	return ", counting the time past the progress deadline"
}

// pastWords words a finding at an offset after the progress deadline was
// exceeded, in a run that went on past it, judged past it: the pods then
// are real, as the controllers go on ("" for a finding before it, or
// without one, or judged by the figures up to the deadline, as overWords).
func (j *judgement) pastWords(at time.Duration) string {
	sm := j.res.Summary
	if sm.AfterDeadline == "" || !j.pastDeadline || at <= sm.DeadlineExceededAt {
		return ""
	}
	return fmt.Sprintf(", after the progress deadline was exceeded at +%s: the controllers go on", words.Duration(sm.DeadlineExceededAt))
}

// replicasAt returns spec.replicas at an offset from the start: as the
// last sync at or before it saw them.
func (j *judgement) replicasAt(at time.Duration) int32 {
	r := j.res.Start.Replicas
	for _, m := range j.moments {
		if m.at > at {
			break
		}
		r = m.replicas
	}
	return r
}

// outage warns of a strategy whose floor is 0: every pod may go down.
func (j *judgement) outage() {
	d := j.d
	if d.Spec.Strategy.Type != rollout.RollingUpdateStrategy || d.Spec.Replicas == 0 || rollout.MinAvailable(d) > 0 {
		return
	}
	var at time.Duration
	for _, m := range j.moments {
		if m.avail == 0 {
			at = m.at
			break
		}
	}
	ru := d.Spec.Strategy.RollingUpdate
	if ru.MaxSurge.ScaleUp(d.Spec.Replicas) == 0 && ru.MaxUnavailable.ScaleDown(d.Spec.Replicas) == 0 {
		j.add(RuleOutage, SeverityWarning, at, CauseRollout,
			"maxSurge %s and maxUnavailable %s both round to 0 for 1 replica, so maxUnavailable becomes 1: the only pod goes down during the rollout",
			ru.MaxSurge, ru.MaxUnavailable)
		// A surge pod would keep one available.
		j.vs[len(j.vs)-1].Location = j.in.deploymentPlace(d, "spec.strategy.rollingUpdate.maxSurge")
		return
	}
	if d.Spec.Replicas == 1 {
		j.add(RuleOutage, SeverityWarning, at, CauseRollout, "maxUnavailable %s lets the only replica be unavailable: its pod goes down during the rollout", ru.MaxUnavailable)
		return
	}
	j.add(RuleOutage, SeverityWarning, at, CauseRollout, "maxUnavailable %s lets all %d replicas be unavailable at once: every pod may go down during the rollout",
		ru.MaxUnavailable, d.Spec.Replicas)
}

// ending judges how the rollout ended, end (see afterDeadline and
// conclude): complete, stuck or stopped at a limit, past the progress
// deadline too; a run that stopped at the deadline, not complete there.
func (j *judgement) ending(end sim.Summary) {
	switch {
	case end.Outcome == sim.OutcomeComplete:
		j.throttled(end)
		j.timeout(end.Duration)
		j.placementWaits(end)
		if max := j.f.maxDuration; max > 0 && end.Duration > max {
			j.add(RuleMaxDuration, SeverityError, max, CauseRollout, "the rollout takes %s, longer than the max-duration limit %s", words.Duration(end.Duration), words.Duration(max))
		}
	case end.Outcome.Stuck():
		j.add(RuleNeverFinish, SeverityError, end.Duration, CauseRollout, "the rollout can never finish: %s", j.neverFinishReason(end))
		if end.Outcome == sim.OutcomeQuota {
			j.related(j.pol.cap.where())
		}
		if end.Outcome == sim.OutcomeUnplaced {
			j.placeRelated()
		}
	case end.Outcome == sim.OutcomeDeadlineExceeded:
		// The run stopped at the deadline (see goesOn): the rollout is
		// not complete there.
		j.unfinished(end.Duration)
	case end.Outcome == sim.OutcomeLimit && j.res.Summary.AfterDeadline != "" && !j.without && !j.limited:
		// The run went on past the deadline as long as it may, and the
		// rollout is not complete where it stopped (see goesOn).
		j.unfinished(j.stopsAt(j.res.Summary))
	case end.Outcome == sim.OutcomeLimit:
		// The run's projection bounds the duration from below: a bound
		// already past the limit decides the rule without the rest.
		if max, p := j.f.maxDuration, end.Projection; max > 0 && p.Made && p.DurationAtLeast > max {
			j.add(RuleMaxDuration, SeverityError, max, CauseRollout, "%s, longer than the max-duration limit %s", takesAtLeast(p), words.Duration(max))
		}
		// So do its bounds of the pods over the rest: proved, but
		// loose (old pods are counted until the stop's last), so a
		// bound past a limit is a warning, not an error.
		if max, p := int64(j.f.maxPods), end.Projection; max > 0 && !j.seenPods && p.Made && p.PeakPodsAtMost < math.MaxInt64 && p.PeakPodsAtMost > max {
			j.add(RuleMaxPods, SeverityWarning, end.Duration, CauseRollout, "past the work limit, up to %s may exist at once (a bound proved from the state at the limit, not a figure of a run), above the max-pods limit %d", words.Plural(int(p.PeakPodsAtMost), "pod"), max)
		}
		if n, p := j.need(j.replicasAt(end.Duration)), end.Projection; n >= 0 && !j.seenAvail && p.Made && p.MinAvailableAtLeast < n {
			j.add(RuleMinAvailable, SeverityWarning, end.Duration, CauseRollout, "past the work limit, as few as %s may be available (a bound proved from the state at the limit, 0 where none is, not a figure of a run), below the min-available limit %d", words.Plural(int(p.MinAvailableAtLeast), "pod"), n)
		}
		// The CI's kubectl rollout status --timeout waits for the
		// completion too: a bound past it breaks the rule, whether the
		// command gives up or fails earlier at a progress deadline.
		if limit, p := j.f.timeout, end.Projection; limit > 0 && p.Made && p.DurationAtLeast > limit {
			j.budgetPlace(RuleTimeout, SeverityError, limit, "%s, longer than the timeout %s: kubectl rollout status --timeout gives up first, if the progress deadline does not fail it before",
				takesAtLeast(p), words.Duration(limit))
		}
		projected := ""
		if p := end.Projection; p.Made && p.Creates+p.Deletes > 0 {
			projected = fmt.Sprintf(" (it would take at least %s: %s and %s were left)", words.Duration(p.DurationAtLeast), words.Plural(int(p.Creates), "pod creation"), words.Plural(int(p.Deletes), "deletion"))
		}
		limit := j.f.budgetWords(j.budget)
		if j.syncsCapped {
			limit = fmt.Sprintf("syncs (one more than its %d units of work: check keeps a record of each sync)", j.f.maxWork)
			if own := j.f.sim.MaxSyncs; own > 0 && own <= j.f.maxWork {
				limit = fmt.Sprintf("%d syncs (Config.Sim.MaxSyncs)", own)
			}
		}
		j.add(RuleLimit, SeverityLimit, end.Duration, CauseRollout,
			"the simulation stopped at its limit of %s before the rollout ended%s: %s; raise the limit (Config.Sim.MaxWork, rolloutctl --max-work)",
			limit, projected, j.decidedByBounds(end))
	}
}

// takesAtLeast words a projection's lower bound of the duration, with
// the requests left that make it, for the rules it breaks (max-duration,
// timeout).
func takesAtLeast(p sim.Projection) string {
	return fmt.Sprintf("the rollout takes at least %s (%s and %s left at the work limit, each a request of the ReplicaSet controller's rate-limited client, as are the status writes of its syncs)",
		words.Duration(p.DurationAtLeast), words.Plural(int(p.Creates), "pod creation"), words.Plural(int(p.Deletes), "deletion"))
}

// decidedByBounds words, for the limit finding of a run stopped at its
// work limit (end), what of the rollout is checked all the same: the
// limits the part computed (or the input) already breaks, those its
// projection's proved bounds keep (Projection.PeakPodsAtMost within
// --max-pods, Projection.MinAvailableAtLeast at or above --min-available
// at every replica count of the run), and those the duration's lower
// bound breaks (--max-duration, --timeout). What no bound decides is
// named as not checked: always whether and when the rollout completes,
// and so its progress deadline. With nothing decided it is "this
// rollout is not checked".
func (j *judgement) decidedByBounds(end sim.Summary) string {
	p := end.Projection
	broken := func(rule string) bool {
		return slices.ContainsFunc(j.vs, func(v Finding) bool { return v.Rule == rule && v.Severity == SeverityError })
	}
	var decided, open []string
	if max := int64(j.f.maxPods); max > 0 {
		switch {
		case broken(RuleMaxPods):
			decided = append(decided, RuleMaxPods+" is broken")
		case p.Made && p.PeakPodsAtMost <= max:
			decided = append(decided, fmt.Sprintf("%s holds (at most %s at once, a proved bound)", RuleMaxPods, words.Plural(int(min(p.PeakPodsAtMost, math.MaxInt)), "pod")))
		default:
			open = append(open, RuleMaxPods)
		}
	}
	if n := j.need(j.replicasAt(end.Duration)); n >= 0 {
		for _, m := range j.moments {
			n = max(n, j.need(m.replicas))
		}
		switch {
		case broken(RuleMinAvailable):
			decided = append(decided, RuleMinAvailable+" is broken")
		case p.Made && p.MinAvailableAtLeast >= n:
			decided = append(decided, fmt.Sprintf("%s holds (at least %d available, a proved bound)", RuleMinAvailable, p.MinAvailableAtLeast))
		default:
			open = append(open, RuleMinAvailable)
		}
	}
	for _, r := range []struct {
		rule string
		set  bool
	}{{RuleMaxDuration, j.f.maxDuration > 0}, {RuleTimeout, j.f.timeout > 0}} {
		switch {
		case !r.set:
		case broken(r.rule):
			decided = append(decided, r.rule+" is broken")
		default:
			open = append(open, r.rule)
		}
	}
	if len(decided) == 0 {
		return "this rollout is not checked"
	}
	return fmt.Sprintf("only what the part computed and the projection's bounds decide is checked: %s; not checked: whether and when the rollout completes (and so its progress deadline)%s",
		strings.Join(decided, ", "), strings.Join(append([]string{""}, open...), ", "))
}

// sorted returns the violations by time, stably.
func (j *judgement) sorted() []Finding {
	slices.SortStableFunc(j.vs, func(a, b Finding) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	return j.vs
}

// neverFinishReason explains a rollout that stopped where nothing was left
// to happen.
func (j *judgement) neverFinishReason(sm sim.Summary) string {
	d := j.d
	why := string(sm.Outcome)
	if sm.Detail != "" {
		why += " (" + sm.Detail + ")"
	}
	rolling := d.Spec.Strategy.Type == rollout.RollingUpdateStrategy
	noneDown := rolling && rollout.MaxUnavailable(d) == 0
	switch sm.Outcome {
	case sim.OutcomeQuota:
		quota := int64(j.f.quotaPods)
		if quota == 0 && j.pol.cap.pods >= 0 {
			// The simulator's detail words a pod count quota; this one is
			// the ResourceQuota's.
			if noneDown && j.pol.cap.pods <= int64(d.Spec.Replicas) {
				return fmt.Sprintf("%s, none above the %s for a surge pod, and maxUnavailable is 0", j.pol.cap.why(), words.Plural(int(d.Spec.Replicas), "replica"))
			}
			return j.pol.cap.why() + ", which the rollout needs more than"
		}
		if noneDown && quota > 0 && quota <= int64(d.Spec.Replicas) {
			return fmt.Sprintf("the quota of %s leaves no room above %s for a surge pod, and maxUnavailable is 0: %s", words.Plural(int(quota), "pod"), words.Plural(int(d.Spec.Replicas), "replica"), why)
		}
	case sim.OutcomeNeverReady:
		if noneDown {
			return "maxUnavailable is 0 and the new pods never become ready, so no old pod may go: " + why
		}
	case sim.OutcomeUnplaced:
		return j.unplaced(sm)
	case sim.OutcomePaused:
		return fmt.Sprintf("Deployment %s is paused, so nothing rolls out until it is resumed", Qualified(d))
	}
	return why
}

// podsExist words n pods existing: "1 pod exists", "3 pods exist".
func podsExist(n int64) string {
	if n == 1 {
		return "1 pod exists"
	}
	return fmt.Sprintf("%d pods exist", n)
}
