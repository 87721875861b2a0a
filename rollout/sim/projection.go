package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Projection is what a run under ModelControllers that stopped at
// Config.MaxWork can still say of the rest of the rollout, from the state
// at which it stopped and without computing the rest event by event.
//
// DurationAtLeast is proved, not estimated: every pod the new ReplicaSet
// still lacks must be created and every running pod of the old ones
// deleted, each by a request of the ReplicaSet controller's client, whose
// token bucket grants at most burst requests plus one every 1/QPS; the
// last pod created must then become ready (Pods.ReadyAfter at least) and
// stay ready for minReadySeconds before the Deployment can be complete,
// and so must spec.replicas pods of the new ReplicaSet, those already
// created becoming available no sooner than their own ready times
// (runner.newAvailableBy; TestProjectionCountsPodsNotYetAvailable);
// and, in a RollingUpdate run without replica changes or edits, at most
// maxSurge + maxUnavailable (k) new pods wait to become available at once
// (see runner.wave), so the pods left take that wait ceil(left / k) times
// over, and the same client writes the new ReplicaSet's status
// ceil((replicas - its available pods) / k) - 1 more times at least (see
// runner.statusWrites; TestProjectionCountsStatusWrites), and each
// ReplicaSet's status once for every burstReplicas pods it has yet to
// create or delete, less a sync in flight (runner.syncWrites).
// So a run computed to its end is complete no sooner: Summary.Duration >=
// DurationAtLeast (TestProjectionBounds). DurationEstimate is an estimate:
// the pace of the run so far (pods created for the new ReplicaSet and
// deleted from the old ones, a second) kept up for the pods left.
//
// The figures the stepped part measured stay what they are: the rest of
// the rollout can only raise Summary.PeakPods and lower
// Summary.MinAvailable, so a limit they already break is broken.
// PeakPodsAtMost and MinAvailableAtLeast bound how far they can go
// (TestProjectionBounds checks both against the runs computed to their
// end): proved, not estimated, and the first is loose, counting every
// old pod until the last is deleted.
//
// A run that stopped after the Deployment became complete has its
// Duration: both durations are it. The zero Projection (Made false) is no
// projection: the run was computed to its end, it stopped at another
// limit, or it is one the bound does not cover (replica changes or edits
// still to come, new pods that never become ready, a paused Deployment).
type Projection struct {
	// Made says the run was projected; the other fields are zero if not.
	Made bool
	// Stepped is how far the run was computed event by event: from the
	// start to the last event it took.
	Stepped time.Duration
	// Creates and Deletes are the requests still to be granted: the
	// pods the new ReplicaSet lacks to reach spec.replicas, and the
	// running pods of the old ReplicaSets, each to be deleted.
	Creates, Deletes int64
	// DurationAtLeast is a lower bound of Summary.Duration had the run
	// gone on to completion (see above), at most math.MaxInt64.
	DurationAtLeast time.Duration
	// DurationEstimate is the completion at the pace of the run so far,
	// never below DurationAtLeast; equal to it when the run made no
	// progress to measure.
	DurationEstimate time.Duration
	// MinAvailableAtLeast is a lower bound of Summary.MinAvailable had
	// the run gone on (proved, over the two orders Summary.MinAvailable
	// is the worst of): the fewest so far, or the availability floor
	// (replicas - maxUnavailable) if lower, in a run without replica
	// changes or edits whose state at the stop keeps the Deployment
	// controller's inequalities (see runner.wave) and whose old
	// ReplicaSets' running pods are all available; 0 elsewhere.
	MinAvailableAtLeast int64
	// PeakPodsAtMost is an upper bound of Summary.PeakPodsHigh (and so
	// of Summary.PeakPods) had the run gone on, proved from the state at
	// the stop of each of the three orders (see runner.peakAtMost), in a
	// run without replica changes or edits whose Deployment controller
	// has seen its generation; math.MaxInt64 elsewhere.
	PeakPodsAtMost int64
}

// left is what a rollout still needs at stop: the new ReplicaSet (nil
// before it exists), the pods it lacks, the running pods of the old
// ones, and of those the requests not yet made.
type left struct {
	newRS            *rollout.ReplicaSet
	ctrl             []*rollout.ReplicaSet
	lacking, old     int64
	creates, deletes int64
}

// left counts what the rollout still needs at stop, and reports false
// where the projection's bound does not hold: replica changes or edits
// still to come, a paused Deployment, new pods that never become ready.
func (r *runner) left(stop time.Time) (left, bool) {
	d := r.st.Deployment
	if _, changing := r.pending(); changing || d.Spec.Paused || r.neverReady(d.Spec.Template) {
		return left{}, false
	}
	l := left{ctrl: r.controlledSets()}
	l.newRS = r.newSet(l.ctrl)
	var newRunning, pendingCreates, pendingDeletes int64
	for _, rs := range l.ctrl {
		ps := r.pods.set(rs)
		running := ps.existing() - ps.counts(stop, 0).terminating
		if rs == l.newRS {
			newRunning = running
		} else {
			l.old += running
		}
	}
	for _, e := range r.ctl.events {
		switch {
		case e.kind == evCreate && l.newRS != nil && e.set == l.newRS.Name:
			pendingCreates += e.n
		case e.kind == evDelete && (l.newRS == nil || e.set != l.newRS.Name):
			pendingDeletes += e.n
		}
	}
	l.lacking = max(int64(d.Spec.Replicas)-newRunning, 0)
	l.creates = max(l.lacking-pendingCreates, 0)
	l.deletes = max(l.old-pendingDeletes, 0)
	return l, true
}

// neverReady reports whether pods of template never become ready under
// the pod model (an image of Pods.NeverReady).
func (r *runner) neverReady(template rollout.PodTemplate) bool {
	for _, c := range template.Spec.Images() {
		if r.pods.neverReady[c.Image] {
			return true
		}
	}
	return false
}

// project makes the Projection of a ModelControllers run that stopped at
// its work limit, and says it in the Summary's detail.
func (r *runner) project() {
	c := r.ctl
	stop := later(r.last, r.start)
	if c == nil {
		return
	}
	l, ok := r.left(stop)
	if !ok {
		return
	}
	if c.complete {
		// Complete already: what is left (the old pods' status writes,
		// terminating pods going away) does not move Duration.
		at := c.completeAt.Sub(r.start)
		r.sum.Projection = Projection{Made: true, Stepped: stop.Sub(r.start), DurationAtLeast: at, DurationEstimate: at,
			MinAvailableAtLeast: r.availableAtLeast(l), PeakPodsAtMost: r.peakAtMost(l)}
		r.sum.Detail = joinSentences(r.sum.Detail, fmt.Sprintf("the rollout was complete %s after the start", words.Duration(at)))
		return
	}
	ctrl, newRS, lacking := l.ctrl, l.newRS, l.lacking
	d := r.st.Deployment
	p := Projection{
		Made:    true,
		Stepped: stop.Sub(r.start),
		Creates: l.lacking,
		Deletes: l.old,
	}
	minReady := d.Spec.MinReadySeconds
	if newRS != nil {
		minReady = min(minReady, newRS.Spec.MinReadySeconds)
	}
	// A pod is available minReadySeconds after its Ready condition's
	// time kept to the second (cohort.availableAt): less than a second
	// sooner than minReadySeconds after it became ready.
	wait := time.Duration(0)
	if minReady > 0 {
		wait = time.Duration(minReady-1) * time.Second
	}
	ready := satAdd(r.cfg.Pods.ReadyAfter, wait)
	end := stop
	if lacking > 0 {
		// A pod still to be created is created no sooner than now.
		end = later(end, stop.Add(ready))
	}
	if newRS != nil {
		// A pod created from now on is ready ReadyAfter after its
		// creation at least, and available as cohort.availableAt says.
		future := cohort{readyAt: stop.Add(r.cfg.Pods.ReadyAfter)}
		mr := time.Duration(minReady) * time.Second
		if mr > 0 {
			future.readyAt = future.availableAt(mr)
		}
		end = later(end, r.newAvailableBy(newRS, stop, mr, future.readyAt))
	}
	var writes int64
	if k, ok := r.wave(newRS, oldSpecs(ctrl, newRS)); ok {
		if lacking > 0 {
			waves := (lacking + k - 1) / k
			end = later(end, stop.Add(satMul(waves, ready)))
		}
		writes = r.statusWrites(newRS, k)
		writes = max(writes, r.syncWrites(newRS, newRS, l.creates))
		for _, rs := range ctrl {
			if rs != newRS {
				writes += r.syncWrites(rs, newRS, r.unrequestedDeletes(rs, stop))
			}
		}
	}
	if b := c.client[1]; !b.unlimited {
		base := later(b.tat, stop)
		if n := l.creates + l.deletes + writes; n > b.burst {
			end = later(end, base.Add(satMul(n-b.burst, b.interval)))
		}
		if n := l.creates; n > b.burst {
			end = later(end, base.Add(satMul(n-b.burst, b.interval)).Add(ready))
		}
	}
	p.DurationAtLeast = end.Sub(r.start)
	p.MinAvailableAtLeast = r.availableAtLeast(l)
	p.PeakPodsAtMost = r.peakAtMost(l)
	est := r.estimate(int64(d.Spec.Replicas)-lacking, l.old, lacking, stop)
	p.DurationEstimate = max(est, p.DurationAtLeast)
	r.sum.Projection = p
	pace := ""
	if est > 0 {
		pace = fmt.Sprintf(", about %s at the pace so far", words.Duration(p.DurationEstimate))
	}
	r.sum.Detail = joinSentences(r.sum.Detail, fmt.Sprintf(
		"had it gone on, the rollout would be complete no sooner than %s after the start (%s and %s are left, each a request of the ReplicaSet controller's client%s)%s",
		words.Duration(p.DurationAtLeast), words.Plural(int(lacking), "pod creation"), words.Plural(int(l.old), "deletion"), writesWords(writes), pace))
}

// newAvailableBy returns a time before which the new ReplicaSet cannot
// have spec.replicas pods available, as the completion its status reports
// needs: the pods available at stop count, each other running pod whose
// ready time is known becomes available at its own time
// (cohort.availableAt under minReady, the lesser of the Deployment's and
// the ReplicaSet's minReadySeconds), and any other pod (bound to no node
// yet, or still to be created) no sooner than future. A pod deleted
// before it counts only delays completion, and a pod that never becomes
// ready never counts, so the soonest time by which enough of those times
// have come is a lower bound, whichever of them the ReplicaSet controller
// keeps (not every pod it runs at the stop is needed: TestProjectionBounds
// found a bound by all of them false).
func (r *runner) newAvailableBy(newRS *rollout.ReplicaSet, stop time.Time, minReady time.Duration, future time.Time) time.Time {
	need := int64(r.st.Deployment.Spec.Replicas)
	type due struct {
		at time.Time
		n  int64
	}
	var known []due
	for _, co := range r.pods.set(newRS).cohorts {
		switch {
		case co.terminating() || co.never:
		case co.available(stop, minReady):
			need -= co.n
		case !co.pending:
			at := co.readyAt
			if minReady > 0 {
				at = co.availableAt(minReady)
			}
			if at.Before(future) {
				known = append(known, due{at, co.n})
			}
		}
	}
	if need <= 0 {
		return stop
	}
	// heapSort, not slices.SortFunc: the playground's module has it
	// already, and each instantiation of the generic sort adds kilobytes.
	heapSort(len(known), func(i, j int) bool { return known[i].at.Before(known[j].at) },
		func(i, j int) { known[i], known[j] = known[j], known[i] })
	for _, k := range known {
		if need -= k.n; need <= 0 {
			return k.at
		}
	}
	return future
}

// writesWords words the status writes the projection's bound counts
// besides the pod requests, if any.
func writesWords(writes int64) string {
	if writes <= 0 {
		return ""
	}
	return fmt.Sprintf(", as are at least %s", words.Plural(int(min(writes, math.MaxInt)), "status write"))
}

// wave returns k, the most pods of the new ReplicaSet that can be created
// and not yet available by its status at once from now on, and whether
// there is such a bound: maxSurge + maxUnavailable of a RollingUpdate
// Deployment, provided the state at the stop keeps the two inequalities
// the Deployment controller keeps from then on, with A the new
// ReplicaSet's available pods by its status, which never falls once the
// new ReplicaSet has no more running pods than its size:
//
//	new spec.replicas - A <= k
//	old spec.replicas (summed) >= minAvailable - A
//
// Every scale-down of old ReplicaSets leaves their sizes at least
// minAvailable + (new size - A) - new size (upstream's maxScaledDown), and
// every scale-up of the new one leaves it at most replicas + maxSurge less
// the old sizes, hence at most k + A. A pod created later than the k-th
// after the stop so waits for one created after the stop to become
// available, ReadyAfter + minReadySeconds - 1s after its creation at the
// least (its Ready condition's time is kept to the second): the lacking
// pods take ceil(lacking / k) such waits at least. This holds
// once the controller has seen the Deployment's generation: a replica
// change it has yet to sync scales the ReplicaSets proportionally, which
// keeps neither inequality. A run with replica changes or edits at all
// gets no such bound: a change can leave a ReplicaSet sync in flight
// that decided on the size before it (an old ReplicaSet's deletions
// going on below its size scaled up again, or a new one's creations past
// its size scaled down, then deleted after its status counted them
// available), as TestProjectionBounds found. Without changes sizes only
// move one way (old ones down, the new one up), so a sync in flight
// never overshoots the current size.
func (r *runner) wave(newRS *rollout.ReplicaSet, old int64) (int64, bool) {
	d := r.st.Deployment
	if d.Spec.Strategy.Type != rollout.RollingUpdateStrategy || !r.generationSeen() ||
		len(r.cfg.Changes) > 0 || len(r.cfg.Edits) > 0 {
		// A replica change the controller has yet to see may scale the
		// ReplicaSets proportionally, past the inequalities below.
		return 0, false
	}
	minAvailable := int64(rollout.MinAvailable(d))
	k := int64(rollout.MaxSurge(d)) + int64(d.Spec.Replicas) - minAvailable
	var newSize, avail, running int64
	if newRS != nil {
		newSize, avail = int64(newRS.Spec.Replicas), int64(newRS.Status.AvailableReplicas)
		ps := r.pods.set(newRS)
		running = ps.existing() - ps.counts(r.last, 0).terminating
		if s := r.ctl.sets[newRS.Name]; s != nil && s.busy {
			// Creations its sync in flight decided on an earlier size.
			running += s.toCreate + s.batchLeft
		}
	}
	// With running <= newSize (creations in flight included) no pod of
	// the new ReplicaSet is deleted from now on, so A never falls; a
	// proportional scale-down still to be carried out would take
	// available pods away from it.
	if k <= 0 || running > newSize || newSize-avail > k || old < minAvailable-avail {
		return 0, false
	}
	return k, true
}

// statusWrites returns how many status writes of the new ReplicaSet the
// ReplicaSet controller's client must still be asked for before the
// Deployment can be complete, in a run whose state keeps the wave
// inequalities with k (see wave): at least ceil((replicas - A) / k), less
// the one that may be asked for already. Each write raises A by k at
// most: a sync writes the status of the pods it listed at its start, at
// most the new ReplicaSet's size then, and the Deployment controller
// keeps that size at most k above the A it read, that of an earlier
// write (writes of one ReplicaSet come one sync after another, and a
// refused write changes nothing); and the Deployment is complete only
// once A is replicas (the old ReplicaSets' statuses then count no pod).
// With one pod a step (k = 1) that is a write for every pod left, as
// many requests as the creations.
func (r *runner) statusWrites(newRS *rollout.ReplicaSet, k int64) int64 {
	var avail int64
	if newRS != nil {
		avail = int64(newRS.Status.AvailableReplicas)
	}
	left := int64(r.st.Deployment.Spec.Replicas) - avail
	if left <= 0 {
		return 0
	}
	return (left+k-1)/k - 1
}

// syncWrites returns how many status writes of rs (the new ReplicaSet
// when it is newRS, else an old one) the ReplicaSet
// controller's client must still be asked for before the Deployment can
// be complete, where unrequested of its pod creations or deletions are
// yet to be asked for, in a run whose sizes move one way (see wave: the
// new ReplicaSet only creates, an old one only deletes, given that its
// running pods are at least its size and none is being created).
// Each sync creates or deletes burstReplicas pods at most, so the pods
// left to the syncs after the one in flight (which may take
// burstReplicas of them) take at least ceil(left / burstReplicas) syncs.
// Each of them but the first lists a count of pods that no write before
// it held (the sync before it changed that count, and the count only
// moves one way), so it writes its status; and after the last of them a
// write must still give the count it left (the new ReplicaSet's
// replicas, an old one's 0), without which the Deployment is not
// complete. Writes of one ReplicaSet come one sync after another, and a
// refused write is a request all the same.
func (r *runner) syncWrites(rs, newRS *rollout.ReplicaSet, unrequested int64) int64 {
	if rs == nil || unrequested <= 0 {
		return 0
	}
	c := r.ctl
	s := c.sets[rs.Name]
	if s != nil && s.busy {
		unrequested -= c.burstReplicas
	}
	if rs != newRS {
		ps := r.pods.set(rs)
		// An old ReplicaSet below its size creates before it deletes:
		// its count need not move one way.
		if ps.running() < int64(rs.Spec.Replicas) || (s != nil && s.busy && s.toCreate+s.batchLeft > 0) {
			return 0
		}
	}
	if unrequested <= 0 || c.burstReplicas <= 0 {
		return 0
	}
	return (unrequested + c.burstReplicas - 1) / c.burstReplicas
}

// unrequestedDeletes returns the running pods of the old ReplicaSet rs
// at at whose deletions are yet to be asked for of the client: those
// not granted already, less those the client has reserved (its delete
// events due).
func (r *runner) unrequestedDeletes(rs *rollout.ReplicaSet, at time.Time) int64 {
	ps := r.pods.set(rs)
	n := ps.existing() - ps.counts(at, 0).terminating
	for _, e := range r.ctl.events {
		if e.kind == evDelete && e.set == rs.Name {
			n -= e.n
		}
	}
	return max(n, 0)
}

// availableAtLeast returns a lower bound of the fewest available pods of
// the whole run, this order's: the fewest so far, and from the stop on
// the availability floor where the old ReplicaSets' running pods are all
// available and the wave inequalities hold. Old pods then only go by
// deletion, down to the old sizes and no further, and new ones, once
// available, stay so: available >= old sizes + A >= minAvailable. After
// completion, with no pod left beyond its ReplicaSet's size (see
// settled), nothing makes a pod unavailable.
func (r *runner) availableAtLeast(l left) int64 {
	if r.syncs > 0 {
		r.sample(r.last) // as result() does, so that MinAvailable is final
	}
	least := r.sum.MinAvailable
	if r.ctl.complete && r.settled(l) {
		return least
	}
	if _, ok := r.wave(l.newRS, oldSpecs(l.ctrl, l.newRS)); !ok {
		return 0
	}
	for _, rs := range l.ctrl {
		if rs == l.newRS {
			continue
		}
		c := r.pods.set(rs).counts(r.last, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
		// Every running old pod is available, and none is to be created
		// (running at or above the size, no creation in flight): old
		// pods then only go, and only down to the old sizes.
		if c.available < c.replicas || c.replicas < int64(rs.Spec.Replicas) {
			return 0
		}
		if s := r.ctl.sets[rs.Name]; s != nil && s.busy && s.toCreate+s.batchLeft > 0 {
			return 0
		}
	}
	return max(min(least, int64(rollout.MinAvailable(r.st.Deployment))), 0)
}

// peakAtMost returns an upper bound of the most pods that exist at once
// in this order's whole run (Summary.PeakPods and the deferred count of
// PeakPodsHigh alike), or math.MaxInt64 where none is proved: in a run
// with replica changes or edits, or one whose Deployment controller has
// yet to see its generation (a proportional scaling to come may scale an
// old ReplicaSet up).
//
// Elsewhere sizes move one way from the stop on: the Deployment
// controller scales old ReplicaSets only down (a rolling scale-down, a
// cleanup, Recreate's scale to zero), and the new one up to at most
// max(replicas, its size), as NewRSNewReplicas adds at most replicas
// less its size. The ReplicaSet controller creates a ReplicaSet's pods
// only up to the size its sync read, so the running pods of a
// ReplicaSet never pass the larger of its largest size to come and its
// running pods at the stop plus the creations already decided (those of
// a sync in flight and the grants due, both counted, as an upper bound
// may). Terminating and orphaned pods only go. The pods that can ever
// exist at once are at most the sum of those, at least the peak so far:
//
//	Σ terminating + orphans + Σ max(size to come, running + creations decided)
//
// with a new ReplicaSet not yet created counted as replicas.
func (r *runner) peakAtMost(l left) int64 {
	if r.syncs > 0 {
		r.sample(r.last) // as result() does, so that PeakPods is final
	}
	return max(r.podsAtMost(l), r.sum.PeakPods, r.ctl.racePeak)
}

// podsAtMost is peakAtMost's sum over the state now, without the peak
// so far: an upper bound of the pods that exist at once from now on, the
// pods existing now included, or math.MaxInt64 where none is proved. It
// changes nothing of the run.
func (r *runner) podsAtMost(l left) int64 {
	d := r.st.Deployment
	if len(r.cfg.Changes) > 0 || len(r.cfg.Edits) > 0 || !r.generationSeen() {
		return math.MaxInt64
	}
	decided := func(name string) int64 {
		var n int64
		if s := r.ctl.sets[name]; s != nil && s.busy {
			n += max(s.toCreate, 0) + max(s.batchLeft, 0)
		}
		for _, e := range r.ctl.events {
			if e.kind == evCreate && e.set == name {
				n += max(e.n, 0)
			}
		}
		return n
	}
	var n int64
	for _, o := range r.pods.orphans {
		n += o.n
	}
	for _, rs := range l.ctrl {
		ps := r.pods.set(rs)
		terminating := ps.counts(r.last, 0).terminating
		size := int64(max(rs.Spec.Replicas, 0))
		if rs == l.newRS {
			size = max(size, int64(d.Spec.Replicas))
		}
		n += terminating + max(size, ps.existing()-terminating+decided(rs.Name))
	}
	if l.newRS == nil {
		n += int64(max(d.Spec.Replicas, 0))
	}
	return n
}

// settled reports whether, in a run with no replica change or edit to
// come (see left), no pod is left to delete: no ReplicaSet runs more
// pods than its size, and no deletion is due. A Deployment complete by
// its status may not be (TestProjectionBounds found one scaled to 0
// replicas whose ReplicaSets' statuses said 0 while 38 of their pods
// were still available and then deleted); once it is, sizes no longer
// move and no pod goes, so none becomes unavailable.
func (r *runner) settled(l left) bool {
	for _, rs := range l.ctrl {
		ps := r.pods.set(rs)
		if ps.existing()-ps.counts(r.last, 0).terminating > int64(max(rs.Spec.Replicas, 0)) {
			return false
		}
	}
	for _, e := range r.ctl.events {
		if e.kind == evDelete || e.kind == evDeleteHeld {
			return false
		}
	}
	for _, s := range r.ctl.sets {
		if s.busy && s.deleteLeft > 0 {
			return false
		}
	}
	return true
}

// availableFrom is availableAtLeast's bound from now on, the pods
// available now included, without the fewest so far: 0 where none is
// proved. It changes nothing of the run (no sample).
func (r *runner) availableFrom(l left) int64 {
	if r.ctl.complete && r.settled(l) {
		// Nothing makes a pod unavailable any more.
		return r.count(r.last).available
	}
	if _, ok := r.wave(l.newRS, oldSpecs(l.ctrl, l.newRS)); !ok {
		return 0
	}
	for _, rs := range l.ctrl {
		if rs == l.newRS {
			continue
		}
		c := r.pods.set(rs).counts(r.last, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
		if c.available < c.replicas || c.replicas < int64(rs.Spec.Replicas) {
			return 0
		}
		if s := r.ctl.sets[rs.Name]; s != nil && s.busy && s.toCreate+s.batchLeft > 0 {
			return 0
		}
	}
	return max(int64(rollout.MinAvailable(r.st.Deployment)), 0)
}

// oldSpecs sums the sizes of the ReplicaSets of ctrl other than newRS.
func oldSpecs(ctrl []*rollout.ReplicaSet, newRS *rollout.ReplicaSet) int64 {
	var n int64
	for _, rs := range ctrl {
		if rs != newRS {
			n += int64(rs.Spec.Replicas)
		}
	}
	return n
}

// estimate returns when the rollout would be complete, from the start, if
// pods kept being created for the new ReplicaSet and deleted from the old
// ones at the pace they were from the start to stop; 0 when nothing was.
func (r *runner) estimate(newRunning, oldRunning, lacking int64, stop time.Time) time.Duration {
	var newAtStart, oldAtStart int64
	for _, s := range r.initial.Sets {
		if s.New {
			newAtStart += int64(s.Current)
		} else {
			oldAtStart += int64(s.Current)
		}
	}
	done := max(newRunning-newAtStart, 0) + max(oldAtStart-oldRunning, 0)
	elapsed := stop.Sub(r.start)
	if done == 0 || elapsed <= 0 {
		return 0
	}
	left := float64(lacking+oldRunning) / float64(done) * float64(elapsed)
	return satAdd(elapsed, durationOf(left))
}

// satMul returns n*d, at most math.MaxInt64, for n >= 0 and d >= 0.
func satMul(n int64, d time.Duration) time.Duration {
	if d != 0 && n > math.MaxInt64/int64(d) {
		return math.MaxInt64
	}
	return time.Duration(n) * d
}

// satAdd returns a+b, at most math.MaxInt64, for a, b >= 0.
func satAdd(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// durationOf converts nanoseconds held in a float64 to a Duration, at most
// math.MaxInt64.
func durationOf(ns float64) time.Duration {
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// beyondWork stops a run under ModelControllers after the Deployment
// controller's first sync, at OutcomeLimit with its Projection, when it
// cannot end within Config.MaxWork: every pod request left (made or not)
// is handled by a unit of work that takes at most min(burst,
// burstReplicas) of them (those the bucket grants at one instant; every
// later grant has its own time), or burstReplicas without a client limit
// (one slow-start batch, one deletion), so the requests left need more
// units than MaxWork allows. The run would stop at the limit all the
// same, had nothing else ended it first, so beyondWork leaves alone the
// runs that something else may end within the limit: those of a pod
// quota or a placement (PodModel.Room), those whose first sync failed, those the projection does not
// cover (see left), those complete already, and those whose progress
// deadline a slow client or slow pods may pass (a ReplicaSet sync's burstReplicas creations and
// deletions at the client's rate, plus the pods' ready, available and
// terminating times, take more than half of progressDeadlineSeconds).
// The bound counts the work of a run computed event by event; the
// fast-forward's jumps and super-jumps take a cycle's requests without
// computing them, and carry some such runs to their end within a small
// part of MaxWork (2,147,483,647 replicas at maxSurge 1, pods ready
// after 1s: 1,861 units). So a run the fast-forward may carry
// (mayCycle: no steps made, rollout steps of a few pods) is not stopped but given a trial, its
// maxWork lowered to a twentieth of the work left: it ends within it or
// stops there with its projection. It reports whether it stopped the
// run.
func (r *runner) beyondWork() bool {
	if r.cfg.noFastForward || r.pods.cfg.MaxPods > 0 || r.pods.cfg.Room != nil || r.current.Err != nil {
		return false
	}
	l, ok := r.left(r.last)
	if !ok || r.ctl.complete {
		return false
	}
	_, burst, burstReplicas := r.cfg.Controllers.limits()
	per := int64(burstReplicas)
	b := r.ctl.client[1]
	if !b.unlimited && b.interval > 0 {
		per = min(per, int64(burst))
	}
	requests := l.lacking + l.old
	units := (requests + per - 1) / per
	if units <= int64(r.maxWork-r.work) {
		return false
	}
	d := r.st.Deployment
	if dl := d.Spec.ProgressDeadlineSeconds; dl.Valid {
		pods := r.cfg.Pods
		gap := satAdd(satAdd(pods.ReadyAfter, pods.ReadyJitter), satAdd(pods.Terminating, time.Duration(max(d.Spec.MinReadySeconds, 0))*time.Second))
		if !b.unlimited {
			gap = satAdd(gap, satMul(2*int64(burstReplicas)+int64(burst), b.interval))
		}
		if gap >= time.Duration(dl.Value)*time.Second/2 {
			r.ctl.proof.broken = true // a larger deadline might stop the run here
			return false
		}
	}
	if r.mayCycle() {
		// The fast-forward may carry it (ffcontrollers.go, ffsuper.go):
		// a trial of a twentieth of the work left.
		r.trialOf = r.maxWork
		r.maxWork = r.work + max(1, (r.maxWork-r.work)/beyondTrial)
		return false
	}
	r.stop(OutcomeLimit, fmt.Sprintf("computed no further than the first sync: %s at least %d more %s (controller syncs and pod writes computed one by one), at most %s each, past the %d allowed (MaxWork)",
		requestsLeft(requests), units, unitNoun(units), words.Plural(int(per), "request"), r.maxWork))
	r.workLimited = true
	r.project()
	return true
}

// beyondTrial: a run that beyondWork finds beyond MaxWork one by one, but
// that the fast-forward may carry, gets 1/beyondTrial of the work left.
const beyondTrial = 20

// mayCycle reports whether the fast-forward may carry the run's
// rollout past what MaxWork allows event by event, and it matters: a
// racing order of a run whose order in sequence did not stop at its work
// limit (Config.noTrial), a run that makes no
// steps (the super-jumps' runs: a run that makes steps writes out every
// step its jumps take, which MaxWork does not bound), a RollingUpdate
// without jittered pods whose steps are of at most ctlFFMaxEvents pods
// (maxSurge + maxUnavailable), so that its states between syncs hold
// few requests due, as the fast-forward's cycles do. Larger steps make
// slow-start batches of up to burstReplicas requests, granted one by
// one, whose states it does not look at.
func (r *runner) mayCycle() bool {
	d := r.st.Deployment
	return !r.makesSteps() && !r.cfg.noTrial && r.pods.rng == nil && d.Spec.Strategy.Type == rollout.RollingUpdateStrategy &&
		int64(rollout.MaxSurge(d))+int64(rollout.MaxUnavailable(d)) <= ctlFFMaxEvents
}

// projectedPods says what the projection p bounds of the pods over the
// rest of the run.
func projectedPods(p Projection) string {
	most := "no bound of the most pods at once is proved"
	if p.PeakPodsAtMost < math.MaxInt64 {
		most = fmt.Sprintf("at most %s would exist at once", words.Plural(int(p.PeakPodsAtMost), "pod"))
	}
	return fmt.Sprintf("over the rest, %s and no fewer than %d would be available (bounds proved from the state at the stop, not figures of a run)", most, p.MinAvailableAtLeast)
}

// peakAtMost is an upper bound of the most pods of the run that ended
// with s: its projection's when it stopped with one, math.MaxInt64 when
// it stopped without, and its peak when it was computed to its end.
func (s Summary) peakAtMost() int64 {
	switch {
	case s.Projection.Made:
		return s.Projection.PeakPodsAtMost
	case s.Outcome == OutcomeLimit:
		return math.MaxInt64
	}
	return max(s.PeakPods, s.PeakPodsHigh)
}

// availableAtLeast is a lower bound of the fewest available pods of the
// run that ended with s: exact when it was computed to its end, its
// projection's when it stopped with one, and 0 when it stopped without.
func (s Summary) availableAtLeast() int64 {
	switch {
	case s.Projection.Made:
		return s.Projection.MinAvailableAtLeast
	case s.Outcome == OutcomeLimit:
		return 0
	}
	return s.MinAvailable
}

// requestsLeft words the subject of the message of a run stopped before
// its first sync: n pod creations and deletions left, and its verb.
func requestsLeft(n int64) string {
	if n == 1 {
		return "the 1 pod creation or deletion left needs"
	}
	return fmt.Sprintf("the %d pod creations and deletions left need", n)
}

// unitNoun is "unit of work" for 1 and "units of work" for any other n.
func unitNoun(n int64) string {
	if n == 1 {
		return "unit of work"
	}
	return "units of work"
}
