package sim

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// sets returns the ReplicaSets of the Deployment's namespace, oldest
// first.
func (r *runner) sets() []*rollout.ReplicaSet {
	var out []*rollout.ReplicaSet
	for i := range r.st.ReplicaSets {
		if rs := &r.st.ReplicaSets[i]; rs.Namespace == r.st.Deployment.Namespace {
			out = append(out, rs)
		}
	}
	slices.SortStableFunc(out, rollout.CompareByCreation)
	return out
}

// setsScratch returns what sets returns, in r's scratch buffer: the
// slice is valid until the next call, so only a caller that calls
// nothing that calls setsScratch while it reads the slice may use it.
func (r *runner) setsScratch() []*rollout.ReplicaSet {
	out := r.scratch[:0]
	for i := range r.st.ReplicaSets {
		if rs := &r.st.ReplicaSets[i]; rs.Namespace == r.st.Deployment.Namespace {
			out = append(out, rs)
		}
	}
	slices.SortStableFunc(out, rollout.CompareByCreation)
	r.scratch = out
	return out
}

// controlled reports whether the Deployment controls rs.
func (r *runner) controlled(rs *rollout.ReplicaSet) bool {
	return rollout.IsControlledBy(&rs.ObjectMeta, &r.st.Deployment.ObjectMeta)
}

// tally is the Deployment's pods at the current time.
type tally struct{ desired, existing, available int64 }

// count counts the Deployment's pods at t: under ModelSimple its available
// pods are those the ReplicaSets' statuses report, under ModelControllers
// those that are (the statuses lag behind).
func (r *runner) count(t time.Time) tally {
	var c tally
	// Sums, in any order: the ReplicaSets of the namespace as they are.
	for i := range r.st.ReplicaSets {
		rs := &r.st.ReplicaSets[i]
		if rs.Namespace != r.st.Deployment.Namespace || !r.controlled(rs) {
			continue
		}
		c.desired += int64(rs.Spec.Replicas)
		ps := r.pods.set(rs)
		if r.ctl != nil {
			existing, available := ps.existingAvailable(t, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
			c.existing += existing
			c.available += available
		} else {
			c.existing += ps.existing()
			c.available += int64(rs.Status.AvailableReplicas)
		}
	}
	for _, o := range r.pods.orphans {
		c.existing += o.n
	}
	return c
}

// sample records the Deployment's pods at t in the summary.
func (r *runner) sample(t time.Time) {
	c := r.count(t)
	if r.lastAvail < int64(r.lastFloor) {
		r.sum.BelowFloor += t.Sub(r.lastSample)
	}
	floor, ceiling := limits(r.st.Deployment)
	r.lastSample, r.lastAvail, r.lastFloor = t, c.available, floor
	r.sum.PeakDesired = max(r.sum.PeakDesired, c.desired)
	if c.existing > r.sum.PeakPods {
		r.sum.PeakPods, r.sum.PeakPodsAt, r.sum.Ceiling = c.existing, t.Sub(r.start), ceiling
	}
	if c.available < r.sum.MinAvailable {
		r.sum.MinAvailable, r.sum.MinAvailableAt, r.sum.Floor = c.available, t.Sub(r.start), floor
	}
}

// catchUp runs the pod model at t: it brings every ReplicaSet to its size
// and writes their statuses. It reports whether a status changed.
func (r *runner) catchUp(t time.Time) bool {
	sets := r.sets()
	r.pods.reconcile(sets, t)
	changed := false
	for _, rs := range sets {
		if r.pods.status(rs, t) {
			changed = true
		}
	}
	r.clock = t
	r.sample(t)
	return changed
}

// advance moves time to t: every pod event up to t in order, then the
// replica changes and edits due by t.
func (r *runner) advance(t time.Time) {
	for {
		e, ok := r.pods.next(r.sets(), r.clock)
		if !ok || e.After(t) {
			break
		}
		r.catchUp(e)
	}
	r.clock = t
	r.advanceObjects(t)
}

// advanceObjects applies the replica changes and edits due by t.
func (r *runner) advanceObjects(t time.Time) {
	d := &r.st.Deployment
	for len(r.changes) > 0 && !r.start.Add(r.changes[0].After).After(t) {
		if d.Spec.Replicas != r.changes[0].Replicas {
			d.Spec.Replicas = r.changes[0].Replicas
			d.Generation++
		}
		r.changes = r.changes[1:]
	}
	for len(r.edits) > 0 && !r.start.Add(r.edits[0].At).After(t) {
		before := d.DeepCopy()
		r.edits[0].Apply(d)
		if specChanged(before, *d) {
			d.Generation++
		}
		r.edits = r.edits[1:]
		r.editedAt = r.syncs
	}
}

// specChanged reports whether the spec or annotations of a Deployment
// changed, which makes the API server bump its generation (R-API-2).
func specChanged(a, b rollout.Deployment) bool {
	ja, _ := json.Marshal(a.Spec)
	jb, _ := json.Marshal(b.Spec)
	return string(ja) != string(jb) || !maps.Equal(a.Annotations, b.Annotations)
}

// pending returns the time of the next replica change or edit.
func (r *runner) pending() (time.Time, bool) {
	var next time.Time
	found := false
	if len(r.changes) > 0 {
		next, found = r.start.Add(r.changes[0].After), true
	}
	if len(r.edits) > 0 {
		if e := r.start.Add(r.edits[0].At); !found || e.Before(next) {
			next, found = e, true
		}
	}
	return next, found
}
