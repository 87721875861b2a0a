package rollout

// GetReplicaCountForReplicaSets returns the sum of spec.replicas over sets,
// skipping nil entries (R-PRIM-2). It is the one sum of ReplicaSet sizes in
// this package: every decision and status that needs one calls it. The sum
// is an int64, so it never wraps where upstream's int32 sum does.
// It does not allocate.
func GetReplicaCountForReplicaSets(sets []*ReplicaSet) int64 {
	var n int64
	for _, rs := range sets {
		if rs != nil {
			n += int64(rs.Spec.Replicas)
		}
	}
	return n
}

// Counts are the sums over a list of ReplicaSets that a Deployment's status
// is computed from (R-PRIM-2, R-PRIM-3), in int64 so that no sum wraps.
type Counts struct {
	// Spec is the sum of spec.replicas ([GetReplicaCountForReplicaSets]).
	Spec int64
	// Replicas, Ready and Available are the sums of status.replicas,
	// status.readyReplicas and status.availableReplicas.
	Replicas, Ready, Available int64
	// Terminating is the sum of status.terminatingReplicas; it is unknown
	// (TerminatingKnown false, Terminating 0) when a ReplicaSet that the
	// ReplicaSet controller has synced does not report it. A ReplicaSet
	// that was never synced (observedGeneration 0, no terminating count)
	// is skipped.
	Terminating      int64
	TerminatingKnown bool
}

// Count returns every sum of sets, skipping nil entries. For no sets it is
// zero with TerminatingKnown true, as upstream's terminating count is a
// pointer to 0 then. Count does not allocate.
func Count(sets []*ReplicaSet) Counts {
	c := Counts{Spec: GetReplicaCountForReplicaSets(sets), TerminatingKnown: true}
	for _, rs := range sets {
		if rs == nil {
			continue
		}
		c.Replicas += int64(rs.Status.Replicas)
		c.Ready += int64(rs.Status.ReadyReplicas)
		c.Available += int64(rs.Status.AvailableReplicas)
		t := rs.Status.TerminatingReplicas
		switch {
		case !c.TerminatingKnown:
		case !t.Valid && rs.Status.ObservedGeneration == 0:
			// Never synced by the ReplicaSet controller: skipped.
		case !t.Valid:
			c.TerminatingKnown, c.Terminating = false, 0
		default:
			c.Terminating += int64(t.Value)
		}
	}
	return c
}

// GetActualReplicaCountForReplicaSets returns the sum of status.replicas.
func GetActualReplicaCountForReplicaSets(sets []*ReplicaSet) int64 { return Count(sets).Replicas }

// GetReadyReplicaCountForReplicaSets returns the sum of status.readyReplicas.
func GetReadyReplicaCountForReplicaSets(sets []*ReplicaSet) int64 { return Count(sets).Ready }

// GetAvailableReplicaCountForReplicaSets returns the sum of
// status.availableReplicas.
func GetAvailableReplicaCountForReplicaSets(sets []*ReplicaSet) int64 { return Count(sets).Available }

// GetTerminatingReplicaCountForReplicaSets returns the sum of
// status.terminatingReplicas, and false when it is unknown (R-PRIM-3).
func GetTerminatingReplicaCountForReplicaSets(sets []*ReplicaSet) (int64, bool) {
	c := Count(sets)
	return c.Terminating, c.TerminatingKnown
}
