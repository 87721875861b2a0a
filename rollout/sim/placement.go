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

// pending returns the pods of ps that are bound to no node, terminating
// ones included.
func (ps *podSet) pending() int64 {
	return ps.index().pending + ps.gonePending
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
		ps   *podSet
		c    cohort
		gone bool // c is a terminating cohort (ps.gone)
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
		m.walked += len(ps.cohorts) + len(ps.gone)
		// The running cohorts, then the terminating ones: after the
		// sort by creation below, in the order of all() (a pending
		// cohort differs from another created with it only in its
		// deletion).
		for _, cs := range [][]cohort{ps.cohorts, ps.gone} {
			for _, c := range cs {
				switch {
				case c.pending:
					queue = append(queue, waiting{ps, c, c.terminating()})
				case ps.owned:
					bound += c.n
				}
			}
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
		k := min(room, w.c.n)
		room -= k
		if w.gone {
			// A terminating pod that waits for a node is bound as a
			// running one, as the model always did here. The real
			// scheduler binds no deleted pod, and the API server removes
			// an unbound pod at once; kept so that the Results stay as
			// they were (a change of its own).
			i := slices.IndexFunc(w.ps.gone, func(c cohort) bool { return c == w.c })
			m.walked += i + 1
			w.ps.gone[i].n -= k
			w.ps.gone = slices.DeleteFunc(w.ps.gone, func(c cohort) bool { return c.n <= 0 })
			w.ps.recountGone()
		} else {
			i := slices.IndexFunc(w.ps.cohorts, func(c cohort) bool { return c == w.c })
			m.walked += i + 1
			w.ps.cohorts[i].n -= k
		}
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
