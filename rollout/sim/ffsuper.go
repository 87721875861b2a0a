package sim

import (
	"bytes"
	"math"
	"time"
)

// The second level of the controllers model's fast-forward. The jumps of
// ffcontrollers.go stop at every refill of the spam filter and every
// progress re-check, which do not move with the cycle; but the run
// between them is regular too. In a maxSurge-1 rollout whose pods are
// ready at once the refills break the cycle on a grid of 5 minutes and
// the re-check 15 to 25s after the refill of each tenth of an hour, a
// second later every 20 minutes: over an hour every jump of the run is
// the one an hour earlier, its state moved by the same numbers (the
// times by an hour, the sizes by the pods of an hour), but for the jumps
// on either side of the re-check, which take one period more and one
// less, as the re-check falls one period of the cycle (3s) later.
//
// So after each jump the run is flattened (a mark); once the last L
// marks moved by the same numbers as the L before them and those as the
// L before them (three super-periods of L jumps seen: the state, the
// jump's period and its length, the time the looking starts again), the
// run is taken M super-periods ahead at once, and checked by computing
// the super-period after them, jumps and all, as the run would: every
// one of its L marks must come out as extrapolated. The check of a
// super-period proves the ones it skips for the reason one period's
// check does (see ffcontrollers.go). Between two marks the run is made
// of stretches computed event by event and of jumps; with the decisions
// fixed, each stretch computed is an affine function of the state at its
// start, and a jump of m periods adds m times its period's move. The
// state at the start of the stretch j of super-period K is S_j + K·v_j,
// and within the jump j, after k of its periods, S_j' + K·v_j' + k·d_j
// for 0 <= k <= m_j + K·c_j: every number the run compares there is a
// linear function of (K, k) over a trapezoid whose corners are the first
// and last periods of the jump at K = 0 and at K = M+1, all computed
// (the period seen before each jump and the period that checks it), so a
// comparison with one outcome at the corners has it inside, and each
// stretch computed event by event has, at K = 0 and K = M+1, the same
// decisions, by the check of the marks. As for one period, the check
// sees the marks, the jumps and the syncs of its stretches that the
// jumps look at, not each decision between them, and
// TestControllersFastForwardAcrossRefills compares whole Results with the
// runs event by event.
//
// A super-jump is taken only in runs that keep no steps and hand none to
// an observer (OmitSteps, what check runs): the steps of a super-period
// are not written out.

// ctlSuperMarks bounds the marks kept: super-periods of up to a third of
// it, in jumps.
const ctlSuperMarks = 96

// A superMark is a run under ModelControllers right after one of its
// jumps: its state flattened, the jump's period (in Deployment syncs)
// and length (in periods), when the looking starts again, and the run's
// time, syncs and work.
type superMark struct {
	state flat
	key   uint64
	p     int
	m     int64
	until int64 // UnixNano
	at    int64 // UnixNano
	syncs int
	work  int
}

// markJump records a mark after a jump of m periods of p syncs and, in a
// run that keeps no steps and is not itself a check, looks for a
// super-period over the marks and takes it.
func (r *runner) markJump(p int, m int64) {
	f := r.ff.ctl
	if r.makesSteps() {
		return
	}
	w := walker{noJSON: true, keys: f.keys, ctl: f.ctl}
	w.runner(r)
	w.ctlState(r.ctl, nil)
	f.keys, f.ctl = w.keys, w.ctl
	mk := superMark{state: w.f, key: shapeKey(w.f.shape), p: p, m: m, until: f.until.UnixNano(), at: r.last.UnixNano(),
		syncs: r.syncs, work: r.work}
	if len(f.marks) >= ctlSuperMarks {
		f.marks = append(f.marks[:0], f.marks[1:]...)
	}
	f.marks = append(f.marks, mk)
	if f.checking {
		return
	}
	for l := 1; 3*l <= len(f.marks); l++ {
		if moves, ok := f.superPeriod(l); ok {
			r.superJump(l, moves)
			return
		}
	}
}

// superMove is how one mark of a super-period moves each super-period:
// its state, its jump's length and when the looking starts again.
type superMove struct {
	state    []int64
	m, until int64
}

// superPeriod reports whether the last 3l marks are three repetitions of
// l marks that moved by the same numbers each time (the state, the
// jump's length, the looking's restart) with the same shapes and
// periods, and returns those moves.
func (f *ctlFF) superPeriod(l int) ([]superMove, bool) {
	mk := f.marks
	n := len(mk)
	for j := range l {
		a, b, c := &mk[n-l+j], &mk[n-2*l+j], &mk[n-3*l+j]
		if a.key != b.key || b.key != c.key || a.p != b.p || b.p != c.p ||
			a.m-b.m != b.m-c.m || a.until-b.until != b.until-c.until || a.at-b.at != b.at-c.at {
			return nil, false
		}
	}
	moves := make([]superMove, l)
	for j := range l {
		a, b, c := &mk[n-l+j], &mk[n-2*l+j], &mk[n-3*l+j]
		d, ok := steady(a.state, b.state, c.state)
		if !ok {
			return nil, false
		}
		moves[j] = superMove{state: d, m: a.m - b.m, until: a.until - b.until}
	}
	return moves, true
}

// superJump takes the longest run of super-periods of l marks it can
// check (the most before a limit or a count reaching zero, else one
// fewer), or, when neither passes its check, forgets the marks so that
// three super-periods are seen again before the next try.
func (r *runner) superJump(l int, moves []superMove) {
	f := r.ff.ctl
	hi := r.maxSuperJump(l, moves)
	var best *runner
	var lo int64
	spent := 0
	for _, m := range []int64{hi, hi - 1} {
		if m < 1 {
			break
		}
		c, work := r.trySuperJump(l, moves, m)
		spent += work
		if c != nil {
			best, lo = c, m
			break
		}
	}
	if best == nil {
		r.work += spent
		f.marks = f.marks[:0]
		return
	}
	marks := f.marks[len(f.marks)-l:]
	perSyncs := marks[l-1].syncs - f.marks[len(f.marks)-2*l+l-1].syncs
	// The super-period's syncs, each super-period skipped: computed or
	// jumped, they are all taken at once here.
	jumped := best.sum.FastForwarded + int(lo)*perSyncs
	cf := best.ff.ctl
	cf.checking, cf.marks = false, f.marks[:0]
	cf.retaken += f.retaken
	cf.supers = f.supers + 1
	work, cfg := r.work+spent, r.cfg
	*r = *best
	r.cfg = cfg
	r.work = work
	r.sum.FastForwarded = jumped
}

// maxSuperJump returns the most super-periods of l marks a super-jump
// may take, counting the super-period that checks it: before a limit of
// the Config, before a count that goes down would reach zero, and while
// every jump of the super-period keeps at least one period.
func (r *runner) maxSuperJump(l int, moves []superMove) int64 {
	f := r.ff.ctl
	mk := f.marks
	n := len(mk)
	last, prev := &mk[n-1], &mk[n-1-l]
	perWork := last.work - prev.work
	if r.work+perWork > r.maxWork {
		return 0
	}
	hi := int64(math.MaxInt64)
	if r.cfg.MaxSyncs > 0 {
		hi = min(hi, int64(r.cfg.MaxSyncs-r.syncs)/int64(last.syncs-prev.syncs)-1)
	}
	period := last.at - prev.at
	if period <= 0 {
		return 0
	}
	if limit := r.timeLimit(); !limit.IsZero() {
		hi = min(hi, (limit.UnixNano()-last.at)/period-1)
	}
	// The walker holds times up to maxTime (about the year 2116).
	hi = min(hi, (maxTime.UnixNano()-last.at)/period-2)
	d := moves[l-1].state
	for i, v := range last.state.nums {
		if d[i] < 0 && v >= 0 {
			hi = min(hi, v/(-d[i])-1)
		}
	}
	for j, mv := range moves {
		if m := mk[n-l+j].m; mv.m < 0 {
			hi = min(hi, (m-1)/(-mv.m)-1)
		}
	}
	return hi
}

// trySuperJump returns a copy of r taken m super-periods of l marks ahead
// and one super-period further, computed as the run computes it (its
// jumps taken, no super-jump), or nil when one of that super-period's
// marks does not come out as extrapolated; and the work it computed
// either way.
func (r *runner) trySuperJump(l int, moves []superMove, m int64) (*runner, int) {
	f := r.ff.ctl
	marks := f.marks[len(f.marks)-l:]
	last := &marks[l-1]
	nums, ok := ahead(last.state.nums, moves[l-1].state, m)
	if !ok {
		return nil, 0
	}
	until, ok := aheadOne(last.until, moves[l-1].until, m)
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
	c.ff.ctl = &ctlFF{until: time.Unix(0, until).In(f.until.Location()), prev: f.prev, checking: true}
	for j := range l {
		for len(c.ff.ctl.marks) <= j {
			e, ok := c.nextEvent()
			if !ok || c.done {
				return nil, c.work - r.work
			}
			if e.kind == evDeploymentSync && !c.done {
				c.fastForwardControllers()
			}
		}
		if !c.ff.ctl.marks[j].extrapolates(&marks[j], moves[j], m+1) {
			return nil, c.work - r.work
		}
	}
	return c, c.work - r.work
}

// extrapolates reports whether mark got is base moved k times by mv: one
// shape and period, and the numbers, the jump's length and the looking's
// restart moved so.
func (got *superMark) extrapolates(base *superMark, mv superMove, k int64) bool {
	if got.key != base.key || got.p != base.p || !bytes.Equal(got.state.shape, base.state.shape) {
		return false
	}
	if m, ok := aheadOne(base.m, mv.m, k); !ok || m != got.m {
		return false
	}
	if u, ok := aheadOne(base.until, mv.until, k); !ok || u != got.until {
		return false
	}
	return matches(got.state, base.state, mv.state, k)
}
