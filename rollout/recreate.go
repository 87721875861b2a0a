package rollout

// rolloutRecreate is one sync of a Recreate rollout (R-REC-1): scale every
// old ReplicaSet to 0; wait until no old pod runs; then create the new
// ReplicaSet at full size (or resize it); once complete, clean up the
// history; and write the status.
func (p *planner) rolloutRecreate() error {
	newRS, old, err := p.replicaSets(findOnly)
	if err != nil {
		return err
	}
	all := appendNew(old, newRS)
	scaledDown := false
	mark := len(p.actions)
	for _, rs := range filterActive(old) {
		if scaled, _ := p.scaleReplicaSet(rs, 0, onlyIfResized); scaled {
			scaledDown = true
		}
	}
	p.explain(mark, "Recreate: every old ReplicaSet goes to 0 before the new one starts")
	if scaledDown || p.oldPodsRunning(newRS, old) {
		return p.syncRolloutStatus(all, newRS)
	}
	if newRS == nil {
		if newRS, old, err = p.replicaSets(createIfMissing); err != nil {
			return err
		}
		all = appendNew(old, newRS)
	}
	mark = len(p.actions)
	p.scaleReplicaSet(newRS, p.d.Spec.Replicas, onlyIfResized)
	p.explain(mark, "Recreate: the new ReplicaSet takes all %d replicas", p.d.Spec.Replicas)
	if DeploymentComplete(p.d, p.d.Status) {
		p.cleanup(old)
	}
	return p.syncRolloutStatus(all, newRS)
}

// oldPodsRunning reports whether an old ReplicaSet still has pods (R-REC-2):
// status replicas, or any pod of a ReplicaSet other than the new one that
// has neither failed nor succeeded, terminating ones included.
func (p *planner) oldPodsRunning(newRS *ReplicaSet, old []*ReplicaSet) bool {
	if count(old).Replicas > 0 {
		return true
	}
	for uid, pods := range p.pods {
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
