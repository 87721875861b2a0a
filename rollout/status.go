package rollout

import (
	"math"
	"slices"
	"strconv"
	"time"
)

// CalculateStatus returns the status a sync of d computes from its
// ReplicaSets allRSs and its new ReplicaSet newRS, nil when there is none
// (R-STAT-1; upstream: calculateStatus): the sums of their counts
// ([Count]; unavailableReplicas is spec.replicas summed minus the available
// ones, at least 0), updatedReplicas the new ReplicaSet's status.replicas,
// observedGeneration d's generation, collisionCount d's, and d's conditions
// with Available set ([SetDeploymentCondition]) to whether at least
// spec.replicas - [MaxUnavailable] replicas are available, stamped now
// truncated to the second. terminatingReplicas is absent when
// opts.OmitTerminatingReplicas is set or the sum is unknown. The other
// conditions carry over; [Plan] goes on to judge Progressing and
// ReplicaFailure in a rollout.
//
// It fails with an [*OverflowError] when a count does not fit int32, where
// upstream wraps. CalculateStatus modifies none of its arguments; the
// result shares no slice with d.
func CalculateStatus(d *Deployment, allRSs []*ReplicaSet, newRS *ReplicaSet, now time.Time, opts Options) (DeploymentStatus, error) {
	s, err := statusSharing(d, allRSs, newRS, now, opts)
	if err == nil && len(s.Conditions) > 0 && len(d.Status.Conditions) > 0 && &s.Conditions[0] == &d.Status.Conditions[0] {
		// Available was already as computed: the conditions are d's.
		s.Conditions = slices.Clone(s.Conditions)
	}
	return s, err
}

// statusSharing is CalculateStatus, whose result's conditions may be d's
// own slice (when Available is already as computed). The planner reads
// them and changes conditions only into new slices
// ([SetDeploymentCondition], [RemoveDeploymentCondition]); updateStatus
// clones what it writes. So a sync whose status does not change copies
// no conditions.
func statusSharing(d *Deployment, allRSs []*ReplicaSet, newRS *ReplicaSet, now time.Time, opts Options) (DeploymentStatus, error) {
	c := Count(allRSs)
	s := DeploymentStatus{
		ObservedGeneration: d.Generation,
		CollisionCount:     d.Status.CollisionCount,
		Conditions:         d.Status.Conditions,
	}
	if newRS != nil {
		s.UpdatedReplicas = newRS.Status.Replicas
	}
	// Each count in the order the fields are written; the first that does
	// not fit is the error. (Assigned one by one: a table of pointers into
	// s would move s to the heap.)
	var err error
	if s.Replicas, err = statusCount("status.replicas", c.Replicas); err != nil {
		return DeploymentStatus{}, err
	}
	if s.ReadyReplicas, err = statusCount("status.readyReplicas", c.Ready); err != nil {
		return DeploymentStatus{}, err
	}
	if s.AvailableReplicas, err = statusCount("status.availableReplicas", c.Available); err != nil {
		return DeploymentStatus{}, err
	}
	// Spec-based: pods not yet created count as unavailable.
	if s.UnavailableReplicas, err = statusCount("status.unavailableReplicas", max(0, c.Spec-c.Available)); err != nil {
		return DeploymentStatus{}, err
	}
	if s.TerminatingReplicas.Value, err = statusCount("status.terminatingReplicas", c.Terminating); err != nil {
		return DeploymentStatus{}, err
	}
	s.TerminatingReplicas.Valid = c.TerminatingKnown && !opts.OmitTerminatingReplicas
	if !s.TerminatingReplicas.Valid {
		s.TerminatingReplicas = OptionalInt32{}
	}
	ts := now.Truncate(time.Second)
	if c.Available >= int64(d.Spec.Replicas)-int64(limits(d).Unavailable) {
		s = SetDeploymentCondition(s, NewDeploymentCondition(Available, ConditionTrue, ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", ts))
	} else {
		s = SetDeploymentCondition(s, NewDeploymentCondition(Available, ConditionFalse, ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", ts))
	}
	return s, nil
}

// statusCount returns v, the count of a status field, as an int32, or an
// *OverflowError naming the field when it does not fit.
func statusCount(field string, v int64) (int32, error) {
	if v > math.MaxInt32 || v < math.MinInt32 {
		return 0, &OverflowError{Field: field, Value: v}
	}
	return int32(v), nil
}

// calculateStatus is CalculateStatus for the Deployment in its current
// in-memory state, its conditions possibly shared (see statusSharing).
func (p *planner) calculateStatus(allRSs []*ReplicaSet, newRS *ReplicaSet) (DeploymentStatus, error) {
	return statusSharing(&p.d, allRSs, newRS, p.now, p.opts)
}

// syncDeploymentStatus writes the computed status if it differs (R-STAT-2).
func (p *planner) syncDeploymentStatus(all []*ReplicaSet, newRS *ReplicaSet) error {
	s, err := p.calculateStatus(all, newRS)
	if err != nil {
		return err
	}
	if !s.equal(p.d.Status) {
		p.d.Status = s
		mark := len(p.actions)
		p.updateStatus()
		p.explainText(mark, "status recomputed from the ReplicaSets")
	}
	return nil
}

// syncStatusOnly is all a Deployment being deleted gets (R-STAT-3); finding
// its new ReplicaSet may still update it.
func (p *planner) syncStatusOnly() error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(findOnly)
	if err != nil {
		return err
	}
	return p.syncDeploymentStatus(appendNew(oldRSs, newRS), newRS)
}

// syncRolloutStatus ends every rollout sync (R-STAT-4): the status, with the
// Progressing condition judged against the progress deadline and the
// ReplicaFailure condition taken from the ReplicaSets. When nothing changed
// it schedules the next progress check instead.
func (p *planner) syncRolloutStatus(all []*ReplicaSet, newRS *ReplicaSet) error {
	s, err := p.calculateStatus(all, newRS)
	if err != nil {
		return err
	}
	d := p.d
	if !HasProgressDeadline(d) {
		s = RemoveDeploymentCondition(s, Progressing)
	}
	cur, hasCur := GetDeploymentCondition(d.Status, Progressing)
	complete := s.Replicas == s.UpdatedReplicas && hasCur && cur.Reason == ReasonNewReplicaSetAvailable
	if HasProgressDeadline(d) && !complete {
		switch {
		case DeploymentComplete(d, s):
			msg := progressMessage(d, newRS, "has successfully progressed.", cur.Message)
			s = SetDeploymentCondition(s, NewDeploymentCondition(Progressing, ConditionTrue, ReasonNewReplicaSetAvailable, msg, p.ts))
		case DeploymentProgressing(d, s):
			// Rewritten on every sync that makes progress, which restarts
			// the deadline clock.
			msg := progressMessage(d, newRS, "is progressing.", cur.Message)
			c := NewDeploymentCondition(Progressing, ConditionTrue, ReasonReplicaSetUpdated, msg, p.ts)
			if hasCur {
				if cur.Status == ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				// RemoveDeploymentCondition then SetDeploymentCondition,
				// in one new slice rather than two.
				s = replaceCondition(s, c)
			} else {
				s = SetDeploymentCondition(s, c)
			}
		case DeploymentTimedOut(d, s, p.now):
			msg := progressMessage(d, newRS, "has timed out progressing.", cur.Message)
			s = SetDeploymentCondition(s, NewDeploymentCondition(Progressing, ConditionFalse, ReasonProgressDeadlineExceeded, msg, p.ts))
		}
	}
	if f, ok := getReplicaFailure(all, newRS); ok {
		s = SetDeploymentCondition(s, f)
	} else if _, ok := GetDeploymentCondition(s, ReplicaFailure); ok || len(s.Conditions) == 0 {
		// Without one to remove, s's conditions (its own copy) stay
		// as they are; none left is nil, as RemoveDeploymentCondition
		// makes it.
		s = RemoveDeploymentCondition(s, ReplicaFailure)
	}
	if s.equal(d.Status) {
		p.requeueStuckDeployment(s)
		return nil
	}
	p.d.Status = s
	mark := len(p.actions)
	p.updateStatus()
	if c, ok := GetDeploymentCondition(s, Progressing); ok {
		p.explainText(mark, statusWhy(c.Reason))
	} else {
		p.explainText(mark, "status recomputed from the ReplicaSets")
	}
	return nil
}

// progressMessage is the Progressing condition's message, built without
// fmt (%q is strconv.Quote): every sync that makes progress writes one.
// It returns prev itself when that is the message (a rollout rewrites the
// same one on every sync that makes progress), else a new string.
func progressMessage(d Deployment, newRS *ReplicaSet, what, prev string) string {
	var buf [128]byte
	var b []byte
	if newRS != nil {
		b = strconv.AppendQuote(append(buf[:0], "ReplicaSet "...), newRS.Name)
	} else {
		b = strconv.AppendQuote(append(buf[:0], "Deployment "...), d.Name)
	}
	b = append(append(b, ' '), what...)
	if string(b) == prev {
		return prev
	}
	return string(b)
}

// getReplicaFailure returns the first ReplicaFailure condition of the new
// ReplicaSet, or else of any ReplicaSet in all (R-STAT-5). Upstream:
// getReplicaFailures, of which the controller uses the first.
func getReplicaFailure(all []*ReplicaSet, newRS *ReplicaSet) (Condition, bool) {
	if newRS != nil {
		for _, c := range newRS.Status.Conditions {
			if c.Type == ReplicaFailure {
				return ReplicaSetToDeploymentCondition(c), true
			}
		}
	}
	for _, rs := range all {
		for _, c := range rs.Status.Conditions {
			if c.Type == ReplicaFailure {
				return ReplicaSetToDeploymentCondition(c), true
			}
		}
	}
	return Condition{}, false
}

// requeueStuckDeployment schedules the next progress check when a sync
// wrote nothing (R-STAT-6), as a [RecheckProgress] action: at the deadline
// plus a second, or now if that is less than a second away; never without a
// deadline, for a complete rollout, or once the deadline was exceeded.
// Upstream returns the delay and enqueues the Deployment itself.
func (p *planner) requeueStuckDeployment(next DeploymentStatus) {
	d := p.d
	cur, ok := GetDeploymentCondition(d.Status, Progressing)
	if !HasProgressDeadline(d) || !ok || DeploymentComplete(d, next) || cur.Reason == ReasonProgressDeadlineExceeded {
		return
	}
	at := p.now
	if after := deadline(d, cur).Sub(p.now); after >= time.Second {
		at = p.now.Add(after + time.Second)
	}
	// Built in one buffer on the stack, without fmt: every sync that
	// waits for progress makes one.
	var buf [96]byte
	why := append(buf[:0], "no progress yet: the deadline of "...)
	why = strconv.AppendInt(why, int64(d.Spec.ProgressDeadlineSeconds.Value), 10)
	why = append(why, "s runs out at "...)
	why = deadline(d, cur).UTC().AppendFormat(why, time.RFC3339)
	p.actions = append(p.actions, Action{Type: RecheckProgress, At: at, Reason: string(why)})
}

// checkPausedConditions records a pause or resume in the Progressing
// condition, unless the deadline was already exceeded (R-PAUSE-1, Q-25).
func (p *planner) checkPausedConditions() {
	if !HasProgressDeadline(p.d) {
		return
	}
	cur, ok := GetDeploymentCondition(p.d.Status, Progressing)
	if ok && cur.Reason == ReasonProgressDeadlineExceeded {
		return
	}
	pausedCond := ok && cur.Reason == ReasonDeploymentPaused
	switch {
	case p.d.Spec.Paused && !pausedCond:
		p.setCondition(Progressing, ConditionUnknown, ReasonDeploymentPaused, "Deployment is paused")
	case !p.d.Spec.Paused && pausedCond:
		p.setCondition(Progressing, ConditionUnknown, ReasonDeploymentResumed, "Deployment is resumed")
	default:
		return
	}
	mark := len(p.actions)
	p.updateStatus()
	p.explainText(mark, "Progressing records the pause or resume")
}

// statusWhy is the reason of a status write whose Progressing condition
// has the given reason: a constant for the reasons Plan writes, so that a
// status write allocates no text for it.
func statusWhy(progressing string) string {
	const why = "status recomputed from the ReplicaSets; Progressing: "
	switch progressing {
	case ReasonReplicaSetUpdated:
		return why + ReasonReplicaSetUpdated
	case ReasonNewReplicaSetAvailable:
		return why + ReasonNewReplicaSetAvailable
	case ReasonNewReplicaSetCreated:
		return why + ReasonNewReplicaSetCreated
	case ReasonFoundNewReplicaSet:
		return why + ReasonFoundNewReplicaSet
	case ReasonProgressDeadlineExceeded:
		return why + ReasonProgressDeadlineExceeded
	case ReasonDeploymentPaused:
		return why + ReasonDeploymentPaused
	case ReasonDeploymentResumed:
		return why + ReasonDeploymentResumed
	}
	return why + progressing
}
