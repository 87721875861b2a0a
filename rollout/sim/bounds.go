package sim

import (
	"iter"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Bounds are what a strategy allows a rollout of Replicas replicas,
// computed without a simulation.
type Bounds struct {
	Replicas int32
	// Surge and Unavailable are maxSurge (rounded up) and maxUnavailable
	// (rounded down) resolved against Replicas, as rollout.Limits resolves
	// them. Recreate has no surge and stops every pod: Unavailable is
	// Replicas.
	Surge, Unavailable int32
	// PeakPods is Replicas + min(Surge, Replicas): the most pods (not
	// counting terminating ones) the ReplicaSets of a rollout from a
	// complete state may add up to, since the new ReplicaSet grows to at
	// most replicas + maxSurge pods in all and to at most Replicas itself.
	// For Recreate it is Replicas.
	PeakPods int64
	// MinAvailable is Replicas - Unavailable: the fewest available pods
	// while every pod becomes ready in time (0 for Recreate).
	MinAvailable int32
	// MinSteps is the fewest syncs that change a size (create the new
	// ReplicaSet with pods, or scale one) in a rollout from one fully
	// available old ReplicaSet when every pod becomes ready at once: the
	// syncs of Run, event driven, under the zero PodModel.
	MinSteps int
}

// ComputeBounds returns the bounds of a rollout of replicas replicas
// under st. MinSteps comes from running the rollout arithmetic of
// rollout.Plan on sizes alone: each sync grows the new ReplicaSet up to
// replicas + maxSurge (at most replicas), or, if it cannot, shrinks the old
// one by its available pods above replicas - maxUnavailable. Its cost does
// not grow with replicas. A strategy type other than RollingUpdate and Recreate rolls
// out nothing: no surge, nothing unavailable, MinSteps 0. A negative
// replicas gives Bounds with only Replicas set.
func ComputeBounds(st rollout.Strategy, replicas int32) Bounds {
	b := Bounds{Replicas: replicas}
	if replicas < 0 {
		return b
	}
	d := rollout.Deployment{Spec: rollout.DeploymentSpec{Replicas: replicas, Strategy: st}}
	l := rollout.Limits(d)
	b.Surge, b.Unavailable = l.Surge, l.Unavailable
	switch st.Type {
	case rollout.RecreateStrategy:
		b.Unavailable = replicas
		if replicas > 0 {
			b.MinSteps = 2 // every old ReplicaSet to 0; then the new one at full size
		}
	case rollout.RollingUpdateStrategy:
		b.MinSteps = rollingSteps(int64(replicas), int64(l.Surge), int64(l.Unavailable))
	}
	b.PeakPods = int64(replicas) + int64(min(b.Surge, replicas))
	b.MinAvailable = replicas - b.Unavailable
	return b
}

// rollingSteps counts the size-changing syncs of a rolling update from one
// fully available old ReplicaSet of r replicas when every pod becomes
// available right after the sync that created it. It follows rollout's
// rolloutRolling: the sync that creates the new ReplicaSet (R-NRS-1) goes
// on to the old ones; a sync that grows the new ReplicaSet (R-ROLL-5) does
// nothing else; otherwise the old ReplicaSet shrinks (R-ROLL-6, R-ROLL-8).
func rollingSteps(r, surge, unavailable int64) int {
	maxTotal, minAvail := r+surge, r-unavailable
	grow := func(total, size int64) int64 { // newRSNewReplicas
		if total >= maxTotal {
			return size
		}
		return size + min(maxTotal-total, r-size)
	}
	old, oldAvail := r, r
	newSize, newAvail := int64(-1), int64(0) // -1: not created yet
	steps := 0
	for {
		// After an old ReplicaSet shrank to the floor, every pair of syncs
		// grows the new one by surge + unavailable and shrinks the old one
		// by as much, until either would pass its end: take all but the
		// last such pair at once, so the cost does not grow with replicas.
		if k := surge + unavailable; newSize >= 0 && old > 0 && old+newSize == minAvail && k > 0 {
			if m := min((r-newSize)/k, old/k) - 1; m > 0 {
				newSize, old, steps = newSize+m*k, old-m*k, steps+2*int(m)
				oldAvail, newAvail = old, newSize
			}
		}
		changed := false
		if newSize < 0 {
			newSize = grow(old, 0)
			changed = newSize > 0
		}
		grew := false
		if newSize != r {
			target := r
			if newSize < r {
				target = grow(old+newSize, newSize)
			}
			if target != newSize {
				newSize, grew, changed = target, true, true
			}
		}
		if !grew && old > 0 && old+newSize-minAvail-(newSize-newAvail) > 0 {
			if avail := oldAvail + newAvail; avail > minAvail {
				old -= min(old, avail-minAvail)
				changed = true
			}
		}
		if !changed {
			return steps
		}
		steps++
		oldAvail, newAvail = old, newSize
	}
}

// BoundsRange yields ComputeBounds for every replica count from min to
// max, in order, one at a time: its memory does not grow with the range.
// Counts below 0 are left out, and min > max yields nothing.
//
// Rounding flips where Surge or Unavailable differs from the previous
// entry's: a percent p of maxSurge rounds up, so Surge grows by one at the
// first count past each multiple of 100/p (for 25%: 1, 5, 9, ...), while
// maxUnavailable rounds down and grows at each multiple (for 25%: 4, 8,
// 12, ...). Between flips PeakPods and MinAvailable move with Replicas;
// MinSteps jumps where a flip changes how many rounds the rollout needs.
func BoundsRange(st rollout.Strategy, min, max int32) iter.Seq[Bounds] {
	return func(yield func(Bounds) bool) {
		for r := int64(min); r <= int64(max); r++ {
			if r >= 0 && !yield(ComputeBounds(st, int32(r))) {
				return
			}
		}
	}
}
