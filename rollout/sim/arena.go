package sim

import "github.com/rolloutmath/rolloutmath/rollout"

// A stepArena holds what the decoding walkers of one jump (commit) write
// into the steps beyond the step's own slices (stepSlabs): the copies of
// the statuses the jumped status writes carry, their conditions, and the
// messages whose numbers moved. Each was an allocation of its own for
// every jumped step (two fifths of the allocations of a 100,000-replica
// maxSurge-1 run with every step); the arena takes them from chunks of
// arenaChunk elements and bytes instead.
//
// A chunk is never written again once an element of it has been handed
// out, so the steps may share it: a chunk that is full is left to the
// steps that point into it, and the next one is allocated. A message is
// written into a byte chunk first and becomes a string only when the
// chunk is flushed (one string for the chunk, each message a substring of
// it), so a step's moved messages are what they should be only after
// flush: commit flushes before it hands a step to an observer, and at
// the end of the jump. Nothing reads a jumped step's messages before:
// the walkers take each message apart from the step as seen (textForm).
type stepArena struct {
	statuses []rollout.DeploymentStatus
	conds    []rollout.Condition
	text     []byte
	pending  []textPatch
}

// A textPatch is a message written into the arena's bytes at
// text[start:end], to be set at *p when the bytes are flushed.
type textPatch struct {
	p          *string
	start, end int
}

// arenaChunk is how many statuses, conditions or bytes of messages a
// chunk holds.
const arenaChunk = 1 << 12

// status returns a copy of s that lives in the arena.
func (a *stepArena) status(s *rollout.DeploymentStatus) *rollout.DeploymentStatus {
	if len(a.statuses) == cap(a.statuses) {
		a.statuses = make([]rollout.DeploymentStatus, 0, arenaChunk)
	}
	a.statuses = append(a.statuses, *s)
	return &a.statuses[len(a.statuses)-1]
}

// conditions returns a copy of c that lives in the arena, with no room
// to grow into the next one's.
func (a *stepArena) conditions(c []rollout.Condition) []rollout.Condition {
	if len(c) > cap(a.conds)-len(a.conds) {
		a.conds = make([]rollout.Condition, 0, max(arenaChunk, len(c)))
	}
	return carve(&a.conds, c)
}

// setText has *p set to b once the arena is flushed (see stepArena).
func (a *stepArena) setText(p *string, b []byte) {
	if len(b) > cap(a.text)-len(a.text) {
		a.flush()
		a.text = make([]byte, 0, max(arenaChunk, len(b)))
	}
	start := len(a.text)
	a.text = append(a.text, b...)
	a.pending = append(a.pending, textPatch{p: p, start: start, end: len(a.text)})
}

// flush sets the messages written since the last flush. The bytes left
// in the chunk stay for the next messages: the string made here copies
// those written so far, and the next flush makes its own.
func (a *stepArena) flush() {
	if len(a.pending) == 0 {
		return
	}
	from := a.pending[0].start
	s := string(a.text[from:])
	for _, t := range a.pending {
		*t.p = s[t.start-from : t.end-from]
	}
	a.pending = a.pending[:0]
}
