package sim

import (
	"slices"
	"strconv"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// The walker's visits of the objects, the steps and the run: one order
// for taking them apart and for putting them together again. Every field
// that can change during a run is visited (TestWalkerCoversEveryField).

func (w *walker) meta(m *rollout.ObjectMeta) {
	w.lit(m.Name)
	w.lit(m.Namespace)
	w.lit(m.UID)
	w.i64(&m.Generation)
	w.time(&m.CreationTimestamp)
	w.time(&m.DeletionTimestamp)
	w.strings(&m.Labels)
	w.strings(&m.Annotations)
	w.litJSON(func() any { return m.OwnerReferences })
}

func (w *walker) deployment(d *rollout.Deployment) {
	w.meta(&d.ObjectMeta)
	w.litJSON(func() any { return d.Spec })
	w.deploymentStatus(&d.Status)
}

func (w *walker) deploymentStatus(s *rollout.DeploymentStatus) {
	w.i64(&s.ObservedGeneration)
	w.i32(&s.Replicas)
	w.i32(&s.UpdatedReplicas)
	w.i32(&s.ReadyReplicas)
	w.i32(&s.AvailableReplicas)
	w.i32(&s.UnavailableReplicas)
	w.opt(&s.TerminatingReplicas)
	if w.decode && w.seen != nil && w.sameConds(s.Conditions) {
		r := w.f.regions[w.ri]
		w.pos += r.count
		w.ri += 1 + r.nested
		w.asStep = append(w.asStep, s)
	} else {
		w.conditions(&s.Conditions)
	}
	w.opt(&s.CollisionCount)
}

// sameConds reports, in commit's decoding of a status write's status
// (still holding the conditions as seen, c), whether its conditions are
// the step's at every period of the jump: they were the same slice in
// the step as seen (a status write the sync made, whose conditions the
// Deployment took), and their numbers now and their moves equal those
// of the step's conditions part. Then they stay equal at every period
// (both are the numbers as seen plus k moves), and the step's decoded
// conditions can stand for them.
func (w *walker) sameConds(c []rollout.Condition) bool {
	sc := w.seen.Conditions
	if len(c) == 0 || len(c) != len(sc) || &c[0] != &sc[0] {
		return false
	}
	r, p := w.f.regions[w.ri], w.parts[partConditions]
	if r.start != w.pos || r.count != p.nums || r.nested != p.regions-1 {
		return false
	}
	n := w.f.nums
	return slices.Equal(n[r.start:r.start+r.count], n[p.num:p.num+p.nums]) &&
		slices.Equal(w.moves[r.start:r.start+r.count], w.moves[p.num:p.num+p.nums])
}

func (w *walker) conditions(p *[]rollout.Condition) {
	listOf(w, p, func(c *rollout.Condition) {
		w.lit(string(c.Type))
		w.lit(string(c.Status))
		w.time(&c.LastUpdateTime)
		w.time(&c.LastTransitionTime)
		w.lit(c.Reason)
		w.text(&c.Message)
	})
}

func (w *walker) replicaSet(rs *rollout.ReplicaSet) {
	w.meta(&rs.ObjectMeta)
	w.i32(&rs.Spec.Replicas)
	w.i32(&rs.Spec.MinReadySeconds)
	w.litJSON(func() any { return []any{rs.Spec.Selector, rs.Spec.Template} })
	w.setStatus(&rs.Status)
}

// setStatus visits a ReplicaSet status: the object's, or the one a
// ReplicaSet sync is about to write.
func (w *walker) setStatus(st *rollout.ReplicaSetStatus) {
	w.i32(&st.Replicas)
	w.i32(&st.FullyLabeledReplicas)
	w.i32(&st.ReadyReplicas)
	w.i32(&st.AvailableReplicas)
	w.opt(&st.TerminatingReplicas)
	w.i64(&st.ObservedGeneration)
	listOf(w, &st.Conditions, func(c *rollout.ReplicaSetCondition) {
		w.lit(string(c.Type))
		w.lit(string(c.Status))
		w.time(&c.LastTransitionTime)
		w.lit(c.Reason)
		w.text(&c.Message)
	})
}

func (w *walker) action(a *rollout.Action) {
	w.lit(string(a.Type))
	w.lit(a.ReplicaSet)
	w.i32(&a.From)
	w.i32(&a.To)
	w.strings(&a.Labels)
	w.strings(&a.Annotations)
	w.litJSON(func() any { return a.Template })
	w.flag(a.Status != nil)
	if a.Status != nil {
		w.region(func() {
			if w.decode { // a's status is shared: moved numbers go into a copy
				if w.arena != nil {
					a.Status = w.arena.status(a.Status)
				} else {
					st := *a.Status
					a.Status = &st
				}
			}
			w.deploymentStatus(a.Status)
		})
	}
	w.lit(a.Event.Type)
	w.lit(a.Event.Reason)
	w.text(&a.Event.Message)
	w.time(&a.At)
	w.flag(a.Created != nil)
	if a.Created != nil {
		w.region(func() {
			if w.decode {
				rs := *a.Created
				a.Created = &rs
			}
			w.replicaSet(a.Created)
		})
	}
	w.i32(&a.MinReadySeconds)
	w.text(&a.Reason)
}

// step visits a step. In decoding with w.owned, the step's own slices
// (its actions, counts and conditions) are the caller's copies, written
// into in place (see stepSlabs).
func (w *walker) step(s *Step) {
	owned := w.owned
	w.time(&s.At)
	w.owned = owned
	w.part(partActions, func() { listOf(w, &s.Actions, w.action) })
	if s.Err != nil {
		w.lit(s.Err.Error())
	} else {
		w.lit("")
	}
	w.owned = owned
	w.part(partSets, func() {
		listOf(w, &s.Sets, func(c *SetCount) {
			w.lit(c.Name)
			w.lit(c.Revision)
			w.flag(c.New)
			w.i32(&c.Desired)
			w.i32(&c.Current)
			w.i32(&c.Ready)
			w.i32(&c.Available)
			w.i32(&c.Terminating)
			w.i32(&c.Pending)
		})
	})
	w.owned = owned
	w.part(partConditions, func() { w.conditions(&s.Conditions) })
	w.owned = false
	w.i32(&s.Replicas)
	w.i32(&s.Floor)
	w.i64(&s.Ceiling)
}

func (w *walker) cohorts(p *[]cohort) {
	eachOf(w, p, func(c *cohort) {
		w.i64(&c.n)
		w.time(&c.created)
		w.time(&c.readyAt)
		w.flag(c.late)
		w.flag(c.never)
		w.flag(c.pending)
		w.time(&c.deleted)
	})
}

// runner visits what a run carries from one sync to the next: the time of
// the next sync first, then the counters, the summary so far, the objects
// and the pods. The caches, the work done and the fast-forward's own
// history are left out.
func (w *walker) runner(r *runner) {
	w.time(&r.next)
	w.time(&r.clock)
	w.time(&r.last)
	w.time(&r.active)
	w.time(&r.completeAt)
	w.time(&r.deadlineAt)
	w.time(&r.pastUntil)
	w.time(&r.completeAfter)
	w.lit(r.deadlineDetail)
	w.extremes(&r.toDeadline)
	w.extremes(&r.raceToDeadline)
	w.time(&r.lastSample)
	w.i64(&r.lastAvail)
	w.i32(&r.lastFloor)
	w.int(&r.syncs)
	w.lit(strconv.Itoa(r.editedAt))
	w.lit(strconv.Itoa(len(r.changes)))
	w.lit(strconv.Itoa(len(r.edits)))
	sm := &r.sum
	w.i64(&sm.PeakDesired)
	w.i64(&sm.PeakPods)
	w.dur(&sm.PeakPodsAt)
	w.i64(&sm.MinAvailable)
	w.dur(&sm.MinAvailableAt)
	w.i32(&sm.Floor)
	w.i64(&sm.Ceiling)
	w.dur(&sm.BelowFloor)

	w.deployment(&r.st.Deployment)
	eachOf(w, &r.st.ReplicaSets, w.replicaSet)
	w.lit(strconv.Itoa(len(r.st.Pods)))

	m := r.pods
	w.int(&m.failed)
	w.cohorts(&m.orphans)
	names := make([]string, 0, len(m.sets))
	for name := range m.sets {
		names = append(names, name)
	}
	slices.Sort(names)
	w.lit(strconv.Itoa(len(names)))
	for _, name := range names {
		ps := m.sets[name]
		w.lit(name)
		w.lit(ps.uid)
		w.flag(ps.never)
		w.flag(ps.owned)
		w.cohorts(&ps.cohorts)
		w.cohorts(&ps.gone)
		if w.decode {
			ps.touch()
			ps.recountGone()
		}
		w.i64(&ps.created)
		w.text(&ps.failure)
		w.time(&ps.failedAt)
	}
}

// extremes visits a span's figures (a run's up to its deadline).
func (w *walker) extremes(e *Extremes) {
	w.i64(&e.PeakPods)
	w.dur(&e.PeakPodsAt)
	w.i64(&e.PeakPodsLow)
	w.i64(&e.PeakPodsHigh)
	w.i64(&e.MinAvailable)
	w.dur(&e.MinAvailableAt)
	w.i64(&e.MinAvailableHigh)
	w.i32(&e.Floor)
	w.i64(&e.Ceiling)
}

// The parts of a step that the steps of a jump may share with one
// another (jumpsteps.go, shareSteps): its actions, its counts and its
// conditions.
const (
	partActions = iota
	partSets
	partConditions
	stepParts
)

// A stepPart is where one part of a step lies in the step's flat: its
// numbers nums[num:num+nums], its regions from region on, regions of
// them, and its shape bytes shape[shape:shape+shapeLen].
type stepPart struct {
	num, nums       int
	region, regions int
	shape, shapeLen int
}

// part visits one part of a step. With w.withParts, encoding records where
// the part lies, and decoding skips the parts w.skip marks (their
// numbers and regions, as w.parts says), leaving them as they are.
func (w *walker) part(i int, visit func()) {
	if !w.withParts {
		visit()
		return
	}
	p := &w.parts[i]
	if w.decode {
		if w.skip[i] {
			w.pos += p.nums
			w.ri += p.regions
			w.owned = false
			return
		}
		visit()
		return
	}
	p.num, p.region, p.shape = len(w.f.nums), len(w.f.regions), len(w.f.shape)
	visit()
	p.nums, p.regions, p.shapeLen = len(w.f.nums)-p.num, len(w.f.regions)-p.region, len(w.f.shape)-p.shape
}
