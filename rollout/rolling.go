package rollout

import (
	"errors"
	"fmt"
	"slices"
)

// rolloutRolling is one sync of a RollingUpdate rollout (R-ROLL-1..4): grow
// the new ReplicaSet within maxSurge, or else shrink the old ones within
// maxUnavailable, or else, once complete, clean up the history; then write
// the status. The status is computed from the ReplicaSets as they were
// before this sync's scaling.
func (p *planner) rolloutRolling() error {
	newRS, old, err := p.replicaSets(createIfMissing)
	if err != nil {
		return err
	}
	all := appendNew(old, newRS)
	if p.reconcileNewReplicaSet(all, newRS) {
		return p.syncRolloutStatus(all, newRS)
	}
	if p.reconcileOldReplicaSets(all, filterActive(old), newRS) {
		return p.syncRolloutStatus(all, newRS)
	}
	if DeploymentComplete(p.d, p.d.Status) {
		p.cleanup(old)
	}
	return p.syncRolloutStatus(all, newRS)
}

// reconcileNewReplicaSet scales the new ReplicaSet toward spec.replicas as
// far as maxSurge allows ([NewRSNewReplicas]), or down to spec.replicas if
// it is above, and reports whether its size changed (R-ROLL-5).
func (p *planner) reconcileNewReplicaSet(all []*ReplicaSet, newRS *ReplicaSet) bool {
	replicas := p.d.Spec.Replicas
	if newRS.Spec.Replicas == replicas {
		return false
	}
	target := replicas
	if newRS.Spec.Replicas < replicas {
		target = newRSNewReplicas(p.d, sumSizes(all), newRS.Spec.Replicas)
	}
	mark := len(p.actions)
	scaled, _ := p.scaleReplicaSet(newRS, target, onlyIfResized)
	if target == replicas && newRS.Spec.Replicas > replicas {
		p.explain(mark, "new ReplicaSet above replicas %d", replicas)
	} else {
		p.explain(mark, "new ReplicaSet %+d: replicas %d + maxSurge %d - current total %d, at most replicas",
			target-newRS.Spec.Replicas, replicas, p.maxReplicas-int64(replicas), sumSizes(all))
	}
	return scaled
}

// reconcileOldReplicaSets shrinks the old ReplicaSets as far as
// maxUnavailable allows and reports whether any size changed (R-ROLL-6).
// First it removes old replicas that are not available, which costs no
// availability; then it scales old ReplicaSets down, oldest first, by the
// availability above spec.replicas - maxUnavailable.
func (p *planner) reconcileOldReplicaSets(all, oldActive []*ReplicaSet, newRS *ReplicaSet) bool {
	var oldPods, allPods int64
	for _, rs := range oldActive {
		oldPods += int64(rs.Spec.Replicas)
	}
	if oldPods == 0 {
		return false
	}
	for _, rs := range all {
		allPods += int64(rs.Spec.Replicas)
	}
	// R-ROLL-6: pods of the new ReplicaSet not yet available count against
	// what may go.
	newUnavailable := int64(newRS.Spec.Replicas) - int64(newRS.Status.AvailableReplicas)
	maxScaledDown := allPods - int64(p.minAvail) - newUnavailable
	if maxScaledDown <= 0 {
		return false
	}
	oldActive, cleaned, err := p.cleanupUnhealthyReplicas(oldActive, maxScaledDown)
	if err != nil {
		return false // upstream drops this error
	}
	scaledDown := p.scaleDownOldReplicaSets(appendNew(oldActive, newRS), oldActive)
	return cleaned+scaledDown > 0
}

// sumSizes returns the sum of the sets' spec.replicas.
func sumSizes(sets []*ReplicaSet) int64 {
	var n int64
	for _, rs := range sets {
		n += int64(rs.Spec.Replicas)
	}
	return n
}

// errUnhealthyScaleUp is the check upstream makes when an old ReplicaSet
// reports more available replicas than its size (right after a scale-down).
var errUnhealthyScaleUp = errors.New("got invalid request to scale down")

// cleanupUnhealthyReplicas scales old ReplicaSets, oldest first (as the
// planner keeps them; upstream sorts here), down by their unavailable
// replicas, at most maxCleanup in all (R-ROLL-7). It returns the
// ReplicaSets as written, in their order, and how many replicas it removed. An old ReplicaSet with more available replicas than its size
// stops it with an error.
func (p *planner) cleanupUnhealthyReplicas(old []*ReplicaSet, maxCleanup int64) ([]*ReplicaSet, int64, error) {
	old = slices.Clone(old) // the written copies replace their snapshots
	var total int64
	for i, rs := range old {
		if total >= maxCleanup {
			break
		}
		size, avail := int64(rs.Spec.Replicas), int64(rs.Status.AvailableReplicas)
		if size == 0 || size == avail {
			continue
		}
		n := min(maxCleanup-total, size-avail)
		if size-n > size {
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, %w %s/%s %d -> %d", errUnhealthyScaleUp, rs.Namespace, rs.Name, size, size-n)
		}
		mark := len(p.actions)
		_, old[i] = p.scaleReplicaSet(rs, int32(size-n), onlyIfResized)
		p.explain(mark, "old ReplicaSet -%d unavailable replicas, which cost no availability (at most %d may go)", n, maxCleanup-total)
		total += n
	}
	return old, total, nil
}

// scaleDownOldReplicaSets scales old ReplicaSets down, oldest first (as
// given), by the available replicas above spec.replicas - maxUnavailable, counted over all
// (R-ROLL-8). It returns how many replicas it removed.
func (p *planner) scaleDownOldReplicaSets(all, old []*ReplicaSet) int64 {
	var avail int64
	for _, rs := range all {
		avail += int64(rs.Status.AvailableReplicas)
	}
	minAvail := int64(p.minAvail)
	if avail <= minAvail {
		return 0
	}
	target := avail - minAvail
	var total int64
	for _, rs := range old {
		if total >= target {
			break
		}
		size := int64(rs.Spec.Replicas)
		if size == 0 {
			continue
		}
		n := min(size, target-total)
		mark := len(p.actions)
		p.scaleReplicaSet(rs, int32(size-n), onlyIfResized)
		p.explain(mark, "old ReplicaSet -%d: available %d - minAvailable %d (replicas %d - maxUnavailable %d) allows -%d in all",
			n, avail, minAvail, p.d.Spec.Replicas, int64(p.d.Spec.Replicas)-minAvail, target)
		total += n
	}
	return total
}
