package rollout

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/revision"
)

// cleanupDeployment deletes old ReplicaSets beyond
// spec.revisionHistoryLimit (spec §9): of the old ReplicaSets not being
// deleted, the lowest revisions first, but only those scaled to zero with
// no pods and an observed generation, and only among the first ones past
// the limit. oldRSs are in the order upstream sorts from.
func (p *planner) cleanupDeployment(oldRSs []*ReplicaSet) {
	if !HasRevisionHistoryLimit(p.d) {
		return
	}
	var candidates []*ReplicaSet
	for _, rs := range oldRSs {
		if !rs.Deleting() {
			candidates = append(candidates, rs)
		}
	}
	sets := make([]revision.Set, len(candidates))
	for i, rs := range candidates {
		sets[i] = revision.Set{
			Name:    rs.Name,
			Created: rs.CreationTimestamp,
			Rev:     revisionOf(rs),
			Idle: rs.Spec.Replicas == 0 && rs.Status.Replicas == 0 &&
				rs.Generation <= rs.Status.ObservedGeneration,
		}
	}
	for _, i := range revision.Prune(sets, p.d.Spec.RevisionHistoryLimit.Value) {
		p.actions = append(p.actions, Action{Type: DeleteReplicaSet, ReplicaSet: candidates[i].Name,
			Reason: fmt.Sprintf("%d old ReplicaSets, revisionHistoryLimit %d: the lowest idle revision goes", len(candidates), p.d.Spec.RevisionHistoryLimit.Value)})
	}
}
