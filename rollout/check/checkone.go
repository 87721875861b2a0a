package check

import (
	"maps"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// rolloutCheck is what checking one rollout comes to: its violations,
// and the summary of its run (past the progress deadline too, where the
// run went on past it), and when it held the ready pods at the
// Deployment's budgets.
type rolloutCheck struct {
	violations []Finding
	sum        sim.Summary
	// end is how the rollout ended (see afterDeadline): complete past
	// the progress deadline too.
	end    sim.Summary
	drains []drainBlock
	lows   []drainLow // the worst moments for a drain, by budget
	err    error
	// cost is what its runs cost together (see workbudget.go): Work
	// summed, Limited when one of them stopped at its work limit. Under
	// the controllers model it is one run's.
	cost sim.Cost
}

// checkOne simulates the rollout of d at replicas, under the controllers
// model once, going on past its progress deadline as the controllers do
// (Config.Sim.PastDeadline), its runs computing at most budget units of
// work together (sim.Config.MaxWork; past it only by the event each was
// handling), and returns the rules it breaks, in the order they happen.
func (f *checker) checkOne(in *Input, pol *rolloutPolicy, d rollout.Deployment, replicas int32, budget int) rolloutCheck {
	d.Spec.Replicas = replicas // d is a copy, and no map of it changes here
	shape, memoize := f.shapeOf(in, pol, d)
	defer f.memo.done(shape, memoize)
	if run, ok := f.memo.get(shape, memoize, budget); ok {
		// A rollout of this shape ran already, and its run is the one
		// this budget makes: it runs alike, and costs the same.
		s := rollout.State{Deployment: d, Now: in.start()}
		return f.conclude(in, pol, s, run.res, run.moments, run.racing, run.deadline, replicas, sim.Config{MaxWork: budget}, run.cost)
	}
	images := f.images // the caller's edit, as Simulate makes it
	restart := false
	if own := in.ownSets(d); len(images) == 0 && (len(own) == 0 || !inRollout(d, own)) {
		if len(f.neverReady) > 0 {
			images = []Image{{Image: MarkerImage}}
		} else {
			restart = true
		}
	}
	s, _, err := start(in, d, images, f.options)
	if err != nil {
		return rolloutCheck{err: err}
	}
	// The input was validated once, as the API server validates it, when
	// it was loaded (unless SkipValidation); a replica count to check is
	// never negative, and the rollout's change (an annotation, the marker
	// image) keeps the template valid: the syncs need not validate again.
	s.Options.SkipValidation = true
	if restart {
		s, err = sim.WithTemplateChange(s, func(t *rollout.PodTemplate) error {
			t.Annotations = maps.Clone(t.Annotations)
			if t.Annotations == nil {
				t.Annotations = map[string]string{}
			}
			t.Annotations[RestartAnnotation] = s.Now.UTC().Format(time.RFC3339)
			return nil
		})
		if err != nil {
			return rolloutCheck{err: err}
		}
	}
	cfg := f.config()
	cfg.Pods.ReadyAfter, cfg.Pods.Terminating = pol.pods.ReadyAfter, pol.pods.Terminating
	if f.quotaPods == 0 {
		cfg.Pods.MaxPods = maxPods(pol.cap, s)
	}
	if pol.place.limited {
		cfg.Pods.Room = pol.place.room(replicas)
	}
	cfg.Pods.NeverReady = nil
	for _, img := range f.neverReady {
		if img == "new" {
			cfg.Pods.NeverReady = append(cfg.Pods.NeverReady, newImages(s)...)
		} else {
			cfg.Pods.NeverReady = append(cfg.Pods.NeverReady, img)
		}
	}
	cfg.MaxWork = max(budget, 1)
	cfg.MaxSyncs = f.maxSyncs(cfg.MaxSyncs)
	kept := f.memo.keeps(shape, memoize)
	if !f.wholeOrders {
		// Of the highest peak check reads only whether it passes
		// --max-pods (judge), and nothing without it: the run may end
		// its order where deletions go last once its pods are proved to
		// stay within. A run kept for other rollouts may too: they read
		// it with the same --max-pods, and its DeadlineFreeFrom is proved
		// over what that order ran (sim's cutFree).
		cfg.PeakPodsAbove = math.MaxInt64
		if f.maxPods > 0 {
			cfg.PeakPodsAbove = int64(f.maxPods)
		}
	}
	// Under the controllers model the run goes on past the progress
	// deadline for Config.Sim.PastDeadline (an hour by default): what
	// the controllers then do is judged from this one run.
	// The moments of the run in order, and of the deletes-first order
	// when the drains are judged, each after a slot for the start's,
	// filled in once the run is known (see conclude).
	moments := make([]moment, 1, momentsRoom)
	var racing []moment
	observe := cfg
	observe.OmitSteps = true
	deadline := "" // the message of the first moment past the deadline
	observe.Observe = func(st sim.Step) {
		m := momentOf(st, s.Now)
		if m.deadline && deadline == "" {
			deadline = deadlineOf(st)
		}
		moments = append(moments, m)
	}
	if len(pol.budgets) > 0 {
		racing = make([]moment, 1, momentsRoom)
		observe.ObserveDeletesFirst = func(st sim.Step) { racing = append(racing, momentOf(st, s.Now)) }
		if cfg.PeakPodsAbove > 0 && !kept {
			// Not a run kept for others, whose budgets may be other: the
			// order may end once its steps to come cannot change the
			// drains judged on them.
			n := f.drainPods()
			observe.DeletesFirstDone = func(fewest int64) bool {
				return drainsSettled(pol.budgets, replicas, n, moments[1:], racing[1:], fewest)
			}
		}
	}
	res, cost, err := sim.RunCost(s, observe)
	if err != nil {
		return rolloutCheck{err: err}
	}
	moments[0] = startMoment(res.Start)
	if racing != nil {
		racing[0] = moments[0]
	}
	f.worked.Add(int64(cost.Work))
	if memoize && res.Summary.Outcome != sim.OutcomeDeadlineExceeded && !res.Summary.Outcome.Stuck() {
		f.memo.put(shape, memoRun{res, moments, racing, deadline, cost, cfg.MaxWork})
	}
	return f.conclude(in, pol, s, res, moments, racing, deadline, replicas, cfg, cost)
}

// drainsSettled reports whether the deletes-first order's steps to come
// cannot change the drains conclude judges, for a run whose fewest
// available is fewest and whose replicas stay replicas: the in-order
// run's moments (its steps) and the order's steps so far are known, and
// every step to come counts at least fewest ready pods once conclude
// holds it there (readyAtLeast). For every budget:
//
//   - its worst moment (drainLows, the first of equal ones, and the
//     fewest left by a drain without eviction) is final: a step already
//     seen, at replicas, holds at most fewest ready pods, and a drain's
//     pods left grow with the ready pods (budget.drain);
//   - its blocks (drainBlocks, worseDrains) are final: no count of ready
//     pods from fewest up blocks a drain (tried one by one up to where
//     none can: keep + n), or the in-order run already has a block at
//     fewest ready pods or fewer, which the order's steps, at fewest or
//     more, cannot pass (worseDrains takes the order's only where it
//     holds fewer).
//
// It gives up (false) where that would try more than maxTried counts.
func drainsSettled(budgets []budget, replicas int32, n int64, inOrder, racing []moment, fewest int64) bool {
	const maxTried = 4096
	atMost := func(ms []moment) bool {
		return slices.ContainsFunc(ms, func(m moment) bool { return m.replicas == replicas && max(m.ready, fewest) <= fewest })
	}
	if !atMost(inOrder) && !atMost(racing) {
		return false
	}
	expected := int64(replicas)
	for _, b := range budgets {
		keep := b.keep(replicas)
		blocks := func(ready int64) bool {
			return expected+b.others != 0 &&
				b.worseThanAtRest(b.drain(ready+b.others, ready, keep, expected+b.others, n), replicas, n)
		}
		if slices.ContainsFunc(inOrder, func(m moment) bool {
			return m.replicas == replicas && max(m.ready, fewest) <= fewest && blocks(max(m.ready, fewest))
		}) {
			continue
		}
		last := max(keep+n, fewest)
		if last-fewest > maxTried {
			return false
		}
		for r := fewest; r <= last; r++ {
			if blocks(r) {
				return false
			}
		}
	}
	return true
}

// momentsRoom is the room a rollout's moments start with: check's
// rollouts of a few replicas make 10 to 80 syncs.
const momentsRoom = 48

// startMoment is the moment of a run's start: its pods, available and
// ready pods (of the new ReplicaSet too), the ReplicaSets' sizes and
// replicas.
func startMoment(start sim.Step) moment {
	m := moment{replicas: start.Replicas}
	m.pods, m.avail = start.Pods()
	for _, c := range start.Sets {
		m.ready += int64(c.Ready)
		m.desired += int64(c.Desired)
		if c.New {
			m.newReady += int64(c.Ready)
		}
	}
	return m
}

// conclude judges a run of the rollout of s under cfg, which cost cost
// of cfg.MaxWork, the rollout's budget: up to its progress deadline and,
// where the run went on past it (the controllers model), after it too.
// Under the other models, which stop at the deadline, it runs the
// rollout once more without one, with what is left of the budget, to
// tell how it ends (cfg is not needed otherwise). moments are the
// start's moment (startMoment) and the run's steps'; racing, the same
// for the order where deletions go first under the controllers model,
// when the drains are judged (nil otherwise): they are judged on the
// worse of the two orders, as the summary's fewest available is;
// deadline is the Progressing message of the first of moments past the
// progress deadline. conclude does not modify moments or racing, which a memoized run
// shares with other rollouts.
func (f *checker) conclude(in *Input, pol *rolloutPolicy, s rollout.State, res sim.Result, moments, racing []moment, deadline string, replicas int32, cfg sim.Config, cost sim.Cost) rolloutCheck {
	j := f.judge(in, pol, s, res, moments[1:], deadline)
	j.budget = cfg.MaxWork
	end := afterDeadline(res.Summary, moments)
	if end.Outcome == sim.OutcomeDeadlineExceeded && cfg.Model != sim.ModelControllers {
		// The deadline only reports; the controller goes on, which this
		// model does not: without the deadline, does the rollout finish,
		// and when?
		s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
		s.Deployment.Status = rollout.RemoveDeploymentCondition(s.Deployment.Status, rollout.Progressing)
		cfg.OmitSteps = true
		cfg.MaxWork = max(cfg.MaxWork-cost.Work, 1)
		again, c, err := sim.RunCost(s, cfg)
		if err != nil {
			return rolloutCheck{err: err}
		}
		f.worked.Add(int64(c.Work))
		cost.Work += c.Work
		cost.Limited = cost.Limited || c.Limited
		end = again.Summary
		j.without = true
	}
	j.limited = cost.Limited
	j.syncsCapped = res.Summary.Outcome == sim.OutcomeLimit && !cost.Limited && res.Summary.Syncs >= f.maxSyncs(f.sim.MaxSyncs)
	j.goesOn(res.Summary, end)
	j.ending(end)
	out := rolloutCheck{violations: j.sorted(), sum: res.Summary, end: end, cost: cost}
	if len(pol.budgets) > 0 {
		n := f.drainPods()
		// No pod count is below the summary's fewest available, a ready
		// pod being one that may not yet be available: a sync's counts
		// below it are statuses lagging the pods (sim.ModelControllers).
		moments = readyAtLeast(moments, res.Summary.MinAvailable)
		racing = readyAtLeast(racing, res.Summary.MinAvailable)
		out.drains = drainBlocks(pol.budgets, replicas, moments, n)
		var steps []moment // the deletes-first order's steps
		if len(racing) > 0 {
			steps = racing[1:]
		}
		out.lows = drainLows(pol.budgets, replicas, n, moments, steps)
		if len(steps) > 0 {
			out.drains = worseDrains(out.drains, drainBlocks(pol.budgets, replicas, racing, n))
		}
		if s.Deployment.Spec.MinReadySeconds == 0 {
			// A pod is available as soon as it is ready: the fewest
			// available between syncs, of the worse order, are ready
			// pods too, at the replicas of their moment (a change of
			// the run may have scaled the Deployment by then).
			scaled := j.replicasAt(res.Summary.MinAvailableAt)
			out.drains = worseDrains(out.drains, summaryDrains(pol.budgets, replicas, scaled, res.Summary, n))
			out.lows = lowerDrains(out.lows, drainLows(pol.budgets, replicas, n, []moment{summaryMoment(scaled, res.Summary)}))
		}
		if sm := res.Summary; sm.AfterDeadline != "" {
			// The drains past the deadline are judged too, and say so.
			for i := range out.drains {
				if out.drains[i].from > sm.DeadlineExceededAt {
					out.drains[i].deadline = sm.DeadlineExceededAt
				}
			}
		}
	}
	return out
}

// inRollout reports whether d is in the middle of a rollout over its
// ReplicaSets own: none has its template yet, or an old one still has
// replicas.
func inRollout(d rollout.Deployment, own []rollout.ReplicaSet) bool {
	if _, ok := rollout.FindNewReplicaSet(d, own); !ok {
		return true
	}
	withReplicas, _ := rollout.FindOldReplicaSets(d, own)
	return len(withReplicas) > 0
}

// newImages returns the images of the Deployment's template that no other
// ReplicaSet's template uses: what the rollout brings in.
func newImages(s rollout.State) []string {
	old := map[string]bool{}
	for _, rs := range s.ReplicaSets {
		if !rollout.EqualIgnoreHash(rs.Spec.Template, s.Deployment.Spec.Template) {
			for _, img := range templateImages(rs.Spec.Template) {
				old[img] = true
			}
		}
	}
	var out []string
	for _, img := range templateImages(s.Deployment.Spec.Template) {
		if !old[img] {
			out = append(out, img)
		}
	}
	return out
}

// A rolloutShape is all that the simulation of a Deployment started from
// its manifest alone (no ReplicaSets in the input) depends on, besides its
// names and template: Deployments of one shape roll out alike, step by
// step, so check simulates each shape once. The names appear only in the
// messages of a progress deadline and of a rollout that can never finish,
// whose runs are not kept. A run proved not to depend on the deadline from
// some value up (sim.Result.DeadlineFreeFrom) serves the shapes that differ
// only in a deadline from there up: what check reads of it (the summary,
// the start and the moments: the pods and the conditions of every step)
// is the same for them. The strategy and the pod quota are held as the
// run reads them: maxSurge and maxUnavailable as the counts they resolve
// to (strategyOf), and a quota the rollout never reaches as one value
// (unreachedQuota), so that rollouts differing only there share a run.
type rolloutShape struct {
	replicas, minReady, maxPods int32
	ready, terminating          time.Duration // the pods' times (see PodTimes)
	strategy                    rollout.Strategy
	history, deadline           rollout.OptionalInt32
	paused                      bool
	places                      int64 // -1: placement not checked
	// drains: the rollout's drains are judged (it has budgets), so its
	// run keeps the deletes-first order's moments, which a run of a
	// rollout without budgets does not.
	drains bool
}

// shapeOf returns d's shape, and whether its runs may be shared: d starts
// from its manifest alone, is not being deleted or rolled back, no image
// is to stay unready (which depends on the template) and the rollout is
// a restart, not an edit of Config.Images.
func (f *checker) shapeOf(in *Input, pol *rolloutPolicy, d rollout.Deployment) (rolloutShape, bool) {
	// A run of another Deployment stands for d's only where both roll out
	// a restart: an edit of Config.Images makes other ReplicaSets.
	ok := f.memo != nil && len(f.neverReady) == 0 && len(f.images) == 0 && !d.Deleting() && len(in.ownSets(d)) == 0
	if _, rollback := d.Annotations[rollout.RollbackToAnnotation]; rollback {
		ok = false
	}
	maxPods := int32(f.quotaPods)
	if f.quotaPods == 0 && pol.cap.pods >= 0 {
		maxPods = int32(min(max(pol.cap.pods, 1), math.MaxInt32)) // as maxPods gives it, with no other ReplicaSet
	}
	if maxPods > 0 && len(f.sim.Changes) == 0 && int64(maxPods) > unreachedQuota(d.Spec.Replicas) {
		maxPods = math.MaxInt32 // a quota the rollout never reaches: see unreachedQuota
	}
	places := int64(-1)
	if pol.place.limited {
		places = pol.place.placesAt(d.Spec.Replicas)
	}
	return rolloutShape{replicas: d.Spec.Replicas, minReady: d.Spec.MinReadySeconds, maxPods: maxPods,
		ready: pol.pods.ReadyAfter, terminating: pol.pods.Terminating, strategy: f.strategyOf(d),
		history: d.Spec.RevisionHistoryLimit, deadline: d.Spec.ProgressDeadlineSeconds, paused: d.Spec.Paused, places: places,
		drains: len(pol.budgets) > 0}, ok
}

// strategyOf returns the strategy of d as its shape holds it: under a
// RollingUpdate whose replicas no change of the run moves
// (sim.Config.Changes), maxSurge and maxUnavailable as the counts they
// resolve to at d's replicas (rollout.MaxSurge, rollout.MaxUnavailable),
// which is all the simulation reads of them there: a sync resolves both
// against spec.replicas (the rolling steps, the max-replicas annotation,
// proportional scaling, the projection's bounds), and nothing else reads
// them. So maxSurge "25%" and 1 of 4 replicas are one shape. Otherwise the
// strategy as it is.
func (f *checker) strategyOf(d rollout.Deployment) rollout.Strategy {
	st := d.Spec.Strategy
	if st.Type != rollout.RollingUpdateStrategy || len(f.sim.Changes) > 0 {
		return st
	}
	st.RollingUpdate.MaxSurge = surge.Count(rollout.MaxSurge(d))
	st.RollingUpdate.MaxUnavailable = surge.Count(rollout.MaxUnavailable(d))
	return st
}

// unreachedQuota returns a number of pods that a run of a rollout of
// replicas started from its manifest alone (sim.FromDeployment: one
// ReplicaSet of replicas pods) and without replica changes never
// reaches: its old ReplicaSet only loses pods, and its new one grows to
// replicas at most (rollout.NewRSNewReplicas), so the pods of the run,
// terminating ones included, with the creations a ReplicaSet sync asks
// for, are at most 2 × replicas, and a pod quota is read only against
// such sums (and against zero: a quota or none). Runs under two pod
// quotas above it are the same run, so a shape holds every such quota
// as one (math.MaxInt32). It leaves a margin above 2 × replicas + 1
// (the race peak's pod to come, sim's notePodRace).
func unreachedQuota(replicas int32) int64 { return 4*int64(max(replicas, 0)) + 16 }

// A memoRun is a run kept for its shape: its result without steps, and
// its moments.
type memoRun struct {
	res     sim.Result
	moments []moment
	racing  []moment // the moments of the deletes-first order, if kept
	// deadline is the message of the first moment past the deadline.
	deadline string
	cost     sim.Cost
	budget   int // the MaxWork it ran with
}

// simMemo keeps the runs of the shapes simulated so far, for all workers.
// A nil simMemo keeps nothing.
type simMemo struct {
	mu   sync.Mutex
	runs map[rolloutShape]memoRun
	// free keeps the runs proved not to depend on the progress deadline
	// (sim.Result.DeadlineFreeFrom), by their shape without it: the
	// Deployments of 20,000 shapes that differ only in
	// progressDeadlineSeconds share a few runs.
	free map[rolloutShape][]memoRun
	// keep, when not nil, holds the shapes, their deadline aside, of
	// which the check has more than one rollout: put keeps only their
	// runs, since get finds a run only for a rollout of its shape (or of
	// its shape with another deadline). Without it a check whose
	// Deployments all differ held every run it made (varied shapes:
	// 24,000 runs, some 500 MB, which every collection marked).
	// It is set before the workers start (keepShared) and only read after.
	keep map[rolloutShape]bool
	// left counts, for each shape in keep (deadline aside), the rollouts
	// of it not yet checked: once none is left, done drops its runs, so
	// that the memo holds the runs of the shapes in progress, not of all
	// those seen. alone lists the keys of runs by their shape without
	// the deadline, to find them.
	left  map[rolloutShape]int
	alone map[rolloutShape][]rolloutShape
	// kept, when not nil, is told of every run put keeps, by its key
	// (the deadline aside for a run kept for every deadline from a bound
	// up): the tests' view of what was shared, as done empties the memo
	// by the end of a check.
	kept func(k rolloutShape, free bool)
}

// keepShared makes m keep only the runs of the shapes in keep (their
// deadline aside), each until as many rollouts of it as keep counts are
// checked (done); a nil keep keeps every run.
func (m *simMemo) keepShared(keep map[rolloutShape]int) {
	if m == nil {
		return
	}
	m.keep, m.left = nil, keep
	if keep != nil {
		m.keep = make(map[rolloutShape]bool, len(keep))
		for k := range keep {
			m.keep[k] = true
		}
	}
}

// done records that a rollout of shape k, whose runs may be shared (ok),
// is checked: once no rollout of its shape (deadline aside) is left, the
// runs kept for it are dropped. Dropping a run only makes a later get
// miss, whose rollout then runs again, alike (a rollout checked again
// under a larger work budget, workbudget.go, is one done too many).
func (m *simMemo) done(k rolloutShape, ok bool) {
	if m == nil || !ok || m.left == nil {
		return
	}
	k.deadline = rollout.OptionalInt32{}
	m.mu.Lock()
	defer m.mu.Unlock()
	n, counted := m.left[k]
	if !counted {
		return
	}
	if n > 1 {
		m.left[k] = n - 1
		return
	}
	delete(m.left, k)
	delete(m.free, k)
	for _, full := range m.alone[k] {
		delete(m.runs, full)
	}
	delete(m.alone, k)
}

// sharedShapes returns the shapes, their deadline aside, of which more
// than one rollout of the check (a Deployment at a replica count of
// counts) can share a run, the rollouts whose runs are worth keeping,
// with how many rollouts each has.
func (f *checker) sharedShapes(deps []rollout.Deployment, parts []*Input, policies []rolloutPolicy, counts [][]int32) map[rolloutShape]int {
	seen := map[rolloutShape]int{}
	for k, d := range deps {
		pol := &policies[k]
		if pol.refused {
			continue
		}
		for _, r := range counts[k] {
			d.Spec.Replicas = r // d is a copy, and no map of it changes here
			shape, ok := f.shapeOf(parts[k], pol, d)
			if !ok {
				continue
			}
			shape.deadline = rollout.OptionalInt32{}
			seen[shape]++
		}
	}
	for shape, n := range seen {
		if n < 2 {
			delete(seen, shape)
		}
	}
	return seen
}

// get returns the run kept for shape k, or for a shape that differs from
// it only in a progress deadline the run is proved not to depend on, if
// it is the run a budget of MaxWork makes: one that did not stop at its
// work limit is the same under every MaxWork above its Work (sim.Cost),
// one that did only under its own.
func (m *simMemo) get(k rolloutShape, ok bool, budget int) (memoRun, bool) {
	if m == nil || !ok {
		return memoRun{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	usable := func(r memoRun) bool {
		return r.cost.Limited && r.budget == budget || !r.cost.Limited && r.cost.Work < budget
	}
	if r, found := m.runs[k]; found {
		return r, usable(r)
	}
	if !k.deadline.Valid || k.deadline.Value == rollout.Unlimited {
		return memoRun{}, false
	}
	dl := k.deadline.Value
	k.deadline = rollout.OptionalInt32{}
	for _, r := range m.free[k] {
		// A proved run has the same Result, its syncs and so its work
		// included, under every deadline from DeadlineFreeFrom up.
		if r.res.DeadlineFreeFrom <= dl && usable(r) {
			return r, true
		}
	}
	return memoRun{}, false
}

// keeps reports whether put would keep a run of a rollout of shape k
// whose runs may be shared (ok): m keeps runs, and, where it keeps only
// the shapes of more than one rollout, k's is one.
func (m *simMemo) keeps(k rolloutShape, ok bool) bool {
	if m == nil || !ok {
		return false
	}
	if m.keep == nil {
		return true
	}
	k.deadline = rollout.OptionalInt32{}
	return m.keep[k]
}

// put keeps r, the run of a rollout of shape k: for k alone, or, when
// the run is proved not to depend on its progress deadline from
// DeadlineFreeFrom up, for every shape that differs from k only in a
// deadline from there up.
func (m *simMemo) put(k rolloutShape, r memoRun) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.keep != nil {
		bare := k
		bare.deadline = rollout.OptionalInt32{}
		if !m.keep[bare] {
			return // no other rollout of the check can take it
		}
		if _, left := m.left[bare]; m.left != nil && !left {
			return // its rollouts are all checked (done): another worker's run of it came first
		}
	}
	if from := r.res.DeadlineFreeFrom; from > 0 {
		k.deadline = rollout.OptionalInt32{}
		for _, o := range m.free[k] {
			if o.res.DeadlineFreeFrom <= from {
				return // o covers every deadline r does
			}
		}
		if m.free == nil {
			m.free = map[rolloutShape][]memoRun{}
		}
		m.free[k] = append(m.free[k], r)
		if m.kept != nil {
			m.kept(k, true)
		}
		return
	}
	if m.runs == nil {
		m.runs = map[rolloutShape]memoRun{}
	}
	if _, had := m.runs[k]; !had {
		bare := k
		bare.deadline = rollout.OptionalInt32{}
		if m.alone == nil {
			m.alone = map[rolloutShape][]rolloutShape{}
		}
		m.alone[bare] = append(m.alone[bare], k)
	}
	m.runs[k] = r
	if m.kept != nil {
		m.kept(k, false)
	}
}

// readyAtLeast returns moments with no ready count below fewest, moments
// itself when none is (a copy otherwise: moments may be shared with other
// rollouts). The start's moment, the input's own counts, is kept as is.
func readyAtLeast(moments []moment, fewest int64) []moment {
	if !slices.ContainsFunc(moments[min(1, len(moments)):], func(m moment) bool { return m.ready < fewest }) {
		return moments
	}
	out := slices.Clone(moments)
	for i := 1; i < len(out); i++ {
		out[i].ready = max(out[i].ready, fewest)
	}
	return out
}

// maxSyncs is the most syncs a check run makes: one more than the
// Deployment's work budget has units (see Config.Sim), so that a run
// whose syncs are all computed, a unit each at least, stops at its work
// limit first; or own (Config.Sim.MaxSyncs) when lower and set.
func (f *checker) maxSyncs(own int) int {
	n := f.maxWork
	if n < math.MaxInt {
		n++
	}
	if own > 0 {
		return min(n, own)
	}
	return n
}
