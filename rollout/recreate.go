package rollout

// rolloutRecreate is one sync of a Recreate rollout (R-REC-1): scale every
// old ReplicaSet to 0; wait until no old pod runs; then create the new
// ReplicaSet at full size (or resize it); once complete, clean up the
// history; and write the status.
func (p *planner) rolloutRecreate() error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(findOnly)
	if err != nil {
		return err
	}
	allRSs := appendNew(oldRSs, newRS)
	if p.scaleDownOldReplicaSetsForRecreate(p.activeOld(oldRSs)) {
		return p.syncRolloutStatus(allRSs, newRS)
	}
	if p.oldPodsRunning(newRS, oldRSs) {
		return p.syncRolloutStatus(allRSs, newRS)
	}
	if newRS == nil {
		if newRS, oldRSs, err = p.getAllReplicaSetsAndSyncRevision(createIfMissing); err != nil {
			return err
		}
		allRSs = appendNew(oldRSs, newRS)
	}
	p.scaleUpNewReplicaSetForRecreate(newRS)
	if DeploymentComplete(p.d, p.d.Status) {
		p.cleanupDeployment(oldRSs)
	}
	return p.syncRolloutStatus(allRSs, newRS)
}

// scaleDownOldReplicaSetsForRecreate scales the active old ReplicaSets to
// 0 and reports whether any size changed (R-REC-1 step 2).
func (p *planner) scaleDownOldReplicaSetsForRecreate(oldRSs []*ReplicaSet) bool {
	scaled := false
	mark := len(p.actions)
	for _, rs := range oldRSs {
		if s, _ := p.scaleReplicaSet(rs, 0, onlyIfResized); s {
			scaled = true
		}
	}
	p.explain(mark, "Recreate: every old ReplicaSet goes to 0 before the new one starts")
	return scaled
}

// scaleUpNewReplicaSetForRecreate sizes the new ReplicaSet to exactly
// spec.replicas, up or down (R-REC-1 step 5).
func (p *planner) scaleUpNewReplicaSetForRecreate(newRS *ReplicaSet) {
	mark := len(p.actions)
	p.scaleReplicaSet(newRS, p.d.Spec.Replicas, onlyIfResized)
	p.explain(mark, "Recreate: the new ReplicaSet takes all %d replicas", p.d.Spec.Replicas)
}

// oldPodsRunning reports whether an old ReplicaSet still has pods (R-REC-2):
// status replicas, or any pod of a ReplicaSet other than the new one that
// has neither failed nor succeeded, terminating ones included.
func (p *planner) oldPodsRunning(newRS *ReplicaSet, oldRSs []*ReplicaSet) bool {
	if Count(oldRSs).Replicas > 0 {
		return true
	}
	for uid, pods := range p.podMap {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, pod := range pods {
			if pod.Phase != PodFailed && pod.Phase != PodSucceeded {
				return true
			}
		}
	}
	return false
}
