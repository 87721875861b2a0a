package sim

import (
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Result is a whole run: the state it started from, every sync, the
// summary, and the objects at the end. A Result is read-only: steps that a
// fast-forward produced share the maps and strings that do not change
// between them.
type Result struct {
	// Model names the model that ran (Config.ModelName).
	Model string
	// Start is the state before the first sync: At is the start, Sets are
	// the ReplicaSets as the input left them, Floor and Ceiling the
	// Deployment's; it has no actions.
	Start Step
	// Steps are the syncs, in order, unless Config.OmitSteps.
	Steps   []Step
	Summary Summary
	// Final is the state after the last sync, with Now its time and the
	// ReplicaSets' statuses as the pod model left them. A run counts pods
	// rather than keeping them: Final.Pods holds one Pod for each group of
	// pods of a ReplicaSet that the pod model tells apart (see Run), which
	// is what Plan reads (whether an old ReplicaSet still has pods); the
	// counts are in the statuses.
	Final rollout.State
	// DeadlineFreeFrom, when not 0, is a progressDeadlineSeconds from
	// which the run is proved not to depend on the deadline: Run of the
	// same state and Config with the Deployment's progressDeadlineSeconds
	// set to any D from DeadlineFreeFrom up to rollout.Unlimited - 1
	// returns this Result, but for what echoes D: the Deployment's
	// ProgressDeadlineSeconds in Final, the At and Reason of the
	// RecheckProgress actions, and Final.Now, the time of the last
	// progress re-check, which fires (on a settled Deployment, changing
	// nothing) at the later of Final.Now and its D-dependent time.
	// DeadlineFreeFrom is at most the Deployment's own deadline and above
	// its minReadySeconds, as validation requires. It is the least such
	// deadline for which the proof holds: the run's syncs never
	// time out and never plan a re-check for at once, and the re-check
	// pending fires only after the Deployment is settled (see the package
	// doc, Progress deadline). It is 0 under ModelSimple, without a
	// deadline, and for a run that did not complete with all its events
	// handled, that had replica changes or edits, Config.MaxTime, or
	// whose re-check fired before it was settled. deadline.go has the proof.
	DeadlineFreeFrom int32
}

// Step is one sync of the controller. Steps are read-only: a step may
// share its slices (actions, counts, conditions) with other steps of the
// run and with the Deployment it recorded.
type Step struct {
	At time.Time
	// Actions are the sync's actions as Plan returned them: API calls,
	// events, progress re-checks.
	Actions []rollout.Action
	// Err is the error the sync ended with, if any (a hash collision, a
	// Deployment an edit made invalid): Plan's error itself, so that
	// errors.As finds a *rollout.CollisionError. The run goes on, as the
	// controller retries.
	Err error
	// Sets are the Deployment's ReplicaSets after the sync and after the
	// pod model caught up at At, oldest first.
	Sets []SetCount
	// Conditions are the Deployment's status conditions after the sync.
	Conditions []rollout.Condition
	// Replicas is the Deployment's spec.replicas at At, Floor its
	// availability floor (rollout.MinAvailable: spec.replicas -
	// maxUnavailable, 0 for Recreate) and Ceiling its spec.replicas +
	// maxSurge. All three move when the replicas change.
	Replicas int32
	Floor    int32
	Ceiling  int64
}

// Totals sums the ReplicaSets of a step: the size of the new one, the
// sizes of the old ones, and the available pods of all of them.
func (s Step) Totals() (oldSize, newSize, available int64) {
	for _, c := range s.Sets {
		if c.New {
			newSize += int64(c.Desired)
		} else {
			oldSize += int64(c.Desired)
		}
		available += int64(c.Available)
	}
	return oldSize, newSize, available
}

// Pods returns the pods of a step's ReplicaSets, terminating ones
// included, and the available ones.
func (s Step) Pods() (pods, available int64) {
	for _, c := range s.Sets {
		pods += int64(c.Current) + int64(c.Terminating)
		available += int64(c.Available)
	}
	return pods, available
}

// SetCount is one ReplicaSet in a Step: its size and its pods.
type SetCount struct {
	Name     string
	Revision string
	New      bool // its template is the Deployment's
	// Desired is spec.replicas; Current, Ready and Available count the
	// pods that are not terminating; Terminating those that are.
	Desired, Current, Ready, Available, Terminating int32
	// Pending are the pods bound to no node (see PodModel.Room), as the
	// pod model has them at the step: under ModelSimple some of Current;
	// under ModelControllers Current is the ReplicaSet's status, which
	// counts them once the ReplicaSet controller has written it.
	Pending int32
}

// Summary is what a run comes to.
type Summary struct {
	// Outcome is why the run stopped.
	Outcome Outcome
	// Detail says more about the outcome in a sentence, with names and
	// numbers.
	Detail string
	// Duration is from the start to when the Deployment's status first
	// became complete (rollout.DeploymentComplete after a sync's status
	// write: what `kubectl rollout status` waits for). For a rollout that
	// never became complete it is LastChange, and for one whose progress
	// deadline was exceeded, DeadlineExceededAt, where `kubectl rollout
	// status` fails, even where the run went on past it and the rollout
	// completed (CompleteAfterDeadline).
	Duration time.Duration
	// DeadlineExceededAt is, for a run whose outcome is
	// OutcomeDeadlineExceeded, from the start to the sync that first
	// found the progress deadline exceeded (0 otherwise); and
	// CompleteAfterDeadline, for such a run under ModelControllers that
	// went on past it (Config.PastDeadline), from the start to when the
	// Deployment's status became complete afterwards, as the real
	// controllers go on (0: not within Config.PastDeadline).
	DeadlineExceededAt    time.Duration
	CompleteAfterDeadline time.Duration
	// AfterDeadline and AfterDeadlineDetail are, for a run that went on
	// past its progress deadline (under ModelControllers, with
	// Config.PastDeadline not negative), why the run past it stopped and
	// that in a sentence, as Outcome and Detail would say it without the
	// deadline: OutcomeComplete or OutcomeLimit (Config.PastDeadline
	// reached, or MaxWork: see Cost) after a completion, OutcomeLimit
	// without one, or a stuck outcome where nothing was left to happen.
	// Both are empty for a run that did not go on past a deadline, so a
	// caller tells the two apart by AfterDeadline != "".
	AfterDeadline       Outcome
	AfterDeadlineDetail string
	// LastChange is from the start to the last change: a sync that wrote
	// to the API server, or a change of the pods (terminating pods going
	// away after the rollout is complete, for one). For a stuck rollout
	// it is when it got stuck. The run itself ends after it, with a sync
	// that finds nothing to do.
	LastChange time.Duration
	// Syncs is the number of syncs, that last one included.
	Syncs int
	// PeakDesired is the most the sizes of the Deployment's ReplicaSets
	// added up to at any time.
	PeakDesired int64
	// PeakPods is the most pods of the Deployment that existed at any
	// time, terminating ones included, and PeakPodsAt when (after the
	// start) they first did: 0 when the start had them.
	PeakPods   int64
	PeakPodsAt time.Duration
	// MinAvailable is the fewest available pods of the Deployment at any
	// time, and MinAvailableAt when they first were that few.
	MinAvailable   int64
	MinAvailableAt time.Duration
	// PeakPodsLow and PeakPodsHigh are the lowest and highest peaks,
	// and MinAvailableHigh the most available pods at the fewest, that
	// the orders of racing work reach where the controllers race (see
	// the package doc, Races); PeakPods and MinAvailable, the figures to
	// judge a rollout by, are the worst of the two likelier orders
	// (PeakPods, from 15 replicas on, also counting a pod created at the
	// instant one pod goes as created first, and up to two where more
	// go, within the pod quota, and
	// from 300 replicas under a client rate limit without a pod quota,
	// the order that takes deletions last, as PeakPodsHigh), and
	// PeakPodsLow <= PeakPods <= PeakPodsHigh, MinAvailable <=
	// MinAvailableHigh. Under ModelSimple, which has no races, they equal
	// PeakPods and MinAvailable.
	PeakPodsLow      int64
	PeakPodsHigh     int64
	MinAvailableHigh int64
	// Floor is the availability floor at MinAvailableAt, and Ceiling
	// replicas + maxSurge at PeakPodsAt (see Step).
	Floor   int32
	Ceiling int64
	// BelowFloor is how long the available pods stayed below the floor of
	// the moment.
	BelowFloor time.Duration
	// FailedCreates counts refused attempts to create pods: one per
	// ReplicaSet each time the pod model catches up while the quota
	// refuses its pods, as the ReplicaSet controller stops a sync's
	// creations at the first refusal and retries later. Under
	// ModelControllers it counts the refused create requests themselves:
	// every request of the slow-start batch in which the quota ran out
	// that it refused, in each retry.
	FailedCreates int
	// FastForwarded is how many of the syncs a fast-forward took at once
	// rather than one by one (see Run); they are in Steps all the same.
	// Under ModelControllers they are Deployment syncs of the run in
	// order (the Result's steps).
	FastForwarded int
	// Projection is, for a run under ModelControllers that stopped at
	// Config.MaxWork, what can be said of the rest: a proved lower bound
	// of the Duration and an estimate (see Projection); for a run that
	// went on past its progress deadline and stopped there (Outcome
	// OutcomeDeadlineExceeded), of when the rollout could complete. Its
	// zero value (Made false) means none was made.
	Projection Projection
	// UpToDeadline is, for a run that went on past its progress deadline
	// (AfterDeadline != ""), the figures above up to that deadline: each
	// order of racing work counted up to the sync that found its own
	// deadline exceeded, or to its end if it found none, and the orders
	// put together as for the whole run. It equals the same figures of
	// the run of the same state and Config with PastDeadline -1, which
	// stops at the deadline (TestUpToDeadlineIsTheStoppedRun). It is the
	// zero Extremes for a run that did not go on past a deadline.
	UpToDeadline Extremes
}

// Extremes are the pod figures of a span of a run, each as the Summary
// field of the same name has it for the whole run: the peak and when it
// was first reached, the range of the peak over the racing orders, the
// fewest available and when, the most available at the fewest over the
// orders, the availability floor at MinAvailableAt and replicas +
// maxSurge at PeakPodsAt. PeakPodsLow <= PeakPods <= PeakPodsHigh and
// MinAvailable <= MinAvailableHigh.
type Extremes struct {
	PeakPods         int64
	PeakPodsAt       time.Duration
	PeakPodsLow      int64
	PeakPodsHigh     int64
	MinAvailable     int64
	MinAvailableAt   time.Duration
	MinAvailableHigh int64
	Floor            int32
	Ceiling          int64
}

// Outcome is why a run stopped.
type Outcome string

// Outcomes.
const (
	// OutcomeComplete: the rollout completed.
	OutcomeComplete Outcome = "complete"
	// OutcomeDeadlineExceeded: Progressing turned False with
	// ProgressDeadlineExceeded. The controller would go on scaling, but
	// the rollout has failed.
	OutcomeDeadlineExceeded Outcome = "progress deadline exceeded"
	// OutcomePaused: the Deployment is paused, so nothing rolls out.
	OutcomePaused Outcome = "paused"
	// OutcomeQuota: the pod quota refuses the pods the rollout needs.
	OutcomeQuota Outcome = "blocked by quota"
	// OutcomeNeverReady: the new ReplicaSet's pods never become ready.
	OutcomeNeverReady Outcome = "stuck: new pods never become ready"
	// OutcomeUnplaced: pods the rollout needs stay pending, as
	// PodModel.Room binds no more of them.
	OutcomeUnplaced Outcome = "stuck: pods cannot be placed"
	// OutcomeSyncFails: every sync fails, and nothing else happens.
	OutcomeSyncFails Outcome = "stuck: sync fails"
	// OutcomeStalled: nothing is left to happen, for no reason above.
	OutcomeStalled Outcome = "stalled"
	// OutcomeLimit: the run reached a limit of its Config before any of
	// the above; the rollout might still have completed.
	OutcomeLimit Outcome = "limit reached"
)

// Stuck reports whether o says that the rollout can never complete under
// the pod model: the run stopped where nothing was left to happen and the
// Deployment was not complete (paused, blocked by quota, stuck, stalled).
// OutcomeDeadlineExceeded is not stuck (the controller goes on), nor is
// OutcomeLimit (the run did not go far enough to know).
func (o Outcome) Stuck() bool {
	switch o {
	case OutcomePaused, OutcomeQuota, OutcomeNeverReady, OutcomeUnplaced, OutcomeSyncFails, OutcomeStalled:
		return true
	}
	return false
}
