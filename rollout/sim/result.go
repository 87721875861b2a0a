package sim

import (
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Result is a whole run: every sync, the summary, and the objects at the
// end.
type Result struct {
	Steps   []Step
	Summary Summary
	// Final is the state after the last sync, with Now its time and the
	// ReplicaSets' statuses as the pod model left them. A run counts pods
	// rather than keeping them: Final.Pods holds one Pod for each group
	// of pods of a ReplicaSet that share their times, which is what Plan
	// reads (whether an old ReplicaSet still has pods); the counts are in
	// the statuses.
	Final rollout.State
}

// Step is one sync of the controller.
type Step struct {
	At time.Time
	// Actions are the sync's actions as Plan returned them: API calls,
	// events, progress re-checks.
	Actions []rollout.Action
	// Err is the error the sync ended with, if any (a hash collision, a
	// Deployment an edit made invalid). The run goes on, as the controller
	// retries.
	Err string
	// Sets are the Deployment's ReplicaSets after the sync and after the
	// pod model caught up at At, oldest first.
	Sets []SetCount
	// Conditions are the Deployment's status conditions after the sync.
	Conditions []rollout.Condition
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

// SetCount is one ReplicaSet in a Step: its size and its pods.
type SetCount struct {
	Name     string
	Revision string
	New      bool // its template is the Deployment's
	// Desired is spec.replicas; Current, Ready and Available count the
	// pods that are not terminating; Terminating those that are.
	Desired, Current, Ready, Available, Terminating int32
}

// Summary is what a run comes to.
type Summary struct {
	// Completed is true when the rollout completed: Outcome "complete".
	Completed bool
	// Outcome is why the run stopped: "complete", "progress deadline
	// exceeded", "paused", "blocked by quota", "stuck: new pods never
	// become ready", "stuck: sync fails", "stalled" (nothing left to
	// happen and not complete) or "limit reached".
	Outcome string
	// Detail says more about the outcome in a sentence, with names and
	// numbers.
	Detail string
	// Duration is from the start to the last sync.
	Duration time.Duration
	// Syncs is the number of syncs.
	Syncs int
	// PeakDesired is the most the sizes of the Deployment's ReplicaSets
	// added up to at any time.
	PeakDesired int64
	// PeakPods is the most pods of the Deployment that existed at any
	// time, terminating ones included.
	PeakPods int64
	// MinAvailable is the fewest available pods of the Deployment at any
	// time.
	MinAvailable int64
	// Floor is spec.replicas - maxUnavailable at the start
	// (rollout.MinAvailable): 0 for Recreate, which stops every pod.
	Floor int32
	// Ceiling is spec.replicas + maxSurge at the start.
	Ceiling int64
	// BelowFloor is how long the available pods stayed below Floor.
	BelowFloor time.Duration
	// FailedCreates counts refused attempts to create pods: one per
	// ReplicaSet each time the pod model catches up while the quota
	// refuses its pods, as the ReplicaSet controller stops a sync's
	// creations at the first refusal and retries later.
	FailedCreates int
}

// Outcomes.
const (
	OutcomeComplete         = "complete"
	OutcomeDeadlineExceeded = "progress deadline exceeded"
	OutcomePaused           = "paused"
	OutcomeQuota            = "blocked by quota"
	OutcomeNeverReady       = "stuck: new pods never become ready"
	OutcomeSyncFails        = "stuck: sync fails"
	OutcomeStalled          = "stalled"
	OutcomeLimit            = "limit reached"
)
