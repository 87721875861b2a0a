package rollout

import (
	"fmt"
	"math"

	"github.com/rolloutmath/rolloutmath/surge"
)

// ResolveFenceposts resolves maxSurge (rounded up) and maxUnavailable
// (rounded down) against desired, with upstream's rule that when both come
// to zero maxUnavailable is 1 (R-FENCE-1). It does not clamp to desired: see
// [MaxUnavailable]. Values that scale past int32 saturate at MaxInt32.
func ResolveFenceposts(maxSurge, maxUnavailable surge.Value, desired int32) (surgeCount, unavailable int32) {
	l := surge.Resolve(maxSurge, maxUnavailable, desired)
	return l.Surge, l.Unavailable
}

// Limits returns the resolved maxSurge and maxUnavailable of d as the
// controller uses them: both 0 unless d is a RollingUpdate Deployment,
// Unavailable clamped to spec.replicas (R-FENCE-2, R-FENCE-3). Surge is
// also kept small enough that replicas + Surge fits int32, where upstream's
// sum wraps to a negative number; if that leaves both at zero, Unavailable
// is 1, as when they resolve to zero.
func Limits(d Deployment) surge.Limits { return limits(&d) }

func limits(d *Deployment) surge.Limits {
	if d.Spec.Strategy.Type != RollingUpdateStrategy {
		return surge.Limits{}
	}
	ru := d.Spec.Strategy.RollingUpdate
	l := surge.Resolve(ru.MaxSurge, ru.MaxUnavailable, d.Spec.Replicas).Clamped(d.Spec.Replicas)
	l.Surge = capSurge(l.Surge, d.Spec.Replicas)
	if d.Spec.Replicas > 0 && l.Surge == 0 && l.Unavailable == 0 {
		l.Unavailable = 1 // the both-zero rule again, so the rollout can move
	}
	return l
}

// maxSurge is limits(d).Surge without resolving maxUnavailable, which the
// surge does not depend on.
func maxSurge(d *Deployment) int32 {
	if d.Spec.Strategy.Type != RollingUpdateStrategy {
		return 0
	}
	return capSurge(d.Spec.Strategy.RollingUpdate.MaxSurge.ScaleUp(d.Spec.Replicas), d.Spec.Replicas)
}

// capSurge limits a resolved surge so that replicas + surge fits int32.
func capSurge(s, replicas int32) int32 {
	if replicas > 0 {
		return min(s, math.MaxInt32-replicas)
	}
	return s
}

// MaxSurge returns how many pods above spec.replicas a rollout of d may
// create: 0 for a strategy other than RollingUpdate (R-FENCE-2).
func MaxSurge(d Deployment) int32 { return maxSurge(&d) }

// MaxUnavailable returns how many of spec.replicas may be unavailable during
// a rollout of d: 0 for a strategy other than RollingUpdate or for zero
// replicas, never more than spec.replicas (R-FENCE-3).
func MaxUnavailable(d Deployment) int32 { return limits(&d).Unavailable }

// MinAvailable returns spec.replicas - MaxUnavailable(d) for a RollingUpdate
// Deployment and 0 otherwise (R-FENCE-4).
func MinAvailable(d Deployment) int32 {
	if d.Spec.Strategy.Type != RollingUpdateStrategy {
		return 0
	}
	return d.Spec.Replicas - MaxUnavailable(d)
}

// maxReplicas returns spec.replicas + MaxSurge(d), the value of the
// max-replicas annotation.
func maxReplicas(d *Deployment) int64 {
	return int64(d.Spec.Replicas) + int64(maxSurge(d))
}

// NewRSNewReplicas returns the size the new ReplicaSet should have now
// (R-NRS-1). For RollingUpdate it grows newRS by as much as maxSurge allows
// over the sizes of allRSs (which include newRS where the controller has
// one), but never beyond spec.replicas: the result is spec(newRS) when the
// sum of allRSs already reaches replicas + maxSurge, and otherwise
// spec(newRS) + min(replicas + maxSurge - sum, replicas - spec(newRS)). For
// Recreate it is spec.replicas. Sums are taken in int64. For an unknown
// strategy type it returns 0 and an error, as upstream's. The arguments are upstream's:
// NewRSNewReplicas reads them through pointers, modifies none of them and
// does not allocate.
func NewRSNewReplicas(d *Deployment, allRSs []*ReplicaSet, newRS *ReplicaSet) (int32, error) {
	switch d.Spec.Strategy.Type {
	case RollingUpdateStrategy:
		return newRSNewReplicas(d.Spec.Replicas, maxReplicas(d), GetReplicaCountForReplicaSets(allRSs), newRS.Spec.Replicas), nil
	case RecreateStrategy:
		return d.Spec.Replicas, nil
	default:
		return 0, fmt.Errorf("deployment type %s isn't supported", d.Spec.Strategy.Type)
	}
}

// newRSNewReplicas is the RollingUpdate branch of NewRSNewReplicas: the
// new size of a new ReplicaSet of newSize, given spec.replicas, replicas +
// maxSurge and the current sum of ReplicaSet sizes. (Upstream scales
// maxSurge directly rather than through ResolveFenceposts; the surge is the
// same.)
func newRSNewReplicas(replicas int32, maxTotal, current int64, newSize int32) int32 {
	if current >= maxTotal {
		return newSize
	}
	// R-NRS-1: grow by the surge room, but never past replicas.
	return int32(int64(newSize) + min(maxTotal-current, int64(replicas)-int64(newSize)))
}
