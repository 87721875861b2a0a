package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Run simulates the Deployment of s from s.Now until its rollout is
// complete, it cannot go on, or a limit is reached, syncing with
// rollout.Plan (under s.Options), applying with rollout.ApplyTo and moving
// pods with the pod model of cfg. Time is data: Run reads no clock, and
// the same s and cfg give the same Result.
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
// be gone, as one Pod for each group of pods with the same times; without
// jitter and once no edit is pending, a ReplicaSet's available pods form
// one group.
//
// The run stops
//   - OutcomeComplete: the Deployment is complete (rollout.DeploymentComplete
//     on its status), the last sync wrote nothing, and no pod event,
//     replica change or edit is pending;
//   - OutcomeDeadlineExceeded: a sync left Progressing False with reason
//     ProgressDeadlineExceeded (the controller would go on scaling, but the
//     rollout has failed);
//   - when nothing is left to happen: the last sync wrote nothing, no pod
//     event, change, edit or progress re-check is pending, and the
//     Deployment is not complete (OutcomePaused, OutcomeQuota,
//     OutcomeNeverReady, OutcomeUnplaced, OutcomeSyncFails or OutcomeStalled; see
//     Outcome.Stuck);
//   - OutcomeLimit: before a sync beyond cfg.MaxSyncs, cfg.MaxTime or
//     cfg.MaxWork.
//
// # Fast-forward
//
// A long rollout is mostly regular: with maxSurge 1 and maxUnavailable 0,
// sync after sync grows the new ReplicaSet by one pod and shrinks the old
// one by one, at the same intervals. Run notices when the whole run (the
// objects, the pods, the summary so far and the steps) has changed by the
// same amounts over two periods of a few syncs, with only numbers and
// times moving, and then takes many periods at once: it extrapolates the
// state, checks the extrapolation by computing the period after it with
// Plan (and, searching, the longest jump whose check passes), and
// writes out the skipped steps. The Result is the same as without
// fast-forward, so a rollout of 100,000 replicas one pod at a time (200,002
// syncs) costs little more than its output. Jittered pods
// (Pods.ReadyJitter) are never fast-forwarded. Under ModelControllers the
// same is done at the Deployment syncs of a cycle of whole seconds, on
// the whole state of both controllers (see the package doc and
// ffcontrollers.go), with the same guarantee: the Result is the same as
// event by event.
//
// Run returns an error, and no Result, only for input it cannot use: a
// Deployment or ReplicaSet that Plan refuses (unless
// Options.SkipValidation), or a Config field that is out of range (a
// *ConfigError naming it). A sync that fails later is recorded in its
// Step and the run goes on. Run does not modify s or cfg.
func Run(s rollout.State, cfg Config) (Result, error) {
	res, _, err := RunCost(s, cfg)
	return res, err
}

// Cost is what a run computed, in the units Config.MaxWork bounds (see
// there): Work is the most of its orders under ModelControllers, each of
// which has MaxWork to itself (an order Config.PeakPodsAbove ended early
// counts the work it did), and of the run otherwise. A run passes
// its MaxWork only by the work of the event it was handling when it
// reached it. Limited says the run, or one of its orders, stopped at
// MaxWork: at the limit itself, or after its first sync (or the trial
// of a twentieth of the work left, for a rollout the fast-forward may
// carry) because its pod requests provably need more event by event. Under ModelControllers a run that is not
// Limited is the same Result, and Cost, under every MaxWork above its
// Work (TestWorkUnlimitedRunsAlike): a larger MaxWork never stops a run
// that ended.
type Cost struct {
	Work    int
	Limited bool
}

// RunCost is Run, and what the run cost: rollout/check shares a replica
// range's work between its runs by it. It returns an error for the input
// Run refuses.
func RunCost(s rollout.State, cfg Config) (Result, Cost, error) {
	if err := cfg.check(); err != nil {
		return Result{}, Cost{}, err
	}
	if err := validState(s); err != nil {
		return Result{}, Cost{}, err
	}
	if cfg.Model == ModelControllers {
		res, cost := runRacesWith(s, cfg, newPlanCache(cfg))
		return res, cost, nil
	}
	r := newRunner(s, cfg)
	r.run()
	return r.result(), Cost{Work: r.work, Limited: r.workLimited}, nil
}

// runRacesWith runs s under ModelControllers three times, the orders
// sharing plans (nil: none): with the work due at one instant taken in
// the order it became due (the Result's steps, durations and figures),
// then with the ReplicaSet syncs that delete pods taken first and last
// (see the package doc, Races). PeakPods and MinAvailable are the worst
// of the first two orders (PeakPods counting, from racingReplicas
// replicas on, a pod created at the instant one pod goes as created
// first), PeakPodsLow, PeakPodsHigh and MinAvailableHigh the ends over
// all three. It returns the run's Cost too. Under cfg.PeakPodsAbove the
// last order may end early (cutBelow), its figures then left out of
// those ends, where the first order was not projected.
func runRacesWith(s rollout.State, cfg Config, plans *planCache) (Result, Cost) {
	if len(cfg.Edits) == 0 && !cfg.copyOrders {
		// One deep copy for the three orders: a run never changes a map
		// or slice of its objects in place (ApplyTo and the pod model
		// replace them; the plan cache relies on it too), so each order
		// takes its own copy of the objects' structs (ownedCopy) and
		// shares their maps and slices. Edits are the caller's functions,
		// which may write to the Deployment in place: each order of a
		// run with edits copies everything.
		s = rollout.Apply(s, nil)
		cfg.ownsState = true
	}
	r := newControllersRunner(s, cfg, raceFIFO, plans)
	r.runControllers()
	res := r.result()
	cost := Cost{Work: r.work, Limited: r.workLimited}
	from, free := r.deadlineFree()
	sum := &res.Summary
	racing := s.Deployment.Spec.Replicas >= racingReplicas
	burst := burstLeads(s.Deployment, cfg)
	fifo, fifoRace := sum.Extremes(), r.ctl.racePeakExtremes(r.start)
	fifoTo, fifoRaceTo := r.extremesToDeadline(fifo, fifoRace)
	var orders, ordersTo [2]*Extremes // nil: the order was cut
	quiet := cfg
	quiet.OmitSteps, quiet.Observe, quiet.ObserveDeletesFirst = true, nil, nil
	quiet.noTrial = r.workLimited
	for i, rc := range []race{raceDeletesFirst, raceDeletesLast} {
		c := quiet
		if rc == raceDeletesFirst {
			c.Observe = cfg.ObserveDeletesFirst
		}
		if rc == raceDeletesLast && plans != nil {
			plans.lookupOnly = true // the last order: no later one reads what it would keep
		}
		v := newControllersRunner(s, c, rc, plans)
		cut := false
		switch {
		case rc == raceDeletesLast && cfg.PeakPodsAbove > 0 && !sum.Projection.Made && !burst:
			// The caller reads of this order only whether its peak passes
			// PeakPodsAbove: it ends once that is proved not to. (A
			// projected run's bound, PeakPodsAtMost, reads its end; where
			// the whole burst leads, PeakPods reads its peak.)
			cut = v.runControllersBelow(cfg.PeakPodsAbove)
		case rc == raceDeletesFirst && cfg.DeletesFirstDone != nil && !sum.Projection.Made:
			// It ends once its figures are proved no worse than the
			// in-order run's up to its progress deadline (its whole run's
			// when it exceeded none, and no worse than those either),
			// which both merges below then keep, and the caller has read
			// all it needs of its steps, held at the Summary's fewest
			// available.
			bound, whole := mergeOrders(fifoTo, fifoRaceTo, racing, false, nil, nil), mergeOrders(fifo, fifoRace, racing, false, nil, nil)
			cut = v.runControllersUntil(func() bool {
				return v.cutNoWorse(bound.PeakPods, bound.MinAvailable, whole.MinAvailable, cfg.DeletesFirstDone)
			})
		default:
			v.runControllers()
		}
		v.finish()
		o := v.sum
		f, ok := v.deadlineFree()
		if cut && rc == raceDeletesLast {
			f, ok = v.cutFree()
		}
		from, free = max(from, f), free && ok
		if !cut {
			whole := o.Extremes()
			to, _ := v.extremesToDeadline(whole, Extremes{})
			orders[i], ordersTo[i] = &whole, &to
		}
		if rc == raceDeletesFirst {
			sum.Projection.MinAvailableAtLeast = min(sum.Projection.MinAvailableAtLeast, o.availableAtLeast())
		}
		if sum.Projection.Made {
			sum.Projection.PeakPodsAtMost = max(sum.Projection.PeakPodsAtMost, o.peakAtMost())
		}
		cost.Work = max(cost.Work, v.work)
		cost.Limited = cost.Limited || v.workLimited
	}
	sum.setExtremes(mergeOrders(fifo, fifoRace, racing, burst, orders[0], orders[1]))
	if sum.AfterDeadline != "" {
		sum.UpToDeadline = mergeOrders(fifoTo, fifoRaceTo, racing, burst, ordersTo[0], ordersTo[1])
	}
	if p := sum.Projection; p.Made {
		sum.Detail = joinSentences(sum.Detail, projectedPods(p))
	}
	if free {
		res.DeadlineFreeFrom = from
	}
	return res, cost
}

// Extremes returns the whole run's figures of s, each field of Extremes
// the Summary field of the same name (TestSummaryExtremesByName); see
// UpToDeadline for those up to the progress deadline.
func (s Summary) Extremes() Extremes {
	return Extremes{PeakPods: s.PeakPods, PeakPodsAt: s.PeakPodsAt, PeakPodsLow: s.PeakPodsLow, PeakPodsHigh: s.PeakPodsHigh,
		MinAvailable: s.MinAvailable, MinAvailableAt: s.MinAvailableAt, MinAvailableHigh: s.MinAvailableHigh,
		Floor: s.Floor, Ceiling: s.Ceiling}
}

// setExtremes sets the figures of e in s: the inverse of Extremes.
func (s *Summary) setExtremes(e Extremes) {
	s.PeakPods, s.PeakPodsAt, s.PeakPodsLow, s.PeakPodsHigh = e.PeakPods, e.PeakPodsAt, e.PeakPodsLow, e.PeakPodsHigh
	s.MinAvailable, s.MinAvailableAt, s.MinAvailableHigh = e.MinAvailable, e.MinAvailableAt, e.MinAvailableHigh
	s.Floor, s.Ceiling = e.Floor, e.Ceiling
}

// mergeOrders puts the figures of the three orders of a run together
// (see runRacesWith): fifo's, with its race peak (PeakPods, PeakPodsAt
// and Ceiling of race) when racing, and those of the orders that take
// deletions first and last, each left out where nil (an order cut short
// by Config.PeakPodsAbove or DeletesFirstDone, whose figures the cut
// proved cannot change the worst ones). The peak and the fewest available
// are the worst of fifo, its race peak and first (the peak of last too
// where burst, see burstLeads), the earlier order winning a tie; the
// ends range over the orders given and the worst figures.
func mergeOrders(fifo, race Extremes, racing, burst bool, first, last *Extremes) Extremes {
	e := fifo
	if racing && race.PeakPods > e.PeakPods {
		e.PeakPods, e.PeakPodsAt, e.Ceiling = race.PeakPods, race.PeakPodsAt, race.Ceiling
	}
	if first != nil && first.PeakPods > e.PeakPods {
		e.PeakPods, e.PeakPodsAt, e.Ceiling = first.PeakPods, first.PeakPodsAt, first.Ceiling
	}
	if burst && last != nil && last.PeakPods > e.PeakPods {
		e.PeakPods, e.PeakPodsAt, e.Ceiling = last.PeakPods, last.PeakPodsAt, last.Ceiling
	}
	if first != nil && first.MinAvailable < e.MinAvailable {
		e.MinAvailable, e.MinAvailableAt, e.Floor = first.MinAvailable, first.MinAvailableAt, first.Floor
	}
	e.PeakPodsLow = min(fifo.PeakPodsLow, e.PeakPods)
	e.PeakPodsHigh = max(fifo.PeakPodsHigh, e.PeakPods)
	e.MinAvailableHigh = max(fifo.MinAvailableHigh, e.MinAvailable)
	for _, o := range []*Extremes{first, last} {
		if o != nil {
			e.PeakPodsLow = min(e.PeakPodsLow, o.PeakPodsLow)
			e.PeakPodsHigh = max(e.PeakPodsHigh, o.PeakPodsHigh)
			e.MinAvailableHigh = max(e.MinAvailableHigh, o.MinAvailableHigh)
		}
	}
	return e
}

// extremesToDeadline returns the figures of this order up to its
// progress deadline, and its race peak then, for a run that went on past
// the deadline: those counted at the sync that found it exceeded, where
// a run stopped at the deadline ends; whole and race, its figures over
// the whole run, otherwise.
func (r *runner) extremesToDeadline(whole, race Extremes) (Extremes, Extremes) {
	if r.deadlineAt.IsZero() {
		return whole, race
	}
	return r.toDeadline, r.raceToDeadline
}

// racingReplicas is the size from which a Deployment's peak counts the
// pod created at the instant one pod goes as created first. The two race:
// the ReplicaSet controller's deletion of an old pod (or the kubelet's
// removal of a terminating one) against the Deployment controller's
// scale-up and the creation of a new pod, and the real v1.36.3
// controllers (realsim, pods ready after 5s, 2026-11-27) let the creation
// win more often as the ReplicaSets grow: in 5% of the cycles of a
// one-pod-at-a-time rollout of 10 replicas, 12% of 30 and 18% of 100,
// never of 2 or 3; a run reached that peak in 2 of 10 runs of 10
// replicas, 10 of 12 of 15, 10 of 12 of 20 and every run of 30, 50, 100
// and of 1,000 replicas at 25%/25% ready after 30s (12 of 12).
const racingReplicas = 15

// burstLeads reports whether the peak a gate judges (Summary.PeakPods)
// is the order's that takes the deletions of each instant last: for a
// rolling update of burstReplicasFrom replicas or more under a client
// rate limit, without a pod quota.
//
// The old ReplicaSet's sync lists and ranks all its pods before its
// deletions ask for tokens, while the new ReplicaSet's slow-start
// batches, each waiting only for its own requests, go on; the larger the
// old ReplicaSet, the more of them go first, up to the whole burst the
// tokens at hand allow. The real runs (realsim, v1.36.3, 2026-11-28) let
// anything from none to that burst lead: 486 replicas at maxSurge 0
// maxUnavailable 49, ready at once, peaked at 517 (31 ahead) in 5 runs
// of 5; 307 at 0/66% at 310 to 338; 378 at 0/92% at 389 to 409; 887 at
// 333/0% at 1,224 to 1,238; 1,000 at 25%/25% ready after 60s at 1,264
// to 1,266 (a request log: at the 60s step, 15 creations from the tokens
// at hand before the old ReplicaSet's 15 deletions), where the orders
// that take the deletions first or in order said 307, 381, 1,222 and
// 1,253, below every real run. Below 300 replicas the real runs measured
// had the lead or not (115 at 0%/26: 1 to 4 pods ahead), and counting
// the whole burst would pass the highest real peak by more than a tenth;
// from 300 on the burst (31 pods) is about a tenth of the replicas or
// less, so a gate that counts it stays within that of a run where none
// leads (300 at 0/80%, ready after 30s: 301 in 3 runs of 3, the gate
// 331). Without a client rate limit nothing bounds the lead to a burst
// (the deletes-last order of 1,000 replicas at 25%/25% peaks at 1,749,
// the real runs at 1,250 to 1,291), and a pod quota refuses the
// creations that would lead.
func burstLeads(d rollout.Deployment, cfg Config) bool {
	qps, _, _ := cfg.Controllers.limits()
	return d.Spec.Strategy.Type != rollout.RecreateStrategy && d.Spec.Replicas >= burstReplicasFrom && cfg.Pods.MaxPods == 0 && qps >= 0
}

// burstReplicasFrom is the size from which burstLeads holds.
const burstReplicasFrom = 300

// runner is a run in progress.
type runner struct {
	cfg     Config
	maxWork int
	start   time.Time
	clock   time.Time     // the pod model has caught up to here
	st      rollout.State // the objects now
	pods    *podModel
	changes []ReplicaChange
	edits   []Edit
	steps   []Step
	current Step // the step of the last sync, while steps are made
	initial Step
	sum     Summary
	syncs   int // syncs so far
	work    int // syncs computed one by one, and cohort walks (chargeCohorts, chargeFlatten)
	// cohortDebt is the cohorts walked beyond freeCohorts (a
	// flattening's weighed by flattenWeight) not yet charged as a unit
	// of work (less than cohortsPerWork).
	cohortDebt int
	// events and walked count the events the controllers model handled
	// and the cohorts the pod model held at each, summed, with those the
	// flattenings wrote beyond freeCohorts, weighed: what
	// TestCohortWalksCounted holds the counted work to.
	events int
	walked int64
	// workLimited: the run stopped at maxWork, or before it because it
	// provably needs more (beyondWork).
	workLimited bool
	// trialOf is, for a run that beyondWork gave a trial (maxWork lowered
	// to a twentieth of the work left), the maxWork before it; 0 else.
	trialOf int
	next    time.Time // when the next sync is due
	last    time.Time // the time of the last sync
	active  time.Time // the time of the last sync that changed something
	// editedAt is the number of syncs before the last edit (0 for the
	// input): two syncs after it, every ReplicaSet's minReadySeconds is
	// final until the next edit, and the pod model may merge settled pods.
	editedAt int
	done     bool // the run has stopped
	// completeAt is when a sync first left the Deployment's status
	// complete (zero: not yet).
	completeAt time.Time
	// deadlineAt is when a sync first found the progress deadline
	// exceeded, in a run that goes on past it (zero: none has), and
	// deadlineDetail what stalled the rollout then; the run stops before
	// an event later than pastUntil.
	deadlineAt, pastUntil time.Time
	deadlineDetail        string
	// toDeadline and raceToDeadline are, once deadlineAt is set, the
	// summary's figures and the race peak (in PeakPods, PeakPodsAt and
	// Ceiling) counted then, as a run stopped there has them.
	toDeadline, raceToDeadline Extremes
	// completeAfter is when the Deployment's status was first complete
	// after deadlineAt (zero: not yet).
	completeAfter time.Time
	// pastLimited: the run stopped at pastUntil.
	pastLimited bool
	// ctl is the state of the controllers under ModelControllers; nil
	// under ModelSimple.
	ctl *ctlRun

	// Since lastSample, the Deployment had lastAvail available pods and
	// an availability floor of lastFloor, for BelowFloor.
	lastSample time.Time
	lastAvail  int64
	lastFloor  int32

	// match caches which ReplicaSets (by name and UID) have the template
	// of the Deployment at generation matchGen.
	matchGen int64
	match    map[setID]bool

	ff fastForward

	// scratch is the buffer of setsScratch.
	scratch []*rollout.ReplicaSet
	// lastSets is the Sets of the last step setCounts made, which the
	// next step shares when its counts are the same (steps are
	// read-only); countsBuf is setCounts' buffer.
	lastSets, countsBuf []SetCount
}

// newControllersRunner is a runner of s under ModelControllers, taking
// the work due at one instant in order rc, its plans shared through plans
// (nil: none).
func newControllersRunner(s rollout.State, cfg Config, rc race, plans *planCache) *runner {
	r := newRunner(s, cfg)
	r.ctl = newCtlRun(cfg.Controllers, rc)
	r.ctl.plans = plans
	r.pods.stagger = true
	return r
}

// newRunner is a runner of s under cfg, its pods seeded from the
// ReplicaSets of s and its first step recorded.
func newRunner(s rollout.State, cfg Config) *runner {
	r := &runner{
		cfg:     cfg,
		maxWork: cmp.Or(cfg.MaxWork, DefaultMaxWork),
		start:   s.Now,
		clock:   s.Now,
		next:    s.Now,
		st:      ownedCopy(s, cfg.ownsState),
		pods:    newPodModel(cfg.Pods),
		changes: slices.Clone(cfg.Changes),
		edits:   slices.Clone(cfg.Edits),
	}
	r.pods.owner = r.st.Deployment.ObjectMeta
	slices.SortStableFunc(r.changes, func(a, b ReplicaChange) int { return cmp.Compare(a.After, b.After) })
	slices.SortStableFunc(r.edits, func(a, b Edit) int { return cmp.Compare(a.At, b.At) })
	for _, rs := range r.sets() {
		r.pods.seed(rs, s.Now)
	}
	d := r.st.Deployment
	c := r.count(s.Now)
	floor, ceiling := limits(d)
	r.sum.PeakDesired, r.sum.PeakPods, r.sum.MinAvailable = c.desired, c.existing, c.available
	r.sum.Floor, r.sum.Ceiling = floor, ceiling
	r.lastSample, r.lastAvail, r.lastFloor = s.Now, c.available, floor
	r.initial = Step{At: s.Now, Sets: r.setCounts(), Conditions: slices.Clone(d.Status.Conditions),
		Replicas: d.Spec.Replicas, Floor: floor, Ceiling: ceiling}
	return r
}

// ownedCopy returns a copy of s that a runner may move forward in place:
// a deep copy, or, when shared (the state is a Run's own deep copy and
// no Config.Edits write to it), copies of its Deployment and of its
// ReplicaSets and pods as structs, sharing their maps and slices, which a
// run never changes in place.
func ownedCopy(s rollout.State, shared bool) rollout.State {
	if !shared {
		return rollout.Apply(s, nil) // a deep copy
	}
	s.ReplicaSets = slices.Clone(s.ReplicaSets)
	s.Pods = slices.Clone(s.Pods)
	return s
}

// limits returns the availability floor and the ceiling of replicas +
// maxSurge of d.
func limits(d rollout.Deployment) (floor int32, ceiling int64) {
	return rollout.MinAvailable(d), int64(d.Spec.Replicas) + int64(rollout.MaxSurge(d))
}

func (r *runner) run() {
	for !r.done {
		if r.limitReached() {
			return
		}
		r.work++
		r.step()
		if !r.done {
			r.fastForward()
		}
	}
}

// limitReached stops the run, and reports so, when the next sync would
// pass a limit of the Config.
func (r *runner) limitReached() bool {
	switch {
	case r.cfg.MaxSyncs > 0 && r.syncs >= r.cfg.MaxSyncs:
		r.stop(OutcomeLimit, words.Plural(r.cfg.MaxSyncs, "sync")+" (MaxSyncs)")
	case r.cfg.MaxTime > 0 && r.next.Sub(r.start) > r.cfg.MaxTime:
		r.stop(OutcomeLimit, fmt.Sprintf("%s of simulated time (MaxTime)", r.cfg.MaxTime))
	case r.work >= r.maxWork:
		r.stop(OutcomeLimit, words.Plural(int(r.maxWork), "sync")+" computed one by one (MaxWork)")
		r.workLimited = true
	default:
		return false
	}
	return true
}

// step runs the sync due at r.next and the pod model after it, records
// it, and either stops the run or sets when the next sync is due.
func (r *runner) step() {
	t := r.next
	first := r.syncs == 0
	r.pods.merge = r.pods.rng == nil && len(r.edits) == 0 && r.syncs >= r.editedAt+2
	r.advance(t)
	wrote, recheck, err := r.sync(t, first)
	changed := r.catchUp(t)
	if wrote || changed {
		r.active = t
	}
	r.record()

	d := r.st.Deployment
	if r.completeAt.IsZero() && rollout.DeploymentComplete(d, d.Status) {
		r.completeAt = t
	}
	if r.stopAtDeadline(t) {
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
		r.next = t.Add(r.cfg.Interval)
	case wrote || changed:
		// Its own writes and the pods' new statuses wake the controller
		// at once.
		r.next = t
	default:
		next := time.Time{}
		consider := func(e time.Time, ok bool) {
			if ok && (next.IsZero() || e.Before(next)) {
				next = e
			}
		}
		consider(podAt, podPending)
		consider(changeAt, changePending)
		// A re-check due now is taken a second later: upstream re-queues
		// at once and its clock moves on; ours does not.
		consider(later(recheck, t.Add(time.Second)), !recheck.IsZero())
		r.next = later(next, t)
	}
}

// joinSentences joins two sentences with "; ", without the first one's
// full stop.
func joinSentences(a, b string) string {
	if len(a) > 0 && a[len(a)-1] == '.' {
		a = a[:len(a)-1]
	}
	return a + "; " + b
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
		s.Pods = r.planPods()
	}
	actions, err := r.planFresh(s)
	wrote := slices.ContainsFunc(actions, rollout.Action.IsAPICall)
	var recheck time.Time
	for _, a := range actions {
		if a.Type == rollout.RecheckProgress && !settled(r.st.Deployment) {
			recheck = a.At
		}
	}
	if wrote {
		// The runner owns its state (a deep copy of the input), so the
		// plan is applied in place.
		rollout.ApplyTo(&s, actions)
		r.st = s
	}
	r.st.Pods = nil // from now on the pod model's
	r.st.Now = t
	r.current = Step{At: t, Actions: actions, Err: err}
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

// stopAtDeadline stops the run at t, with what stalled it, when the
// Deployment's status says its progress deadline was exceeded, and
// reports whether it did. Under ModelControllers, unless
// Config.PastDeadline is negative, the run goes on instead, as the
// controllers do, for Config.PastDeadline (see pastDeadline).
func (r *runner) stopAtDeadline(t time.Time) bool {
	c, ok := rollout.GetDeploymentCondition(r.st.Deployment.Status, rollout.Progressing)
	if !ok || c.Status != rollout.ConditionFalse || c.Reason != rollout.ReasonProgressDeadlineExceeded {
		return false
	}
	if !r.deadlineAt.IsZero() {
		return false // exceeded before; the run goes on
	}
	cause := r.cause()
	detail := c.Message
	if cause.outcome != OutcomeStalled {
		detail = joinSentences(detail, string(cause.outcome)+": "+cause.detail)
	}
	if r.ctl != nil && r.cfg.PastDeadline >= 0 {
		r.deadlineAt, r.deadlineDetail = t, detail
		sm := r.sum
		sm.PeakPodsLow, sm.PeakPodsHigh, sm.MinAvailableHigh = sm.PeakPods, sm.PeakPods, sm.MinAvailable // as finish does
		r.toDeadline, r.raceToDeadline = sm.Extremes(), r.ctl.racePeakExtremes(r.start)
		r.pastUntil = t.Add(cmp.Or(r.cfg.PastDeadline, DefaultPastDeadline))
		return false
	}
	r.active = t
	r.sum.DeadlineExceededAt = t.Sub(r.start)
	r.stop(OutcomeDeadlineExceeded, detail)
	return true
}

// timeLimit is the time after which no event of the run is taken: the
// start plus Config.MaxTime, or the end of the time past the progress
// deadline (pastUntil), whichever comes first; zero when neither is
// set.
func (r *runner) timeLimit() time.Time {
	var limit time.Time
	if r.cfg.MaxTime > 0 {
		limit = r.start.Add(r.cfg.MaxTime)
	}
	if !r.pastUntil.IsZero() && (limit.IsZero() || r.pastUntil.Before(limit)) {
		limit = r.pastUntil
	}
	return limit
}

// pastDeadline ends the summary of a run that went on past its progress
// deadline: the verdict is still the deadline exceeded, at deadlineAt
// (Duration: where `kubectl rollout status` fails), and the detail says
// how the run went on; CompleteAfterDeadline is when the rollout
// completed after it, if it did.
func (r *runner) pastDeadline() {
	if r.deadlineAt.IsZero() {
		return
	}
	sm := &r.sum
	sm.AfterDeadline, sm.AfterDeadlineDetail = sm.Outcome, sm.Detail
	then := string(sm.Outcome)
	switch {
	case !r.completeAfter.IsZero():
		// Complete, though the run may have stopped later, at a limit,
		// with retries still pending, or a replica change to come.
		then = "the controllers go on and complete the rollout at +" + words.Duration(r.completeAfter.Sub(r.start))
		sm.CompleteAfterDeadline = r.completeAfter.Sub(r.start)
	case r.pastLimited:
		then = "the controllers go on; the rollout is not complete " + words.Duration(r.pastUntil.Sub(r.deadlineAt)) +
			" after the deadline, at +" + words.Duration(r.pastUntil.Sub(r.start)) + ", where the simulation stops"
	case sm.Detail != "" && strings.Contains(r.deadlineDetail, then+": "+sm.Detail):
		// The cause the deadline's detail gave holds to the end.
		then = "the controllers go on; still " + then
	case sm.Detail != "":
		then = "the controllers go on; then " + then + ": " + sm.Detail
	}
	sm.Outcome, sm.Detail = OutcomeDeadlineExceeded, joinSentences(r.deadlineDetail, then)
	sm.DeadlineExceededAt = r.deadlineAt.Sub(r.start)
	sm.Duration = sm.DeadlineExceededAt
}
