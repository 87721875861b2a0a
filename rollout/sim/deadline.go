package sim

import (
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// What a run under ModelControllers reads of the progress deadline, and
// the proof that a larger deadline would not change it (Result.DeadlineFreeFrom).
//
// A run reads progressDeadlineSeconds D in four places:
//
//   - every Deployment sync that leaves a Progressing condition that can
//     time out (any reason but NewReplicaSetAvailable and
//     ProgressDeadlineExceeded) may have compared lastUpdateTime + D with
//     now: the condition does not time out when D >= now - lastUpdateTime;
//   - a sync that wrote nothing plans a progress re-check at
//     lastUpdateTime + D + 1s, or at once when that is less than a second
//     away: the re-check is not moved to now when D >= now -
//     lastUpdateTime + 1s;
//   - the re-check itself: the work queue keeps one delayed add of the
//     Deployment, the earliest, so the re-check pending is the first one
//     planned since the last fired, at lastUpdateTime₀ + D + 1s with the
//     lastUpdateTime of that first one. It changes nothing when it fires
//     after the Deployment is settled (Progressing NewReplicaSetAvailable,
//     see settled) and nothing else is left to happen but it: the run then
//     ends at it (Final.Now) with all else the same. It fires later than
//     the last sync that settled the Deployment, at S, when
//     lastUpdateTime₀ + D + 1s > S;
//   - beyondWork, which leaves alone a run whose progress deadline slow
//     pods or a slow client may pass.
//
// The proof holds for a run that completed with every event handled (no
// pending retry cut short, no limit), without replica changes or edits,
// whose re-checks all fired on a settled Deployment and whose beyondWork
// did not read the deadline: then every D' at or above the least D that
// the first three reads allow gives the same run, as long as D' is a
// deadline (below rollout.Unlimited).

// deadlineProof collects what a run read of the progress deadline.
type deadlineProof struct {
	// broken: a read of the deadline that a larger one could change.
	broken bool
	// atLeast: D must be at least this (timeouts and re-checks).
	atLeast time.Duration
	// above: D must be strictly above this (the pending re-check).
	above time.Duration
	// settled: the Deployment was settled after the last sync, since
	// settledAt.
	settled   bool
	settledAt time.Time
	fired     bool // a re-check has fired
	// updated: lastUpdateTime of the Progressing condition of the first
	// re-check planned since the last one fired.
	updated time.Time
}

// afterSync records the reads of the Deployment sync at t, whose actions
// are in and after which the Deployment is d.
func (p *deadlineProof) afterSync(d rollout.Deployment, actions []rollout.Action, t time.Time) {
	c, ok := rollout.GetDeploymentCondition(d.Status, rollout.Progressing)
	isSettled := ok && c.Reason == rollout.ReasonNewReplicaSetAvailable
	if isSettled && !p.settled {
		p.settledAt = t
	}
	if !isSettled && p.settled && p.fired {
		// A re-check that fired on the settled Deployment would find it
		// unsettled, had it fired later.
		p.broken = true
	}
	p.settled = isSettled
	if !ok || isSettled {
		return
	}
	if c.Reason == rollout.ReasonProgressDeadlineExceeded {
		p.broken = true
		return
	}
	need := t.Sub(c.LastUpdateTime)
	for _, a := range actions {
		if a.Type == rollout.RecheckProgress {
			need += time.Second
			break
		}
	}
	p.atLeast = max(p.atLeast, need)
}

// wakePlanned records the first re-check planned since the last fired,
// planned while the Deployment's Progressing condition was updated at
// updated.
func (p *deadlineProof) wakePlanned(updated time.Time) { p.updated = updated }

// wakeFired records that the pending re-check fired: to change nothing,
// the Deployment must be settled, and it must fire after it settled.
func (p *deadlineProof) wakeFired() {
	p.fired = true
	if !p.settled {
		p.broken = true
		return
	}
	p.above = max(p.above, p.settledAt.Sub(p.updated)-time.Second)
}

// from returns the least deadline, in seconds, that the reads allow, and
// whether it is proved for d (whose own deadline must be one of them)
// under cfg with the run ended so.
func (p *deadlineProof) from(d rollout.Deployment, cfg Config, outcome Outcome, cutShort bool) (int32, bool) {
	if p.broken || cutShort || outcome != OutcomeComplete || !rollout.HasProgressDeadline(d) ||
		len(cfg.Changes) > 0 || len(cfg.Edits) > 0 || cfg.MaxTime > 0 || cfg.Interval > 0 {
		return 0, false
	}
	secs := int64((p.atLeast + time.Second - 1) / time.Second)
	if p.above >= 0 {
		secs = max(secs, int64(p.above/time.Second)+1)
	}
	// The least deadline the API server accepts: above minReadySeconds.
	secs = max(secs, 1, int64(d.Spec.MinReadySeconds)+1)
	if secs > int64(d.Spec.ProgressDeadlineSeconds.Value) {
		return 0, false
	}
	return int32(secs), true
}

// pendingRecheckUpdated returns the lastUpdateTime of d's Progressing
// condition, which a re-check planned by a sync of d is computed from.
func pendingRecheckUpdated(d rollout.Deployment) time.Time {
	c, _ := rollout.GetDeploymentCondition(d.Status, rollout.Progressing)
	return c.LastUpdateTime
}

// deadlineFree returns the least deadline from which the controllers run
// r, ended, is proved not to depend on its progress deadline, and whether
// it is.
func (r *runner) deadlineFree() (int32, bool) {
	return r.ctl.proof.from(r.st.Deployment, r.cfg, r.sum.Outcome, r.ctl.cutShort)
}

// cutFree is deadlineFree for a run that cutBelow ended (the deletes-last
// order under Config.PeakPodsAbove): the least deadline from which what
// it ran is proved not to depend on the progress deadline. Its syncs read
// the deadline as a whole run's do (afterSync: the cut comes after the
// reads of its own sync), no re-check it planned fires before the cut
// under a deadline they allow (at lastUpdateTime + D + 1s, after that
// sync), and the cut reads no deadline (podsAtMost bounds the pods
// whatever the conditions say): under every such deadline the run ends
// at the same sync, having computed the same work, which is all a Result
// keeps of a cut order.
func (r *runner) cutFree() (int32, bool) {
	return r.ctl.proof.from(r.st.Deployment, r.cfg, OutcomeComplete, false)
}
