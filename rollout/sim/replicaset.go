package sim

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// The ReplicaSet controller of ModelControllers: its syncs, slow-start
// batches, deletions, end-of-sync status writes and backoff, and the pod
// events that wake it.

// setSync is the ReplicaSet controller's sync of one ReplicaSet in
// progress, and what it keeps between syncs.
type setSync struct {
	queueKey
	uid        string
	started    time.Time
	listed     []cohort // the running pods listed at the start
	listedGone int64    // and the terminating ones, counted
	generation int64
	minReady   time.Duration
	toCreate   int64 // creations left to try in this sync
	batch      int64 // the slow-start batch in flight
	batchLeft  int64 // its requests not yet granted
	deleteLeft int64 // deletions not yet granted
	refused    bool  // a creation was refused in this sync
	// holdBack: the sync's batches after the first wait behind the
	// deletions of the instant the first ends at (see leadsDeletions);
	// heldBack is how many requests of the batch in flight wait so.
	holdBack bool
	heldBack int64
	// stale says that the Deployment controller has written the
	// ReplicaSet since the sync read it (at its start, or at the GET
	// after a refused status write), so that the server refuses the
	// status write with 409 Conflict; retried says that the write in
	// flight is the one retry after that GET, and failed that the retry
	// was refused too, which fails the sync (see statusWritten).
	stale, retried, failed bool
	status                 rollout.ReplicaSetStatus
	failures               int // failed syncs since the last that succeeded, for the per-item backoff
	// retryAt is the work queue's pending delayed add of the ReplicaSet,
	// if retryPending: the earliest asked for since the last fired.
	retryAt      time.Time
	retryPending bool
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
	s.listed = append(s.listed[:0], ps.cohorts...) // the last sync's buffer
	s.listedGone = ps.goneN
	s.refused = false
	s.stale, s.retried, s.failed = false, false, false
	running := ps.running()
	diff := running - int64(rs.Spec.Replicas)
	switch {
	case diff < 0:
		s.toCreate = min(-diff, c.burstReplicas)
		s.batch = 0
		r.nextBatch(name, s, t)
	case diff > 0:
		s.holdBack = false
		n := min(diff, c.burstReplicas)
		s.deleteLeft = n
		if r.holdsDeletions() {
			c.heldAt = t
			r.push(event{at: t, kind: evDeleteHeld, set: name, n: n, class: 1})
			break
		}
		r.reserve(name, n, evDelete, t)
	default:
		s.holdBack = false
		r.managed(name, t)
	}
}

// reserve asks the ReplicaSet controller's client for n requests at t,
// made at once (as the goroutines of a batch are), and schedules them as
// kind events, one for each time at which some are granted.
//
// Creations granted at once are made at once: a slow-start batch whose
// requests all get a token at t ends at t, and the next batch starts
// then, before any other work of the instant, as the goroutines of a batch
// that never wait finish before another sync's goroutines are scheduled
// (the real runs show it: in a 1,000-replica rollout the new ReplicaSet's
// first batches, 31 pods, are created before the old one's 250
// deletions). The controller's event sink takes some of the tokens
// between the creations (sinkBetween).
func (r *runner) reserve(name string, n int64, kind evKind, t time.Time) {
	b := &r.ctl.client[1]
	var at time.Time
	var k, now int64
	for range n {
		if kind == evCreate {
			r.sinkBetween(t)
		}
		g := b.take(t)
		if kind == evCreate && g.Equal(t) {
			now++
			continue
		}
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
	if now > 0 {
		r.created(name, now, t)
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
	if s.holdBack && s.batch > 0 {
		s.holdBack = false
		if s.batch == 1 && t.Equal(s.started) {
			// The first creation was made at the instant the sync began,
			// from tokens at hand: the second batch's goroutines start at
			// that instant too, among the deletions' (see leadsDeletions),
			// and its first request goes before them.
			s.batch = min(2, s.toCreate)
			s.batchLeft = s.batch
			s.toCreate -= s.batch
			s.heldBack = s.batch - 1
			if s.heldBack > 0 {
				r.push(event{at: t, kind: evBatch, set: name, class: 1})
			}
			r.reserve(name, 1, evCreate, t)
			return
		}
		r.push(event{at: t, kind: evBatch, set: name, class: 1})
		return
	}
	s.batch = max(1, min(2*s.batch, s.toCreate))
	s.batchLeft = s.batch
	s.toCreate -= s.batch
	r.reserve(name, s.batch, evCreate, t)
}

// heldBatch makes the requests of name's batch in flight that waited
// behind the deletions of their instant (setSync.heldBack), or starts
// the next batch if none did.
func (r *runner) heldBatch(name string, s *setSync, t time.Time) {
	if n := s.heldBack; n > 0 {
		s.heldBack = 0
		r.reserve(name, n, evCreate, t)
		return
	}
	r.nextBatch(name, s, t)
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
		r.expirePods(t)
		k := n
		if limit := int64(r.pods.cfg.MaxPods); limit > 0 {
			used := r.pods.total()
			k = min(n, max(limit-used, 0))
			if k < n {
				// The ReplicaFailure condition is set when a failed sync
				// finds none, and kept as it is (message and time) while
				// the syncs keep failing (upstream's calculateStatus).
				if ps.failure == "" {
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
			r.notePodRace(t)
			r.revealLate(t)
			if r.pods.merge {
				ps.settle(t, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
			}
			object := "ReplicaSet/" + name
			for range min(k, 26) {
				r.recordEvent(1, object, "Normal", t)
			}
			r.active = t
			r.enqueueSet(name, t)
			r.enqueueBound(t)
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
		r.expirePods(t)
		before := r.pods.total()
		r.pods.remove(ps, n, t)
		r.noteLeft(t, before-r.pods.total())
		if r.pods.merge {
			ps.settle(t, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
		}
		object := "ReplicaSet/" + name
		for range min(n, 26) {
			r.recordEvent(1, object, "Normal", t)
		}
		r.active = t
		r.enqueueSet(name, t)
		if r.st.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
			r.enqueueDeployment(t)
		}
		r.enqueueBound(t)
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
		r.finishSet(name, s, t, false)
		return
	}
	ps := r.pods.set(rs)
	if !s.refused {
		ps.failure = ""
	}
	c := counts{terminating: s.listedGone}
	for _, co := range s.listed {
		c.replicas += co.n
		if co.ready(s.started) {
			c.ready += co.n
			if co.available(t, s.minReady) {
				c.available += co.n
			}
		}
	}
	st, changed := r.pods.statusOf(rs, c, s.generation)
	if !changed {
		r.finishSet(name, s, t, false)
		return
	}
	s.status = st
	r.push(event{at: r.ctl.client[1].take(t), kind: evSetStatus, set: name})
}

// markStale notes, at a Deployment controller's sync that writes the
// ReplicaSet name, that its sync in flight read an older object than the
// server's.
func (r *runner) markStale(name string) {
	if s := r.ctl.sets[name]; s != nil && s.busy {
		s.stale = true
	}
}

// statusWritten stores a ReplicaSet's status when its write is granted,
// unless the server refuses it: the status is written with the
// resourceVersion the sync read, so a write of the Deployment controller
// to the ReplicaSet since then makes it a 409 Conflict (upstream's
// updateReplicaSetStatus). The controller then reads the ReplicaSet
// again and retries once (statusUpdateRetries), each request with a
// token of its client; a refused retry fails the sync, which is retried
// after the per-item backoff.
func (r *runner) statusWritten(name string, t time.Time) {
	s := r.ctl.sets[name]
	if s == nil {
		return
	}
	early := false
	switch rs := r.findSet(name); {
	case rs == nil || rs.UID != s.uid:
	case s.stale && !s.retried:
		r.push(event{at: r.ctl.client[1].take(t), kind: evSetGet, set: name})
		return
	case s.stale:
		s.failed = true
	default:
		rs.Status = s.status
		r.active = t
		// Both controllers watch ReplicaSets: the Deployment's syncs, and
		// the ReplicaSet's own (which finds nothing more to write).
		r.enqueueDeployment(t)
		early = r.ctl.race == raceFIFO && earlyResync(s, t)
		s.dirty = true
		r.sample(t)
	}
	r.finishSet(name, s, t, early)
}

// statusGot is the GET after a refused status write, granted at t: the
// sync now holds the server's object and retries its write.
func (r *runner) statusGot(name string, t time.Time) {
	s := r.ctl.sets[name]
	if s == nil {
		return
	}
	s.stale, s.retried = false, true
	r.push(event{at: r.ctl.client[1].take(t), kind: evSetStatus, set: name})
}

// finishSet ends a ReplicaSet sync at t. A sync that had a creation
// refused, or its status write refused twice, returns an error: the
// worker hands it to the error handler, which pauses (errorPauseAt), and
// the work queue then re-adds the ReplicaSet with its rate limiter
// (upstream's processNextWorkItem; see addRateLimited). A sync that
// succeeds forgets the failures; if early, the sync that starts again at
// once fails v1.36's stale-cache check (see earlyResync), which is a
// failure as well. One added again during its sync (or the error's
// pause) runs again once it is done.
//
// Only a sync that succeeds forgets. A sync that created some pods and
// had others refused keeps the count for the next: in v1.35 the real
// sync after it often found its expectations unmet (the pod informer's
// handler yet to see the creations), wrote only the status and forgot
// the failures, but the consistency check of v1.36 and v1.37
// (StaleControllerConsistencyReplicaSet, on by default) fails that sync
// first while the pod informer has not stored the controller's own
// creations ("read version: 41 is not as new as written version: 57
// for group resource pods"), an error, and the count goes on. In six
// traced real runs of 10 replicas at a pod quota of 12 with pods
// terminating for 30s, the wait after the second quota cycle was
// 163.84s (three runs) or 655.36s (three): 15 or 17 failures, the first
// cycle's count carried on. Forgetting there, the model's 50 replicas
// at quota 60 with pods terminating for 30s passed the progress
// deadline; counting on, it completes at 256.797s (real median 256.791s,
// TestControllersAgainstRealQuota).
func (r *runner) finishSet(name string, s *setSync, t time.Time, early bool) {
	s.listed, s.listedGone = s.listed[:0], 0
	if !s.refused && !s.failed {
		s.failures = 0
		if !early {
			r.setDone(name, s, t)
			return
		}
		// The worker keeps the key through the error handler's pause,
		// then the work queue re-adds it rate limited, and the writes
		// of that millisecond (the Deployment controller's scales, the
		// sync's own status) run in one sync after it.
	}
	// The worker hands the error to utilruntime.HandleError, which
	// sleeps so that errors come at most one a millisecond (none after
	// a quiet millisecond), before it re-adds the key and marks it done.
	pause := r.errorPauseAt(t)
	if !s.refused && !s.failed {
		// The stale-cache check's failure keeps the whole millisecond:
		// the model's stand-in for the informer catching up with the
		// writes of that instant (see earlyResync).
		pause = errorPause
	}
	r.push(event{at: t.Add(pause), kind: evSetFailed, set: name})
}

// errorPauseAt is how long the error handler sleeps for a ReplicaSet
// sync that failed at t, and notes the error: apimachinery's
// rudimentaryErrorBackoff sleeps until errorPause has passed since the
// error before it, and not at all when that came errorPause or more
// earlier. Only the ReplicaSet controller's errors count: the Deployment
// controller's handleErr re-adds a failed sync without HandleError
// (until its 15th retry, which the model's runs do not reach).
//
// That is what the real runs show: in a request log of holdout/00 (9
// replicas, maxSurge 4 maxUnavailable 0, ready after 31.4 s, a quota of
// 10 pods), the new ReplicaSet's sync that its own status write sets off
// is refused in the millisecond of the step, before the old pod's
// deletion, since the error before came 31.4 s earlier; then nothing
// but the per-item backoff wakes it. Pausing every failure 1 ms, the
// model's retry came after the deletion and created.
func (r *runner) errorPauseAt(t time.Time) time.Duration {
	c := r.ctl
	var pause time.Duration
	if since := t.Sub(c.errAt); c.errSeen && since < errorPause {
		pause = errorPause - since
	}
	c.errAt, c.errSeen = t, true
	return pause
}

// earlyResync reports whether a ReplicaSet sync whose status write is
// granted at t, added again while it ran (a pod it created or one that
// changed), fails the ReplicaSet controller's stale-cache check of v1.36
// (StaleControllerConsistencyReplicaSet, on by default) when it starts
// again: the worker takes the key again as soon as the sync returns,
// before the informer has stored the status write the controller noted.
// The model counts it only where the whole sync, from its start to its
// status write, ran at one instant (its client had tokens for every
// request): there the real informer has not caught up with any of it.
// Where the sync waited for tokens the informer had time to store the
// write first, and the syncs go on as before (with the status-write
// conflicts of statusWritten, which the real runs have there: 34 to 37 a
// run of 80 replicas at maxSurge 2 maxUnavailable 2).
//
// Whether the informer or the worker comes first is a race of their
// goroutines: only the run in order (raceFIFO, which gives the durations)
// takes the check; the orders that bound the peak and the fewest
// available leave it out, as a sync that starts again at once after its
// own status write can create pods before the deletions of its instant
// (real runs of 10 replicas at 25%/25%, ready at once, peak at 13 to 16
// pods, where the check alone would hold every order to 13).
//
// In a real request log of 45 replicas at maxSurge 1 maxUnavailable 1
// (pods ready at once), the new ReplicaSet, scaled 2 to 3 at the change,
// created its third pod only 1ms later, after the Deployment controller
// had scaled it to 4, and created two: from then on the Deployment
// controller moves two pods a step, the new ReplicaSet's two pods
// reported in one status write, and the rollout completes at 9.05 to
// 9.3s. Without the check the model moved one pod a step and completed
// at 16.3s; with it, at 9.15s.
func earlyResync(s *setSync, t time.Time) bool {
	return s.dirty && t.Equal(s.started)
}

// errorPause is apimachinery's rudimentary error backoff: HandleError
// sleeps until a millisecond has passed since the error before it, of any
// controller of the process (see errorPauseAt). Errors back to back pause
// the whole millisecond (the refused syncs of a quota do: in a real run
// of 10 replicas at a quota of 10, a step's two creations came at
// 20.004s and 20.005s).
const errorPause = time.Millisecond

// setFailed ends a sync that failed at t - errorPause, after the error
// handler's pause: the work queue re-adds the ReplicaSet with its rate
// limiter.
func (r *runner) setFailed(name string, t time.Time) {
	s := r.ctl.sets[name]
	if s == nil {
		return
	}
	r.addRateLimited(name, s, t)
	r.setDone(name, s, t)
}

// setDone marks a ReplicaSet's sync done at t: one added again during
// it runs again at once.
func (r *runner) setDone(name string, s *setSync, t time.Time) {
	s.busy = false
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

// maxRetryDelay is the per-item backoff's ceiling.
const maxRetryDelay = 1000 * time.Second

// retryDelay is the per-item backoff after failures earlier failures:
// 5ms doubling, at most maxRetryDelay.
func retryDelay(failures int) time.Duration {
	return min(5*time.Millisecond<<min(failures, 30), maxRetryDelay)
}

// addRateLimited re-adds the ReplicaSet name after a failed sync at t, as
// client-go's default controller rate limiter and delaying queue do: at
// the later of the per-item backoff (5ms doubling with each failure since
// the last success, up to 1000s) and the grant of the limiter's overall
// bucket (10 a second, burst 100, shared by every ReplicaSet), unless a
// delayed add of it already pending comes sooner (the queue keeps one, the
// earliest asked for). The failure counts either way.
func (r *runner) addRateLimited(name string, s *setSync, t time.Time) {
	at := later(t.Add(retryDelay(s.failures)), r.ctl.retries.take(t))
	s.failures++
	if s.retryPending && !at.Before(s.retryAt) {
		return
	}
	s.retryAt, s.retryPending = at, true
	r.push(event{at: at, kind: evSetWake, set: name})
}

// schedulePods makes sure that the next pod event after t is scheduled.
func (r *runner) schedulePods(t time.Time) {
	c := r.ctl
	e, ok := r.pods.next(r.setsScratch(), t)
	if !ok || (c.podPending && !e.Before(c.podAt)) {
		return
	}
	c.podAt, c.podPending = e, true
	r.push(event{at: e, kind: evPods})
}

// expirePods removes the terminating pods that are gone at t. Under
// raceDeletesLast, the pods whose termination ends at t stay until the
// other work of the instant is done (see gone).
func (r *runner) expirePods(t time.Time) {
	var gone int64
	if r.ctl.race == raceDeletesLast {
		gone = r.pods.expireBefore(t)
	} else {
		gone = r.pods.expire(t)
	}
	r.noteLeft(t, gone)
}

// noteLeft records that n pods stopped existing at t.
func (r *runner) noteLeft(t time.Time, n int64) {
	c := r.ctl
	if n <= 0 {
		return
	}
	if !c.leftAt.Equal(t) {
		c.leftAt, c.left = t, 0
	}
	c.left += n
}

// notePodRace is called after pods are created at t. If pods left at t
// before them, the creations and those pods' going raced: the real
// controllers let the creation come first now and then (see
// racingReplicas), with one pod more than the model counts where one pod
// left, and two where more did (a rolling update's old ReplicaSet, whose
// sync lists and ranks its pods before its deletions ask for tokens,
// while the new one's first batch and the first request of its second
// are made from the tokens at hand, as at the change: see
// leadsDeletions), within the pod quota. A Recreate rollout creates no
// pod while old ones exist, so only its one-pod race counts.
func (r *runner) notePodRace(t time.Time) {
	c := r.ctl
	if c.left < 1 || !c.leftAt.Equal(t) || c.left > 1 && r.st.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
		return
	}
	n := r.count(t).existing + min(c.left, 2)
	if limit := int64(r.pods.cfg.MaxPods); limit > 0 {
		n = min(n, limit)
	}
	if n > c.racePeak {
		_, ceiling := limits(r.st.Deployment)
		c.racePeak, c.racePeakAt, c.raceCeiling = n, t, ceiling
	}
}

// racePeakExtremes returns the race peak so far in the PeakPods,
// PeakPodsAt (from start) and Ceiling of Extremes.
func (c *ctlRun) racePeakExtremes(start time.Time) Extremes {
	return Extremes{PeakPods: c.racePeak, PeakPodsAt: c.racePeakAt.Sub(start), Ceiling: c.raceCeiling}
}

// gone removes the terminating pods whose termination ends at t, after
// the other work of the instant (raceDeletesLast): their ReplicaSets sync
// again, as does the Deployment under the Recreate strategy.
func (r *runner) gone(t time.Time) {
	for _, rs := range r.setsScratch() { // enqueueSet does not call setsScratch
		if r.pods.set(rs).endsBy(t, r.pods.cfg.Terminating, false) {
			r.enqueueSet(rs.Name, t)
		}
	}
	r.pods.expire(t)
	r.enqueueBound(t)
	if r.st.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
		r.enqueueDeployment(t)
	}
	r.active = t
	r.sample(t)
	r.schedulePods(t)
}

// podEvents is the pods' times at t: pods becoming ready wake their
// ReplicaSet's sync (an informer event), becoming available its
// minReadySeconds re-check, and terminating pods that are gone both
// (under raceDeletesLast, once the other work of the instant is done:
// the kubelet's removal of a pod races with the controllers' work, and a
// pod created a moment before an old one is gone counts beside it).
func (r *runner) podEvents(t time.Time) {
	c := r.ctl
	if !c.podPending || !t.Equal(c.podAt) {
		return
	}
	c.podPending = false
	gone := false
	lag := c.race == raceDeletesLast
	for _, rs := range r.setsScratch() { // enqueueSet does not call setsScratch
		ps := r.pods.set(rs)
		minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
		k, ends := ps.endsAt(t, r.pods.cfg.Terminating)
		if !ends {
			// No pod of ps is gone at t: only the pods due wake it.
			if ps.index().dueAt(t, minReady) {
				r.enqueueSet(rs.Name, t)
			}
			continue
		}
		// Pods of ps are gone at t: it syncs for them unless lag, and
		// for its first running cohort due (in compareCohorts order), if
		// any. The pods gone mark the instant (gone) as a walk of all
		// the cohorts in that order, stopping at the first that wakes
		// the ReplicaSet, did: where the least of them (ps.gone[k])
		// comes before that running cohort.
		var due *cohort
		if ps.index().dueAt(t, minReady) {
			for i, co := range ps.cohorts {
				if !co.late && !co.never && (co.readyAt.Equal(t) || minReady > 0 && co.availableAt(minReady).Equal(t)) {
					due = &ps.cohorts[i]
					break
				}
			}
		}
		if due == nil || compareCohorts(ps.gone[k], *due) < 0 {
			gone = true
		}
		if !lag || due != nil {
			r.enqueueSet(rs.Name, t)
		}
	}
	if gone && lag {
		r.push(event{at: t, kind: evGone, class: 2})
	}
	r.expirePods(t)
	r.enqueueBound(t)
	if gone && !lag && r.st.Deployment.Spec.Strategy.Type == rollout.RecreateStrategy {
		r.enqueueDeployment(t)
	}
	r.revealLate(t)
	r.active = t
	r.sample(t)
	r.schedulePods(t)
}

// revealLate schedules the reveal of the late pods ready by t, after
// every other work of the instant, whatever the run's race.
func (r *runner) revealLate(t time.Time) {
	c := r.ctl
	if c.revealPending && c.revealAt.Equal(t) {
		return
	}
	for _, rs := range r.setsScratch() {
		if x := r.pods.set(rs).index(); x.hasLate && !x.lateAt.After(t) {
			c.revealAt, c.revealPending = t, true
			r.push(event{at: t, kind: evReveal, class: 2})
			return
		}
	}
}

// reveal hands the ReplicaSet controller the readiness of the late pods
// that became ready at t (see podModel.add): their ReplicaSets sync again.
func (r *runner) reveal(t time.Time) {
	r.ctl.revealPending = false
	for _, rs := range r.sets() {
		ps := r.pods.set(rs)
		r.pods.walked += len(ps.cohorts)
		if ps.goneLate > 0 {
			r.pods.walked += len(ps.gone)
		}
		if ps.revealLate(t) {
			r.enqueueSet(rs.Name, t)
		}
	}
	r.active = t
	r.sample(t)
	r.schedulePods(t)
}

// listed returns the cohorts the ReplicaSet controller's syncs keep as
// listed, summed.
func (c *ctlRun) listed() int {
	n := 0
	for _, s := range c.sets {
		n += len(s.listed)
	}
	return n
}
