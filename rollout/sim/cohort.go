package sim

import (
	"slices"
	"time"
)

// A cohort is a group of pods of one ReplicaSet that were created at the
// same time, become ready at the same time and, if deleted, were deleted at
// the same time. Keeping cohorts instead of pods makes the cost of a run
// grow with the number of events, not of pods.
type cohort struct {
	n       int64
	created time.Time
	readyAt time.Time // when the pods become ready, unless never
	// late pods became ready at readyAt, but the ReplicaSet controller
	// learns of it only after the rest of that instant's work (see
	// podModel.add); the runner clears late then.
	late  bool
	never bool // the pods never become ready
	// pending pods are bound to no node yet (see PodModel.Room): not
	// ready, and never set too; binding clears both.
	pending bool
	deleted time.Time // when the pods were deleted; zero while they run
}

func (c cohort) terminating() bool { return !c.deleted.IsZero() }

// ready reports whether the pods are ready at t, as the controllers see
// them.
func (c cohort) ready(t time.Time) bool {
	return !c.never && (c.readyAt.Before(t) || c.readyAt.Equal(t) && !c.late)
}

// available reports whether the pods have been ready for minReady at t
// (by their Ready condition's time, readyAt, however late the controller
// saw it, to the second: see availableAt).
func (c cohort) available(t time.Time, minReady time.Duration) bool {
	if minReady == 0 {
		return c.ready(t)
	}
	return !c.never && !c.availableAt(minReady).After(t)
}

// availableAt is when the pods become available under a positive
// minReady: the API server keeps the Ready condition's
// lastTransitionTime to the second (metav1.Time), and the controllers
// count a pod available once that time plus minReadySeconds is not after
// now (upstream's IsPodAvailable), so a pod ready at 2.3s is available
// at 7s under minReadySeconds 5.
func (c cohort) availableAt(minReady time.Duration) time.Time {
	return c.readyAt.Truncate(time.Second).Add(minReady)
}

// compareCohorts orders cohorts by creation, then ready time, then
// deletion; cohorts that compare equal are merged.
func compareCohorts(a, b cohort) int {
	if c := a.created.Compare(b.created); c != 0 {
		return c
	}
	if a.pending != b.pending {
		if a.pending {
			return 1
		}
		return -1
	}
	if a.never != b.never {
		if a.never {
			return 1
		}
		return -1
	}
	if c := a.readyAt.Compare(b.readyAt); c != 0 {
		return c
	}
	if a.late != b.late {
		if a.late {
			return 1
		}
		return -1
	}
	return a.deleted.Compare(b.deleted)
}

// podSet is what the ReplicaSet controller keeps for one ReplicaSet: its
// pods and whether its last attempt to create pods was refused.
type podSet struct {
	name, uid string
	never     bool     // the template uses an image whose pods never become ready
	owned     bool     // the Deployment of the run controls it (for PodModel.Room)
	cohorts   []cohort // the running pods
	// gone are the terminating pods, in the order they end (see
	// gone.go), all bound to nodes; goneN counts their pods, goneLate
	// the late cohorts.
	gone     []cohort
	goneN    int64
	goneLate int
	created  int64  // pods created so far, for the names in messages
	failure  string // the message of a refused creation; "" when none
	failedAt time.Time
	// idx is an index of cohorts, for reads that would walk them (see
	// cohortIndex); nil until the first.
	idx *cohortIndex
}

// counts are a ReplicaSet's pods at one time.
type counts struct {
	replicas, ready, available, terminating int64
}

func (ps *podSet) counts(t time.Time, minReady time.Duration) counts {
	x := ps.index()
	return counts{
		replicas:    x.running,
		ready:       x.cum[x.readyBy(t)],
		available:   x.cum[x.availableBy(t, minReady)],
		terminating: ps.goneN,
	}
}

// running returns the pods that are not terminating: existing() less
// counts' terminating, without the times of the others.
func (ps *podSet) running() int64 {
	return ps.index().running
}

// existingAvailable returns existing() and counts(t, minReady).available
// (the pods not terminating that are available at t) in one walk of the
// cohorts, for the samples, which read both at every event.
func (ps *podSet) existingAvailable(t time.Time, minReady time.Duration) (existing, available int64) {
	x := ps.index()
	return x.running + ps.goneN, x.cum[x.availableBy(t, minReady)]
}

func (ps *podSet) existing() int64 {
	return ps.index().running + ps.goneN
}

// normalize sorts the cohorts and merges equal ones. Most calls find
// them in order already (a creation appends the newest), so normalize
// first merges in one pass as long as they are in order, and sorts only
// when it meets one out of order. Cohorts that compare equal differ in
// nothing but n, so merging some before the sort gives what merging
// after it does.
//
// The cohorts up to the length the last normalize left are normal still
// unless something changed them since (podSet.touch), so the pass starts
// after them; and the index stays as it is where the pass changed none of
// the cohorts it was built from (it learns the new ones at its next read).
func (ps *podSet) normalize() {
	start := ps.normalPrefix()
	out := ps.cohorts[:start]
	lowest := start // the first cohort the pass changes
	for i := start; i < len(ps.cohorts); i++ {
		c := ps.cohorts[i]
		if c.n <= 0 {
			continue
		}
		k := len(out) - 1
		if k < 0 {
			lowest = min(lowest, len(out))
			out = append(out, c)
			continue
		}
		switch d := compareCohorts(out[k], c); {
		case d == 0:
			lowest = min(lowest, k)
			out[k].n += c.n
		case d < 0:
			if len(out) != i {
				lowest = min(lowest, len(out))
			}
			out = append(out, c)
		default:
			ps.cohorts = append(out, ps.cohorts[i:]...)
			ps.sortMerge()
			return
		}
	}
	ps.cohorts = out
	ps.normalized(lowest)
}

// normalPrefix returns how many of the first cohorts the last normalize
// (or sortMerge or settle) left in order and has not seen changed since.
func (ps *podSet) normalPrefix() int {
	x := ps.idx
	if x == nil || x.normalLen == 0 || x.normalLen > len(ps.cohorts) || &ps.cohorts[0] != x.normalFirst {
		return 0
	}
	return x.normalLen
}

// normalized records that the cohorts are normal, and that those before
// lowest are as they were: the index stays valid if it was built from no
// more of them.
func (ps *podSet) normalized(lowest int) {
	x := ps.idx
	if x == nil {
		x = &cohortIndex{}
		ps.idx = x
	}
	if lowest < x.length {
		x.valid = false
	}
	x.normalLen, x.normalFirst = len(ps.cohorts), nil
	if len(ps.cohorts) > 0 {
		x.normalFirst = &ps.cohorts[0]
	} else {
		x.normalLen = 0
	}
}

// sortMerge is normalize for cohorts out of order: it drops the empty
// ones, sorts the rest stably and merges equal ones.
func (ps *podSet) sortMerge() {
	defer ps.normalized(0)
	ps.cohorts = slices.DeleteFunc(ps.cohorts, func(c cohort) bool { return c.n <= 0 })
	slices.SortStableFunc(ps.cohorts, compareCohorts)
	out := ps.cohorts[:0]
	for _, c := range ps.cohorts {
		if k := len(out) - 1; k >= 0 && compareCohorts(out[k], c) == 0 {
			out[k].n += c.n
			continue
		}
		out = append(out, c)
	}
	ps.cohorts = out
}

// settle merges the cohorts of ps that are settled at t (running, and
// ready for minReady: available) into one, which keeps the newest creation
// and ready times among them.
//
// That changes no count, now or later, as long as minReady stays as it is
// and every pod becomes ready the same time after its creation (no
// jitter). Then no running pod that is ready but not yet available is
// older than a settled one, so the ReplicaSet controller, which deletes
// the newest ready pods first, deletes settled ones only after those; and
// which settled pods it deletes changes no count. What is lost is the
// settled pods' own creation times: Final.Pods shows the newest. Merging
// keeps the cohorts of a long run few, which its fast-forward needs.
func (ps *podSet) settle(t time.Time, minReady time.Duration) {
	settled := func(c cohort) bool { return !c.terminating() && c.available(t, minReady) }
	x := ps.index()
	k := x.availableBy(t, minReady) // the settled cohorts
	if k < 2 {
		return
	}
	sorted := x.sorted
	var merged cohort
	lateMerged := false
	out := ps.cohorts[:0]
	i, seen := 0, 0
	for ; i < len(ps.cohorts) && seen < k; i++ {
		c := ps.cohorts[i]
		if !settled(c) {
			out = append(out, c)
			continue
		}
		seen++
		lateMerged = lateMerged || c.late
		if merged.n == 0 || c.created.After(merged.created) {
			merged.created = c.created
		}
		if merged.n == 0 || c.readyAt.After(merged.readyAt) {
			merged.readyAt = c.readyAt
		}
		merged.n += c.n
	}
	// The rest holds no settled cohort: k of them were seen.
	out = append(out, ps.cohorts[i:]...)
	// The cohorts kept are in order still, where they were before: the
	// merged one goes where normalize would sort it. None of them equals
	// it, as cohorts that compare equal are settled alike. Cohorts that
	// were normal are normal still without some of them.
	if merged.n <= 0 || !sorted && !normal(out) {
		ps.touch()
		ps.cohorts = append(out, merged)
		ps.normalize()
		return
	}
	at, _ := slices.BinarySearchFunc(out, merged, compareCohorts)
	ps.cohorts = slices.Insert(out, at, merged)
	if !sorted || lateMerged {
		ps.touch()
		ps.normalized(0)
		return
	}
	x.settled(k, ps.cohorts)
}

// revealLate clears the late flag of the cohorts ready by t, as the
// runner's reveal hands the ReplicaSet controller their readiness, and
// reports whether there were any.
func (ps *podSet) revealLate(t time.Time) bool {
	found := ps.revealLateGone(t)
	for i, co := range ps.cohorts {
		if co.late && !co.readyAt.After(t) {
			ps.cohorts[i].late, found = false, true
		}
	}
	if found {
		ps.touch()
		ps.normalize()
	}
	return found
}

// normal reports whether cs is what normalize makes of it: no empty
// cohort, and each after the one before by compareCohorts.
func normal(cs []cohort) bool {
	for i, c := range cs {
		if c.n <= 0 || i > 0 && compareCohorts(cs[i-1], c) >= 0 {
			return false
		}
	}
	return true
}

// freeCohorts is how many cohorts an event of the controllers model, and
// a flattening of its state for the fast-forward, may hold for nothing;
// cohortsPerWork how many more, each weighed one for an event and
// flattenWeight for a flattening, make one unit of work. A run whose
// cohorts pile up (pods that never become available within it, as under a
// minReadySeconds near 2^31, are never merged by settle) would otherwise
// do work growing with the square of the work counted. Its events read
// the cohorts through their index (cohortIndex), a binary search each,
// and walk them only where they change or are copied (a ReplicaSet
// sync's listing and status, a settle); a flattening, at a Deployment
// sync, writes every cohort down (40 to 80 ns each), and is made only of
// states of at most freeCohorts (ctlFFMaxCohorts) but for the cohorts
// the ReplicaSet syncs listed. Placement (PodModel.Room) walks the
// cohorts of a ReplicaSet whose pods wait for room (bind), a deletion
// ranks its ReplicaSet's running cohorts (remove: the terminating ones
// are apart, podSet.gone), an expiry drops the terminating cohorts that
// end (a prefix of gone) and filters the orphans' (expireWhere), and a
// reveal of late pods looks at every running cohort of each ReplicaSet
// (and the terminating ones where some are late), each normalized and
// indexed again after: each is charged walkWeight for every cohort it
// walks (podModel.walked); a Recreate Deployment's sync
// gives Plan a Pod for each ReplicaSet, not for each cohort (planPods).
// So an event is charged a unit for 4,096 cohorts and a flattening one
// for 64: on the shapes whose cost is their cohorts (minReadySeconds near
// 2^31 or 3,600, pods ready after 90 to 300 s, 100,000 replicas and
// more, under a pod quota, placement or Recreate) a unit then costs 2.5
// to 10 µs of CPU, no more than the syncs and pod writes of the rollouts
// that hold some (9 to 15 µs a unit: HPA counts of 5,000, pods ready
// after 60 s; BenchmarkWorkUnitCost); see README.md, "Cohort walks are
// work". A usual run holds fewer than freeCohorts (a 100,000-replica
// rollout at 25%/25%, pods ready after 5s, 92 an event on average) and is
// charged nothing.
const (
	freeCohorts    = 256
	cohortsPerWork = 4096
	flattenWeight  = 64
	walkWeight     = 64
)

// cohorts returns how many cohorts the pod model keeps, terminating
// orphans included.
func (m *podModel) cohorts() int {
	n := len(m.orphans)
	for _, ps := range m.sets {
		n += len(ps.cohorts) + len(ps.gone)
	}
	return n
}

// chargeCohorts charges the event just handled for the cohorts beyond
// freeCohorts, one unit of work per cohortsPerWork of them, and for the
// cohorts the pod model walked (podModel.walked, walkWeight each, as
// many as weigh freeCohorts free), so that the CPU time of a run stays
// within a bound per unit of MaxWork.
func (r *runner) chargeCohorts() {
	n := r.pods.cohorts()
	r.events++
	r.walked += int64(n)
	if w := r.pods.walked; w > 0 {
		r.pods.walked = 0
		if beyond := w*walkWeight - freeCohorts; beyond > 0 {
			r.walked += int64(beyond)
			r.charge(beyond)
		}
	}
	if n <= freeCohorts {
		return
	}
	r.charge(n - freeCohorts)
}

// chargeFlatten charges a flattening of the state that writes down n
// cohorts, those beyond freeCohorts weighed flattenWeight each; they count
// as walked (beyond the free ones of the events).
func (r *runner) chargeFlatten(n int) {
	if n <= freeCohorts {
		return
	}
	w := (n - freeCohorts) * flattenWeight
	r.walked += int64(w)
	r.charge(w)
}

// charge adds n cohorts to those walked beyond the free ones and not yet
// charged, and charges a unit of work for each cohortsPerWork of them.
func (r *runner) charge(n int) {
	r.cohortDebt += n
	r.work += r.cohortDebt / cohortsPerWork
	r.cohortDebt %= cohortsPerWork
}
