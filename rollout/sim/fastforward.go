package sim

import (
	"bytes"
	"cmp"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Fast-forward (see Run) looks at a run once it is this many syncs long,
// for periods of up to this many syncs. After ffKeep syncs looked at in a
// row without a period, it pauses for 2·ffKeep syncs, and four times as
// long at each pause after that until it finds one, so that a run without
// a cycle flattens few of its syncs (a flattening encodes the objects'
// specs, some 25 µs where a sync takes about 7).
const (
	ffStart     = 40
	ffMaxPeriod = 8
	ffKeep      = 3 * 1024
)

// fastForward is what a run keeps to notice a regular phase: its last
// syncs, flattened.
type fastForward struct {
	history []snapshot // the last syncs, oldest first
	wait    int        // syncs to let pass before looking again
	ctl     *ctlFF     // under ModelControllers
	// misses counts the syncs looked at since a period was last found
	// (or the looking last paused), backoff the length of the last
	// pause (see ffKeep), and flattened every sync looked at.
	misses, backoff, flattened int
	// maps are the flattenings of the maps seen last under
	// ModelControllers (see mapFlats), shared with the copies that check
	// a jump.
	maps *mapFlats
	// arena is where the jumps' decoding walkers copy statuses,
	// conditions and messages (commit), kept from one jump to the next
	// so that short jumps fill the same chunks.
	arena stepArena
}

// A snapshot is a run after one sync: its state and the step it recorded,
// flattened, and the step itself.
type snapshot struct {
	state, step flat
	recorded    Step
	// parts are where the parts of the step lie in its flat (see
	// shareSteps), if hasParts.
	parts    [stepParts]stepPart
	hasParts bool
}

// flatten takes r apart after a sync.
func (r *runner) flatten() snapshot {
	w := walker{}
	w.runner(r)
	s := snapshot{state: w.f}
	if r.makesSteps() {
		s.recorded = r.current
		w = walker{withParts: true}
		w.step(&s.recorded)
		s.step, s.parts, s.hasParts = w.f, w.parts, true
	}
	return s
}

// fastForward looks for a regular phase after each sync, and takes as
// many periods of it at once as it can check.
func (r *runner) fastForward() {
	ff := &r.ff
	if r.cfg.noFastForward || r.pods.rng != nil || r.cfg.Pods.Room != nil || r.syncs < ffStart {
		return
	}
	if ff.wait > 0 {
		ff.wait--
		return
	}
	ff.flattened++
	ff.history = append(ff.history, r.flatten())
	if n := len(ff.history); n > 3*ffMaxPeriod {
		ff.history = slices.Delete(ff.history, 0, n-3*ffMaxPeriod)
	}
	p, deltas := ff.period()
	if p == 0 {
		keep := cmp.Or(r.cfg.ffKeep, ffKeep)
		if ff.misses++; ff.misses >= keep {
			ff.backoff = max(2*keep, 4*ff.backoff)
			ff.wait, ff.misses = ff.backoff, 0
			ff.history = ff.history[:0]
		}
		return
	}
	ff.misses, ff.backoff = 0, 0
	if !r.jump(p, deltas) {
		ff.wait = 3 * ffMaxPeriod // not regular after all: look again later
	}
	ff.history = ff.history[:0]
}

// period returns the shortest period p over whose last three repetitions
// the history moved by the same numbers each time, and those moves: the
// state's and the step's for each of the last p syncs.
func (ff *fastForward) period() (int, []snapshotDelta) {
	h := ff.history
	n := len(h)
	for p := 1; p <= ffMaxPeriod && 3*p <= n; p++ {
		deltas := make([]snapshotDelta, p)
		ok := true
		for q := 0; q < p && ok; q++ {
			a, b, c := h[n-p+q], h[n-2*p+q], h[n-3*p+q]
			var d snapshotDelta
			d.state, ok = steady(a.state, b.state, c.state)
			if ok {
				d.step, ok = steady(a.step, b.step, c.step)
			}
			deltas[q] = d
		}
		if ok {
			return p, deltas
		}
	}
	return 0, nil
}

// snapshotDelta is how much a snapshot's numbers move each period.
type snapshotDelta struct{ state, step []int64 }

// steady reports whether a, b and c (newest first) have one shape and move
// by the same numbers from c to b as from b to a, and returns those moves.
func steady(a, b, c flat) ([]int64, bool) {
	if !bytes.Equal(b.shape, c.shape) {
		return nil, false
	}
	d, ok := moved(a, b)
	if !ok {
		return nil, false
	}
	for i, di := range d {
		if d2, ok := sub(b.nums[i], c.nums[i]); !ok || d2 != di {
			return nil, false
		}
	}
	return d, true
}

// moved returns a's numbers less b's, if a and b have one shape and no
// difference overflows.
func moved(a, b flat) ([]int64, bool) {
	if !bytes.Equal(a.shape, b.shape) {
		return nil, false
	}
	d := make([]int64, len(a.nums))
	for i := range d {
		var ok bool
		if d[i], ok = sub(a.nums[i], b.nums[i]); !ok {
			return nil, false
		}
	}
	return d, true
}

func sub(a, b int64) (int64, bool) {
	d := a - b
	return d, (a >= b) == (d >= 0)
}

// ahead returns base + k·d for each number, and false if one overflows.
func ahead(base, d []int64, k int64) ([]int64, bool) {
	return aheadInto(make([]int64, len(base)), base, d, k)
}

// aheadInto is ahead, writing into out.
func aheadInto(out, base, d []int64, k int64) ([]int64, bool) {
	for i := range base {
		v, ok := aheadOne(base[i], d[i], k)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func abs(v int64) int64 {
	if v < 0 {
		return -v // MinInt64 stays negative, and Mul64 then overflows
	}
	return v
}

// jump takes as many periods of p syncs at once as it can check, and
// reports whether it took any. The history's last p syncs are a period,
// moving by deltas each time. A jump of m periods is checked by
// extrapolating the run to m periods ahead and computing the period after
// that one sync at a time: it must come out as extrapolated. Jumps of 1,
// 2, 4, ... periods are tried until one fails or a limit is near, then the
// longest that passes is found by bisection.
func (r *runner) jump(p int, deltas []snapshotDelta) bool {
	hi := r.maxJump(p, deltas[p-1].state)
	spent := 0 // syncs computed to check
	try := func(m int64) *runner {
		spent += p
		return r.tryJump(p, deltas, m)
	}
	best, lo := longestJump(hi, try)
	work := r.work + spent
	if best == nil {
		r.work = work
		return false
	}
	last := r.ff.history[len(r.ff.history)-p:]
	r.commit(p, func(q int) *snapshot { return &last[q] }, false, deltas, lo, best)
	r.work = work
	return true
}

// longestJump returns the longest jump of 1 to hi periods that try
// passes (try returns the run after it, nil when it fails) and its number
// of periods, or nil and 0 when none passes: jumps of 1, 2, 4, ...
// periods are tried until one fails or the next would pass hi, then the
// longest between the last that passed and the first that failed is
// found by bisection.
func longestJump(hi int64, try func(m int64) *runner) (*runner, int64) {
	var best *runner
	lo, failed := int64(0), hi+1 // the longest jump that passed, the shortest that failed
	for m := int64(1); m <= hi; m *= 2 {
		c := try(m)
		if c == nil {
			failed = m
			break
		}
		best, lo = c, m
		if m > hi/2 {
			break
		}
	}
	for best != nil && failed-lo > 1 {
		mid := lo + (failed-lo)/2
		if c := try(mid); c != nil {
			best, lo = c, mid
		} else {
			failed = mid
		}
	}
	return best, lo
}

// maxJump returns the most periods a jump may take without passing a
// limit of the Config or a pending replica change or edit, counting the
// period that checks it. d is the state's move per period, whose first
// number is the time of the next sync.
func (r *runner) maxJump(p int, d []int64) int64 {
	hi := int64(math.MaxInt64)
	if r.work+p > r.maxWork {
		return 0
	}
	if r.cfg.MaxSyncs > 0 {
		hi = min(hi, int64(r.cfg.MaxSyncs-r.syncs)/int64(p)-1)
	}
	dt := time.Duration(d[0])
	if dt <= 0 {
		return hi
	}
	// Every sync up to the end of the checking period comes before
	// r.last + (m+1)·dt.
	room := func(until time.Time) int64 { return int64(until.Sub(r.last)/dt) - 1 }
	if r.cfg.MaxTime > 0 {
		hi = min(hi, room(r.start.Add(r.cfg.MaxTime)))
	}
	if at, ok := r.pending(); ok {
		hi = min(hi, room(at.Add(-1))) // strictly before the change
	}
	return hi
}

// tryJump returns a copy of r taken m periods ahead and one period
// further, computed, or nil when that period does not come out as
// extrapolated.
func (r *runner) tryJump(p int, deltas []snapshotDelta, m int64) *runner {
	h := r.ff.history
	n := len(h)
	last := h[n-1]
	nums, ok := ahead(last.state.nums, deltas[p-1].state, m)
	if !ok {
		return nil
	}
	c := r.clone()
	w := walker{decode: true, f: flat{nums: nums}}
	w.runner(c)
	if w.bad {
		return nil
	}
	for q := range p {
		if c.limitReached() {
			return nil
		}
		c.work++
		c.step()
		if c.done {
			return nil
		}
		got := c.flatten()
		want := h[n-p+q]
		if !matches(got.state, want.state, deltas[q].state, m+1) || !matches(got.step, want.step, deltas[q].step, m+1) {
			return nil
		}
	}
	return c
}

// matches reports whether got is base moved k times by d.
func matches(got, base flat, d []int64, k int64) bool {
	if !bytes.Equal(got.shape, base.shape) {
		return false
	}
	if len(got.nums) != len(base.nums) {
		return false
	}
	for i, v := range got.nums {
		want, ok := aheadOne(base.nums[i], d[i], k)
		if !ok || v != want {
			return false
		}
	}
	return true
}

// aheadOne returns base + k·d, and false if it overflows.
func aheadOne(base, d, k int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(abs(d)), uint64(k))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	step := int64(lo)
	if d < 0 {
		step = -step
	}
	v := base + step
	if (step > 0 && v < base) || (step < 0 && v > base) {
		return 0, false
	}
	return v, true
}

// commit takes the jump of m periods that c checked: the m·p steps in
// between are written out from the history's last period, whose sync q
// is last(q) (its step flattened without JSON if noJSON), and the run
// goes on from c, which has computed the period after them. The steps
// share the parts that are equal (shareSteps) and copy the others into
// the jump's slabs. Both models' fast-forwards commit their jumps so.
func (r *runner) commit(p int, last func(q int) *snapshot, noJSON bool, deltas []snapshotDelta, m int64, c *runner) {
	skipped := int(m) * p
	if r.makesSteps() {
		h := make([]*snapshot, p)
		for q := range h {
			h[q] = last(q)
		}
		if need := len(r.steps) + skipped + len(c.steps); !r.cfg.OmitSteps && need > cap(r.steps) {
			// Room for the steps the cycle is likely to make to its end
			// (see stepsAhead), else doubled, so that the jumps of a long
			// run copy its steps once or a few times in all rather than
			// at every jump.
			want := max(need, 2*cap(r.steps), need+stepsAhead(h[p-1].state.nums, deltas[p-1].state, m, p))
			if r.cfg.MaxSyncs > 0 {
				want = max(need, min(want, r.cfg.MaxSyncs)) // a step a sync
			}
			r.steps = slices.Grow(r.steps, want-len(r.steps))
		}
		share := shareSteps(h, deltas, noJSON)
		slabs := newStepSlabs(h, share, int(m))
		// walkers[q] decodes the steps at place q of the period, set up
		// once a jump (a walker is some 400 bytes: building one a step was
		// a tenth of writing it).
		// The walkers share the run's arena for what they copy beyond
		// the slabs; its messages are set at each flush.
		walkers := make([]walker, p)
		arena := &r.ff.arena
		for q := range p {
			w := &walkers[q]
			*w = walker{decode: true, noJSON: noJSON, f: flat{regions: h[q].step.regions}, same: unchanged(h[q].step, deltas[q].step), forms: make([]*textForm, len(h[q].step.regions)), arena: arena, seen: &h[q].recorded, moves: deltas[q].step, parts: share[q].parts, withParts: true}
			for part, from := range share[q].from {
				w.skip[part] = from != ownCopy
			}
		}
		// latest[q] is the last step written at place q of the period.
		latest := make([]Step, p)
		for q := range p {
			latest[q] = h[q].recorded
		}
		// nums[q] are step q's numbers at the period written last, moved
		// by one period at a time (an addition each, where aheadInto
		// multiplied, and only for the numbers that move, moving[q]): c
		// checked the jump's last period, so no sum overflows.
		nums := make([][]int64, p)
		moving := make([][]int32, p)
		for q := range p {
			nums[q] = slices.Clone(h[q].step.nums)
			for x, v := range deltas[q].step[:len(nums[q])] {
				if v != 0 {
					moving[q] = append(moving[q], int32(x))
				}
			}
		}
		for i := range skipped {
			q := i % p
			cur, d := nums[q], deltas[q].step
			for _, x := range moving[q] {
				cur[x] += d[x]
			}
			st := slabs.copyOf(&h[q].recorded, &share[q], latest)
			w := &walkers[q]
			w.f.nums, w.pos, w.ri, w.owned = cur, 0, 0, true
			w.step(&st)
			for _, s := range w.asStep {
				s.Conditions = st.Conditions
			}
			w.asStep = w.asStep[:0]
			latest[q] = st
			if r.cfg.Observe != nil {
				arena.flush() // the observer reads the step now
			}
			r.emit(st)
		}
		arena.flush()
		for _, st := range c.steps {
			r.emit(st)
		}
	}
	steps, ff, cfg := r.steps, r.ff, r.cfg
	fastForwarded := r.sum.FastForwarded + skipped
	*r = *c
	r.steps, r.ff, r.cfg = steps, ff, cfg
	r.sum.FastForwarded = fastForwarded
}

// stepsAhead estimates how many steps a run makes after a jump of m
// periods of p syncs (and the period that checked it), from the state
// at the period's end (nums) and its move per period (d): the cycle goes
// on until a number that goes down reaches zero (in a rollout, an old
// ReplicaSet's size), and a sixteenth more for the syncs computed one by
// one between jumps. It is room reserved, not a promise: a shorter run
// leaves it unused (the memory is not touched), a longer one grows the
// steps by doubling. It is at most maxStepsAhead, and 0 when no number
// goes down.
func stepsAhead(nums, d []int64, m int64, p int) int {
	periods := int64(-1)
	for i, v := range nums {
		if d[i] < 0 && v >= 0 {
			if left := v / -d[i]; periods < 0 || left < periods {
				periods = left
			}
		}
	}
	periods -= m + 1 // the jump's and the checking period's moves are not in nums yet
	if periods <= 0 {
		return 0
	}
	if periods > maxStepsAhead/int64(p) {
		return maxStepsAhead
	}
	n := periods * int64(p)
	return int(min(n+n/16, maxStepsAhead))
}

// maxStepsAhead bounds the room stepsAhead reserves (4,194,304 steps, a
// half GB of address space, untouched until written).
const maxStepsAhead = 1 << 22

// stepSlabs hold the actions, counts and conditions of the steps a jump
// writes out, in one allocation of each for the whole jump rather than
// three for each step, and only for the parts the steps do not share
// (see shareSteps).
type stepSlabs struct {
	actions    []rollout.Action
	sets       []SetCount
	conditions []rollout.Condition
}

// newStepSlabs returns slabs for m periods of the steps of h that share
// their parts as share says.
func newStepSlabs(h []*snapshot, share []stepShare, m int) stepSlabs {
	var na, ns, nc int
	for q, s := range h {
		from := share[q].from
		if from[partActions] == ownCopy {
			na += len(s.recorded.Actions)
		}
		if from[partSets] == ownCopy {
			ns += len(s.recorded.Sets)
		}
		if from[partConditions] == ownCopy {
			nc += len(s.recorded.Conditions)
		}
	}
	return stepSlabs{
		actions:    make([]rollout.Action, 0, m*na),
		sets:       make([]SetCount, 0, m*ns),
		conditions: make([]rollout.Condition, 0, m*nc),
	}
}

// copyOf returns a copy of st whose actions, counts and conditions are
// copies in the slabs (a step without any keeps st's), or, where sh says
// the part is shared, st's own or that of latest[from].
func (b *stepSlabs) copyOf(st *Step, sh *stepShare, latest []Step) Step {
	out := *st
	switch from := sh.from[partActions]; from {
	case ownCopy:
		out.Actions = carve(&b.actions, st.Actions)
	case asRecorded:
	default:
		out.Actions = latest[from].Actions
	}
	switch from := sh.from[partSets]; from {
	case ownCopy:
		out.Sets = carve(&b.sets, st.Sets)
	case asRecorded:
	default:
		out.Sets = latest[from].Sets
	}
	switch from := sh.from[partConditions]; from {
	case ownCopy:
		out.Conditions = carve(&b.conditions, st.Conditions)
	case asRecorded:
	default:
		out.Conditions = latest[from].Conditions
	}
	return out
}

// carve copies s to the end of *slab and returns the copy, with no room
// to grow into the next one; an empty s is returned as it is.
func carve[T any](slab *[]T, s []T) []T {
	if len(s) == 0 {
		return s
	}
	start := len(*slab)
	*slab = append(*slab, s...)
	return (*slab)[start:len(*slab):len(*slab)]
}

// clone returns a copy of r that shares nothing it changes with r and has
// no steps yet.
func (r *runner) clone() *runner {
	c := *r
	c.st = r.st
	c.st.Deployment = r.st.Deployment.DeepCopy()
	c.st.ReplicaSets = make([]rollout.ReplicaSet, len(r.st.ReplicaSets))
	for i, rs := range r.st.ReplicaSets {
		c.st.ReplicaSets[i] = rs.DeepCopy()
	}
	c.pods = r.pods.clone()
	c.changes = slices.Clone(r.changes)
	c.edits = slices.Clone(r.edits)
	// The copy keeps its steps, if the run makes any, for commit to emit.
	c.cfg.OmitSteps, c.cfg.Observe = !r.makesSteps(), nil
	c.steps = nil
	c.match = nil
	c.ff = fastForward{maps: r.ff.maps}
	return &c
}
