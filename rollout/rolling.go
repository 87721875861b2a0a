package rollout

import (
	"errors"
	"fmt"
)

// rolloutRolling is one sync of a RollingUpdate rollout (R-ROLL-1..4): grow
// the new ReplicaSet within maxSurge, or else shrink the old ones within
// maxUnavailable, or else, once complete, clean up the history; then write
// the status. The status is computed from the ReplicaSets as they were
// before this sync's scaling.
func (p *planner) rolloutRolling() error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(createIfMissing)
	if err != nil {
		return err
	}
	allRSs := appendNew(oldRSs, newRS)
	scaledUp, err := p.reconcileNewReplicaSet(allRSs, newRS)
	if err != nil {
		return err
	}
	if scaledUp {
		return p.syncRolloutStatus(allRSs, newRS)
	}
	if p.reconcileOldReplicaSets(allRSs, p.activeOld(oldRSs), newRS) {
		return p.syncRolloutStatus(allRSs, newRS)
	}
	if DeploymentComplete(p.d, p.d.Status) {
		p.cleanupDeployment(oldRSs)
	}
	return p.syncRolloutStatus(allRSs, newRS)
}

// reconcileNewReplicaSet scales the new ReplicaSet toward spec.replicas as
// far as maxSurge allows ([NewRSNewReplicas]), or down to spec.replicas if
// it is above, and reports whether its size changed (R-ROLL-5).
func (p *planner) reconcileNewReplicaSet(allRSs []*ReplicaSet, newRS *ReplicaSet) (bool, error) {
	replicas := p.d.Spec.Replicas
	if newRS.Spec.Replicas == replicas {
		return false, nil
	}
	mark := len(p.actions)
	if newRS.Spec.Replicas > replicas {
		scaled, _ := p.scaleReplicaSet(newRS, replicas, onlyIfResized)
		p.explain(mark, "new ReplicaSet above replicas %d", replicas)
		return scaled, nil
	}
	target, err := NewRSNewReplicas(&p.d, allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _ := p.scaleReplicaSet(newRS, target, onlyIfResized)
	if p.needsReason(mark) {
		var buf [128]byte
		b := append(buf[:0], "new ReplicaSet "...)
		b = appendCount(b, int64(target-newRS.Spec.Replicas), true)
		b = appendCount(append(b, ": replicas "...), int64(replicas), false)
		b = appendCount(append(b, " + maxSurge "...), p.maxReplicas-int64(replicas), false)
		b = appendCount(append(b, " - current total "...), GetReplicaCountForReplicaSets(allRSs), false)
		p.explainText(mark, string(append(b, ", at most replicas"...)))
	}
	return scaled, nil
}

// reconcileOldReplicaSets shrinks the old ReplicaSets as far as
// maxUnavailable allows and reports whether any size changed (R-ROLL-6).
// First it removes old replicas that are not available, which costs no
// availability; then it scales old ReplicaSets down, oldest first, by the
// availability above spec.replicas - maxUnavailable. Upstream returns an
// error too, but only ever nil: it drops the one error its steps report
// and so does this.
func (p *planner) reconcileOldReplicaSets(allRSs, oldRSs []*ReplicaSet, newRS *ReplicaSet) bool {
	oldPodsCount := GetReplicaCountForReplicaSets(oldRSs)
	if oldPodsCount == 0 {
		return false
	}
	allPodsCount := GetReplicaCountForReplicaSets(allRSs)
	// R-ROLL-6: pods of the new ReplicaSet not yet available count against
	// what may go.
	newRSUnavailablePodCount := int64(newRS.Spec.Replicas) - int64(newRS.Status.AvailableReplicas)
	maxScaledDown := allPodsCount - int64(p.minAvail) - newRSUnavailablePodCount
	if maxScaledDown <= 0 {
		return false
	}
	oldRSs, cleanupCount, err := p.cleanupUnhealthyReplicas(oldRSs, maxScaledDown)
	if err != nil {
		return false // upstream drops this error
	}
	scaledDownCount := p.scaleDownOldReplicaSetsForRollingUpdate(appendNew(oldRSs, newRS), oldRSs)
	return cleanupCount+scaledDownCount > 0
}

// errUnhealthyScaleUp is the check upstream makes when an old ReplicaSet
// reports more available replicas than its size (right after a scale-down).
var errUnhealthyScaleUp = errors.New("got invalid request to scale down")

// unhealthyScaleUpError is errUnhealthyScaleUp for one ReplicaSet: its
// namespace and name, its size and the size the cleanup computed. Its
// text is made only when asked for: reconcileOldReplicaSets drops it
// and a rollout whose old ReplicaSets report more available pods
// than their size just after a scale-down meets it at many syncs.
type unhealthyScaleUpError struct {
	namespace, name string
	from, to        int64
}

// Error says, as upstream does, which ReplicaSet the cleanup would have
// scaled up and from what size to what size.
func (e *unhealthyScaleUpError) Error() string {
	return fmt.Sprintf("when cleaning up unhealthy replicas, %v %s/%s %d -> %d", errUnhealthyScaleUp, e.namespace, e.name, e.from, e.to)
}

// Unwrap returns errUnhealthyScaleUp.
func (e *unhealthyScaleUpError) Unwrap() error { return errUnhealthyScaleUp }

// cleanupUnhealthyReplicas scales old ReplicaSets, oldest first (as the
// planner keeps them; upstream sorts here), down by their unavailable
// replicas, at most maxCleanupCount in all (R-ROLL-7). It returns the
// ReplicaSets as written, in their order, and how many replicas it
// removed. An old ReplicaSet with more available replicas than its size
// stops it with an error.
func (p *planner) cleanupUnhealthyReplicas(oldRSs []*ReplicaSet, maxCleanupCount int64) ([]*ReplicaSet, int64, error) {
	// The written copies replace their snapshots in a list of the sync's
	// own, made at the first write.
	cloned := false
	var totalScaledDown int64
	for i, rs := range oldRSs {
		if totalScaledDown >= maxCleanupCount {
			break
		}
		size, avail := int64(rs.Spec.Replicas), int64(rs.Status.AvailableReplicas)
		if size == 0 || size == avail {
			continue
		}
		scaledDownCount := min(maxCleanupCount-totalScaledDown, size-avail)
		newReplicasCount := size - scaledDownCount
		if newReplicasCount > size {
			return nil, 0, &unhealthyScaleUpError{rs.Namespace, rs.Name, size, newReplicasCount}
		}
		mark := len(p.actions)
		if !cloned {
			oldRSs, cloned = append(p.take(len(oldRSs)), oldRSs...), true
		}
		_, oldRSs[i] = p.scaleReplicaSet(rs, int32(newReplicasCount), onlyIfResized)
		if p.needsReason(mark) {
			var buf [128]byte
			b := appendCount(append(buf[:0], "old ReplicaSet -"...), scaledDownCount, false)
			b = appendCount(append(b, " unavailable replicas, which cost no availability (at most "...), maxCleanupCount-totalScaledDown, false)
			p.explainText(mark, string(append(b, " may go)"...)))
		}
		totalScaledDown += scaledDownCount
	}
	return oldRSs, totalScaledDown, nil
}

// scaleDownOldReplicaSetsForRollingUpdate scales old ReplicaSets down,
// oldest first (as given), by the available replicas above spec.replicas -
// maxUnavailable, counted over allRSs (R-ROLL-8). It returns how many
// replicas it removed.
func (p *planner) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*ReplicaSet) int64 {
	availablePodCount := Count(allRSs).Available
	minAvailable := int64(p.minAvail)
	if availablePodCount <= minAvailable {
		return 0
	}
	totalScaleDownCount := availablePodCount - minAvailable
	var totalScaledDown int64
	for _, rs := range oldRSs {
		if totalScaledDown >= totalScaleDownCount {
			break
		}
		size := int64(rs.Spec.Replicas)
		if size == 0 {
			continue
		}
		scaleDownCount := min(size, totalScaleDownCount-totalScaledDown)
		mark := len(p.actions)
		p.scaleReplicaSet(rs, int32(size-scaleDownCount), onlyIfResized)
		if p.needsReason(mark) {
			var buf [160]byte
			b := appendCount(append(buf[:0], "old ReplicaSet -"...), scaleDownCount, false)
			b = appendCount(append(b, ": available "...), availablePodCount, false)
			b = appendCount(append(b, " - minAvailable "...), minAvailable, false)
			b = appendCount(append(b, " (replicas "...), int64(p.d.Spec.Replicas), false)
			b = appendCount(append(b, " - maxUnavailable "...), int64(p.d.Spec.Replicas)-minAvailable, false)
			b = appendCount(append(b, ") allows -"...), totalScaleDownCount, false)
			p.explainText(mark, string(append(b, " in all"...)))
		}
		totalScaledDown += scaleDownCount
	}
	return totalScaledDown
}

// activeOld returns the ReplicaSets of oldRSs that FilterActiveReplicaSets
// keeps (nil for none, as it does), in a list of the sync's own (take).
func (p *planner) activeOld(oldRSs []*ReplicaSet) []*ReplicaSet {
	out := p.take(len(oldRSs))
	for _, rs := range oldRSs {
		if rs != nil && rs.Spec.Replicas > 0 {
			out = append(out, rs)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
