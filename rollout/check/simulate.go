package check

import (
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// A Change is what a simulation changes of a Deployment, and the model it
// runs under: what `rolloutctl simulate` takes as flags. Its zero value
// changes nothing; Config's zero value is sim.Config's.
type Change struct {
	// Images change the images of the template, which starts a rollout.
	Images []Image
	// Replicas sets spec.replicas when SetReplicas; otherwise the range of
	// an HPA that scales the Deployment bounds its replicas.
	Replicas    int32
	SetReplicas bool
	// MaxSurge and MaxUnavailable set the strategy's values when
	// SetMaxSurge and SetMaxUnavailable are; they need a RollingUpdate
	// strategy.
	MaxSurge, MaxUnavailable       surge.Value
	SetMaxSurge, SetMaxUnavailable bool
	// QuotaPods above 0 caps the pods at that many (it sets
	// Config.Pods.MaxPods), in place of the ResourceQuotas of the
	// namespace.
	QuotaPods int
	// Config is the simulation's model. Its Pods' ReadyAfter and
	// Terminating are taken as they are when FixedReady and
	// FixedTerminating; otherwise they come from the pod template (see
	// PodTimes). Its MaxPods is set from the ResourceQuotas when
	// QuotaPods is 0 and one limits the pods.
	Config                       sim.Config
	FixedReady, FixedTerminating bool
	// Options are the rollout.Options of every sync; their Version names
	// the ReplicaSets.
	Options rollout.Options
	// Nodes above 0 places the pods on that many identical nodes of
	// NodeAllocatable, in place of the input's Nodes (see
	// Input.Placement); with neither, pods are not placed.
	Nodes           int
	NodeAllocatable Allocatable
}

// A Simulation is one simulated rollout and what it ran under.
type Simulation struct {
	// Title names the Deployment and how the start was built; Model words
	// the pod model and the controllers' pace (see Model).
	Title, Model string
	// Notes say what the policy objects changed; Times where the pods'
	// times come from (see PodTimes).
	Notes, Times []string
	// State is the start and Config the model the run used, with the
	// pod times and quota filled in.
	State  rollout.State
	Config sim.Config
	Result sim.Result
}

// ErrStrategyChange is the error of a Change that sets maxSurge or
// maxUnavailable of a Deployment whose strategy is not RollingUpdate.
var ErrStrategyChange = errors.New("maxSurge and maxUnavailable need a RollingUpdate strategy")

// Simulate runs the rollout of d (a Deployment of in) that c describes,
// under the policy objects of its namespace: an HPA's range bounds the
// replicas (unless c sets them), a quota caps the pods (unless
// c.QuotaPods), a PodDisruptionBudget that selects the pods is named in
// the notes. It fails when the policy objects cannot be read, when
// admission refuses every pod, when c makes d invalid (an error that
// wraps ErrStrategyChange, or a *ChangeError), when the start state cannot be built (an image
// change names no container), when the pod template's times cannot be
// read, or when sim.Run fails. Two calls with equal arguments give equal
// Simulations; Simulate modifies neither in, d nor c.
func Simulate(in *Input, d rollout.Deployment, c Change) (Simulation, error) {
	run, err := Prepare(in, d, c)
	if err != nil {
		return run, err
	}
	run.Result, err = sim.Run(run.State, run.Config)
	return run, err
}

// Prepare is Simulate without the run: the Simulation's start, model,
// title and notes, with a zero Result, for a caller that runs it itself
// (`rolloutctl simulate` keeps the first steps of a long run with
// sim.RunFirst). It fails as Simulate does but for sim.Run's errors.
func Prepare(in *Input, d rollout.Deployment, c Change) (Simulation, error) {
	var run Simulation
	pol, err := in.Policy(d, c.QuotaPods)
	if err != nil {
		return run, err
	}
	if pol.HPA != "" && !c.SetReplicas {
		r := min(max(d.Spec.Replicas, pol.MinReplicas), pol.MaxReplicas)
		run.Notes = append(run.Notes, fmt.Sprintf("HorizontalPodAutoscaler %s scales it between %d and %d replicas (checked at %d)", pol.HPA, pol.MinReplicas, pol.MaxReplicas, r))
		d = d.DeepCopy()
		d.Spec.Replicas = r
	}
	if pol.Blocked != "" {
		return run, errors.New(pol.Blocked)
	}
	d, err = c.apply(d)
	if err != nil {
		return run, err
	}
	s, from, err := in.StartState(d, c.Images, c.Options)
	if err != nil {
		return run, err
	}
	run.Config = c.Config
	run.Config.Changes = append([]sim.ReplicaChange(nil), c.Config.Changes...)
	run.Config.Pods.NeverReady = append([]string(nil), c.Config.Pods.NeverReady...)
	if run.Config.Pods, run.Times, err = PodTimes(d, run.Config.Pods, c.FixedReady, c.FixedTerminating); err != nil {
		return run, err
	}
	if c.QuotaPods > 0 {
		run.Config.Pods.MaxPods = int32(min(c.QuotaPods, 1<<31-1))
	}
	if c.QuotaPods == 0 && pol.Quota != "" {
		run.Config.Pods.MaxPods = pol.MaxPods(s)
		run.Notes = append(run.Notes, pol.QuotaNote)
	}
	run.Notes = append(run.Notes, pol.Budgets(d.Spec.Replicas)...)
	place, err := in.Placement(d, c.Nodes, c.NodeAllocatable)
	if err != nil {
		return run, err
	}
	if place.Nodes {
		run.Config.Pods.Room = place.Room(d.Spec.Replicas)
		run.Notes = append(run.Notes, fmt.Sprintf("placement: %s; so the nodes hold %s of the Deployment at once, and the others wait pending", place.Why, words.Plural(int(place.Places), "pod")))
	}
	run.Title = fmt.Sprintf("%s: %s", Qualified(d), from)
	run.Model, run.State = Model(run.Config, pol.Quota), s
	return run, nil
}

// A ChangeError says that a Change makes its Deployment invalid: Err is
// what rollout.Validate reports of the changed Deployment.
type ChangeError struct {
	Deployment string
	Err        error
}

// Error says which Deployment the change makes invalid, and how.
func (e *ChangeError) Error() string {
	return fmt.Sprintf("with the changes, Deployment %q is invalid: %v", e.Deployment, e.Err)
}

// Unwrap returns Err.
func (e *ChangeError) Unwrap() error { return e.Err }

// apply returns d with the replicas and strategy c sets, validated.
func (c Change) apply(d rollout.Deployment) (rollout.Deployment, error) {
	d = d.DeepCopy()
	if c.SetReplicas {
		d.Spec.Replicas = c.Replicas
	}
	if c.SetMaxSurge || c.SetMaxUnavailable {
		if d.Spec.Strategy.Type != rollout.RollingUpdateStrategy {
			return d, fmt.Errorf("%w; %s is %s", ErrStrategyChange, d.Name, d.Spec.Strategy.Type)
		}
		if c.SetMaxSurge {
			d.Spec.Strategy.RollingUpdate.MaxSurge = c.MaxSurge
		}
		if c.SetMaxUnavailable {
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = c.MaxUnavailable
		}
	}
	if err := rollout.Validate(d); err != nil {
		return d, &ChangeError{Deployment: d.Name, Err: err}
	}
	return d, nil
}
