package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// makesSteps reports whether the run makes steps: to keep, or to show.
func (r *runner) makesSteps() bool { return !r.cfg.OmitSteps || r.cfg.Observe != nil }

// emit hands a step to Config.Observe and keeps it, as the Config says.
func (r *runner) emit(st Step) {
	if r.cfg.Observe != nil {
		r.cfg.Observe(st)
	}
	if !r.cfg.OmitSteps {
		r.steps = append(r.steps, st)
	}
}

// record completes the step of the last sync and emits it.
func (r *runner) record() {
	if !r.makesSteps() {
		return
	}
	st := &r.current
	st.Sets = r.setCounts()
	// The step shares the Deployment's conditions: a run never changes a
	// conditions slice in place (ApplyTo writes a copy of the action's,
	// applyPlan the action's own, which is read-only too; the
	// fast-forward's decoding walker clones a slice before it writes to
	// it), and steps are read-only. Config.Edits are the caller's
	// functions, which may write to the Deployment in place: a run with
	// edits copies them.
	st.Conditions = r.st.Deployment.Status.Conditions
	if len(r.cfg.Edits) > 0 {
		st.Conditions = slices.Clone(st.Conditions)
	}
	st.Replicas = r.st.Deployment.Spec.Replicas
	st.Floor, st.Ceiling = limits(r.st.Deployment)
	r.emit(*st)
}

func (r *runner) setCounts() []SetCount {
	// The controlled sets in the scratch buffer: newSet and pods.set do
	// not call setsScratch.
	ctrl := r.setsScratch()
	n := 0
	for _, rs := range ctrl {
		if r.controlled(rs) {
			ctrl[n] = rs
			n++
		}
	}
	ctrl = ctrl[:n]
	newRS := r.newSet(ctrl)
	if cap(r.countsBuf) < len(ctrl) {
		r.countsBuf = make([]SetCount, len(ctrl))
	}
	out := r.countsBuf[:len(ctrl)]
	for i, rs := range ctrl {
		out[i] = SetCount{
			Name: rs.Name, Revision: rs.Annotations[rollout.RevisionAnnotation], New: rs == newRS,
			Desired: rs.Spec.Replicas, Current: rs.Status.Replicas, Ready: rs.Status.ReadyReplicas,
			Available: rs.Status.AvailableReplicas, Terminating: rs.Status.TerminatingReplicas.Value,
			Pending: int32(min(r.pods.set(rs).pending(), math.MaxInt32)),
		}
	}
	// Most syncs change no set's counts, or only the Deployment's: a step
	// then shares the Sets of the one before (steps are read-only), and
	// only a change allocates.
	if r.lastSets != nil && slices.Equal(r.lastSets, out) {
		return r.lastSets
	}
	r.lastSets = make([]SetCount, len(out))
	copy(r.lastSets, out)
	return r.lastSets
}

// controlledSets returns the Deployment's ReplicaSets, oldest first.
func (r *runner) controlledSets() []*rollout.ReplicaSet {
	var out []*rollout.ReplicaSet
	for _, rs := range r.sets() {
		if r.controlled(rs) {
			out = append(out, rs)
		}
	}
	return out
}

// newSet returns the Deployment's new ReplicaSet among ctrl (oldest
// first), as rollout.FindNewReplicaSet finds it, or nil. Which templates
// match is remembered until the Deployment's generation changes, since a
// ReplicaSet's template does not change.
func (r *runner) newSet(ctrl []*rollout.ReplicaSet) *rollout.ReplicaSet {
	d := r.st.Deployment
	if r.matchGen != d.Generation || r.match == nil {
		r.matchGen, r.match = d.Generation, map[setID]bool{}
	}
	for _, rs := range ctrl {
		key := setID{rs.Name, rs.UID}
		m, ok := r.match[key]
		if !ok {
			m = rollout.EqualIgnoreHash(d.Spec.Template, rs.Spec.Template)
			r.match[key] = m
		}
		if m {
			return rs
		}
	}
	return nil
}

// setID tells ReplicaSets apart for runner.match: by name and UID.
type setID struct{ name, uid string }

// stopCause is why a rollout that is not complete cannot go on.
type stopCause struct {
	outcome Outcome
	detail  string
}

// cause looks for what holds the rollout: a pause, a quota, pods that
// never become ready.
func (r *runner) cause() stopCause {
	d := r.st.Deployment
	if d.Spec.Paused {
		return stopCause{OutcomePaused, fmt.Sprintf("Deployment %q is paused", d.Name)}
	}
	ctrl := r.controlledSets()
	for _, rs := range ctrl {
		for _, c := range rs.Status.Conditions {
			if c.Type == rollout.ReplicaFailure && c.Status == rollout.ConditionTrue {
				return stopCause{OutcomeQuota, fmt.Sprintf("ReplicaSet %s has %d of %d pods: %s",
					rs.Name, rs.Status.Replicas, rs.Spec.Replicas, c.Message)}
			}
		}
	}
	for _, rs := range ctrl {
		if k := r.pods.set(rs).pending(); k > 0 {
			return stopCause{OutcomeUnplaced, fmt.Sprintf("ReplicaSet %s has %d of %d pods pending: no node has room for them",
				rs.Name, k, rs.Spec.Replicas)}
		}
	}
	if n := r.newSet(ctrl); n != nil {
		if ps := r.pods.set(n); ps.never && n.Status.AvailableReplicas < n.Spec.Replicas {
			return stopCause{OutcomeNeverReady, fmt.Sprintf("ReplicaSet %s has %d of %d pods available; its image never becomes ready",
				n.Name, n.Status.AvailableReplicas, n.Spec.Replicas)}
		}
	}
	return stopCause{OutcomeStalled, fmt.Sprintf("nothing left to happen: %d of %d replicas updated, %d available",
		d.Status.UpdatedReplicas, d.Spec.Replicas, d.Status.AvailableReplicas)}
}

func (r *runner) stop(outcome Outcome, detail string) {
	r.sum.Outcome, r.sum.Detail = outcome, detail
	r.done = true
}

func (r *runner) result() Result {
	r.finish()
	final := r.st
	final.Now = r.last
	if r.syncs == 0 {
		final.Now = r.start
	}
	final.Pods = r.pods.pods(r.sets())
	return Result{Model: r.cfg.ModelName(), Start: r.initial, Steps: r.steps, Summary: r.sum, Final: final}
}

// finish completes the summary of the run that stopped (result's
// Summary, without the rest of the Result).
func (r *runner) finish() {
	if r.syncs > 0 {
		r.sample(r.last)
	}
	r.sum.Syncs = r.syncs
	if !r.active.IsZero() {
		r.sum.LastChange = r.active.Sub(r.start)
	}
	r.sum.Duration = r.sum.LastChange
	complete := r.completeAt
	if r.ctl != nil && r.ctl.complete {
		complete = r.ctl.completeAt
	}
	if !complete.IsZero() {
		r.sum.Duration = complete.Sub(r.start)
	}
	r.sum.PeakPodsLow, r.sum.PeakPodsHigh, r.sum.MinAvailableHigh = r.sum.PeakPods, r.sum.PeakPods, r.sum.MinAvailable
	r.sum.FailedCreates = r.pods.failed
	r.pastDeadline()
}
