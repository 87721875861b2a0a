package rollout

import (
	"slices"
	"strconv"
)

// FindNewReplicaSet returns the oldest ReplicaSet (by [CompareByCreation])
// whose pod template equals d's ignoring the pod-template-hash label, and
// false when there is none (R-FIND-1). It does not reorder sets.
func FindNewReplicaSet(d Deployment, sets []ReplicaSet) (ReplicaSet, bool) {
	i := findNew(&d.Spec.Template, pointers(sets))
	if i < 0 {
		return ReplicaSet{}, false
	}
	return sets[i], true
}

// findNew returns the index in sets of the new ReplicaSet for template, or
// -1. It scans once, keeping the oldest match, instead of sorting.
func findNew(template *PodTemplate, sets []*ReplicaSet) int {
	best := -1
	for i, rs := range sets {
		if best >= 0 && CompareByCreation(rs, sets[best]) >= 0 {
			continue
		}
		if EqualIgnoreHash(*template, rs.Spec.Template) {
			best = i
		}
	}
	return best
}

// FindOldReplicaSets returns the ReplicaSets other than d's new one (see
// [FindNewReplicaSet]), oldest first: all of them, and those with a non-zero
// size (R-FIND-2). A ReplicaSet is old when its UID differs from the new
// one's. It does not reorder sets.
func FindOldReplicaSets(d Deployment, sets []ReplicaSet) (withReplicas, all []ReplicaSet) {
	ptrs := pointers(sets)
	old := findOld(ptrs, findNew(&d.Spec.Template, ptrs))
	for _, rs := range old {
		if rs.Spec.Replicas != 0 {
			withReplicas = append(withReplicas, *rs)
		}
	}
	return withReplicas, values(old)
}

// findOld returns the ReplicaSets of sets other than the new one at index
// newIdx (-1 for none), oldest first: those whose UID differs from its.
func findOld(sets []*ReplicaSet, newIdx int) []*ReplicaSet {
	return appendOld(make([]*ReplicaSet, 0, len(sets)), sets, newIdx)
}

// appendOld is findOld into old, an empty slice with room for sets (the
// planner's buffer).
func appendOld(old, sets []*ReplicaSet, newIdx int) []*ReplicaSet {
	for _, rs := range sets {
		if newIdx >= 0 && rs.UID == sets[newIdx].UID {
			continue
		}
		old = append(old, rs)
	}
	slices.SortStableFunc(old, CompareByCreation)
	return old
}

// FilterActiveReplicaSets returns the ReplicaSets of sets that are not nil
// and have a size above zero, in their order, in a new slice (nil when
// there are none) (R-PRIM-1). It does not modify sets.
func FilterActiveReplicaSets(sets []*ReplicaSet) []*ReplicaSet {
	var out []*ReplicaSet
	for _, rs := range sets {
		if rs != nil && rs.Spec.Replicas > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// FindActiveOrLatest returns the one ReplicaSet a Deployment is resized
// through (R-AOL-1): when no ReplicaSet is active, newRS or else the newest
// of oldRSs; when exactly one is active, that one; otherwise nil. newRS may
// be nil. Unlike upstream's, it does not reorder oldRSs.
func FindActiveOrLatest(newRS *ReplicaSet, oldRSs []*ReplicaSet) *ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	var active *ReplicaSet
	n := 0
	for _, rs := range oldRSs {
		if rs != nil && rs.Spec.Replicas > 0 {
			active, n = rs, n+1
		}
	}
	if newRS != nil && newRS.Spec.Replicas > 0 {
		active, n = newRS, n+1
	}
	switch {
	case n == 1:
		return active
	case n > 1:
		return nil
	case newRS != nil:
		return newRS
	}
	return slices.MaxFunc(oldRSs, CompareByCreation) // the newest old one
}

// IsSaturated reports whether rs is fully scaled for d (R-SAT-1): its size,
// its desired-replicas annotation (read with Go's Atoi, which accepts a sign
// and leading zeros, Q-8) and its available replicas all equal
// spec.replicas. A nil rs is not saturated. A desired-replicas annotation
// beyond int32 never is: upstream truncates it to int32 first.
func IsSaturated(d *Deployment, rs *ReplicaSet) bool {
	if rs == nil {
		return false
	}
	v, ok := rs.Annotations[DesiredReplicasAnnotation]
	if !ok {
		return false // upstream's Atoi fails on the absent annotation's ""
	}
	desired, err := strconv.Atoi(v)
	if err != nil {
		return false
	}
	r := d.Spec.Replicas
	return rs.Spec.Replicas == r && int64(desired) == int64(r) && rs.Status.AvailableReplicas == r
}

func pointers(sets []ReplicaSet) []*ReplicaSet {
	out := make([]*ReplicaSet, len(sets))
	for i := range sets {
		out[i] = &sets[i]
	}
	return out
}

func values(sets []*ReplicaSet) []ReplicaSet {
	if len(sets) == 0 {
		return nil
	}
	out := make([]ReplicaSet, len(sets))
	for i, rs := range sets {
		out[i] = *rs
	}
	return out
}
