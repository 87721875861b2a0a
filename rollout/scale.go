package rollout

import (
	"fmt"
	"math"
	"slices"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// OverflowError reports a count that does not fit the int32 field it goes
// to. Upstream wraps such a count to a negative number, which the API server
// refuses; Plan stops there instead.
type OverflowError struct {
	Field string
	Value int64
}

// Error names the field and the value that does not fit.
func (e *OverflowError) Error() string {
	return fmt.Sprintf("%s: value %d overflows int32", e.Field, e.Value)
}

// resizeMode says whether scaleReplicaSet writes a ReplicaSet whose size is
// already right but whose replica annotations are stale.
type resizeMode bool

const (
	onlyIfResized      resizeMode = false
	refreshAnnotations resizeMode = true
)

// scaleReplicaSet sets rs's size to size, with the replica annotations of
// the Deployment's current size (R-SRS-1). It returns whether the size
// changed and the ReplicaSet as written (rs itself when nothing was
// written).
func (p *planner) scaleReplicaSet(rs *ReplicaSet, size int32, mode resizeMode) (bool, *ReplicaSet) {
	if mode == onlyIfResized && rs.Spec.Replicas == size {
		return false, rs
	}
	resized := rs.Spec.Replicas != size
	if !resized && !ReplicasAnnotationsNeedUpdate(rs, p.d.Spec.Replicas, p.maxReplicas) {
		return false, rs
	}
	var out ReplicaSet
	if p.shared && resized && !ReplicasAnnotationsNeedUpdate(rs, p.d.Spec.Replicas, p.maxReplicas) {
		// The annotations stay as they are: under PlanShared the write
		// may hold rs's. (Plan asks only where nothing else is written.)
		out = *rs
	} else {
		out = rs.withOwnAnnotations()
		setReplicasAnnotations(&out.Annotations, p.d.Spec.Replicas, p.maxReplicas)
	}
	out.Spec.Replicas = size
	var e Event
	if resized {
		// "Scaled up replica set web-1 from 0 to 3", built on the stack
		// (every scale of a rollout writes one).
		var buf [128]byte
		b := append(buf[:0], "Scaled down replica set "...)
		if rs.Spec.Replicas < size {
			b = append(buf[:0], "Scaled up replica set "...)
		}
		b = appendCount(append(append(b, out.Name...), " from "...), int64(rs.Spec.Replicas), false)
		b = appendCount(append(b, " to "...), int64(size), false)
		e = Event{EventTypeNormal, ScalingReplicaSetReason, string(b)}
	}
	p.writeReplicaSet(&out, out.Annotations, rs.Spec.Replicas, e)
	return resized, &out
}

// isScalingEvent reports whether spec.replicas changed since the active
// ReplicaSets were last sized: one of them carries a valid desired-replicas
// annotation that differs (R-SCALE-1). Finding the ReplicaSets syncs the
// new one's annotations and the revision, as upstream does.
func (p *planner) isScalingEvent() (bool, error) {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(findOnly)
	if err != nil {
		return false, err
	}
	// Any active ReplicaSet, old or new, whose desired-replicas annotation
	// is not spec.replicas (upstream filters a new list of them).
	scaled := func(rs *ReplicaSet) bool {
		desired, ok := GetDesiredReplicasAnnotation(rs)
		return rs.Spec.Replicas > 0 && ok && desired != p.d.Spec.Replicas
	}
	if newRS != nil && scaled(newRS) {
		return true, nil
	}
	return slices.ContainsFunc(oldRSs, func(rs *ReplicaSet) bool { return rs != nil && scaled(rs) }), nil
}

// sync resizes a paused Deployment or one whose replicas changed, without
// rolling out (R-SCALE-2): scale, clean up history when paused, then write
// the status.
func (p *planner) sync() error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(findOnly)
	if err != nil {
		return err
	}
	// Upstream's scale sorts oldRSs newest first in place (in
	// FindActiveOrLatest), and its cleanup sorts from that order.
	oldRSs = sortedBy(oldRSs, func(a, b *ReplicaSet) int { return CompareByCreation(b, a) })
	if err := p.scale(newRS, oldRSs); err != nil {
		return err
	}
	if _, rollingBack := p.getRollbackTo(); p.d.Spec.Paused && !rollingBack {
		p.cleanupDeployment(oldRSs)
	}
	return p.syncDeploymentStatus(appendNew(oldRSs, newRS), newRS)
}

// scale brings the ReplicaSets to the Deployment's size (R-SCALE-3): a lone
// active (or latest) ReplicaSet takes the whole size; a saturated new
// ReplicaSet retires the old ones; otherwise RollingUpdate spreads the
// change proportionally and Recreate waits. oldRSs are newest first.
func (p *planner) scale(newRS *ReplicaSet, oldRSs []*ReplicaSet) error {
	replicas := p.d.Spec.Replicas
	if rs := FindActiveOrLatest(newRS, oldRSs); rs != nil {
		mark := len(p.actions)
		switch {
		case rs.Spec.Replicas != replicas:
			p.scaleReplicaSet(rs, replicas, onlyIfResized)
			p.explain(mark, "replicas changed to %d: the only active ReplicaSet takes them all", replicas)
		case p.opts.RefreshStaleAnnotations:
			p.scaleReplicaSet(rs, replicas, refreshAnnotations)
			p.explain(mark, "the only active ReplicaSet has the right size but stale replica annotations (Q-1 fix)")
		}
		return nil
	}
	if IsSaturated(&p.d, newRS) {
		mark := len(p.actions)
		for _, rs := range FilterActiveReplicaSets(oldRSs) {
			p.scaleReplicaSet(rs, 0, onlyIfResized)
		}
		p.explain(mark, "the new ReplicaSet is saturated (%d available): old ReplicaSets go to 0", replicas)
		return nil
	}
	if p.d.Spec.Strategy.Type != RollingUpdateStrategy {
		return nil
	}
	return p.scaleProportionally(FilterActiveReplicaSets(appendNew(oldRSs, newRS)))
}

// scaleProportionally spreads the difference between replicas + maxSurge
// and the active ReplicaSets' sizes over them in proportion to their sizes
// (R-SCALE-4..6, package proportion), writing every one of them so that
// their replica annotations are current. Upstream: the last part of scale.
func (p *planner) scaleProportionally(active []*ReplicaSet) error {
	sets := make([]proportion.Set, len(active))
	for i, rs := range active {
		sets[i] = proportionSet(rs)
	}
	r := proportion.Resize{Replicas: p.d.Spec.Replicas, MaxReplicas: p.maxReplicas, StatusReplicas: p.d.Status.Replicas}
	allowed := p.maxReplicas
	if p.d.Spec.Replicas <= 0 {
		allowed = 0
	}
	toAdd := allowed - GetReplicaCountForReplicaSets(active)
	for _, c := range proportion.Distribute(sets, r) {
		rs := active[c.Index]
		if c.Replicas > math.MaxInt32 {
			return &OverflowError{Field: fmt.Sprintf("replicaset %s spec.replicas", rs.Name), Value: c.Replicas}
		}
		mark := len(p.actions)
		p.scaleReplicaSet(rs, int32(c.Replicas), refreshAnnotations)
		p.explain(mark, "proportional scaling of %+d (replicas %d + maxSurge %d - active total %d): this ReplicaSet's share",
			toAdd, p.d.Spec.Replicas, p.maxReplicas-int64(p.d.Spec.Replicas), allowed-toAdd)
	}
	return nil
}

// proportionSet is rs as proportional scaling sees it: its max-replicas
// annotation is 0 when missing or malformed, as upstream treats both.
func proportionSet(rs *ReplicaSet) proportion.Set {
	maxR, _ := GetMaxReplicasAnnotation(rs)
	return proportion.Set{Name: rs.Name, Created: rs.CreationTimestamp, Replicas: rs.Spec.Replicas, MaxReplicas: maxR}
}

// appendNew returns old followed by newRS when there is one, in a new slice.
func appendNew(old []*ReplicaSet, newRS *ReplicaSet) []*ReplicaSet {
	out := make([]*ReplicaSet, len(old), len(old)+1)
	copy(out, old)
	if newRS != nil {
		out = append(out, newRS)
	}
	return out
}

// GetReplicaSetProportion returns how many replicas rs gains (or loses,
// when negative) when d is resized, given the toAdd replicas the resize
// spreads and the added replicas earlier ReplicaSets already took
// (R-SCALE-5). It is never beyond what is left, toAdd - added, and
// saturates at the int32 bounds; a nil rs gains nothing. The max-replicas
// annotation of rs, or else d.Status.Replicas, is the size the Deployment
// had; see package proportion.
func GetReplicaSetProportion(rs *ReplicaSet, d Deployment, toAdd, added int32) int32 {
	if rs == nil {
		return 0
	}
	s := proportionSet(rs)
	r := proportion.Resize{Replicas: d.Spec.Replicas, MaxReplicas: maxReplicas(&d), StatusReplicas: d.Status.Replicas}
	return clamp32(proportion.Proportion(s, r, int64(toAdd), int64(added)))
}

// clamp32 saturates n to the int32 range.
func clamp32(n int64) int32 {
	return int32(max(math.MinInt32, min(n, math.MaxInt32)))
}

// GetProportion is the former name of [GetReplicaSetProportion].
//
// Deprecated: Use GetReplicaSetProportion, upstream's current name.
func GetProportion(rs *ReplicaSet, d Deployment, toAdd, added int32) int32 {
	return GetReplicaSetProportion(rs, d, toAdd, added)
}
