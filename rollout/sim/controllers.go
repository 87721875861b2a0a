package sim

import (
	"container/heap"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// The controllers model: the Deployment controller and the ReplicaSet
// controller as kube-controller-manager runs them, as a discrete event
// simulation. Every API request waits for a token of its controller's
// client bucket; what a request writes takes effect when it is granted,
// and the informers of both controllers see it at that moment.

// evKind is what a scheduled event does.
type evKind uint8

const (
	evDeploymentSync evKind = iota // the Deployment controller syncs the Deployment
	evDeploymentDone               // its sync's last request is granted
	evDeploymentWake               // a delayed re-queue (progress re-check)
	evSetSync                      // the ReplicaSet controller syncs a ReplicaSet
	evSetWake                      // a delayed re-queue (backoff after a failed create)
	evCreate                       // pod creations are granted
	evDelete                       // pod deletions are granted
	evSetStatus                    // a ReplicaSet's status write is granted
	evPods                         // pods become ready or available, or are gone
	evSink                         // a controller's event sink may send its next event
	evChange                       // a replica change or an edit is due
)

// race is the order of the work that becomes due at the same instant,
// where the real controllers' goroutines race (see the package doc).
type race uint8

const (
	raceFIFO         race = iota // in the order it became due
	raceDeletesLast              // ReplicaSet syncs that delete pods after everything else
	raceDeletesFirst             // ReplicaSet syncs that delete pods before everything else
)

type event struct {
	at    time.Time
	class int
	seq   uint64
	kind  evKind
	set   string // the ReplicaSet, for the ReplicaSet controller's events
	n     int64  // pods, for evCreate and evDelete
	which int    // the controller, for evSink: 0 Deployment, 1 ReplicaSet
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if c := h[i].at.Compare(h[j].at); c != 0 {
		return c < 0
	}
	if h[i].class != h[j].class {
		return h[i].class < h[j].class
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// queueKey is one key of a controller's work queue: waiting, being
// synced, and dirty (added again during its sync).
type queueKey struct {
	queued, busy, dirty bool
}

// setSync is the ReplicaSet controller's sync of one ReplicaSet in
// progress, and what it keeps between syncs.
type setSync struct {
	queueKey
	uid        string
	started    time.Time
	listed     []cohort // the pods listed at the start
	generation int64
	minReady   time.Duration
	toCreate   int64 // creations left to try in this sync
	batch      int64 // the slow-start batch in flight
	batchLeft  int64 // its requests not yet granted
	deleteLeft int64 // deletions not yet granted
	refused    bool  // a creation was refused in this sync
	status     rollout.ReplicaSetStatus
	failures   int // consecutive failed syncs, for the per-item backoff
}

// spamKey is what the event recorder's spam filter tells apart: the
// source (the controller), the object and the event's type.
type spamKey struct {
	which        int
	object, kind string
}

// sink is a controller's event broadcaster: it sends one event at a time,
// each waiting for a token of the controller's client.
type sink struct {
	pending int64
	busy    bool
}

type ctlRun struct {
	events        eventHeap
	seq           uint64
	race          race
	client        [2]bucket // 0: the Deployment controller, 1: the ReplicaSet controller
	sinks         [2]sink
	spam          map[spamKey]*bucket // the event recorders' spam filter, per object and type
	burstReplicas int64
	dep           queueKey
	wakeAt        time.Time // the Deployment's delayed re-queue, if wakePending
	wakePending   bool
	depWrote      bool     // the sync in flight writes something
	depTouched    []string // the ReplicaSets it writes
	sets          map[string]*setSync
	podAt         time.Time // the pod event scheduled, if podPending
	podPending    bool
	completeAt    time.Time
	complete      bool
}

func newCtlRun(c Controllers, rc race) *ctlRun {
	qps, burst, burstReplicas := c.limits()
	return &ctlRun{
		race:          rc,
		client:        [2]bucket{newBucket(qps, burst), newBucket(qps, burst)},
		spam:          map[spamKey]*bucket{},
		burstReplicas: int64(burstReplicas),
		sets:          map[string]*setSync{},
	}
}

func (r *runner) push(e event) {
	c := r.ctl
	c.seq++
	e.seq = c.seq
	heap.Push(&c.events, e)
}

// findSet returns the ReplicaSet of the namespace named name, or nil.
func (r *runner) findSet(name string) *rollout.ReplicaSet {
	for i := range r.st.ReplicaSets {
		if rs := &r.st.ReplicaSets[i]; rs.Name == name && rs.Namespace == r.st.Deployment.Namespace {
			return rs
		}
	}
	return nil
}

// runControllers is Run under ModelControllers.
func (r *runner) runControllers() {
	c := r.ctl
	for _, ch := range r.changes {
		r.push(event{at: r.start.Add(ch.After), kind: evChange})
	}
	for _, e := range r.edits {
		r.push(event{at: r.start.Add(e.At), kind: evChange})
	}
	r.enqueueDeployment(r.start)
	for _, rs := range r.sets() {
		r.enqueueSet(rs.Name, r.start)
	}
	r.schedulePods(r.start)
	for !r.done {
		if r.onlyRetries() {
			r.quiet()
			return
		}
		e := c.events[0]
		switch {
		case r.cfg.MaxTime > 0 && e.at.Sub(r.start) > r.cfg.MaxTime:
			r.stop(OutcomeLimit, fmt.Sprintf("%s of simulated time (MaxTime)", r.cfg.MaxTime))
			return
		case r.cfg.MaxSyncs > 0 && e.kind == evDeploymentSync && r.syncs >= r.cfg.MaxSyncs:
			r.stop(OutcomeLimit, fmt.Sprintf("%d syncs (MaxSyncs)", r.cfg.MaxSyncs))
			return
		case r.work >= r.maxWork:
			r.stop(OutcomeLimit, fmt.Sprintf("%d controller syncs and pod writes computed (MaxWork)", r.maxWork))
			return
		}
		heap.Pop(&c.events)
		r.last = later(r.last, e.at)
		r.handle(e)
	}
}

// onlyRetries reports whether nothing is left to happen but the retries
// of ReplicaSet syncs whose creations the quota refuses, each at the
// longest backoff: a rollout blocked by quota for good. The run stops
// there rather than retry every 1000s for ever.
func (r *runner) onlyRetries() bool {
	for _, e := range r.ctl.events {
		if e.kind != evSetWake {
			return false
		}
		if s := r.ctl.sets[e.set]; s == nil || s.failures == 0 || 5*time.Millisecond<<min(s.failures-1, 30) < 1000*time.Second {
			return false
		}
	}
	return true
}

// quiet ends a run in which nothing is left to happen.
func (r *runner) quiet() {
	d := r.st.Deployment
	if rollout.DeploymentComplete(d, d.Status) {
		r.stop(OutcomeComplete, fmt.Sprintf("%d of %d replicas updated and available", d.Status.AvailableReplicas, d.Spec.Replicas))
		return
	}
	cause := r.cause()
	if r.current.Err != nil && cause.outcome == OutcomeStalled {
		cause = stopCause{OutcomeSyncFails, r.current.Err.Error()}
	}
	r.stop(cause.outcome, cause.detail)
}

func (r *runner) handle(e event) {
	switch e.kind {
	case evDeploymentSync:
		r.deploymentSync(e.at)
	case evDeploymentDone:
		r.deploymentDone(e.at)
	case evDeploymentWake:
		// A progress re-check asked for before the rollout completed
		// finds nothing to check once it has; one replaced by an earlier
		// one is gone.
		if !r.ctl.wakePending || !e.at.Equal(r.ctl.wakeAt) {
			break
		}
		r.ctl.wakePending = false
		if !settled(r.st.Deployment) {
			r.enqueueDeployment(e.at)
		}
	case evSetSync:
		r.setSyncStart(e.set, e.at)
	case evSetWake:
		r.enqueueSet(e.set, e.at)
	case evCreate:
		r.created(e.set, e.n, e.at)
	case evDelete:
		r.deleted(e.set, e.n, e.at)
	case evSetStatus:
		r.statusWritten(e.set, e.at)
	case evPods:
		r.podEvents(e.at)
	case evSink:
		r.sinkNext(e.which, e.at)
	case evChange:
		r.advanceObjects(e.at)
		r.enqueueDeployment(e.at)
	}
}

// enqueueDeployment adds the Deployment to its controller's queue at t.
func (r *runner) enqueueDeployment(t time.Time) {
	q := &r.ctl.dep
	switch {
	case q.busy:
		q.dirty = true
	case !q.queued:
		q.queued = true
		r.push(event{at: t, kind: evDeploymentSync, class: r.classOf(false)})
	}
}

// enqueueSet adds a ReplicaSet to its controller's queue at t.
func (r *runner) enqueueSet(name string, t time.Time) {
	s := r.ctl.sets[name]
	if s == nil {
		s = &setSync{}
		r.ctl.sets[name] = s
	}
	switch {
	case s.busy:
		s.dirty = true
	case !s.queued:
		s.queued = true
		deletes := false
		if rs := r.findSet(name); rs != nil {
			ps := r.pods.set(rs)
			deletes = ps.existing()-ps.counts(t, 0).terminating > int64(rs.Spec.Replicas)
		}
		r.push(event{at: t, kind: evSetSync, set: name, class: r.classOf(deletes)})
	}
}

// classOf orders the work due at one instant under the run's race.
func (r *runner) classOf(deletes bool) int {
	switch r.ctl.race {
	case raceDeletesLast:
		if deletes {
			return 1
		}
	case raceDeletesFirst:
		if !deletes {
			return 1
		}
	}
	return 0
}

// record queues an event of a controller on an object: the recorder's
// spam filter (25 at once, then one every 5 minutes per object and type)
// drops some, and the sink sends the others one at a time.
func (r *runner) recordEvent(which int, object, typ string, t time.Time) {
	c := r.ctl
	key := spamKey{which, object, typ}
	b := c.spam[key]
	if b == nil {
		nb := newBucket(1.0/300, 25)
		b = &nb
		c.spam[key] = b
	}
	if !b.allow(t) {
		return
	}
	s := &c.sinks[which]
	s.pending++
	if !s.busy {
		s.busy = true
		r.push(event{at: t, kind: evSink, which: which})
	}
}

// sinkNext sends a controller's next event, if any, when its client
// grants a token.
func (r *runner) sinkNext(which int, t time.Time) {
	s := &r.ctl.sinks[which]
	if s.pending == 0 {
		s.busy = false
		return
	}
	s.pending--
	g := r.ctl.client[which].take(t)
	r.push(event{at: g, kind: evSink, which: which})
}

// deploymentSync is a sync of the Deployment controller at t: Plan on the
// objects as its informers see them, its requests made one after the
// other.
func (r *runner) deploymentSync(t time.Time) {
	c := r.ctl
	c.dep.queued, c.dep.busy = false, true
	r.work++
	r.syncs++
	s := r.st
	s.Now = t
	if s.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
		s.Pods = r.pods.pods(r.sets())
	}
	actions, err := rollout.Plan(s)
	g := t
	var touched []string
	wrote := false
	var recheck time.Time
	for _, a := range actions {
		if a.Type == rollout.RecheckProgress && !settled(r.st.Deployment) {
			recheck = a.At
		}
		if a.Event.Reason != "" {
			r.recordEvent(0, "Deployment/"+r.st.Deployment.Name, a.Event.Type, t)
		}
		if !a.IsAPICall() {
			continue
		}
		wrote = true
		g = c.client[0].take(g)
		if a.ReplicaSet != "" {
			touched = append(touched, a.ReplicaSet)
		}
	}
	if wrote {
		rollout.ApplyTo(&s, actions)
		r.st = s
		r.active = g
	}
	r.st.Pods = nil
	r.st.Now = t
	r.current = Step{At: t, Actions: actions, Err: err}
	r.sample(t)
	r.record()
	if !recheck.IsZero() {
		// The work queue keeps one delayed add of a key, at the earliest
		// time asked for.
		at := later(recheck, t.Add(time.Second))
		if !c.wakePending || at.Before(c.wakeAt) {
			c.wakeAt, c.wakePending = at, true
			r.push(event{at: at, kind: evDeploymentWake})
		}
	}
	d := r.st.Deployment
	if cond, ok := rollout.GetDeploymentCondition(d.Status, rollout.Progressing); ok &&
		cond.Status == rollout.ConditionFalse && cond.Reason == rollout.ReasonProgressDeadlineExceeded {
		r.active = t
		cause := r.cause()
		detail := cond.Message
		if cause.outcome != OutcomeStalled {
			detail = joinSentences(detail, string(cause.outcome)+": "+cause.detail)
		}
		r.stop(OutcomeDeadlineExceeded, detail)
		return
	}
	c.depWrote, c.depTouched = wrote, touched
	r.push(event{at: g, kind: evDeploymentDone})
}

// deploymentDone ends the Deployment controller's sync when its last
// request is granted: the informers see its writes.
func (r *runner) deploymentDone(t time.Time) {
	c := r.ctl
	c.dep.busy = false
	// Two syncs in, the ReplicaSets' minReadySeconds are the
	// Deployment's, and without jitter or edits they stay so: settled
	// pods may be merged (see podSet.settle).
	r.pods.merge = r.pods.rng == nil && len(r.cfg.Edits) == 0 && r.syncs >= 2
	d := r.st.Deployment
	if !c.complete && rollout.DeploymentComplete(d, d.Status) {
		c.complete, c.completeAt = true, t
	}
	r.collectOrphans(t)
	for _, name := range c.depTouched {
		if r.findSet(name) != nil {
			r.enqueueSet(name, t)
		}
	}
	if c.depWrote || c.dep.dirty {
		c.dep.dirty = false
		r.enqueueDeployment(t)
	}
	c.depWrote, c.depTouched = false, nil
}

// collectOrphans hands the pods of ReplicaSets that are gone to the
// garbage collector.
func (r *runner) collectOrphans(t time.Time) {
	for _, name := range slices.Sorted(maps.Keys(r.pods.sets)) {
		ps := r.pods.sets[name]
		if rs := r.findSet(name); rs == nil || rs.UID != ps.uid {
			r.pods.orphan(ps, t)
			delete(r.ctl.sets, name)
		}
	}
	r.schedulePods(t)
}

// setSyncStart is a sync of the ReplicaSet controller for name at t: it
// lists the pods, creates or deletes what spec.replicas asks for, and
// writes the status of the pods it listed when that is done.
func (r *runner) setSyncStart(name string, t time.Time) {
	c := r.ctl
	s := c.sets[name]
	rs := r.findSet(name)
	if s == nil || rs == nil {
		// The ReplicaSet is gone (its pods with it) since it was queued.
		delete(c.sets, name)
		return
	}
	s.queued = false
	r.work++
	s.busy = true
	ps := r.pods.set(rs)
	s.uid = rs.UID
	s.started = t
	s.generation = rs.Generation
	s.minReady = time.Duration(rs.Spec.MinReadySeconds) * time.Second
	if r.pods.merge {
		ps.settle(t, s.minReady)
	}
	s.listed = slices.Clone(ps.cohorts)
	s.refused = false
	running := ps.existing() - ps.counts(t, 0).terminating
	diff := running - int64(rs.Spec.Replicas)
	switch {
	case diff < 0:
		s.toCreate = min(-diff, c.burstReplicas)
		s.batch = 0
		r.nextBatch(name, s, t)
	case diff > 0:
		n := min(diff, c.burstReplicas)
		s.deleteLeft = n
		r.reserve(name, n, evDelete, t)
	default:
		r.managed(name, t)
	}
}

// reserve asks the ReplicaSet controller's client for n requests at t,
// made at once (as the goroutines of a batch are), and schedules them as
// kind events, one for each time at which some are granted.
func (r *runner) reserve(name string, n int64, kind evKind, t time.Time) {
	b := &r.ctl.client[1]
	var at time.Time
	var k int64
	for range n {
		g := b.take(t)
		if k > 0 && !g.Equal(at) {
			r.push(event{at: at, kind: kind, set: name, n: k})
			k = 0
		}
		at = g
		k++
	}
	if k > 0 {
		r.push(event{at: at, kind: kind, set: name, n: k})
	}
}

// nextBatch starts the next slow-start batch (1, 2, 4, ...) of creations,
// or ends the creating part of the sync.
func (r *runner) nextBatch(name string, s *setSync, t time.Time) {
	if s.toCreate == 0 || s.refused {
		s.toCreate = 0
		r.managed(name, t)
		return
	}
	s.batch = max(1, min(2*s.batch, s.toCreate))
	s.batchLeft = s.batch
	s.toCreate -= s.batch
	r.reserve(name, s.batch, evCreate, t)
}

// created applies n granted pod creations of name at t, as far as the pod
// quota allows.
func (r *runner) created(name string, n int64, t time.Time) {
	r.work++
	s := r.ctl.sets[name]
	rs := r.findSet(name)
	if s == nil {
		return
	}
	if rs != nil && rs.UID == s.uid {
		ps := r.pods.set(rs)
		r.pods.expire(t)
		k := n
		if limit := int64(r.pods.cfg.MaxPods); limit > 0 {
			used := r.pods.total()
			k = min(n, max(limit-used, 0))
			if k < n {
				if !s.refused {
					ps.failure = fmt.Sprintf("pods %q is forbidden: exceeded quota: pods, requested: pods=1, used: pods=%d, limited: pods=%d",
						podName(rs.Name, ps.created+k), used+k, limit)
					ps.failedAt = t.Truncate(time.Second)
				}
				s.refused = true
				r.pods.failed += int(n - k)
				r.recordEvent(1, "ReplicaSet/"+name, "Warning", t)
			}
		}
		if k > 0 {
			r.pods.add(ps, k, t)
			if r.pods.merge {
				ps.settle(t, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
			}
			for range min(k, 26) {
				r.recordEvent(1, "ReplicaSet/"+name, "Normal", t)
			}
			r.active = t
			r.enqueueSet(name, t)
			r.sample(t)
			r.schedulePods(t)
		}
	}
	s.batchLeft -= n
	if s.batchLeft == 0 {
		r.nextBatch(name, s, t)
	}
}

// deleted applies n granted pod deletions of name at t: the pods the
// ReplicaSet controller ranks first (see podModel.remove).
func (r *runner) deleted(name string, n int64, t time.Time) {
	r.work++
	s := r.ctl.sets[name]
	if s == nil {
		return
	}
	if rs := r.findSet(name); rs != nil && rs.UID == s.uid {
		ps := r.pods.set(rs)
		r.pods.expire(t)
		r.pods.remove(ps, n, t)
		if r.pods.merge {
			ps.settle(t, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
		}
		for range min(n, 26) {
			r.recordEvent(1, "ReplicaSet/"+name, "Normal", t)
		}
		r.active = t
		r.enqueueSet(name, t)
		if r.st.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
			r.enqueueDeployment(t)
		}
		r.sample(t)
		r.schedulePods(t)
	}
	s.deleteLeft -= n
	if s.deleteLeft == 0 {
		r.managed(name, t)
	}
}

// managed is the end of a ReplicaSet sync's creations and deletions at t:
// the status of the pods listed at the start (availability judged at t)
// is written if it changed.
func (r *runner) managed(name string, t time.Time) {
	s := r.ctl.sets[name]
	if s == nil {
		return
	}
	rs := r.findSet(name)
	if rs == nil || rs.UID != s.uid {
		r.finishSet(name, s, t)
		return
	}
	ps := r.pods.set(rs)
	if !s.refused {
		ps.failure = ""
	}
	var c counts
	for _, co := range s.listed {
		switch {
		case co.terminating():
			c.terminating += co.n
		default:
			c.replicas += co.n
			if co.ready(s.started) {
				c.ready += co.n
				if co.available(t, s.minReady) {
					c.available += co.n
				}
			}
		}
	}
	st, changed := r.pods.statusOf(rs, c, s.generation)
	if !changed {
		r.finishSet(name, s, t)
		return
	}
	s.status = st
	r.push(event{at: r.ctl.client[1].take(t), kind: evSetStatus, set: name})
}

// statusWritten stores a ReplicaSet's status when its write is granted.
func (r *runner) statusWritten(name string, t time.Time) {
	s := r.ctl.sets[name]
	if s == nil {
		return
	}
	if rs := r.findSet(name); rs != nil && rs.UID == s.uid {
		rs.Status = s.status
		r.active = t
		// Both controllers watch ReplicaSets: the Deployment's syncs, and
		// the ReplicaSet's own (which finds nothing more to write).
		r.enqueueDeployment(t)
		s.dirty = true
		r.sample(t)
	}
	r.finishSet(name, s, t)
}

// finishSet ends a ReplicaSet sync at t: a sync that had a creation
// refused is retried after the work queue's per-item backoff (5ms
// doubling to 1000s); one added again during its sync runs again at once.
func (r *runner) finishSet(name string, s *setSync, t time.Time) {
	s.busy = false
	s.listed = nil
	if s.refused {
		delay := min(5*time.Millisecond<<min(s.failures, 30), 1000*time.Second)
		s.failures++
		r.push(event{at: t.Add(delay), kind: evSetWake, set: name})
	} else {
		s.failures = 0
	}
	if s.dirty {
		s.dirty = false
		if r.findSet(name) != nil {
			r.enqueueSet(name, t)
		}
	}
	if r.findSet(name) == nil {
		delete(r.ctl.sets, name)
	}
}

// schedulePods makes sure that the next pod event after t is scheduled.
func (r *runner) schedulePods(t time.Time) {
	c := r.ctl
	e, ok := r.pods.next(r.sets(), t)
	if !ok || (c.podPending && !e.Before(c.podAt)) {
		return
	}
	c.podAt, c.podPending = e, true
	r.push(event{at: e, kind: evPods})
}

// podEvents is the pods' times at t: pods becoming ready wake their
// ReplicaSet's sync (an informer event), becoming available its
// minReadySeconds re-check, and terminating pods that are gone both.
func (r *runner) podEvents(t time.Time) {
	c := r.ctl
	if !c.podPending || !t.Equal(c.podAt) {
		return
	}
	c.podPending = false
	gone := false
	for _, rs := range r.sets() {
		ps := r.pods.set(rs)
		minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
		for _, co := range ps.cohorts {
			due := false
			switch {
			case co.terminating():
				due = co.deleted.Add(r.pods.cfg.Terminating).Equal(t)
				gone = gone || due
			case !co.never:
				due = co.readyAt.Equal(t) || co.readyAt.Add(minReady).Equal(t)
			}
			if due {
				r.enqueueSet(rs.Name, t)
				break
			}
		}
	}
	r.pods.expire(t)
	if gone && r.st.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
		r.enqueueDeployment(t)
	}
	r.active = t
	r.sample(t)
	r.schedulePods(t)
}
