package sim

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"time"
)

// The controllers model's fast-forward. After its first syncs, a rollout
// under ModelControllers settles into a cycle: in a rollout of maxSurge 1
// whose pods are ready at once, the ReplicaSet controller's client grants
// a pod creation, a deletion and status writes, and the Deployment
// controller scales by one, every 0.3s of virtual time, seven Deployment
// syncs a cycle. The state at a Deployment sync is then, over a period of
// whole seconds (the conditions' times are truncated to seconds), the
// state one period earlier moved by the same numbers: the times by the
// period, the sizes and counts by constants. The events of the run that
// are not in the cycle (an event the recorder's spam filter lets through
// every 5 minutes, a progress re-check every 10 minutes) break it for a
// few syncs, after which it starts again.
//
// The fast-forward works as ModelSimple's (fastforward.go) does, on the
// whole controllers state (walker.ctlState: the events due, the clients'
// buckets and event sinks, the spam filter, the work queues, the syncs in
// flight): once three periods of Deployment syncs moved by the same
// numbers (one, after a jump, whose syncs have the shapes of the last
// jump's period in turn and whose last sync moved over it as its
// counterpart did: the cycle taken again after a refill or a re-check
// broke it, with the moves the last jump's check proved), it takes m
// periods at once, checking the jump by computing the period
// after them event by event, which must come out as extrapolated at
// every Deployment sync, state and step alike. After a jump, nothing is
// looked at until the watched time that stopped it has passed. m is first the most
// periods before the next event that does not move with the cycle (an
// event due, or a spam filter's refill), and before a count that goes
// down would reach zero; if that jump fails its check, shorter ones are
// searched as ModelSimple's fast-forward does.
//
// Why the check of one period proves the periods it skips: a period's
// events are a function of the state at its start, and every decision in
// them compares numbers of the state that move linearly with the number
// of periods k (times move by the period, counts by constants; the
// truncation of times to seconds is exact because the period is whole
// seconds; the spam filter's and the buckets' refills, the event queue's
// order and the ReplicaSet controller's limits are comparisons of such
// numbers). A comparison of two linear functions of k that has the same
// outcome at k = 0 (the last period seen) and at k = m+1 (the period
// checked) has it at every k between, so every skipped period takes the
// same decisions and moves the state by the same numbers. In full: let
// A be the state at the start of the period seen, D its move over that
// period (the last sync's), d_q the move of its Deployment sync q. With
// the decisions fixed, the state at sync q is an affine function F_q of
// the start state, so at sync q of period k it is F_q(A) + k·L_q(D),
// L_q linear; the check finds it equal to F_q(A) + (m+1)·d_q at k = m+1,
// so L_q(D) = d_q, and at q's last, d = D: each period then starts where
// the last one moved it, at A + k·D, every number of it linear in k.
// This needs the period seen, not a second one before it, nor that the
// period seen moved as the one before it did (which a refill just before
// it breaks): the second and third repetitions only filter out periods
// that would fail their check, and after a jump the last jump's moves
// (again) filter instead, at the cost of one period computed rather than
// two or three. The check sees
// the state at each Deployment sync of the period checked, and its step,
// not each decision between two: that the period took the decisions of
// the last one seen is inferred from every one of its Deployment syncs
// coming out as extrapolated (a different path that came back to the
// extrapolated state at every Deployment sync would escape it), and
// TestControllersFastForwardChangesNoResult compares whole Results with
// the runs event by event. Runs with
// jitter, a Room, a quota (the failure message names a pod in base 27)
// or changes and edits to come are not fast-forwarded.
//
// The jumps themselves repeat over a longer period, which one period
// checked does not prove: the spam filter lets an event through on a
// grid of 300s, while each progress re-check is planned at the last
// update, truncated to the second, plus the deadline and a second, so
// that in a maxSurge-1 rollout of 100,000 replicas (ready at once) they
// come 600s and 601s apart in turn and fall a second later after the
// refill of each tenth of an hour every 20 minutes: one period of the
// cycle (3s) later each hour. Over an hour the state after each jump
// moves by the same numbers, but for the jumps on either side of the
// re-check, one period longer and one shorter; the run's events between
// the jumps are the same each hour, not those of the whole hour (the
// re-check falls on another sync of the cycle). ffsuper.go takes such
// super-periods of jumps at once, with an argument of its own.
// A 25%/25% rollout (100,000 replicas, ready after 5s)
// has a cycle too, seven Deployment syncs every 50.15s (a batch of 500
// deletions and one of 500 creations through the client), but a period
// of whole seconds (the conditions' times are truncated to seconds, which
// is affine only over whole seconds) would be 20 cycles, 1,003s, past
// the refills 301s apart; so it is computed event by event.

// Fast-forward of the controllers model: it starts looking after this many
// Deployment syncs, for periods of up to ctlFFMaxPeriod of virtual time
// and ctlFFKeep/3 syncs.
const (
	ctlFFStart     = 300
	ctlFFMaxPeriod = 30 * time.Second
	ctlFFKeep      = 3 * 1024
	// ctlFFMaxEvents: a state with more events due (requests granted
	// one by one over seconds, as a slow-start batch of hundreds of pods
	// makes) is not looked at; a cycle has a few.
	ctlFFMaxEvents = 64
	// ctlFFMaxCohorts: nor is a state whose pods are in more cohorts
	// than an event holds for nothing (freeCohorts). Flattening writes
	// every cohort down, and such states (pods created one by one
	// through the client and ready after tens of seconds: some 1,200
	// cohorts at 20 QPS and 60s) come from slow-start batches of hundreds
	// of pods, whose cycle, if any, is longer than ctlFFMaxPeriod: looked
	// at, they took a third of such a run's CPU and found nothing.
	ctlFFMaxCohorts = freeCohorts
)

// ctlFF is what a run under ModelControllers keeps to notice its cycle.
type ctlFF struct {
	history []ctlSnap // the last Deployment syncs, oldest first
	wait    int       // Deployment syncs to let pass before looking again
	// misses counts the syncs looked at since a period was last found
	// (or the looking last paused); after ctlFFKeep of them the looking
	// pauses for backoff syncs, 2·ctlFFKeep and four times as long each
	// time, so that a run without a cycle flattens few of its syncs.
	misses, backoff int
	// until: after a jump, nothing is looked at before this time, the
	// next watched time that does not move with the cycle (or two
	// periods on, if sooner): the jump stopped short of it, and the
	// syncs before it cannot make another.
	until time.Time
	// prev is the period of the last jump, to be taken again after two
	// repetitions instead of three (see again).
	prev *prevPeriod
	// retaken counts the jumps taken after one period seen, with the
	// last jump's moves (again), and supers the super-jumps (ffsuper.go);
	// flattened the states looked at, and widest the most cohorts one of
	// them held; tests read them.
	retaken, supers   int
	flattened, widest int
	// lastM is the length, in periods, of the last jump taken.
	lastM int64
	// marks are the run after each of its last jumps, for the
	// super-jumps; checking says the run is a super-jump's check, which
	// records its marks and takes no super-jump.
	marks    []superMark
	checking bool
	// keys and ctl are the flattening walkers' scratch for sorting,
	// kept from one flattening to the next.
	keys []string
	ctl  ctlScratch
}

// A prevPeriod is what the looking keeps of the last jump's period: its
// syncs, its length of time, and each sync's shape (the hash of its
// flat) and moves over one period (state and step), in the period's
// order, for again.
type prevPeriod struct {
	p      int
	dt     time.Duration
	keys   []uint64
	deltas []snapshotDelta
}

// A ctlSnap is the run at one Deployment sync, flattened: when it was,
// the work done, a hash of its shapes, and where its flat holds the times
// that may stop a jump (see watchTime).
type ctlSnap struct {
	snapshot
	at    time.Time
	work  int
	key   uint64
	watch []watchTime
	// stepDone says snapshot.step is the flat of snapshot.recorded.
	stepDone bool
}

// A watchTime is a time of the state (the number at pos, plus off) at
// which something happens that may not move with the cycle: an event
// due, or the time a spam filter lets its next event through.
type watchTime struct {
	pos int
	off time.Duration
}

// flattenControllers takes r apart at a Deployment sync: its state, and
// its step if withStep (see stepFlat). It writes into the buffers of buf,
// if any, which the caller gives up, and sorts in the scratch of scratch
// (the run's own, or, for a jump's check, the run's that it checks: the
// check's flattenings sorted the spam filter's keys and the events into
// new slices each, a twentieth of a maxSurge-1 run's allocations).
func (r *runner) flattenControllers(buf *ctlSnap, withStep bool, scratch *ctlFF) ctlSnap {
	w := walker{noJSON: true}
	var watch []watchTime
	var step flat // the buffers of buf's step, if any, for stepFlat
	switch {
	case buf != nil && cap(buf.state.shape) > 0:
		w.f = flat{shape: buf.state.shape[:0], nums: buf.state.nums[:0], regions: buf.state.regions[:0]}
		watch = buf.watch[:0]
		step = flat{shape: buf.step.shape[:0], nums: buf.step.nums[:0], regions: buf.step.regions[:0]}
	case r.ff.ctl != nil && len(r.ff.ctl.history) > 0:
		// Room for a state like the last one's, and a little more.
		last := r.ff.ctl.history[len(r.ff.ctl.history)-1].state
		w.f.shape = make([]byte, 0, len(last.shape)+len(last.shape)/8)
		w.f.nums = make([]int64, 0, len(last.nums)+len(last.nums)/8)
		w.f.regions = make([]region, 0, len(last.regions)+len(last.regions)/8)
	}
	if scratch != nil {
		w.keys, w.ctl = scratch.keys, scratch.ctl
	}
	if r.ff.maps == nil {
		r.ff.maps = new(mapFlats)
	}
	w.ctl.maps = r.ff.maps
	w.runner(r)
	w.ctlState(r.ctl, &watch)
	r.chargeFlatten(r.pods.cohorts() + r.ctl.listed())
	if scratch != nil {
		scratch.keys, scratch.ctl = w.keys, w.ctl
	}
	s := ctlSnap{snapshot: snapshot{state: w.f, step: step}, at: r.last, work: r.work, watch: watch}
	if r.makesSteps() {
		s.recorded = r.current
		if withStep {
			s.stepFlat()
		}
	}
	s.key = shapeKey(s.state.shape)
	return s
}

// shapeKey hashes a shape eight bytes at a time (FNV-1a, a byte at a
// time, took a sixth of the flattening). It is a filter only: the shapes
// are compared byte for byte before a period is taken (steady) and in
// the check of a jump (matches), so a collision costs time, not
// exactness.
func shapeKey(b []byte) uint64 {
	const mul = 0x9e3779b97f4a7c15
	h := uint64(len(b)) * mul
	for ; len(b) >= 8; b = b[8:] {
		h = (h ^ binary.LittleEndian.Uint64(b)) * mul
		h ^= h >> 32
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * mul
	}
	return h ^ h>>29
}

// stepFlat flattens the snapshot's step, once: the history keeps the
// steps as they are and flattens only those of a period found in the
// states.
func (s *ctlSnap) stepFlat() {
	if s.stepDone {
		return
	}
	s.stepDone = true
	w := walker{noJSON: true, f: s.step, withParts: true} // into the buffers left there, if any
	w.step(&s.recorded)
	s.step, s.parts, s.hasParts = w.f, w.parts, true
}

// fastForwardControllers looks for the cycle after each Deployment sync
// and takes as many periods of it at once as it can check.
func (r *runner) fastForwardControllers() {
	if r.cfg.noFastForward || r.pods.rng != nil || r.cfg.Pods.Room != nil || r.cfg.Pods.MaxPods > 0 || r.syncs < ctlFFStart {
		return
	}
	if _, pending := r.pending(); pending {
		return
	}
	if r.ff.ctl == nil {
		r.ff.ctl = &ctlFF{}
	}
	f := r.ff.ctl
	if f.wait > 0 {
		f.wait--
		return
	}
	if r.last.Before(f.until) {
		return
	}
	cohorts := r.pods.cohorts()
	if len(r.ctl.events) > ctlFFMaxEvents || cohorts > ctlFFMaxCohorts {
		f.history = f.history[:0]
		return
	}
	// The history's buffers are reused: those of the oldest snapshot
	// once it is full, else those left past its end when it was cleared.
	var buf ctlSnap
	if n := len(f.history); n >= ctlFFKeep {
		buf = f.history[0]
		copy(f.history, f.history[1:])
		f.history = f.history[:n-1]
	} else if n < cap(f.history) {
		buf = f.history[:n+1][n]
	}
	f.flattened++
	f.widest = max(f.widest, cohorts)
	f.history = append(f.history, r.flattenControllers(&buf, false, f))
	p, deltas, retake := f.period(r.makesSteps())
	if p == 0 {
		if f.misses++; f.misses >= ctlFFKeep {
			f.backoff = max(2*ctlFFKeep, 4*f.backoff)
			f.wait, f.misses = f.backoff, 0
			f.history = f.history[:0]
		}
		return
	}
	f.misses, f.backoff = 0, 0
	h := f.history[len(f.history)-1-p:]
	dt := h[p].at.Sub(h[0].at)
	if !r.jumpControllers(p, deltas) {
		f.wait = p
		f.history = f.history[:0]
		return
	}
	if retake {
		f.retaken++
	}
	keys := make([]uint64, p)
	for q := range p {
		keys[q] = h[1+q].key
	}
	f.history = f.history[:0]
	f.prev = &prevPeriod{p: p, dt: dt, keys: keys, deltas: deltas}
	r.markJump(p, f.lastM)
}

// period returns the shortest period p, in Deployment syncs, of a whole
// number of seconds, over whose last three repetitions the history (its
// steps too, if steps) moved by the same numbers each time, and those
// moves; or the last jump's period taken again after one repetition
// (again), and then retake true.
func (f *ctlFF) period(steps bool) (p int, deltas []snapshotDelta, retake bool) {
	h := f.history
	n := len(h)
	if deltas, ok := f.again(steps); ok {
		return f.prev.p, deltas, true
	}
	last := h[n-1]
	for j := n - 2; j >= 0; j-- {
		p := n - 1 - j
		dt := last.at.Sub(h[j].at)
		if 3*p > n || dt > ctlFFMaxPeriod {
			break
		}
		if h[j].key != last.key || dt <= 0 || dt%time.Second != 0 {
			continue
		}
		if !f.steadyStates(p) {
			continue
		}
		deltas := make([]snapshotDelta, p)
		ok := true
		for q := p - 1; q >= 0 && ok; q-- {
			a, b, c := &h[n-p+q], &h[n-2*p+q], &h[n-3*p+q]
			var d snapshotDelta
			d.state, ok = steady(a.state, b.state, c.state)
			if ok && steps {
				a.stepFlat()
				b.stepFlat()
				c.stepFlat()
				d.step, ok = steady(a.step, b.step, c.step)
			}
			deltas[q] = d
		}
		if ok {
			return p, deltas, false
		}
	}
	return 0, nil, false
}

// again returns the moves of the last jump's period, in the order of
// the history's last p syncs, when that period of the history is the
// cycle taken again after a refill or a re-check broke it: it lasted as
// long as the last jump's period, its syncs have the shapes of that
// period's syncs in turn (from any place of the cycle: the looking starts
// again wherever the watched time falls), and its last sync moved over it
// as its counterpart moved each period. One period seen is enough for a
// jump (see the package doc): its moves are those the last jump's period
// proved, which the check of the jump proves again, and the last sync's
// move over the period seen is the move of a whole period, from which
// the jump extrapolates. A period seen twice, as the search without a
// last jump wants (period), needs p more syncs computed at each break.
func (f *ctlFF) again(steps bool) ([]snapshotDelta, bool) {
	pp := f.prev
	h := f.history
	n := len(h)
	if pp == nil || pp.p >= n {
		return nil, false
	}
	p := pp.p
	first, last, win := &h[n-1-p], &h[n-1], h[n-p:]
	if last.at.Sub(first.at) != pp.dt || first.key != last.key {
		return nil, false
	}
next:
	for r := range p {
		end := pp.deltas[(r+p-1)%p]
		if pp.keys[(r+p-1)%p] != last.key || !movedBy(last.state, first.state, end.state) {
			continue
		}
		for j := range win {
			q := (r + j) % p
			if pp.keys[q] != win[j].key || len(pp.deltas[q].state) != len(win[j].state.nums) {
				continue next
			}
		}
		if steps {
			first.stepFlat()
			for j := range win {
				win[j].stepFlat()
				if len(pp.deltas[(r+j)%p].step) != len(win[j].step.nums) {
					continue next
				}
			}
			if !movedBy(last.step, first.step, end.step) {
				continue
			}
		}
		deltas := make([]snapshotDelta, p)
		for j := range p {
			deltas[j] = pp.deltas[(r+j)%p]
		}
		return deltas, true
	}
	return nil, false
}

// movedBy reports whether a is b moved by d: one shape, and a's numbers
// less b's are d's.
func movedBy(a, b flat, d []int64) bool {
	if len(a.nums) != len(d) || len(b.nums) != len(d) || !bytes.Equal(a.shape, b.shape) {
		return false
	}
	for i, v := range a.nums {
		if x, ok := sub(v, b.nums[i]); !ok || x != d[i] {
			return false
		}
	}
	return true
}

// steadyStates reports whether the states of the history's last three
// periods of p syncs have one shape at each place of the period and moved
// by the same numbers each time, without allocating: most candidate
// periods fail it.
func (f *ctlFF) steadyStates(p int) bool {
	h := f.history
	n := len(h)
	for q := p - 1; q >= 0; q-- {
		a, b, c := &h[n-p+q], &h[n-2*p+q], &h[n-3*p+q]
		if a.key != b.key || b.key != c.key || len(a.state.nums) != len(b.state.nums) || len(b.state.nums) != len(c.state.nums) {
			return false
		}
		for i, v := range a.state.nums {
			d1, ok1 := sub(v, b.state.nums[i])
			d2, ok2 := sub(b.state.nums[i], c.state.nums[i])
			if !ok1 || !ok2 || d1 != d2 {
				return false
			}
		}
	}
	return true
}

// jumpControllers takes as many periods of p Deployment syncs at once as
// it can check, and reports whether it took any.
func (r *runner) jumpControllers(p int, deltas []snapshotDelta) bool {
	h := r.ff.ctl.history
	n := len(h)
	period := h[n-1].at.Sub(h[n-1-p].at)
	perWork := h[n-1].work - h[n-1-p].work
	hi := r.maxJumpControllers(p, period, perWork, deltas[p-1].state)
	if hi < 1 {
		return false
	}
	spent := 0 // the work the checks computed, passed or not
	try := func(m int64) *runner {
		c, work := r.tryJumpControllers(p, deltas, m)
		spent += work
		return c
	}
	// The longest jump is tried first: it passes unless a cycle ends
	// before the next watched time. When it fails, the one a period
	// shorter often passes (its checking period ends before whatever
	// the longest one's met); else the longest that passes is searched.
	best, lo := try(hi), hi
	if best == nil && hi > 1 {
		best, lo = try(hi-1), hi-1
	}
	if best == nil {
		best, lo = longestJump(hi-2, try)
	}
	work := r.work + spent
	if best == nil {
		r.work = work
		return false
	}
	last := r.ff.ctl.history[len(r.ff.ctl.history)-p:]
	until := r.nextWatched(period, deltas[p-1].state, lo)
	r.commit(p, func(q int) *snapshot { return &last[q].snapshot }, true, deltas, lo, best)
	r.work = work
	r.ff.ctl.until = until
	r.ff.ctl.lastM = lo
	return true
}

// nextWatched returns when the looking starts again after a jump of m
// periods of the given length that move the state by d: the first
// watched time of the history's last state that does not move with the
// cycle and comes after the jump and its checking period, or two periods
// after them if sooner.
func (r *runner) nextWatched(period time.Duration, d []int64, m int64) time.Time {
	last := r.ff.ctl.history[len(r.ff.ctl.history)-1]
	after := last.at.Add(time.Duration(m+1) * period)
	until := after.Add(2 * period)
	for _, wt := range last.watch {
		move := d[wt.pos]
		if move >= int64(period) {
			continue
		}
		v, ok := ahead([]int64{last.state.nums[wt.pos] + int64(wt.off)}, []int64{move}, m+1)
		if !ok {
			continue
		}
		if at := time.Unix(0, v[0]); at.After(after) && at.Before(until) {
			until = at
		}
	}
	return until
}

// maxJumpControllers returns the most periods a jump may take without
// passing a limit of the Config, counting the period that checks it, and
// before the next watched time that does not move with the cycle or a
// count that goes down reaching zero. d is the state's move per period.
// It allows a jump when the work left holds the period that checks it,
// so that a run under MaxWork just above the Work it took jumps where it
// did (TestWorkUnlimitedRunsAlike; asking for two periods' work left
// failed where a jump near the end left less than a period to do).
func (r *runner) maxJumpControllers(p int, period time.Duration, perWork int, d []int64) int64 {
	if period <= 0 || r.work+perWork > r.maxWork {
		return 0
	}
	hi := int64(math.MaxInt64)
	if r.cfg.MaxSyncs > 0 {
		hi = min(hi, int64(r.cfg.MaxSyncs-r.syncs)/int64(p)-1)
	}
	if limit := r.timeLimit(); !limit.IsZero() {
		hi = min(hi, int64(limit.Sub(r.last)/period)-1)
	}
	last := r.ff.ctl.history[len(r.ff.ctl.history)-1]
	nums := last.state.nums
	now := last.at.UnixNano()
	for _, wt := range last.watch {
		at := nums[wt.pos] + int64(wt.off)
		move := d[wt.pos]
		if move >= int64(period) || at <= now {
			continue
		}
		// at + m·move >= now + (m+1)·period
		room := at - now - int64(period)
		if room < 0 {
			return 0
		}
		hi = min(hi, room/(int64(period)-move))
	}
	for i, v := range nums {
		if d[i] < 0 && v >= 0 {
			hi = min(hi, v/(-d[i])-1)
		}
	}
	return hi
}

// tryJumpControllers returns a copy of r taken m periods ahead and one
// period further, computed event by event, or nil when that period does
// not come out as extrapolated; and the work it computed either way (the
// copy's syncs and pod writes, up to where it stopped: a run's Work
// counts what it computed, the checks that failed included).
func (r *runner) tryJumpControllers(p int, deltas []snapshotDelta, m int64) (*runner, int) {
	h := r.ff.ctl.history
	n := len(h)
	last := h[n-1]
	nums, ok := ahead(last.state.nums, deltas[p-1].state, m)
	if !ok {
		return nil, 0
	}
	c := r.clone()
	c.ctl = r.ctl.clone()
	w := walker{decode: true, noJSON: true, f: flat{nums: nums}}
	w.runner(c)
	w.ctlState(c.ctl, nil)
	if w.bad {
		return nil, 0
	}
	// One buffer, sized as the states seen, serves every sync checked.
	buf := ctlSnap{snapshot: snapshot{state: flat{
		shape:   make([]byte, 0, len(last.state.shape)+len(last.state.shape)/8),
		nums:    make([]int64, 0, len(last.state.nums)+len(last.state.nums)/8),
		regions: make([]region, 0, len(last.state.regions)+len(last.state.regions)/8),
	}}}
	for q := range p {
		for {
			e, ok := c.nextEvent()
			if !ok || c.done {
				return nil, c.work - r.work
			}
			if e.kind == evDeploymentSync {
				break
			}
		}
		got := c.flattenControllers(&buf, true, r.ff.ctl)
		buf = got
		want := h[n-p+q]
		if got.key != want.key || !matches(got.state, want.state, deltas[q].state, m+1) || !matches(got.step, want.step, deltas[q].step, m+1) {
			return nil, c.work - r.work
		}
	}
	return c, c.work - r.work
}

// clone returns a copy of c that shares nothing it changes with c.
func (c *ctlRun) clone() *ctlRun {
	out := *c
	out.events = slices.Clone(c.events)
	out.spam = make(map[spamKey]*bucket, len(c.spam))
	for k, b := range c.spam {
		nb := *b
		out.spam[k] = &nb
	}
	out.depTouched = slices.Clone(c.depTouched)
	out.sets = make(map[string]*setSync, len(c.sets))
	for k, s := range c.sets {
		ns := *s
		ns.listed = slices.Clone(s.listed)
		out.sets[k] = &ns
	}
	return &out
}
