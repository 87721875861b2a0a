package rollout

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// State is what one sync of a Deployment sees.
type State struct {
	// Deployment is the Deployment being synced.
	Deployment Deployment
	// ReplicaSets are the ReplicaSets in the Deployment's namespace,
	// whoever owns them; those in other namespaces are ignored.
	ReplicaSets []ReplicaSet
	// Pods are the pods in the Deployment's namespace. Only Recreate
	// looks at them, through their owning ReplicaSet.
	Pods []Pod
	// Now is the time of the sync. Timestamps the sync writes are Now
	// truncated to the second, as the API server stores them.
	Now time.Time
	// Options select behaviour upstream keeps behind feature gates, and
	// fixes of upstream bugs, and the controller-manager's minor. The
	// zero value is the newest supported minor.
	Options Options
}

// Options change how Plan behaves. The zero value reproduces the newest
// supported minor with its default feature gates.
type Options struct {
	// OmitTerminatingReplicas leaves status.terminatingReplicas unset, as
	// with the DeploymentReplicaSetTerminatingReplicas feature gate off
	// (it is on by default since v1.35).
	OmitTerminatingReplicas bool
	// SkipValidation plans even for a Deployment the API server would
	// refuse (see [Validate]), the way the controller would if it were
	// handed one. Plan still refuses what it cannot compute.
	SkipValidation bool
	// RefreshStaleAnnotations fixes upstream bug Q-1: when the only active
	// ReplicaSet already has spec.replicas but a stale desired-replicas
	// annotation, upstream treats every sync as a scaling event that never
	// refreshes the annotation, so no rollout starts again. With this set,
	// that sync rewrites the annotations (as the fix proposed upstream
	// does) and the next one rolls out. Off by default: v1.35 to v1.37 have the bug.
	RefreshStaleAnnotations bool
	// Version is the controller-manager's Kubernetes minor; the zero value
	// is the newest supported minor. It chooses the pod-template-hash, and
	// so the name of every ReplicaSet a sync creates: each minor hashes
	// every template differently (see [PodTemplateHashFor]). The minors'
	// controllers also differ in which pods a Recreate rollout waits for
	// and in when that lookup can fail (internal/apiserver/VERSIONS.md, C1
	// and C2). It may differ from the API server's
	// ([DecodeOptions.Version]): the version skew policy lets the
	// controller-manager be one minor older.
	Version Version
}

// planner is one sync in progress: upstream's DeploymentController with
// the Deployment being synced. Like upstream's, it works on a copy of the
// Deployment that each step may change (annotations, conditions, status),
// while the ReplicaSets stay the snapshots the sync started from. Its
// methods carry the names of the upstream functions they mirror.
type planner struct {
	opts Options
	now  time.Time // the sync's clock
	ts   time.Time // timestamps written: now truncated to the second

	d           Deployment
	maxReplicas int64 // spec.replicas + MaxSurge(d): the max-replicas annotation
	minAvail    int32 // spec.replicas - MaxUnavailable(d)

	inNamespace []*ReplicaSet // every ReplicaSet in d's namespace
	rsList      []*ReplicaSet // the ReplicaSets d controls, after adoption and release
	found       bool          // newIdx and old are known
	newIdx      int           // index in rsList of the new ReplicaSet, or -1
	old         []*ReplicaSet // the others, oldest first (read only)
	next        int64         // the new ReplicaSet's revision: the old ones' highest + 1
	nextErr     error
	synced      *ReplicaSet       // the new ReplicaSet, once a sync of it wrote no ReplicaSet
	podMap      map[string][]*Pod // pods by the UID of their ReplicaSet in rsList
	actions     []Action
	// ownsAnnotations is set once d.Annotations is the sync's own copy
	// (and no action holds it: see deploymentAnnotations).
	ownsAnnotations bool
	// shared: the actions may share maps and slices with the state and
	// with each other (PlanShared).
	shared bool
	// rsBuf and oldBuf are empty slices with room for every ReplicaSet of
	// the namespace, for rsList and old: init takes them and inNamespace
	// from one array.
	rsBuf, oldBuf []*ReplicaSet
	// spare is room for two more lists of as many ReplicaSets, which
	// take hands out: the lists a Rolling sync makes on the heap (its
	// active old ReplicaSets and the cleanup's copy of them).
	spare []*ReplicaSet
}

// ErrZeroNow is the error of [Plan] for a [State] whose Now is the zero
// time: a sync needs the time it runs at.
var ErrZeroNow = errors.New("rollout: State.Now is the zero time; set it to the time of the sync")

// Plan returns what one sync of s.Deployment by the Deployment controller
// of Kubernetes s.Options.Version does (upstream: syncDeployment): the API calls in
// the order the controller makes them, each with the event it records, and
// any event or progress re-check that comes without a call. Plan is pure:
// it does not modify s, does not read the clock, and returns the same
// actions for any order of s.ReplicaSets and s.Pods. Adoptions and releases
// come first, ordered by ReplicaSet name (upstream follows its cache's
// order). The package documentation says how to carry out a plan.
//
// Plan fails, returning no actions, when s.Now is the zero time
// ([ErrZeroNow]), when s.Options.Version is not a supported minor (an
// error wrapping [ErrVersion]), and when s.Deployment or one of its namespace's
// ReplicaSets is one the API server refuses ([ValidateState]; see
// Options.SkipValidation). It fails after some actions, returning them with
// the error, where the controller's sync fails: a ReplicaSet named like the
// new one already exists (a [*CollisionError]: the actions then raise
// status.collisionCount, and the next sync uses another name), a selector
// that cannot be converted, a controlled ReplicaSet without a namespace,
// name or UID (from v1.36; in v1.37 only for a Recreate Deployment, once
// the sync reaches its rollout), a count that does not fit int32 (an [*OverflowError];
// upstream writes a wrapped negative number there, which the API server
// refuses), and an old revision of MaxInt64, which has no next revision (an
// error wrapping revision.ErrOverflow; upstream wraps to a negative one).
func Plan(s State) ([]Action, error) { return plan(s, false) }

// PlanShared is [Plan] for a caller that only reads the actions, as a
// simulator keeping every sync's actions does: their maps, slices and
// pointees may be shared with s and with each other (the ownership
// [Action] promises of Plan's does not hold), which spares copying the
// conditions and annotations most writes carry. The actions are equal, field
// by field, to Plan's, and PlanShared does not modify s either
// (TestPlanSharedAsPlan). A caller must not write to what they hold.
func PlanShared(s State) ([]Action, error) { return plan(s, true) }

func plan(s State, shared bool) ([]Action, error) {
	if s.Now.IsZero() {
		return nil, ErrZeroNow
	}
	if err := checkVersion("Options.Version", s.Options.Version); err != nil {
		return nil, err
	}
	if !s.Options.SkipValidation {
		if err := ValidateState(s); err != nil {
			return nil, err
		}
	}
	// The planner lives on the stack: a sync allocates only what it
	// returns and what it changes.
	var p planner
	p.init(s)
	p.shared = shared
	err := p.syncDeployment(s.Pods)
	return p.actions, err
}

// ValidateState reports what the API server would refuse in s: the
// Deployment ([Validate]) and the ReplicaSets of its namespace
// ([ValidateReplicaSet]). Plan refuses s exactly when ValidateState
// reports an error and s.Options.SkipValidation is false.
func ValidateState(s State) error {
	var errs []error
	if err := Validate(s.Deployment); err != nil {
		errs = append(errs, err)
	}
	for _, rs := range s.ReplicaSets {
		if rs.Namespace != s.Deployment.Namespace {
			continue
		}
		if err := ValidateReplicaSet(rs); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func newPlanner(s State) *planner {
	p := new(planner)
	p.init(s)
	return p
}

// init makes p the sync of s. The Deployment's annotations are the
// caller's until the sync changes them (see ownAnnotations); the sync
// replaces everything else it changes. Actions start with no room: most
// syncs make one call, and an Action is large.
func (p *planner) init(s State) {
	d := s.Deployment
	*p = planner{
		opts:        s.Options,
		now:         s.Now,
		ts:          s.Now.Truncate(time.Second),
		d:           d,
		maxReplicas: maxReplicas(&d),
		minAvail:    d.Spec.Replicas - limits(&d).Unavailable,
	}
	for i := range s.ReplicaSets {
		rs := &s.ReplicaSets[i]
		if rs.Namespace != d.Namespace {
			continue
		}
		if p.inNamespace == nil {
			// One array for the lists of ReplicaSets, each with room
			// for all of them: three and the spare two.
			n := len(s.ReplicaSets)
			buf := make([]*ReplicaSet, 5*n)
			p.inNamespace, p.rsBuf, p.oldBuf, p.spare = buf[:0:n], buf[n:n:2*n], buf[2*n:2*n:3*n], buf[3*n:3*n]
		}
		p.inNamespace = append(p.inNamespace, rs)
	}
	slices.SortFunc(p.inNamespace, func(a, b *ReplicaSet) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
}

// take returns an empty list with room for k ReplicaSets and no more,
// from the spare room while it lasts, else newly made.
func (p *planner) take(k int) []*ReplicaSet {
	if k > cap(p.spare) {
		return make([]*ReplicaSet, 0, k)
	}
	out := p.spare[:0:k]
	p.spare = p.spare[k:k]
	return out
}

// ownAnnotations gives the sync its own copy of the Deployment's
// annotations, before it first changes them, so that Plan never writes to
// the caller's map.
func (p *planner) ownAnnotations() {
	if !p.ownsAnnotations {
		p.d.Annotations = maps.Clone(p.d.Annotations)
		p.ownsAnnotations = true
	}
}

// controllerMinor is the supported minor of Options.Version
// (Latest is the newest; Plan refuses one that is not Valid).
func (p *planner) controllerMinor() Version {
	return p.opts.Version.Resolve()
}

// syncDeployment is upstream's decision order (spec §3), after the cache
// lookup.
func (p *planner) syncDeployment(pods []Pod) error {
	if p.selectsAll() {
		return p.refuseEmptySelector() // R-SYNC-2
	}
	if err := p.getReplicaSetsForDeployment(); err != nil { // R-SYNC-3
		return err
	}
	// v1.37 looks the pods up only for Recreate, in the strategy switch;
	// v1.35 and v1.36 here, for every Deployment (VERSIONS.md C2).
	podMapFirst := p.controllerMinor() < V1_37
	if podMapFirst {
		if err := p.getPodMapForDeployment(pods); err != nil { // R-SYNC-4
			return err
		}
	}
	if p.d.Deleting() {
		return p.syncStatusOnly() // R-SYNC-5
	}
	p.checkPausedConditions() // R-SYNC-6
	if p.d.Spec.Paused {
		return p.sync() // R-SYNC-7
	}
	if _, ok := p.getRollbackTo(); ok {
		return p.rollback() // R-SYNC-8
	}
	scaling, err := p.isScalingEvent() // R-SYNC-9
	if err != nil {
		return err
	}
	if scaling {
		return p.sync()
	}
	switch p.d.Spec.Strategy.Type { // R-SYNC-10
	case RecreateStrategy:
		if !podMapFirst {
			if err := p.getPodMapForDeployment(pods); err != nil {
				return err
			}
		}
		return p.rolloutRecreate()
	case RollingUpdateStrategy:
		return p.rolloutRolling()
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", p.d.Spec.Strategy.Type)
}

// selectsAll reports whether the selector is the empty one: neither
// matchLabels nor matchExpressions given (an empty but present matchLabels
// is not caught, Q-12). Upstream: the first check of syncDeployment.
func (p *planner) selectsAll() bool {
	s := p.d.Spec.Selector
	return s.MatchLabels == nil && s.MatchExpressions == nil
}

// refuseEmptySelector warns and does nothing else but record that the
// current generation was seen (R-SYNC-2). Upstream: the branch of
// syncDeployment for an empty selector.
func (p *planner) refuseEmptySelector() error {
	p.event(Event{EventTypeWarning, SelectingAllReason, "This deployment is selecting all pods. A non-empty selector is required."})
	if p.d.Status.ObservedGeneration < p.d.Generation {
		p.d.Status.ObservedGeneration = p.d.Generation
		mark := len(p.actions)
		p.updateStatus()
		p.explain(mark, "empty selector: only the observed generation is recorded")
	}
	return nil
}

// The API calls, recorded as actions.

// explain sets the reason of the actions recorded since mark that have
// none.
func (p *planner) explain(mark int, format string, args ...any) {
	why := ""
	for i := mark; i < len(p.actions); i++ {
		if p.actions[i].Reason != "" {
			continue
		}
		if why == "" { // built only when an action needs it
			why = fmt.Sprintf(format, args...)
		}
		p.actions[i].Reason = why
	}
}

// needsReason reports whether an action recorded since mark has no
// reason yet: a caller that builds its reason without fmt (appendCount)
// builds it only then, as explain does.
func (p *planner) needsReason(mark int) bool {
	for i := mark; i < len(p.actions); i++ {
		if p.actions[i].Reason == "" {
			return true
		}
	}
	return false
}

// appendCount appends v in decimal to b, with its sign if signed says
// so (as fmt's %+d): reasons of the syncs every rollout makes are built
// so, in a buffer on the stack, rather than with fmt, whose arguments
// were an allocation each.
func appendCount(b []byte, v int64, signed bool) []byte {
	if signed && v >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, v, 10)
}

// explainText is explain with a reason that needs no formatting.
func (p *planner) explainText(mark int, why string) {
	for i := mark; i < len(p.actions); i++ {
		if p.actions[i].Reason == "" {
			p.actions[i].Reason = why
		}
	}
}

func (p *planner) event(e Event) {
	p.actions = append(p.actions, Action{Type: RecordEvent, Event: e})
}

// updateStatus writes the Deployment's in-memory status and annotations.
func (p *planner) updateStatus() {
	// Under PlanShared the action may hold the sync's conditions: the
	// planner changes them only into new slices (statusSharing).
	status := p.d.Status
	if !p.shared {
		status = status.clone()
	}
	p.actions = append(p.actions, Action{
		Type:        UpdateDeploymentStatus,
		Status:      &status,
		Annotations: p.deploymentAnnotations(),
	})
}

// updateDeployment writes the Deployment's annotations and template.
func (p *planner) updateDeployment(e Event) {
	template := p.d.Spec.Template.clone()
	p.actions = append(p.actions, Action{
		Type:        UpdateDeployment,
		Annotations: p.deploymentAnnotations(),
		Template:    &template,
		Event:       e,
	})
}

// deploymentAnnotations are the Deployment's annotations for an action
// to hold: a copy, or, under PlanShared, the sync's map itself, which the
// sync then copies again before it next changes it (ownAnnotations).
func (p *planner) deploymentAnnotations() map[string]string {
	if !p.shared {
		return maps.Clone(p.d.Annotations)
	}
	p.ownsAnnotations = false
	return p.d.Annotations
}

// updateReplicaSet writes rs, which was from in size before, recording e.
// Under PlanShared the action holds rs's annotations: the planner changes
// a ReplicaSet's only in a copy of its own (withOwnAnnotations).
func (p *planner) updateReplicaSet(rs *ReplicaSet, from int32, e Event) {
	a := rs.Annotations
	if !p.shared {
		a = maps.Clone(a)
	}
	p.writeReplicaSet(rs, a, from, e)
}

// writeReplicaSet is updateReplicaSet with the annotations the action
// carries: a copy, or rs's own where the planner made them for this
// write and changes them no more (scaleReplicaSet's, from
// withOwnAnnotations; a later write of the same ReplicaSet in the sync
// makes its own copy again).
func (p *planner) writeReplicaSet(rs *ReplicaSet, annotations map[string]string, from int32, e Event) {
	t := UpdateReplicaSet
	if from != rs.Spec.Replicas {
		t = ScaleReplicaSet
	}
	p.actions = append(p.actions, Action{
		Type:            t,
		ReplicaSet:      rs.Name,
		From:            from,
		To:              rs.Spec.Replicas,
		Annotations:     annotations,
		MinReadySeconds: rs.Spec.MinReadySeconds,
		Event:           e,
	})
}
