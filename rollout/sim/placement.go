package sim

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Placement: under PodModel.Room a created pod is pending until the
// scheduler binds it to a node. The pod model keeps pending pods as
// cohorts of their own (cohort.pending) and binds them whenever the pods
// change: after creations, deletions and terminations that end.

// pending returns the pods of ps that are bound to no node (none
// terminating: a pending pod deleted is gone at once, see remove).
func (ps *podSet) pending() int64 {
	return ps.index().pending
}

// boundIfNonePending returns the pods bind counts as bound (those of the
// Deployment's ReplicaSets, and the terminating orphans) and true, or
// false if a pod is pending: read from the index, without a walk.
func (m *podModel) boundIfNonePending() (int64, bool) {
	var bound int64
	for _, ps := range m.sets {
		if ps.pending() > 0 {
			return 0, false
		}
		if ps.owned {
			bound += ps.existing()
		}
	}
	for _, c := range m.orphans {
		bound += c.n
	}
	return bound, true
}

// bind binds pending pods at t as far as PodModel.Room allows, oldest
// first (ties by ReplicaSet name), and records in m.bound the ReplicaSets
// whose pods it bound.
func (m *podModel) bind(t time.Time) {
	if m.cfg.Room == nil {
		return
	}
	type waiting struct {
		ps *podSet
		c  cohort
	}
	var queue []waiting
	var bound int64
	for _, name := range slices.Sorted(maps.Keys(m.sets)) {
		ps := m.sets[name]
		if ps.pending() == 0 {
			// Nothing of ps waits: its pods are all bound, read from
			// the index rather than walked.
			if ps.owned {
				bound += ps.existing()
			}
			continue
		}
		m.walked += len(ps.cohorts)
		for _, c := range ps.cohorts {
			switch {
			case c.pending:
				queue = append(queue, waiting{ps, c})
			case ps.owned:
				bound += c.n
			}
		}
		if ps.owned {
			bound += ps.goneN // terminating pods hold their nodes
		}
	}
	if len(queue) == 0 {
		return
	}
	for _, c := range m.orphans {
		bound += c.n
	}
	room := max(m.cfg.Room(bound), 0)
	slices.SortStableFunc(queue, func(a, b waiting) int { return a.c.created.Compare(b.c.created) })
	for _, w := range queue {
		if room == 0 {
			break
		}
		// The cohort as it is now: the same as queued in cohorts that
		// were normal, or the one an equal cohort queued before it was
		// merged into when they were not (binding normalizes).
		i := slices.IndexFunc(w.ps.cohorts, func(c cohort) bool { return c.pending && compareCohorts(c, w.c) == 0 })
		if i < 0 {
			m.walked += len(w.ps.cohorts)
			continue // bound with the one before
		}
		m.walked += i + 1
		k := min(room, w.ps.cohorts[i].n)
		room -= k
		w.ps.cohorts[i].n -= k
		w.ps.touch()
		m.ready(w.ps, k, w.c.created, t)
		if !slices.Contains(m.bound, w.ps.name) {
			m.bound = append(m.bound, w.ps.name)
		}
	}
}

// takeBound returns the ReplicaSets whose pods were bound since the last
// call, in name order.
func (m *podModel) takeBound() []string {
	out := m.bound
	m.bound = nil
	slices.SortFunc(out, cmp.Compare)
	return out
}

// ownedBy reports whether the Deployment owner controls rs.
func ownedBy(rs *rollout.ReplicaSet, owner rollout.ObjectMeta) bool {
	return rollout.IsControlledBy(&rs.ObjectMeta, &owner)
}

// enqueueBound wakes, under ModelControllers, the syncs of the
// ReplicaSets whose pending pods were bound at t: the scheduler's binding
// is an informer event for the ReplicaSet controller.
func (r *runner) enqueueBound(t time.Time) {
	for _, name := range r.pods.takeBound() {
		if r.findSet(name) != nil {
			r.enqueueSet(name, t)
		}
	}
}
