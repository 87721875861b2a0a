package check

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Config is what a check applies: the limits of the rules, the replica
// counts to check, and the model the rollouts are simulated under. Its
// zero value applies the rules that need no limit (never-finishes,
// progress-deadline, progress-deadline-margin, full-outage and the policy
// objects' rules, drains judged for one pod per node), at spec.replicas or
// an HPA's range, one rollout at a time, with pods ready and terminating
// as each template says (see [PodTimes]), under Sim's zero model,
// [sim.ModelControllers] with kube-controller-manager's client defaults
// (the interval model of the golden recordings is Sim.Model
// [sim.ModelSimple] with Sim.Interval 30s), on every core.
type Config struct {
	// MaxPods is the max-pods rule: at most this many pods exist at any
	// time (0: no rule).
	MaxPods int
	// MinAvailable is the min-available rule, when MinAvailableRule is
	// set: at least this many pods are available at any time, a count or a
	// percent of the replicas of the moment rounded up.
	MinAvailable     surge.Value
	MinAvailableRule bool
	// MaxDuration is the max-duration rule: the rollout completes within
	// it (0: no rule).
	MaxDuration time.Duration
	// Timeout is the timeout rule: the rollout is complete within it, as
	// a CI job's kubectl rollout status --timeout waits (0: no rule). Its
	// finding says when Helm 3's upgrade --wait, which waits less, is
	// satisfied.
	Timeout time.Duration
	// MaxRollouts checks each rollout while the MaxRollouts-1 others of
	// its namespace with the largest surge roll out at once (their surges
	// add up against a quota). 0 counts as 1.
	MaxRollouts int
	// Replicas, when ReplicasSet, are the replica counts checked
	// (MinReplicas..MaxReplicas) instead of spec.replicas or an HPA's
	// range.
	MinReplicas, MaxReplicas int32
	ReplicasSet              bool
	// DrainPods is how many of a Deployment's pods the node holds whose
	// drain RulePDBDrain judges at each moment of the rollout, against
	// the PodDisruptionBudgets of the input (0: 1). A drain the budget
	// refuses as much at rest (it allows fewer than DrainPods evictions
	// with every replica ready) is not reported: it waits for replacement
	// pods, rollout or not.
	DrainPods int32
	// QuotaPods is a pod quota per namespace that overrides the
	// ResourceQuotas of the input (0: none).
	QuotaPods int
	// Nodes, when positive, are that many identical nodes, each with
	// NodeAllocatable, that the pods are placed on instead of the Nodes
	// of the input (see "Placement" in the package doc). With neither,
	// placement is not checked. Any number of identical nodes costs as
	// little as 64: the last of those stands for the rest.
	Nodes           int
	NodeAllocatable Allocatable
	// NeverReady are images whose pods never become ready; "new" stands
	// for the images the rollout brings in. With any, the rollout changes
	// the first container's image to MarkerImage rather than restarting.
	NeverReady []string
	// Images, when not empty, are the change each Deployment's rollout
	// makes, as [Change].Images are [Simulate]'s (rolloutctl simulate
	// --image): applied to the start, the ReplicaSets of the input or
	// the Deployment fully rolled out on its template, instead of a
	// restart or MarkerImage, so that the new ReplicaSet the findings
	// name is the one this edit creates, as Simulate names it
	// (TestCheckImagesNameTheEditsReplicaSet). A Deployment without a
	// container that an Image names is a finding of RuleInput.
	Images []Image
	// Sim is the pod model and the controllers' model (zero:
	// sim.ModelControllers, as kube-controller-manager runs them, which
	// Report.PodModel names); its NeverReady and
	// MaxPods are set from the fields above. Its pods' ReadyAfter and
	// Terminating are read from each Deployment's template (see
	// [PodTimes]) unless ReadyAfterFixed and TerminatingFixed keep them.
	// Its MaxWork (0: sim.DefaultMaxWork) is the work budget of each
	// Deployment, which its replica counts share: their runs together
	// compute no more than one run may (see [Result].Projected for the
	// counts that stopped at it). A run also stops after one more sync
	// than MaxWork (or its Sim.MaxSyncs, if lower), as check keeps a
	// record of each sync: a long regular rollout costs little work, its syncs
	// fast-forwarded, but makes nine syncs a replica at maxSurge 1, so
	// that a check of 1,000,000 replicas held 1.8 GB for 80 s; at
	// sim.DefaultMaxWork the records take some 72 MB at the most, and a
	// rollout of 100,000 replicas one pod at a time still fits.
	Sim sim.Config
	// ReadyAfterFixed and TerminatingFixed keep Sim.Pods.ReadyAfter and
	// Sim.Pods.Terminating for every Deployment, instead of the times its
	// pod template's probes and preStop hook give.
	ReadyAfterFixed, TerminatingFixed bool
	// Options are the options of every sync.
	Options rollout.Options
	// Workers is how many rollouts are simulated at once (0: GOMAXPROCS).
	Workers int
	// Progress, if not nil, is called after each rollout checked with the
	// rollouts done and their total, from the goroutine that called Run.
	Progress func(done, total int64)
}

// checker is a Config made ready for a run: defaults in place, and the
// memo of the rollouts of one shape.
type checker struct {
	maxPods      int
	minAvailable minAvailable
	maxDuration  time.Duration
	timeout      time.Duration
	workers      int
	maxRollouts  int
	replicas     replicaRange
	quotaPods    int
	drainN       int32
	nodes        int
	allocatable  Allocatable
	neverReady   []string
	images       []Image
	maxWork      int
	options      rollout.Options
	sim          sim.Config
	readyFixed   bool
	termFixed    bool
	progress     func(done, total int64)
	// memo shares the runs of rollouts of one shape (nil: none).
	memo *simMemo
	// worked sums the work of the simulations run (sim.Cost), memo hits
	// left out: what the tests hold to the work budget.
	worked atomic.Int64
	// wholeOrders runs every race order to its end (no
	// sim.Config.PeakPodsAbove), which tests compare the reports with.
	wholeOrders bool
}

// minAvailable is the min-available rule's limit, when set.
type minAvailable struct {
	v   surge.Value
	set bool
}

// of returns the minimum for replicas: N, or ceil(P% of replicas).
func (m minAvailable) of(replicas int32) int32 { return m.v.ScaleUp(replicas) }

// replicaRange is the replica counts to check, when set.
type replicaRange struct {
	min, max int32
	set      bool
}

func newChecker(c Config) *checker {
	k := &checker{
		maxPods:      c.MaxPods,
		minAvailable: minAvailable{c.MinAvailable, c.MinAvailableRule},
		maxDuration:  c.MaxDuration,
		timeout:      c.Timeout,
		workers:      c.Workers,
		maxRollouts:  max(c.MaxRollouts, 1),
		replicas:     replicaRange{c.MinReplicas, c.MaxReplicas, c.ReplicasSet},
		quotaPods:    c.QuotaPods,
		drainN:       c.DrainPods,
		nodes:        c.Nodes,
		allocatable:  c.NodeAllocatable,
		neverReady:   slices.Clone(c.NeverReady),
		images:       slices.Clone(c.Images),
		maxWork:      c.Sim.MaxWork,
		options:      c.Options,
		sim:          c.Sim,
		readyFixed:   c.ReadyAfterFixed,
		termFixed:    c.TerminatingFixed,
		progress:     c.Progress,
		memo:         &simMemo{},
	}
	if k.workers <= 0 {
		k.workers = runtime.GOMAXPROCS(0)
	}
	if k.maxWork <= 0 {
		k.maxWork = sim.DefaultMaxWork
	}
	k.sim.Pods.NeverReady = slices.Clone(c.NeverReady)
	k.sim.Pods.MaxPods = int32(min(c.QuotaPods, 1<<31-1))
	return k
}

// config returns the simulation's configuration.
func (f *checker) config() sim.Config {
	cfg := f.sim
	cfg.Pods.NeverReady = slices.Clone(f.neverReady)
	cfg.Changes = slices.Clone(f.sim.Changes)
	return cfg
}
