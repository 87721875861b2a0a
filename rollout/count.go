package rollout

// GetReplicaCountForReplicaSets returns the sum of spec.replicas over sets,
// skipping nil entries (R-PRIM-2). It is the one sum of ReplicaSet sizes in
// this package: every decision and status that needs one calls it. Like
// every sum here it is an int64, so it never wraps where upstream's int32
// sum does, and it does not allocate.
func GetReplicaCountForReplicaSets(sets []*ReplicaSet) int64 {
	return sum(sets, func(rs *ReplicaSet) int32 { return rs.Spec.Replicas })
}

// GetActualReplicaCountForReplicaSets returns the sum of status.replicas.
func GetActualReplicaCountForReplicaSets(sets []*ReplicaSet) int64 {
	return sum(sets, func(rs *ReplicaSet) int32 { return rs.Status.Replicas })
}

// GetReadyReplicaCountForReplicaSets returns the sum of status.readyReplicas.
func GetReadyReplicaCountForReplicaSets(sets []*ReplicaSet) int64 {
	return sum(sets, func(rs *ReplicaSet) int32 { return rs.Status.ReadyReplicas })
}

// GetAvailableReplicaCountForReplicaSets returns the sum of
// status.availableReplicas.
func GetAvailableReplicaCountForReplicaSets(sets []*ReplicaSet) int64 {
	return sum(sets, func(rs *ReplicaSet) int32 { return rs.Status.AvailableReplicas })
}

// sum adds up one count of the sets that are not nil.
func sum(sets []*ReplicaSet, count func(*ReplicaSet) int32) int64 {
	var n int64
	for _, rs := range sets {
		if rs != nil {
			n += int64(count(rs))
		}
	}
	return n
}

// GetTerminatingReplicaCountForReplicaSets returns the sum of
// status.terminatingReplicas, and false when it is unknown (R-PRIM-3): a
// ReplicaSet that the ReplicaSet controller has synced (observedGeneration
// above 0) does not report it. A ReplicaSet never synced is skipped. For no
// ReplicaSets the sum is 0 and known.
func GetTerminatingReplicaCountForReplicaSets(sets []*ReplicaSet) (int64, bool) {
	var n int64
	for _, rs := range sets {
		if rs == nil {
			continue
		}
		switch t := rs.Status.TerminatingReplicas; {
		case t.Valid:
			n += int64(t.Value)
		case rs.Status.ObservedGeneration != 0:
			return 0, false
		}
	}
	return n, true
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

// Count returns every sum of sets, skipping nil entries: each field is the
// function of the same name above. Count does not allocate.
func Count(sets []*ReplicaSet) Counts {
	c := Counts{
		Spec:      GetReplicaCountForReplicaSets(sets),
		Replicas:  GetActualReplicaCountForReplicaSets(sets),
		Ready:     GetReadyReplicaCountForReplicaSets(sets),
		Available: GetAvailableReplicaCountForReplicaSets(sets),
	}
	c.Terminating, c.TerminatingKnown = GetTerminatingReplicaCountForReplicaSets(sets)
	return c
}
