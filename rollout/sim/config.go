package sim

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// PodModel is how pods behave: a simplified ReplicaSet controller and
// kubelet. The zero value is the golden harness's model: every pod is
// ready the moment it is created, a deleted pod is gone at once, and there
// is no quota.
type PodModel struct {
	// ReadyAfter is the time from a pod's creation to its readiness.
	ReadyAfter time.Duration
	// ReadyJitter, if positive, adds to each pod's ReadyAfter a uniform
	// draw in [0, ReadyJitter) from a PCG generator (math/rand/v2) seeded
	// with Seed, drawn in the order pods are created. Pods with their own
	// ready times are counted one by one, so with jitter the cost of a run
	// grows with its pods.
	ReadyJitter time.Duration
	// Seed seeds the jitter; runs with the same Seed are identical.
	Seed uint64
	// NeverReady lists images whose pods never become ready (a crash
	// loop): a pod never becomes ready if its ReplicaSet's template uses
	// any of them, in a container or an init container.
	NeverReady []string
	// Terminating is how long a deleted pod stays terminating. Terminating
	// pods count in status.terminatingReplicas, in the quota and in
	// Summary.PeakPods, and keep a Recreate rollout waiting.
	Terminating time.Duration
	// MaxPods is a ResourceQuota on the namespace's pods (0: none):
	// creations beyond it are refused, and terminating pods count until
	// they are gone. When pods are short for several ReplicaSets at once,
	// the older ReplicaSets get them first.
	MaxPods int32
	// Room, if set, is the scheduler (see "Placement" in the package
	// doc): given how many pods of the Deployment's ReplicaSets are bound
	// to nodes (running or terminating), it returns how many more can be
	// bound now; a result below 0 counts as 0. Pods created beyond it
	// are pending: never ready until bound, deleted first (and gone at
	// once, not terminating: the API server deletes a pod bound to no
	// node without a grace period), bound in the
	// order they were created (ties by ReplicaSet name) as soon as Room
	// allows, and ready ReadyAfter after binding. The pods the start
	// state reports are bound. Room must be deterministic; with it set,
	// Run does not fast-forward.
	Room func(bound int64) int64
}

// A ReplicaChange sets spec.replicas at a time after the start, as an HPA
// or `kubectl scale` would mid-rollout. The generation goes up when the
// value changes.
type ReplicaChange struct {
	After    time.Duration
	Replicas int32
}

// An Edit changes the Deployment at a time after the start, as a user's
// `kubectl edit` would (a new image, a pause, a resume). Apply edits the
// Deployment in place; the generation goes up when its spec or annotations
// changed. At the same time, replica changes come before edits, and both
// before the sync of that time.
type Edit struct {
	At    time.Duration
	Apply func(*rollout.Deployment)
}

// Config is how a run goes. The zero value runs ModelControllers with
// kube-controller-manager's client defaults (QPS 20, burst 30, 500 burst
// replicas) under the zero PodModel, with no limit but DefaultMaxWork:
// Config{}.ModelName() is "controllers (kube-api-qps 20, kube-api-burst
// 30)". The interval model of the golden recordings is Model: ModelSimple
// with Interval: 30 * time.Second. The options of every
// sync are those of the State given to Run (rollout.State.Options).
type Config struct {
	// Model is how the controllers run (zero: ModelControllers).
	// Controllers configures ModelControllers, which takes no Interval;
	// Interval applies to ModelSimple only.
	Model       Model
	Controllers Controllers
	Pods        PodModel
	Changes     []ReplicaChange
	Edits       []Edit
	// Interval, under ModelSimple, if positive, makes the controller sync
	// every Interval, as the golden harness does every 30s (Run refuses
	// it under ModelControllers). If zero the controller is event
	// driven: it syncs again at once after a sync that wrote something or
	// after which a ReplicaSet's status changed, and otherwise at the next
	// pod event (ready, available, gone), replica change, edit or progress
	// re-check, whichever comes first.
	Interval time.Duration
	// MaxSyncs stops the run after this many syncs (0: no limit).
	MaxSyncs int
	// MaxTime stops the run before a sync later than this after the start
	// (0: no limit).
	MaxTime time.Duration
	// PastDeadline is how long a run under ModelControllers goes on after
	// a sync first finds the progress deadline exceeded (Progressing
	// False with ProgressDeadlineExceeded, where `kubectl rollout status`
	// fails): the real controllers do not stop there, and the rollout may
	// still complete (Summary.CompleteAfterDeadline). 0 is
	// DefaultPastDeadline; a negative value stops the run at the deadline,
	// as the other models always do.
	PastDeadline time.Duration
	// MaxWork bounds the cost of a run: it stops after computing this
	// many syncs one by one (0: DefaultMaxWork). Syncs that a fast-forward
	// takes at once (see Run) do not count, so a long but regular rollout
	// never reaches it; a run that does is one whose syncs keep changing
	// in irregular ways, such as one with jittered pods, at roughly a
	// second of computing per 100,000 syncs. Under ModelControllers
	// (fast-forwarded only in its cycles; see the package doc) it counts the syncs of both
	// controllers and the groups of pod writes granted at one time (about
	// 3 to 20µs each, three runs included), the periods computed to check
	// a fast-forward's jumps included, those that failed too: a
	// 1,000-replica rollout at 25%/25% takes about 2,000 (pods ready
	// after 5s), a 5,000-replica one about 10,000 (ready after 5s) to
	// 14,000 (after 60s). It also counts a unit for every 4,096 cohorts
	// of pods (pods of one ReplicaSet created, ready and deleted at the
	// same times) beyond 256 that an event holds, so that a run whose
	// pods pile up in many cohorts (created one by one and not yet
	// available: pods ready after 90s, or a minReadySeconds near 2^31)
	// still costs a bounded time per unit (TestCohortWalksCounted), and a
	// unit per 64 cohorts that the pod model walks beyond 4 an event. A
	// run stopped by MaxWork projects the rest
	// (Summary.Projection), and one whose pod requests provably need more
	// work than MaxWork one by one stops after its first sync (the
	// largest Deployment the API server accepts, 2,147,483,647 replicas
	// at 25%/25%, in 0.3ms: BenchmarkRunControllersLargest), or, if its
	// rollout's steps are of a few pods, which the fast-forward may
	// carry, after a twentieth of the work left unless it ends within it
	// (at maxSurge 1, pods ready after 1s, 2,147,483,647 replicas
	// complete in 1,861 units: TestLargestComputed). RunCost says what a run
	// took of it, so that several runs can share one budget, as
	// rollout/check's runs of a Deployment's replica counts do.
	MaxWork int
	// OmitSteps leaves Result.Steps empty; the Summary and the final state
	// are kept.
	OmitSteps bool
	// Observe, if set, is called with every step, in order, as the run
	// comes to it (fast-forwarded ones included), whether or not
	// Result.Steps keeps them: with OmitSteps, a caller can look at every
	// step of a long run without holding them all. A step, like a Result,
	// is read-only: its actions may be shared with other steps.
	Observe func(Step)
	// ObserveDeletesFirst, if set, is called under ModelControllers with
	// every step of the race order where ReplicaSet syncs that delete pods
	// go first (see "Races" in the package doc), in order, as Observe is
	// with the in-order run's steps. That order is the one whose fewest
	// available and peak pods the Summary reports when they are worse, so a
	// caller judging the run step by step sees the steps behind those
	// figures. Other models never call it.
	ObserveDeletesFirst func(Step)
	// PeakPodsAbove, if positive, says that the caller reads
	// Summary.PeakPodsHigh only to tell whether it is above this many
	// pods (as a --max-pods gate does), and PeakPodsLow and
	// MinAvailableHigh not at all. Under ModelControllers the run may
	// then end its third race order (ReplicaSet syncs that delete pods
	// last, whose figures are those three) as soon as Projection's proved
	// bound (PeakPodsAtMost's) shows that its pods never pass this many:
	// after its first Deployment sync has seen the generation, in a run
	// without Changes or Edits whose in-order run was not projected, and
	// whose PeakPods is not that order's (a rolling update of 300
	// replicas or more under a client rate limit, without a pod quota).
	// The
	// three figures are then over the other two orders. What is kept is
	// TestPeakAboveChangesNothingRead's property: the Steps, the
	// observed steps and every figure of the Summary but those three (and
	// UpToDeadline's three) are the run's without the field;
	// PeakPodsHigh (and UpToDeadline's) is above PeakPodsAbove exactly
	// when the run's without the field is, and then the same;
	// Cost.Work counts what the cut order computed until it ended, so it
	// is at most the run's without the field, Cost.Limited holds only
	// where it holds without the field, and DeadlineFreeFrom is proved
	// over what the cut order ran (a Result with the field under every
	// deadline from it up is the same, TestPeakAboveDeadlineFreeFrom):
	// at most the run's without the field where that is proved, and
	// proved in some runs where that is not. Other models ignore it; 0
	// reads everything.
	PeakPodsAbove int64
	// DeletesFirstDone, if set, lets a caller of ObserveDeletesFirst end
	// that order early. Under ModelControllers, in a run without Changes
	// or Edits whose in-order run was not projected, once the order's
	// state proves (by Projection's bounds, at a Deployment sync that has
	// seen the generation) that its peak can no longer pass the in-order
	// run's PeakPods nor its fewest available fall below the in-order
	// run's MinAvailable (both counted up to the in-order run's progress
	// deadline where it went on past one, so that Summary.UpToDeadline
	// is kept too), the run asks DeletesFirstDone with the in-order run's
	// whole MinAvailable, which is then the Summary's; if it reports true, the
	// order ends there and ObserveDeletesFirst has seen the steps so far
	// only. A caller reports true where steps to come, whatever they are
	// (their ready pods held at that fewest at least), cannot change what
	// it reads of them. What is kept is
	// TestDeletesFirstDoneChangesNothingRead's property: the steps
	// observed are a prefix of the order's whole steps, and the Result is
	// the run's without it, but PeakPodsLow and MinAvailableHigh (and
	// UpToDeadline's; then over the orders run whole), Cost (as with PeakPodsAbove) and
	// DeadlineFreeFrom (the run's or 0).
	DeletesFirstDone func(fewestAvailable int64) bool

	// noFastForward computes every sync one by one (tests compare the two).
	noFastForward bool
	// ffKeep, if positive, replaces the constant ffKeep under
	// ModelSimple: how many syncs the fast-forward looks at without a
	// period before it pauses (tests make it small, to take the pauses
	// often).
	ffKeep int
	// everyPod gives Plan a Pod for every cohort of pods (podModel.pods)
	// at a Recreate Deployment's sync, not one for each ReplicaSet that
	// has pods (planPods): tests compare the two.
	everyPod bool
	// planCache is how a ModelControllers run uses its plan cache (tests
	// turn it off or check it).
	planCache planCacheMode
	// ownsState says that the State given to the runners is the Run's
	// own deep copy, which the orders of a run without Edits share (see
	// ownedCopy); copyOrders makes each order deep-copy the State instead
	// (tests compare the two).
	ownsState, copyOrders bool
	// noTrial: beyondWork stops the run at once rather than give it a
	// trial (the racing orders of a run whose order in sequence stopped
	// at its work limit, which leaves the Result limited whatever they
	// compute).
	noTrial bool
}

// ModelName names the model c runs: "controllers (kube-api-qps 20,
// kube-api-burst 30)", "event driven" or "a sync every 30s".
func (c Config) ModelName() string {
	name := c.Model.Name(c.Interval)
	if c.Model == ModelControllers {
		name += " (" + c.Controllers.String() + ")"
	}
	return name
}

// DefaultMaxWork is the units of work a run computes before it stops,
// when Config.MaxWork is 0 (see Config.MaxWork).
const DefaultMaxWork = 1_000_000

// DefaultPastDeadline is how long a run under ModelControllers goes on
// past its progress deadline when Config.PastDeadline is 0: an hour, in
// which the ReplicaSet controller's longest backoff (1,000s) retries a
// refused creation three times.
const DefaultPastDeadline = time.Hour

// ConfigError reports a Config field that cannot be used, named by its
// path, as "Pods.ReadyAfter" or "Changes[1].Replicas".
type ConfigError struct {
	Field  string
	Value  string
	Reason string
}

// Error formats e as "sim: Config.<Field>: <Value>: <Reason>".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("sim: Config.%s: %s: %s", e.Field, e.Value, e.Reason)
}

func (c Config) check() error {
	var errs []error
	duration := func(field string, d time.Duration) {
		if d < 0 {
			errs = append(errs, &ConfigError{field, d.String(), "must not be negative"})
		}
	}
	duration("Pods.ReadyAfter", c.Pods.ReadyAfter)
	duration("Pods.ReadyJitter", c.Pods.ReadyJitter)
	duration("Pods.Terminating", c.Pods.Terminating)
	duration("Interval", c.Interval)
	duration("MaxTime", c.MaxTime)
	if c.MaxWork < 0 {
		errs = append(errs, &ConfigError{"MaxWork", fmt.Sprint(c.MaxWork), "must not be negative"})
	}
	if c.Pods.MaxPods < 0 {
		errs = append(errs, &ConfigError{"Pods.MaxPods", fmt.Sprint(c.Pods.MaxPods), "must not be negative"})
	}
	if c.PeakPodsAbove < 0 {
		errs = append(errs, &ConfigError{"PeakPodsAbove", fmt.Sprint(c.PeakPodsAbove), "must not be negative"})
	}
	if c.MaxSyncs < 0 {
		errs = append(errs, &ConfigError{"MaxSyncs", fmt.Sprint(c.MaxSyncs), "must not be negative"})
	}
	c.Controllers.check(&errs)
	switch {
	case c.Model > ModelSimple:
		errs = append(errs, &ConfigError{"Model", fmt.Sprint(c.Model), "unknown model"})
	case c.Model == ModelControllers && c.Interval > 0:
		errs = append(errs, &ConfigError{"Interval", c.Interval.String(), "ModelControllers is event driven and takes no interval"})
	}
	for i, ch := range c.Changes {
		duration(fmt.Sprintf("Changes[%d].After", i), ch.After)
		if ch.Replicas < 0 {
			errs = append(errs, &ConfigError{fmt.Sprintf("Changes[%d].Replicas", i), fmt.Sprint(ch.Replicas), "must not be negative"})
		}
	}
	for i, e := range c.Edits {
		duration(fmt.Sprintf("Edits[%d].At", i), e.At)
		if e.Apply == nil {
			errs = append(errs, &ConfigError{fmt.Sprintf("Edits[%d].Apply", i), "nil", "must be a function"})
		}
	}
	return errors.Join(errs...)
}

// validState refuses what Plan would refuse: the Deployment or a
// ReplicaSet of its namespace that the API server would not store.
func validState(s rollout.State) error {
	if s.Options.SkipValidation {
		return nil
	}
	return rollout.ValidateState(s)
}

// workCounts says what a unit of work counts, in a limit's outcome
// detail: Config.MaxWork's two kinds.
const workCounts = "controller syncs and pod writes taken one by one, and the pods they walk"

// workUnits words n units of work.
func workUnits(n int) string {
	if n == 1 {
		return "1 unit of work"
	}
	return fmt.Sprintf("%d units of work", n)
}
