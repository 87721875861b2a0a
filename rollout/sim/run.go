package sim

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Run simulates the Deployment of s from s.Now until its rollout is
// complete, it cannot go on, or a limit is reached, syncing with
// rollout.Plan, applying with rollout.Apply and moving pods with the pod
// model of cfg. Time is data: Run reads no clock, and the same s and cfg
// give the same Result.
//
// The first sync sees s as it is. The ReplicaSets' statuses are taken as
// that many pods: the available ones long ready, ready ones becoming
// available after minReadySeconds, the others just created (ready per the
// model), the terminating ones just deleted. From then on, after each sync
// and at each pod event, the pod model brings every ReplicaSet of the
// namespace to its size (deleting pods not ready first, then the newest,
// and creating pods as far as Pods.MaxPods allows, with a ReplicaFailure
// condition FailedCreate while it refuses) and writes its status:
// replicas, readyReplicas and availableReplicas count pods that are not
// terminating, terminatingReplicas those that are, and observedGeneration
// is the generation. A ReplicaSet Apply creates gets UID "uid-<name>".
// Plan gets the pods of a Recreate Deployment, which waits for old pods to
// be gone, as one Pod for each group of pods with the same times.
//
// The run stops
//   - "complete": the Deployment is complete (rollout.DeploymentComplete on
//     its status), the last sync wrote nothing, and no pod event, replica
//     change or edit is pending;
//   - "progress deadline exceeded": a sync left Progressing False with
//     reason ProgressDeadlineExceeded (the controller would go on scaling,
//     but the rollout has failed);
//   - when nothing is left to happen: the last sync wrote nothing, no pod
//     event, change, edit or progress re-check is pending, and the
//     Deployment is not complete ("paused", "blocked by quota", "stuck: new
//     pods never become ready", "stuck: sync fails" or "stalled");
//   - "limit reached": before a sync beyond cfg.MaxSyncs or cfg.MaxTime.
//
// Run returns an error, and no Result, only for input it cannot use: a
// Deployment or ReplicaSet that Plan refuses (unless
// Options.SkipValidation), or a Config field that is out of range (a
// *ConfigError naming it). A sync that fails later is recorded in its
// Step and the run goes on. Run does not modify s or cfg.
func Run(s rollout.State, cfg Config) (Result, error) {
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	if cfg.Options != (rollout.Options{}) {
		s.Options = cfg.Options
	}
	if err := validState(s); err != nil {
		return Result{}, err
	}
	r := newRunner(s, cfg)
	r.run()
	return r.result(), nil
}

// runner is a run in progress.
type runner struct {
	cfg      Config
	maxSyncs int
	maxTime  time.Duration
	start    time.Time
	clock    time.Time     // the pod model has caught up to here
	st       rollout.State // the objects now
	pods     *podModel
	changes  []ReplicaChange
	edits    []Edit
	steps    []Step
	sum      Summary
	syncs    int
	last     time.Time // the time of the last sync

	// lastAvail is the available pods since lastSample, for BelowFloor.
	lastSample time.Time
	lastAvail  int64

	// match caches which ReplicaSets (by name and UID) have the template
	// of the Deployment at generation matchGen.
	matchGen int64
	match    map[string]bool
}

func newRunner(s rollout.State, cfg Config) *runner {
	r := &runner{
		cfg:      cfg,
		maxSyncs: orDefault(cfg.MaxSyncs, DefaultMaxSyncs),
		maxTime:  orDefault(cfg.MaxTime, DefaultMaxTime),
		start:    s.Now,
		clock:    s.Now,
		st:       rollout.Apply(s, nil), // a deep copy
		pods:     newPodModel(cfg.Pods),
		changes:  slices.Clone(cfg.Changes),
		edits:    slices.Clone(cfg.Edits),
	}
	slices.SortStableFunc(r.changes, func(a, b ReplicaChange) int { return cmpDuration(a.After, b.After) })
	slices.SortStableFunc(r.edits, func(a, b Edit) int { return cmpDuration(a.At, b.At) })
	for _, rs := range r.sets() {
		r.pods.seed(rs, s.Now)
	}
	d := r.st.Deployment
	r.sum.Floor = rollout.MinAvailable(d)
	r.sum.Ceiling = int64(d.Spec.Replicas) + int64(rollout.MaxSurge(d))
	c := r.count()
	r.sum.PeakDesired, r.sum.PeakPods, r.sum.MinAvailable = c.desired, c.existing, c.available
	r.lastSample, r.lastAvail = s.Now, c.available
	return r
}

func orDefault[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

func cmpDuration(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sets returns the ReplicaSets of the Deployment's namespace, oldest
// first.
func (r *runner) sets() []*rollout.ReplicaSet {
	var out []*rollout.ReplicaSet
	for i := range r.st.ReplicaSets {
		if rs := &r.st.ReplicaSets[i]; rs.Namespace == r.st.Deployment.Namespace {
			out = append(out, rs)
		}
	}
	slices.SortStableFunc(out, rollout.CompareByCreation)
	return out
}

// controlled reports whether the Deployment controls rs.
func (r *runner) controlled(rs *rollout.ReplicaSet) bool {
	ref, ok := rs.ControllerRef()
	return ok && ref.UID == r.st.Deployment.UID && ref.Kind == "Deployment"
}

// tally is the Deployment's pods at the current time.
type tally struct{ desired, existing, available int64 }

func (r *runner) count() tally {
	var c tally
	for _, rs := range r.sets() {
		if !r.controlled(rs) {
			continue
		}
		c.desired += int64(rs.Spec.Replicas)
		c.existing += r.pods.set(rs).existing()
		c.available += int64(rs.Status.AvailableReplicas)
	}
	for _, o := range r.pods.orphans {
		c.existing += o.n
	}
	return c
}

// sample records the Deployment's pods at t in the summary.
func (r *runner) sample(t time.Time) {
	c := r.count()
	if r.lastAvail < int64(r.sum.Floor) {
		r.sum.BelowFloor += t.Sub(r.lastSample)
	}
	r.lastSample, r.lastAvail = t, c.available
	r.sum.PeakDesired = max(r.sum.PeakDesired, c.desired)
	r.sum.PeakPods = max(r.sum.PeakPods, c.existing)
	r.sum.MinAvailable = min(r.sum.MinAvailable, c.available)
}

// catchUp runs the pod model at t: it brings every ReplicaSet to its size
// and writes their statuses. It reports whether a status changed.
func (r *runner) catchUp(t time.Time) bool {
	sets := r.sets()
	r.pods.reconcile(sets, t)
	changed := false
	for _, rs := range sets {
		if r.pods.status(rs, t) {
			changed = true
		}
	}
	r.clock = t
	r.sample(t)
	return changed
}

// advance moves time to t: every pod event up to t in order, then the
// replica changes and edits due by t.
func (r *runner) advance(t time.Time) {
	for {
		e, ok := r.pods.next(r.sets(), r.clock)
		if !ok || e.After(t) {
			break
		}
		r.catchUp(e)
	}
	r.clock = t
	d := &r.st.Deployment
	for len(r.changes) > 0 && !r.start.Add(r.changes[0].After).After(t) {
		if d.Spec.Replicas != r.changes[0].Replicas {
			d.Spec.Replicas = r.changes[0].Replicas
			d.Generation++
		}
		r.changes = r.changes[1:]
	}
	for len(r.edits) > 0 && !r.start.Add(r.edits[0].At).After(t) {
		before := d.DeepCopy()
		r.edits[0].Apply(d)
		if specChanged(before, *d) {
			d.Generation++
		}
		r.edits = r.edits[1:]
	}
}

// specChanged reports whether the spec or annotations of a Deployment
// changed, which makes the API server bump its generation (R-API-2).
func specChanged(a, b rollout.Deployment) bool {
	ja, _ := json.Marshal(a.Spec)
	jb, _ := json.Marshal(b.Spec)
	return string(ja) != string(jb) || !maps.Equal(a.Annotations, b.Annotations)
}

// pending returns the time of the next replica change or edit.
func (r *runner) pending() (time.Time, bool) {
	var next time.Time
	found := false
	if len(r.changes) > 0 {
		next, found = r.start.Add(r.changes[0].After), true
	}
	if len(r.edits) > 0 {
		if e := r.start.Add(r.edits[0].At); !found || e.Before(next) {
			next, found = e, true
		}
	}
	return next, found
}

func (r *runner) run() {
	t := r.start
	for first := true; ; first = false {
		if r.syncs >= r.maxSyncs {
			r.stop(OutcomeLimit, fmt.Sprintf("%d syncs (MaxSyncs)", r.maxSyncs))
			return
		}
		if t.Sub(r.start) > r.maxTime {
			r.stop(OutcomeLimit, fmt.Sprintf("%s of simulated time (MaxTime)", r.maxTime))
			return
		}
		r.advance(t)
		wrote, recheck, err := r.sync(t, first)
		changed := r.catchUp(t)
		r.record(t, err)

		d := r.st.Deployment
		if c, ok := rollout.GetDeploymentCondition(d.Status, rollout.Progressing); ok &&
			c.Status == rollout.ConditionFalse && c.Reason == rollout.ReasonProgressDeadlineExceeded {
			cause := r.cause()
			detail := c.Message
			if cause.outcome != OutcomeStalled {
				detail += "; " + cause.outcome + ": " + cause.detail
			}
			r.stop(OutcomeDeadlineExceeded, detail)
			return
		}
		podAt, podPending := r.pods.next(r.sets(), t)
		changeAt, changePending := r.pending()
		quiet := !wrote && !changed && !podPending && !changePending
		if quiet && rollout.DeploymentComplete(d, d.Status) {
			r.stop(OutcomeComplete, fmt.Sprintf("%d of %d replicas updated and available", d.Status.AvailableReplicas, d.Spec.Replicas))
			return
		}
		if quiet && recheck.IsZero() {
			cause := r.cause()
			if err != nil && cause.outcome == OutcomeStalled {
				cause = stopCause{OutcomeSyncFails, err.Error()}
			}
			r.stop(cause.outcome, cause.detail)
			return
		}
		switch {
		case r.cfg.Interval > 0:
			t = t.Add(r.cfg.Interval)
		case wrote || changed:
			// Its own writes and the pods' new statuses wake the
			// controller at once.
		default:
			next := time.Time{}
			consider := func(e time.Time, ok bool) {
				if ok && (next.IsZero() || e.Before(next)) {
					next = e
				}
			}
			consider(podAt, podPending)
			consider(changeAt, changePending)
			// A re-check due now is taken a second later: upstream
			// re-queues at once and its clock moves on; ours does not.
			consider(later(recheck, t.Add(time.Second)), !recheck.IsZero())
			t = later(next, t)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// sync runs one controller sync at t and applies its API calls. It
// returns whether it wrote anything, when it asked to re-check progress
// (zero: never) and its error.
func (r *runner) sync(t time.Time, first bool) (bool, time.Time, error) {
	r.syncs++
	r.last = t
	s := r.st
	s.Now = t
	if s.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy && !first {
		s.Pods = r.pods.pods(r.sets())
	}
	actions, err := rollout.Plan(s)
	wrote := slices.ContainsFunc(actions, rollout.Action.IsAPICall)
	var recheck time.Time
	for _, a := range actions {
		if a.Type == rollout.RecheckProgress && !settled(r.st.Deployment) {
			recheck = a.At
		}
	}
	if wrote {
		r.st = rollout.Apply(s, actions)
	}
	r.st.Pods = nil // from now on the pod model's
	r.st.Now = t
	if !r.cfg.OmitSteps {
		r.steps = append(r.steps, Step{At: t, Actions: actions})
	}
	return wrote, recheck, err
}

// settled reports whether a progress re-check of d can change nothing:
// its Progressing condition is NewReplicaSetAvailable, which never times
// out (R-PRED-3). Upstream re-queues such a Deployment at once, again and
// again, while it is not complete (pods lost after a rollout); the run
// waits for the next event instead.
func settled(d rollout.Deployment) bool {
	c, ok := rollout.GetDeploymentCondition(d.Status, rollout.Progressing)
	return ok && c.Reason == rollout.ReasonNewReplicaSetAvailable
}
