package sim

import (
	"cmp"
	"slices"
	"strconv"
	"time"
)

// The walker's visits of the controllers model's state, for its
// fast-forward (ffcontrollers.go). Every field that can change during a
// run is visited (TestCtlStateCoversEveryField).

// ctlState visits the controllers model's state: the events due (in the
// order they will be taken), both clients' buckets and event sinks, the
// spam filter, the work queues and the syncs in flight.
func (w *walker) ctlState(c *ctlRun, watch *[]watchTime) {
	var evs []event
	if w.decode {
		evs = sortedEvents(c.events[:0:0], c.events) // a copy, the run's
	} else {
		evs = sortedEvents(w.ctl.evs[:0], c.events)
		w.ctl.evs = evs
	}
	w.lit(strconv.Itoa(len(evs)))
	for i := range evs {
		e := &evs[i]
		if watch != nil && !e.at.IsZero() {
			*watch = append(*watch, watchTime{pos: len(w.f.nums)})
		}
		w.time(&e.at)
		w.lit(strconv.Itoa(e.class))
		w.lit(strconv.Itoa(int(e.kind)))
		w.lit(e.set)
		w.i64(&e.n)
		w.lit(strconv.Itoa(e.which))
	}
	if w.decode {
		c.events = evs // sorted: a heap
	}
	for i := range c.client {
		w.bucket(&c.client[i])
		w.i64(&c.sinks[i].pending)
		w.flag(c.sinks[i].busy)
		w.i64(&c.sinks[i].creations)
	}
	keys := sortedSpamKeys(w.ctl.spam, c.spam)
	w.ctl.spam = keys
	w.lit(strconv.Itoa(len(keys)))
	for _, k := range keys {
		w.lit(strconv.Itoa(k.which))
		w.lit(k.object)
		w.lit(k.kind)
		b := c.spam[k]
		if watch != nil && !b.tat.IsZero() {
			*watch = append(*watch, watchTime{pos: len(w.f.nums), off: b.interval - time.Duration(b.burst)*b.interval})
		}
		w.bucket(b)
	}
	w.bucket(&c.retries)
	w.queue(&c.dep)
	w.flag(c.wakePending)
	if c.wakePending {
		w.time(&c.wakeAt)
	}
	w.flag(c.depWrote)
	w.lit(strconv.Itoa(len(c.depTouched)))
	for _, s := range c.depTouched {
		w.lit(s)
	}
	w.time(&c.statusAt)
	w.lit(strconv.FormatInt(c.plannedGen, 10))
	w.flag(c.depFailed)
	w.flag(c.errSeen)
	if c.errSeen {
		w.time(&c.errAt)
	}
	names := w.ctl.names[:0]
	for n := range c.sets {
		names = append(names, n)
	}
	slices.Sort(names)
	w.ctl.names = names
	w.lit(strconv.Itoa(len(names)))
	for _, n := range names {
		s := c.sets[n]
		w.lit(n)
		w.queue(&s.queueKey)
		w.lit(s.uid)
		w.time(&s.started)
		w.cohorts(&s.listed)
		w.i64(&s.listedGone)
		w.i64(&s.generation)
		w.dur(&s.minReady)
		w.i64(&s.toCreate)
		w.i64(&s.batch)
		w.i64(&s.batchLeft)
		w.i64(&s.deleteLeft)
		w.flag(s.refused)
		w.flag(s.holdBack)
		w.i64(&s.heldBack)
		w.flag(s.stale)
		w.flag(s.retried)
		w.flag(s.failed)
		w.lit(strconv.Itoa(s.failures))
		w.flag(s.retryPending)
		if s.retryPending {
			w.time(&s.retryAt)
		}
		w.setStatus(&s.status)
	}
	w.flag(c.podPending)
	if c.podPending {
		w.time(&c.podAt)
	}
	w.flag(c.complete)
	w.time(&c.completeAt)
	w.flag(c.revealPending)
	if c.revealPending {
		w.time(&c.revealAt)
	}
	w.time(&c.leftAt)
	w.i64(&c.left)
	w.i64(&c.racePeak)
	w.time(&c.racePeakAt)
	w.i64(&c.raceCeiling)
	w.time(&c.heldAt)
	w.deadlineProof(&c.proof)
	w.flag(c.cutShort)
}

// deadlineProof walks what a run has read of its progress deadline
// (deadline.go): its durations move with the cycle like any count.
func (w *walker) deadlineProof(p *deadlineProof) {
	w.flag(p.broken)
	w.dur(&p.atLeast)
	w.dur(&p.above)
	w.flag(p.settled)
	w.time(&p.settledAt)
	w.flag(p.fired)
	w.time(&p.updated)
}

// bucket visits a token bucket's time; its rate is the configuration.
func (w *walker) bucket(b *bucket) {
	w.flag(b.unlimited)
	w.time(&b.tat)
}

// queue visits a work queue key's flags.
func (w *walker) queue(q *queueKey) {
	w.flag(q.queued)
	w.flag(q.busy)
	w.flag(q.dirty)
}

// sortedEvents returns the events of evs in the order the run takes them
// (eventHeap.Less), appended to into: sorted, it is a
// heap too.
func sortedEvents(into []event, evs eventHeap) []event {
	out := append(into, evs...)
	slices.SortFunc(out, func(a, b event) int {
		if x := a.at.Compare(b.at); x != 0 {
			return x
		}
		if a.class != b.class {
			return cmp.Compare(a.class, b.class)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return out
}

// sortedSpamKeys returns the keys of the spam filter in a fixed order,
// in the room of last, the keys it returned the time before: if m holds
// exactly those (the filter gains a key seldom, and loses none), they
// are returned as they are, without sorting them again.
func sortedSpamKeys(last []spamKey, m map[spamKey]*bucket) []spamKey {
	if len(last) == len(m) && !slices.ContainsFunc(last, func(k spamKey) bool { return m[k] == nil }) {
		return last
	}
	keys := last[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b spamKey) int {
		return cmp.Or(cmp.Compare(a.which, b.which), cmp.Compare(a.object, b.object), cmp.Compare(a.kind, b.kind))
	})
	return keys
}
