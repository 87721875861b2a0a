package sim

import (
	"bytes"
	"slices"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// The steps a jump writes out (commit) share their parts where they are
// equal. Step q of the k-th period jumped over is the period's step q as
// seen (k = 0) with its numbers moved k times by the period's move; its
// actions, counts and conditions are each a slice. Two such parts are
// equal at every k when they are equal as seen and move by the same
// numbers, so which steps can share a part is decided once a jump, from
// the flats:
//
//   - a part that does not move is the seen step's own slice, at every k;
//   - a part equal to that of an earlier step of the same period (or, for
//     the first steps of a period, of a later step of the period before)
//     is that step's slice;
//   - any other part is a copy, in the jump's slabs, with its numbers
//     moved.
//
// In a maxSurge-1 rollout whose pods are ready at once, the conditions
// change once a second (their times are truncated to seconds) and most
// steps are a progress re-check whose reason changes with them, so most
// steps share their conditions and many their actions and counts. Steps
// are read-only (Step), so sharing changes nothing a caller sees:
// TestControllersFastForwardChangesNoResult compares every step with the
// run computed event by event.

// shareDistance is how many steps back a part of a jumped step looks
// for an equal one.
const shareDistance = 16

// Where a jumped step's part comes from: its own copy, the step as seen,
// or (0 or more) the latest step written out at that place of the period.
const (
	ownCopy    = -1
	asRecorded = -2
)

// A stepShare says, for one step of a period, where each of its parts
// lies in its flat and where a jumped step finds it.
type stepShare struct {
	parts [stepParts]stepPart
	from  [stepParts]int
}

// shareSteps returns where the parts of each step of the period h come
// from in a jump (see above); deltas are the period's moves, noJSON as
// the steps were flattened.
func shareSteps(h []*snapshot, deltas []snapshotDelta, noJSON bool) []stepShare {
	p := len(h)
	out := make([]stepShare, p)
	for q := range h {
		out[q].from = [stepParts]int{ownCopy, ownCopy, ownCopy}
	}
	for q := range h {
		if h[q].hasParts {
			out[q].parts = h[q].parts // recorded with the flat
			continue
		}
		st := h[q].recorded
		w := walker{noJSON: noJSON, withParts: true}
		w.step(&st)
		out[q].parts = w.parts
		if !bytes.Equal(w.f.shape, h[q].step.shape) || len(w.f.nums) != len(h[q].step.nums) {
			return out // not the flat the moves are of: every part copied
		}
	}
	for q := range h {
		for i := range stepParts {
			pt := out[q].parts[i]
			d := deltas[q].step[pt.num : pt.num+pt.nums]
			if !slices.ContainsFunc(d, func(v int64) bool { return v != 0 }) {
				out[q].from[i] = asRecorded
				continue
			}
			if i == partActions && carriesSpec(h[q].recorded.Actions) {
				continue // the walker without JSON does not see specs
			}
			for dist := 1; dist <= shareDistance && dist < p; dist++ {
				j, lag := q-dist, int64(0)
				if j < 0 {
					j, lag = j+p, 1
				}
				if samePart(h, out, deltas, q, j, i, lag) {
					out[q].from[i] = j
					break
				}
			}
		}
	}
	return out
}

// samePart reports whether part i of step q of the period equals that of
// step j lag periods earlier (0 or 1), at every period of a jump: the
// same shape, the same moves, and numbers equal as seen.
func samePart(h []*snapshot, sh []stepShare, deltas []snapshotDelta, q, j, i int, lag int64) bool {
	a, b := sh[q].parts[i], sh[j].parts[i]
	if a.nums != b.nums || a.shapeLen != b.shapeLen {
		return false
	}
	if !bytes.Equal(h[q].step.shape[a.shape:a.shape+a.shapeLen], h[j].step.shape[b.shape:b.shape+b.shapeLen]) {
		return false
	}
	da, db := deltas[q].step[a.num:a.num+a.nums], deltas[j].step[b.num:b.num+b.nums]
	if !slices.Equal(da, db) {
		return false
	}
	na, nb := h[q].step.nums[a.num:a.num+a.nums], h[j].step.nums[b.num:b.num+b.nums]
	for x := range na {
		// step q at k is na + k·d, step j at k-lag is nb + (k-lag)·d
		if v, ok := aheadOne(na[x], da[x], lag); !ok || v != nb[x] {
			return false
		}
	}
	return true
}

// carriesSpec reports whether one of the actions carries a pod template
// or a ReplicaSet, which the walker without JSON leaves out of the shape.
func carriesSpec(actions []rollout.Action) bool {
	return slices.ContainsFunc(actions, func(a rollout.Action) bool {
		return a.Type == rollout.CreateReplicaSet || a.Type == rollout.UpdateDeployment
	})
}
