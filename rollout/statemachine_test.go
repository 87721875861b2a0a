package rollout_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// rolloutMachine is a Deployment driven by Plan and Apply, with a tiny
// ReplicaSet controller and a user who edits the Deployment in between.
type rolloutMachine struct {
	s     rollout.State
	step  *machineStep // the last "plan and apply", for the invariants
	image int          // the next new image number
}

// machineStep is one sync: the state it started from and the one it left.
type machineStep struct {
	kind    syncKind
	before  rollout.State
	actions []rollout.Action
	after   rollout.State
}

// syncKind is which branch of the controller's sync a state takes
// (R-SYNC-6..10).
type syncKind string

const (
	syncPaused   syncKind = "paused scale"
	syncRollback syncKind = "rollback"
	syncScaling  syncKind = "scaling event"
	syncRolling  syncKind = "rolling update"
	syncRecreate syncKind = "recreate"
)

// kindOf classifies s as the planner will. Every ReplicaSet of the
// machine's state is controlled by the Deployment, so the active ones are
// those with a size above zero (the new one's annotations are synced before
// the check, but that sync never touches desired-replicas).
func kindOf(s rollout.State) syncKind {
	d := s.Deployment
	if d.Spec.Paused {
		return syncPaused
	}
	if v, ok := d.Annotations[rollout.RollbackToAnnotation]; ok {
		if _, ok := revision.ParseRollbackTo(v); ok {
			return syncRollback
		}
	}
	for _, rs := range s.ReplicaSets {
		if desired, ok := rollout.GetDesiredReplicasAnnotation(&rs); ok && rs.Spec.Replicas > 0 && desired != d.Spec.Replicas {
			return syncScaling
		}
	}
	if d.Spec.Strategy.Type == rollout.RecreateStrategy {
		return syncRecreate
	}
	return syncRolling
}

func newRolloutMachine(t *rapid.T) *rolloutMachine {
	d := gen.Deployment().Draw(t, "deployment")
	// Small, so that the convergence bound 2*replicas+10 stays cheap.
	d.Spec.Replicas = rapid.Int32Range(0, 30).Draw(t, "replicas")
	sets := gen.ReplicaSets(d).Draw(t, "replicaSets")
	s := rollout.State{Deployment: d, ReplicaSets: sets, Pods: gen.Pods(sets).Draw(t, "pods")}
	s.Now = gen.Epoch().Add(2 * time.Hour)
	s.Options.OmitTerminatingReplicas = rapid.Bool().Draw(t, "omit terminating")
	s.Options.RefreshStaleAnnotations = rapid.Bool().Draw(t, "refresh stale annotations")
	return &rolloutMachine{s: s, image: 100}
}

// plan runs one sync on m.s and checks that it can only fail as documented
// and never refuses the states the machine builds.
func (m *rolloutMachine) plan(t *rapid.T) []rollout.Action {
	actions, err := rollout.Plan(m.s)
	if err != nil {
		var ce *rollout.CollisionError
		if !errors.As(err, &ce) {
			t.Fatalf("Plan() error: %v", err)
		}
	}
	return actions
}

// planAndApply is one controller sync, some time after the last one.
func (m *rolloutMachine) planAndApply(t *rapid.T) {
	dt := rapid.SampledFrom([]time.Duration{0, time.Second, 10 * time.Second, time.Minute, 11 * time.Minute}).Draw(t, "time passes")
	m.s.Now = m.s.Now.Add(dt)
	before := m.s
	actions := m.plan(t)
	checkPlanActions(t, before, actions)
	m.s = rollout.Apply(m.s, actions)
	m.step = &machineStep{kind: kindOf(before), before: before, actions: actions, after: m.s}
}

// syncReplicaSet is the ReplicaSet controller's model: pods are created or
// deleted at once (status.replicas = spec.replicas), up to readyGain more
// become ready and availGain more available, the generation is observed
// and nothing is terminating. A ReplicaSet scaled to zero loses its pods.
func (m *rolloutMachine) syncReplicaSet(i int, readyGain, availGain int32) {
	rs := &m.s.ReplicaSets[i]
	st := &rs.Status
	size := rs.Spec.Replicas
	st.Replicas, st.FullyLabeledReplicas = size, size
	st.ReadyReplicas = min(size, st.ReadyReplicas+min(readyGain, size))
	st.AvailableReplicas = min(st.ReadyReplicas, st.AvailableReplicas+min(availGain, size))
	st.ObservedGeneration = rs.Generation
	st.TerminatingReplicas = rollout.Int32(0)
	if size == 0 {
		uid := rs.UID
		m.s.Pods = slices.DeleteFunc(slices.Clone(m.s.Pods), func(p rollout.Pod) bool {
			ref, ok := p.ControllerRef()
			return ok && ref.UID == uid
		})
	}
}

func (m *rolloutMachine) podsBecomeReady(t *rapid.T) {
	if len(m.s.ReplicaSets) == 0 {
		t.Skip("no ReplicaSet")
	}
	m.s = rollout.DeepCopyState(m.s)
	i := rapid.IntRange(0, len(m.s.ReplicaSets)-1).Draw(t, "replicaSet")
	ready := rapid.Int32Range(0, 50).Draw(t, "pods become ready")
	avail := rapid.Int32Range(0, 50).Draw(t, "pods become available")
	m.syncReplicaSet(i, ready, avail)
}

func (m *rolloutMachine) somePodsFail(t *rapid.T) {
	if len(m.s.ReplicaSets) == 0 {
		t.Skip("no ReplicaSet")
	}
	m.s = rollout.DeepCopyState(m.s)
	st := &m.s.ReplicaSets[rapid.IntRange(0, len(m.s.ReplicaSets)-1).Draw(t, "replicaSet")].Status
	n := rapid.Int32Range(1, 10).Draw(t, "pods fail")
	st.AvailableReplicas = max(0, st.AvailableReplicas-n)
	st.ReadyReplicas = max(st.AvailableReplicas, st.ReadyReplicas-n)
}

func (m *rolloutMachine) resize(t *rapid.T) {
	r := rapid.Int32Range(0, 30).Draw(t, "new replicas")
	if r == m.s.Deployment.Spec.Replicas {
		t.Skip("same size")
	}
	m.s.Deployment = m.s.Deployment.DeepCopy()
	m.s.Deployment.Spec.Replicas = r
	m.s.Deployment.Generation++
}

func (m *rolloutMachine) newTemplate(t *rapid.T) {
	var tmpl rollout.PodTemplate
	if len(m.s.ReplicaSets) > 0 && rapid.IntRange(0, 3).Draw(t, "back to an old template") == 0 {
		rs := m.s.ReplicaSets[rapid.IntRange(0, len(m.s.ReplicaSets)-1).Draw(t, "old template")]
		tmpl = rs.DeepCopy().Spec.Template
		delete(tmpl.Labels, rollout.PodTemplateHashLabel)
	} else {
		tmpl = gen.Template(fmt.Sprintf("app:v%d", m.image)).Draw(t, "template")
		m.image++
	}
	if rollout.EqualIgnoreHash(tmpl, m.s.Deployment.Spec.Template) {
		t.Skip("same template")
	}
	m.s.Deployment = m.s.Deployment.DeepCopy()
	m.s.Deployment.Spec.Template = tmpl
	m.s.Deployment.Generation++
}

func (m *rolloutMachine) pauseResume(t *rapid.T) {
	m.s.Deployment = m.s.Deployment.DeepCopy()
	m.s.Deployment.Spec.Paused = !m.s.Deployment.Spec.Paused
	m.s.Deployment.Generation++
}

func (m *rolloutMachine) rollback(t *rapid.T) {
	to := "0"
	if rapid.Bool().Draw(t, "to a revision") {
		to = strconv.Itoa(rapid.IntRange(1, 12).Draw(t, "revision"))
	}
	m.s.Deployment = m.s.Deployment.DeepCopy()
	if m.s.Deployment.Annotations == nil {
		m.s.Deployment.Annotations = map[string]string{}
	}
	// An annotation: metadata, so the generation stays.
	m.s.Deployment.Annotations[rollout.RollbackToAnnotation] = to
}

// settle makes every pod ready and syncs until a sync makes no API call,
// checking each sync's invariants (checkStep) and that this takes at most
// 2*replicas+10 syncs and ends with the
// rollout complete (unless the Deployment is paused, which holds a
// rollout back: then only the fixed point is checked).
func (m *rolloutMachine) settle(t *rapid.T) {
	m.step = nil
	bound := 2*int(m.s.Deployment.Spec.Replicas) + 10
	for n := 0; ; n++ {
		m.s = rollout.DeepCopyState(m.s)
		for i := range m.s.ReplicaSets {
			m.syncReplicaSet(i, m.s.ReplicaSets[i].Spec.Replicas, m.s.ReplicaSets[i].Spec.Replicas)
		}
		actions := m.plan(t)
		if !slices.ContainsFunc(actions, rollout.Action.IsAPICall) {
			break
		}
		if n == bound {
			t.Fatalf("with every pod ready, sync %d still makes API calls: %v\n%s", n+1, actions, describeState(m.s))
		}
		checkPlanActions(t, m.s, actions)
		st := &machineStep{kind: kindOf(m.s), before: m.s, actions: actions}
		m.s = rollout.Apply(m.s, actions)
		m.s.Now = m.s.Now.Add(time.Second)
		st.after = m.s
		checkStep(t, st)
	}
	d := m.s.Deployment
	if d.Spec.Paused {
		return
	}
	if stall := upstreamStall(m.s); stall != "" {
		t.Logf("settled in upstream's %s", stall)
		return
	}
	if !rollout.DeploymentComplete(d, d.Status) {
		t.Fatalf("settled without completing:\n%s", describeState(m.s))
	}
	newRS, ok := rollout.FindNewReplicaSet(d, m.s.ReplicaSets)
	if !ok || newRS.Spec.Replicas != d.Spec.Replicas {
		t.Fatalf("settled with new ReplicaSet %q (found %t) of size %d, want %d", newRS.Name, ok, newRS.Spec.Replicas, d.Spec.Replicas)
	}
	for _, rs := range m.s.ReplicaSets {
		if rs.Name != newRS.Name && rs.Spec.Replicas != 0 {
			t.Fatalf("settled with old ReplicaSet %q of size %d", rs.Name, rs.Spec.Replicas)
		}
	}
}

// upstreamStall names the documented upstream deadlock s is in, if any:
// states where every sync is a scaling event that changes no size, so no
// rollout ever runs again, and a rollout cannot complete.
//
//   - the only active ReplicaSet already has spec.replicas but a stale
//     desired-replicas annotation; scale() returns without refreshing it
//     (unless Options.RefreshStaleAnnotations).
//   - R-SCALE-3 step 3: a Recreate Deployment with two or more active
//     ReplicaSets and an unsaturated new one; scale() does nothing.
func upstreamStall(s rollout.State) string {
	if kindOf(s) != syncScaling {
		return ""
	}
	d := s.Deployment
	var active []rollout.ReplicaSet
	for _, rs := range s.ReplicaSets {
		if rs.Spec.Replicas > 0 {
			active = append(active, rs)
		}
	}
	newRS, hasNew := rollout.FindNewReplicaSet(d, s.ReplicaSets)
	switch {
	case len(active) == 1 && active[0].Spec.Replicas == d.Spec.Replicas && !s.Options.RefreshStaleAnnotations:
		return "stale desired-replicas deadlock (Q-1)"
	case len(active) >= 2 && d.Spec.Strategy.Type == rollout.RecreateStrategy && !(hasNew && rollout.IsSaturated(&d, &newRS)):
		return "Recreate scaling deadlock (R-SCALE-3)"
	}
	return ""
}

// check is the invariant checked after every action.
func (m *rolloutMachine) check(t *rapid.T) {
	checkNoNegative(t, m.s)
	if st := m.step; st != nil {
		m.step = nil
		checkStep(t, st)
	}
	// The plan does not depend on the order of the input.
	want, wantErr := rollout.Plan(m.s)
	got, gotErr := rollout.Plan(reversedState(m.s))
	if diff := cmp.Diff(want, got); diff != "" || errString(wantErr) != errString(gotErr) {
		t.Fatalf("Plan() of the reversed input mismatch (-want +got):\n%s\nerrors: %v, %v", diff, wantErr, gotErr)
	}
}

// checkStep checks the invariants of one sync.
func checkStep(t *rapid.T, st *machineStep) {
	checkNoNegative(t, st.after)
	checkSurge(t, st)
	if st.kind == syncRolling {
		checkAvailability(t, st)
	}
}

// checkNoNegative: no size or count is ever negative.
func checkNoNegative(t *rapid.T, s rollout.State) {
	for _, rs := range s.ReplicaSets {
		st := rs.Status
		if rs.Spec.Replicas < 0 || st.Replicas < 0 || st.ReadyReplicas < 0 || st.AvailableReplicas < 0 || st.TerminatingReplicas.Value < 0 {
			t.Fatalf("ReplicaSet %s has a negative size or count: spec %d, status %+v", rs.Name, rs.Spec.Replicas, st)
		}
	}
	st := s.Deployment.Status
	if st.Replicas < 0 || st.UpdatedReplicas < 0 || st.ReadyReplicas < 0 || st.AvailableReplicas < 0 ||
		st.UnavailableReplicas < 0 || st.TerminatingReplicas.Value < 0 || st.CollisionCount.Value < 0 {
		t.Fatalf("Deployment status has a negative count: %+v", st)
	}
}

func sumSizes(sets []rollout.ReplicaSet) int64 {
	var n int64
	for _, rs := range sets {
		n += int64(rs.Spec.Replicas)
	}
	return n
}

// checkSurge: a sync that starts with the ReplicaSets' sizes summing to
// at most replicas + maxSurge ends within it too (MaxSurge is 0 for
// Recreate), whichever branch it takes, with one exception upstream has:
// a rollback sync of a Recreate Deployment creates the missing new
// ReplicaSet at full size (R-RB-2 step 1 with R-NRS-1's Recreate branch)
// while the old ones still have theirs. In a rolling or Recreate step the
// new ReplicaSet also never grows past replicas: each write to it has
// To <= max(From, replicas).
func checkSurge(t *rapid.T, st *machineStep) {
	d := st.before.Deployment
	maxTotal := int64(d.Spec.Replicas) + int64(rollout.MaxSurge(d))
	before, after := sumSizes(st.before.ReplicaSets), sumSizes(st.after.ReplicaSets)
	recreateRollback := st.kind == syncRollback && d.Spec.Strategy.Type == rollout.RecreateStrategy
	if before <= maxTotal && after > maxTotal && !recreateRollback {
		t.Fatalf("%s sync took the sum of sizes %d -> %d, above replicas+maxSurge = %d; actions %v", st.kind, before, after, maxTotal, st.actions)
	}
	if st.kind != syncRolling && st.kind != syncRecreate {
		return
	}
	newRS, ok := rollout.FindNewReplicaSet(d, st.after.ReplicaSets)
	if !ok {
		return
	}
	for _, a := range st.actions {
		if a.ReplicaSet == newRS.Name && (a.Type == rollout.ScaleReplicaSet || a.Type == rollout.CreateReplicaSet) &&
			a.To > max(a.From, d.Spec.Replicas) {
			t.Fatalf("%s sync grew the new ReplicaSet past replicas %d: %v", st.kind, d.Spec.Replicas, a)
		}
	}
}

// checkAvailability is the maxUnavailable invariant of a rolling step
// (R-ROLL-6..8). Let A be the planner's count of available pods, the
// status.availableReplicas of the active old ReplicaSets and of the new
// one at the start of the sync, and minAvail = replicas - MaxUnavailable.
// A ReplicaSet i that goes from size s_i to f_i keeps at least
// min(a_i, s_i, f_i) of its a_i available pods (the ReplicaSet controller
// may delete any pod), so it loses at most max(0, min(a_i, s_i) - f_i).
// The invariant is
//
//	sum_i max(0, min(a_i, s_i) - f_i) <= max(0, A - minAvail)
//
// It holds with no exception for the unhealthy-replica cleanup: the
// cleanup (R-ROLL-7) removes at most s_i - a_i replicas from a ReplicaSet,
// none of them available in this accounting (and when a_i > s_i it fails,
// which stops all scaling down in that sync); the scale-down that follows
// (R-ROLL-8) removes at most A - minAvail replicas in all, and only when A
// is above minAvail; a rolling sync that scales the new ReplicaSet (down
// to replicas when it is above) scales nothing else. When every status is
// fresh (a_i <= s_i), it follows that the available pods after the sync,
// sum_i min(a_i, f_i), are at least min(A, minAvail): a scale-down never
// takes availability below replicas - maxUnavailable, nor lowers it when it
// already is.
func checkAvailability(t *rapid.T, st *machineStep) {
	d := st.before.Deployment
	minAvail := int64(d.Spec.Replicas) - int64(rollout.MaxUnavailable(d))
	newRS, hasNew := rollout.FindNewReplicaSet(d, st.before.ReplicaSets)
	final := map[string]int64{}
	for _, rs := range st.after.ReplicaSets {
		final[rs.Name] = int64(rs.Spec.Replicas)
	}
	var avail, loss, kept int64
	fresh := true
	for _, rs := range st.before.ReplicaSets {
		a, s := int64(rs.Status.AvailableReplicas), int64(rs.Spec.Replicas)
		f := final[rs.Name] // a deleted ReplicaSet had size 0
		if s > 0 || (hasNew && rs.Name == newRS.Name) {
			avail += a
		}
		loss += max(0, min(a, s)-f)
		kept += min(a, f)
		if a > s {
			fresh = false
		}
	}
	if loss > max(0, avail-minAvail) {
		t.Fatalf("rolling sync may lose %d available pods, but only %d of %d are above minAvail %d; actions %v",
			loss, max(0, avail-minAvail), avail, minAvail, st.actions)
	}
	if fresh && kept < min(avail, minAvail) {
		t.Fatalf("rolling sync leaves %d available pods, below min(%d, minAvail %d); actions %v", kept, avail, minAvail, st.actions)
	}
}

// TestRolloutStateMachine drives Deployments of at most 30 replicas
// through syncs, ReplicaSet controller steps and user edits, checking the
// rollout invariants after each. It is about how rollouts proceed, not
// about extremes: its replicas are small and it never meets the edges of
// int32 (TestPlanProperties does, over gen.State).
func TestRolloutStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newRolloutMachine(t)
		t.Repeat(map[string]func(*rapid.T){
			"plan and apply":        m.planAndApply,
			"pods become ready":     m.podsBecomeReady,
			"some pods fail":        m.somePodsFail,
			"resize the deployment": m.resize,
			"new template":          m.newTemplate,
			"pause/resume":          m.pauseResume,
			"rollback":              m.rollback,
			"settle":                m.settle,
			"":                      m.check,
		})
		// However it got here, with no more changes the rollout completes.
		if m.s.Deployment.Spec.Paused {
			m.pauseResume(t)
		}
		m.settle(t)
	})
}

// describeState is a compact dump of s for failure messages.
func describeState(s rollout.State) string {
	d := s.Deployment
	out := fmt.Sprintf("now %s; deployment gen %d replicas %d %s %v paused=%t ann=%v status=%+v\n",
		s.Now.Format(time.RFC3339), d.Generation, d.Spec.Replicas, d.Spec.Strategy.Type, d.Spec.Strategy.RollingUpdate, d.Spec.Paused, d.Annotations, d.Status)
	for _, rs := range s.ReplicaSets {
		out += fmt.Sprintf("  rs %s created %s gen %d spec %d status %d/%d/%d obs %d term %v ann %v newTemplate=%t\n",
			rs.Name, rs.CreationTimestamp.Format(time.RFC3339), rs.Generation, rs.Spec.Replicas, rs.Status.Replicas, rs.Status.ReadyReplicas,
			rs.Status.AvailableReplicas, rs.Status.ObservedGeneration, rs.Status.TerminatingReplicas, rs.Annotations,
			rollout.EqualIgnoreHash(rs.Spec.Template, d.Spec.Template))
	}
	out += fmt.Sprintf("  %d pods", len(s.Pods))
	return out
}
