package sim

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// podModel is the ReplicaSet controller and the kubelet of a run: it keeps
// the pods of every ReplicaSet of the Deployment's namespace.
type podModel struct {
	cfg        PodModel
	neverReady map[string]bool
	rng        *rand.Rand // nil without jitter
	sets       map[string]*podSet
	orphans    []cohort // terminating pods whose ReplicaSet is gone
	failed     int      // creations refused by the quota
	// owner is the Deployment whose ReplicaSets' pods PodModel.Room
	// counts, and bound the ReplicaSets whose pods it bound last (for
	// the controllers model's informer events).
	owner rollout.ObjectMeta
	bound []string
	// merge lets status merge the settled pods of a ReplicaSet into one
	// cohort; the runner turns it on where that changes no count.
	merge bool
	// stagger (ModelControllers) makes all pods but the first of a
	// creation late (see add and cohort.late).
	stagger bool
	// walked counts the cohorts bind, remove, expireWhere and the
	// runner's reveal walked (bind's comparisons finding the ones it
	// binds too) since the controllers model last charged them
	// (chargeCohorts).
	walked int
}

func newPodModel(cfg PodModel) *podModel {
	m := &podModel{cfg: cfg, sets: map[string]*podSet{}, neverReady: map[string]bool{}}
	for _, img := range cfg.NeverReady {
		m.neverReady[img] = true
	}
	if cfg.ReadyJitter > 0 {
		m.rng = rand.New(rand.NewPCG(cfg.Seed, 0))
	}
	return m
}

// clone returns a copy of m that shares no pods with it.
func (m *podModel) clone() *podModel {
	c := *m
	c.sets = make(map[string]*podSet, len(m.sets))
	for name, ps := range m.sets {
		cp := *ps
		cp.cohorts = slices.Clone(ps.cohorts)
		cp.gone = slices.Clone(ps.gone)
		cp.idx = nil
		c.sets[name] = &cp
	}
	c.orphans = slices.Clone(m.orphans)
	c.bound = slices.Clone(m.bound)
	return &c
}

// set returns the pods of rs, starting with none. A ReplicaSet that
// replaced another of the same name starts afresh.
func (m *podModel) set(rs *rollout.ReplicaSet) *podSet {
	if ps, ok := m.sets[rs.Name]; ok && ps.uid == rs.UID {
		return ps
	}
	ps := &podSet{name: rs.Name, uid: rs.UID, owned: ownedBy(rs, m.owner)}
	if len(m.neverReady) > 0 {
		for _, c := range rs.Spec.Template.Spec.Images() {
			if m.neverReady[c.Image] {
				ps.never = true
			}
		}
	}
	m.sets[rs.Name] = ps
	return ps
}

// seed gives rs the pods its status reports at t: the available ones
// created an hour before and long ready, ready ones that become available
// after minReadySeconds from t, the others created at t and ready per the
// model, and the terminating ones deleted at t.
func (m *podModel) seed(rs *rollout.ReplicaSet, t time.Time) {
	ps := m.set(rs)
	st := rs.Status
	n := max(int64(st.Replicas), 0)
	avail := min(max(int64(st.AvailableReplicas), 0), n)
	ready := min(max(int64(st.ReadyReplicas), avail), n)
	minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
	long := t.Add(-time.Hour)
	readyAt := long
	if since := t.Add(-minReady); since.Before(readyAt) {
		readyAt = since
	}
	ps.cohorts = append(ps.cohorts,
		cohort{n: avail, created: long, readyAt: readyAt},
		cohort{n: ready - avail, created: long, readyAt: t},
	)
	m.addBound(ps, n-ready, t)
	if term := st.TerminatingReplicas; term.Valid && term.Value > 0 {
		ps.addGone(cohort{n: int64(term.Value), created: long, readyAt: long, deleted: t})
	}
	ps.created = n
	ps.normalize()
}

// add creates k pods of ps at t: pending ones under PodModel.Room, bound
// as far as it allows.
func (m *podModel) add(ps *podSet, k int64, t time.Time) {
	if k <= 0 {
		return
	}
	if m.cfg.Room == nil {
		m.addBound(ps, k, t)
		return
	}
	// Where no pod waits and the k fit, bind binds them all at once: they
	// are bound here without the pending cohort it would find (walking
	// the ReplicaSet's cohorts) and take apart, the same cohorts after
	// (TestAddBindsAsBind).
	if bound, none := m.boundIfNonePending(); none && max(m.cfg.Room(bound), 0) >= k {
		m.addBound(ps, k, t)
		if !slices.Contains(m.bound, ps.name) {
			m.bound = append(m.bound, ps.name)
		}
		return
	}
	ps.created += k
	ps.cohorts = append(ps.cohorts, cohort{n: k, created: t, never: true, pending: true})
	ps.normalize()
	m.bind(t)
}

// addBound creates k pods of ps at t, bound to nodes.
func (m *podModel) addBound(ps *podSet, k int64, t time.Time) {
	if k <= 0 {
		return
	}
	ps.created += k
	m.ready(ps, k, t, t)
}

// ready adds k bound pods of ps created at created and bound at t: ready
// ReadyAfter (plus jitter) after t, or never.
func (m *podModel) ready(ps *podSet, k int64, created, t time.Time) {
	switch {
	case ps.never:
		ps.cohorts = append(ps.cohorts, cohort{n: k, created: created, never: true})
	case m.rng == nil && m.stagger && m.cfg.ReadyAfter > 0 && ps.readyWith(created, t.Add(m.cfg.ReadyAfter)):
		// A later slow-start batch of the same instant (the sync's
		// batches of 1 and then 1, 2, ... pods, all granted at once):
		// its pods become ready with the first batch's, and their
		// readiness reaches the ReplicaSet controller after the sync
		// the first pod's update starts, as the pods of one batch do
		// below. In real request logs of 50 replicas at maxSurge 2
		// maxUnavailable 2 (ready after 1s) the new ReplicaSet's status
		// counted one of the two pods created at one instant, then the
		// other, at 10 of the 18 such instants of the first 3s of three
		// runs (1, 3 and 6 of 6), and 125 of its 137 increments over the
		// runs were one pod; the model counted both at once, moved two
		// pods a step and completed at 13s against a real median of
		// 16.15s.
		ps.cohorts = append(ps.cohorts, cohort{n: k, created: created, readyAt: t.Add(m.cfg.ReadyAfter), late: true})
	case m.rng == nil && m.stagger && k > 1 && m.cfg.ReadyAfter > 0:
		// The kubelet reports each pod's readiness in its own update,
		// and the informer hands the updates over one at a time: the
		// ReplicaSet controller syncs on the first pod of a creation
		// (a slow-start batch) and sees the others ready only after the
		// work that sync starts (runner.reveal), so the Deployment
		// controller scales in smaller steps than all at once, as the
		// real controllers do. Pods ready at once are ready when they
		// are created, before any sync lists them (on the 81 measured
		// cases, staggering them too meets the rule in the same cases).
		ready := t.Add(m.cfg.ReadyAfter)
		ps.cohorts = append(ps.cohorts, cohort{n: 1, created: created, readyAt: ready},
			cohort{n: k - 1, created: created, readyAt: ready, late: true})
	case m.rng == nil:
		ps.cohorts = append(ps.cohorts, cohort{n: k, created: created, readyAt: t.Add(m.cfg.ReadyAfter)})
	default:
		for range k {
			d := time.Duration(m.rng.Int64N(int64(m.cfg.ReadyJitter)))
			ps.cohorts = append(ps.cohorts, cohort{n: 1, created: created, readyAt: t.Add(m.cfg.ReadyAfter + d)})
		}
	}
	ps.normalize()
}

// remove deletes k running pods of ps at t, as the ReplicaSet controller
// ranks them (upstream ActivePodsWithRanks, getPodsToDelete): pods not
// ready first, then, among ready ones, the most recently ready, then the
// newest (R-GATE-4: upstream's finer ranks, such as nodes, phases,
// restarts and deletion cost, do not apply here, every pod being bound
// and running; and its logarithmic buckets of age are taken as exact
// times). The deleted pods terminate (ps.gone) for PodModel.Terminating,
// but for pending ones, which are gone at once: the API server deletes a
// pod bound to no node without a grace period (its CheckGracefulDelete).
func (m *podModel) remove(ps *podSet, k int64, t time.Time) {
	m.walked += len(ps.cohorts) // the running pods: the terminating ones are apart
	order := make([]int, len(ps.cohorts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := ps.cohorts[i], ps.cohorts[j]
		if ra, rb := a.ready(t), b.ready(t); ra != rb {
			if rb {
				return -1
			}
			return 1
		}
		if a.ready(t) {
			if c := b.readyAt.Compare(a.readyAt); c != 0 {
				return c
			}
		}
		if c := b.created.Compare(a.created); c != 0 {
			return c
		}
		return compareCohorts(b, a)
	})
	var gone []cohort
	for _, i := range order {
		if k == 0 {
			break
		}
		take := min(k, ps.cohorts[i].n)
		k -= take
		ps.cohorts[i].n -= take
		if m.cfg.Terminating > 0 && !ps.cohorts[i].pending {
			c := ps.cohorts[i]
			c.n, c.deleted = take, t
			gone = append(gone, c)
		}
	}
	ps.addGone(gone...)
	ps.touch()
	ps.normalize()
	m.bind(t)
}

// expire removes the pods whose termination ended by t, and returns how
// many it removed.
func (m *podModel) expire(t time.Time) int64 {
	return m.expireWhere(t, false)
}

// expireBefore is expire for the pods whose termination ended before t:
// those that end at t stay until expire(t).
func (m *podModel) expireBefore(t time.Time) int64 {
	return m.expireWhere(t, true)
}

// expireWhere removes the terminating pods whose termination ended by t
// (before t if before), then binds pending pods where that made room at
// t. It returns how many pods it removed.
func (m *podModel) expireWhere(t time.Time, before bool) int64 {
	gone := func(c cohort) bool {
		if !c.terminating() {
			return false
		}
		end := c.deleted.Add(m.cfg.Terminating)
		return end.Before(t) || !before && end.Equal(t)
	}
	var removed int64
	drop := func(cs []cohort) []cohort {
		out := cs[:0]
		for _, c := range cs {
			if gone(c) {
				removed += c.n
				continue
			}
			out = append(out, c)
		}
		clear(cs[len(out):])
		return out
	}
	for _, ps := range m.sets {
		if ps.endsBy(t, m.cfg.Terminating, before) {
			n, k := ps.expireGone(t, m.cfg.Terminating, before)
			removed += n
			m.walked += k
		}
	}
	m.walked += len(m.orphans)
	m.orphans = drop(m.orphans)
	m.bind(t)
	return removed
}

// orphan hands the pods of a ReplicaSet that is gone to the garbage
// collector: running ones are deleted at t, and all end as terminating pods
// do.
func (m *podModel) orphan(ps *podSet, t time.Time) {
	for _, c := range ps.all() {
		if !c.terminating() {
			if m.cfg.Terminating == 0 {
				continue
			}
			c.deleted = t
		}
		m.orphans = append(m.orphans, c)
	}
	delete(m.sets, ps.name)
}

// total returns every pod that exists, terminating ones included.
func (m *podModel) total() int64 {
	var n int64
	for _, ps := range m.sets {
		n += ps.existing()
	}
	for _, c := range m.orphans {
		n += c.n
	}
	return n
}

// reconcile is a sync of the ReplicaSet controller at t for every
// ReplicaSet in sets (oldest first): pods beyond spec.replicas are deleted,
// missing ones created as far as the quota allows, and ReplicaSets that
// are gone hand their pods to the garbage collector.
func (m *podModel) reconcile(sets []*rollout.ReplicaSet, t time.Time) {
	m.expire(t)
	live := make(map[string]string, len(sets)) // name -> UID
	for _, rs := range sets {
		live[rs.Name] = rs.UID
	}
	for _, name := range slices.Sorted(maps.Keys(m.sets)) {
		ps := m.sets[name]
		if uid, ok := live[name]; !ok || uid != ps.uid {
			m.orphan(ps, t)
		}
	}
	used := m.total()
	for _, rs := range sets {
		ps := m.set(rs)
		running := ps.existing() - ps.counts(t, 0).terminating
		want := int64(rs.Spec.Replicas)
		switch {
		case running > want:
			before := ps.existing()
			m.remove(ps, running-want, t)
			used -= before - ps.existing()
			ps.failure = ""
		case running < want:
			k := want - running
			if limit := int64(m.cfg.MaxPods); limit > 0 && used+k > limit {
				room := max(limit-used, 0)
				if ps.failure == "" {
					ps.failure = fmt.Sprintf("pods %q is forbidden: exceeded quota: pods, requested: pods=1, used: pods=%d, limited: pods=%d",
						podName(rs.Name, ps.created+room), used+room, limit)
					ps.failedAt = t.Truncate(time.Second)
				}
				m.failed++
				k = room
			} else {
				ps.failure = ""
			}
			m.add(ps, k, t)
			used += k
		default:
			ps.failure = ""
		}
	}
}

// podName names the i-th pod of a ReplicaSet with a five-letter suffix
// from the alphabet of generated names.
func podName(rs string, i int64) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	b := []byte("xxxxx")
	for j := len(b) - 1; j >= 0; j-- {
		b[j] = alphabet[i%int64(len(alphabet))]
		i /= int64(len(alphabet))
	}
	return rs + "-" + string(b)
}

// status writes the status the ReplicaSet controller reports for rs at t
// and reports whether it changed. With merging on, it first merges the
// settled pods of rs (see podSet.settle).
func (m *podModel) status(rs *rollout.ReplicaSet, t time.Time) bool {
	ps := m.set(rs)
	minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
	if m.merge {
		ps.settle(t, minReady)
	}
	st, changed := m.statusOf(rs, ps.counts(t, minReady), rs.Generation)
	rs.Status = st
	return changed
}

// statusOf returns the status of rs with the pod counts c, observed at
// generation, and the ReplicaFailure condition of its last refused
// creation, and whether it differs from the status rs has.
func (m *podModel) statusOf(rs *rollout.ReplicaSet, c counts, generation int64) (rollout.ReplicaSetStatus, bool) {
	ps := m.set(rs)
	old := rs.Status
	st := old
	// Pods that are not terminating never outnumber the largest size the
	// ReplicaSet had, an int32; terminating ones may pile up beyond it.
	st.Replicas = int32(c.replicas)
	st.FullyLabeledReplicas = st.Replicas
	st.ReadyReplicas = int32(c.ready)
	st.AvailableReplicas = int32(c.available)
	st.TerminatingReplicas = rollout.Int32(int32(min(c.terminating, math.MaxInt32)))
	st.ObservedGeneration = generation
	// The only condition the pod model writes is ReplicaFailure, for a
	// creation the quota refused; the others are left as they are.
	failed := slices.IndexFunc(old.Conditions, func(c rollout.ReplicaSetCondition) bool { return c.Type == rollout.ReplicaFailure })
	want := rollout.ReplicaSetCondition{
		Type: rollout.ReplicaFailure, Status: rollout.ConditionTrue, Reason: "FailedCreate",
		Message: ps.failure, LastTransitionTime: ps.failedAt,
	}
	conditionChanged := false
	switch {
	case ps.failure == "" && failed >= 0:
		st.Conditions = slices.Delete(slices.Clone(old.Conditions), failed, failed+1)
		conditionChanged = true
	case ps.failure != "" && failed < 0:
		st.Conditions = append(slices.Clone(old.Conditions), want)
		conditionChanged = true
	case ps.failure != "" && !sameFailure(old.Conditions[failed], want):
		st.Conditions = slices.Clone(old.Conditions)
		st.Conditions[failed] = want
		conditionChanged = true
	}
	if len(st.Conditions) == 0 {
		st.Conditions = nil
	}
	return st, conditionChanged || st.Replicas != old.Replicas || st.FullyLabeledReplicas != old.FullyLabeledReplicas ||
		st.ReadyReplicas != old.ReadyReplicas || st.AvailableReplicas != old.AvailableReplicas ||
		st.TerminatingReplicas != old.TerminatingReplicas || st.ObservedGeneration != old.ObservedGeneration
}

// sameFailure reports whether two ReplicaFailure conditions say the same.
func sameFailure(a, b rollout.ReplicaSetCondition) bool {
	return a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message && a.LastTransitionTime.Equal(b.LastTransitionTime)
}

// next returns the first time after t at which a pod becomes ready or
// available or is gone, and false when no such time is left.
func (m *podModel) next(sets []*rollout.ReplicaSet, t time.Time) (time.Time, bool) {
	var best time.Time
	found := false
	consider := func(e time.Time) {
		if e.After(t) && (!found || e.Before(best)) {
			best, found = e, true
		}
	}
	visit := func(c cohort, minReady time.Duration) {
		switch {
		case c.terminating():
			consider(c.deleted.Add(m.cfg.Terminating))
		case !c.never:
			consider(c.readyAt)
			if minReady > 0 {
				consider(c.availableAt(minReady))
			}
		}
	}
	for _, rs := range sets {
		minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
		if e, ok := m.set(rs).next(t, minReady, m.cfg.Terminating); ok {
			consider(e)
		}
	}
	for _, c := range m.orphans {
		visit(c, 0)
	}
	return best, found
}

// pods returns the pods of sets as Pod objects, one for each cohort (phase
// Running, owned by its ReplicaSet, with a deletion timestamp when
// terminating), in the order of sets. One Pod stands for its cohort: Plan
// only asks whether an old ReplicaSet still has pods (R-REC-2), and the
// counts are in the statuses.
func (m *podModel) pods(sets []*rollout.ReplicaSet) []rollout.Pod {
	var out []rollout.Pod
	for _, rs := range sets {
		var i int64
		for _, c := range m.set(rs).all() {
			out = append(out, cohortPod(rs, c, i))
			i += c.n
		}
	}
	return out
}

// cohortPod is the Pod that stands for cohort c of rs, whose first pod is
// rs's i-th: Running, owned by rs, with a deletion timestamp when
// terminating.
func cohortPod(rs *rollout.ReplicaSet, c cohort, i int64) rollout.Pod {
	return rollout.Pod{
		ObjectMeta: rollout.ObjectMeta{
			Name:              podName(rs.Name, i),
			Namespace:         rs.Namespace,
			CreationTimestamp: c.created.Truncate(time.Second),
			DeletionTimestamp: c.deleted.Truncate(time.Second),
			Labels:            maps.Clone(rs.Spec.Template.Labels),
			OwnerReferences: []rollout.OwnerReference{
				rollout.NewControllerRef(rs.ObjectMeta, rollout.AppsAPIVersion, rollout.ReplicaSetKind),
			},
		},
		Phase: rollout.PodRunning,
	}
}

// planPods returns the pods Plan is given for a Recreate Deployment's
// sync: one Pod for each ReplicaSet of sets that has pods, the first of
// pods(sets) for it. Plan asks of the pods only whether an old
// ReplicaSet still has any (R-REC-2: a pod of a ReplicaSet that is not
// the new one, in a phase other than Failed or Succeeded, and every pod
// of the model is Running), so it plans the same actions from them as
// from every cohort's (TestPlanPodsPlanAlike); and a sync then costs the
// ReplicaSets, not the cohorts of pods, which a rollout whose pods take a
// minute to become ready holds by the thousand.
func (m *podModel) planPods(sets []*rollout.ReplicaSet) []rollout.Pod {
	var out []rollout.Pod
	for _, rs := range sets {
		if c, ok := m.set(rs).first(); ok {
			out = append(out, cohortPod(rs, c, 0))
		}
	}
	return out
}

// planPods returns the pods a Recreate Deployment's sync gives Plan:
// planPods of the pod model, or every cohort's under Config.everyPod.
func (r *runner) planPods() []rollout.Pod {
	if r.cfg.everyPod {
		return r.pods.pods(r.sets())
	}
	return r.pods.planPods(r.sets())
}

// readyWith reports whether ps has running pods, created at created,
// that become ready at readyAt.
// It looks from the newest cohort back, where the pods of the instant
// just created are.
//
// Cohorts in order (normal) are by creation, so the walk stops at the
// first created before.
func (ps *podSet) readyWith(created, readyAt time.Time) bool {
	sorted := ps.index().sorted
	for _, c := range slices.Backward(ps.cohorts) {
		if sorted && c.created.Before(created) {
			return false
		}
		if !c.terminating() && !c.never && c.created.Equal(created) && c.readyAt.Equal(readyAt) {
			return true
		}
	}
	return false
}
