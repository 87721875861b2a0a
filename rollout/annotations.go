package rollout

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/revision"
)

// CopiesAnnotation reports whether the controller copies an annotation from
// a Deployment to its new ReplicaSet (and back on rollback): every key but
// kubectl's last-applied configuration and the controller's own revision,
// revision-history, desired-replicas, max-replicas and rollback keys.
func CopiesAnnotation(key string) bool { return !skipCopyAnnotation(key) }

// skipCopyAnnotation reports whether an annotation stays where it is: never
// copied from a Deployment to its ReplicaSets, nor back on rollback (spec
// §1.1).
func skipCopyAnnotation(key string) bool {
	switch key {
	case LastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation:
		return true
	}
	return false
}

// getNonNegativeInt32FromAnnotation reads a desired- or max-replicas
// annotation (R-ANN-1): an unsigned decimal no larger than MaxInt32. Absent
// or malformed values report false; "0" is a valid value.
func getNonNegativeInt32FromAnnotation(annotations map[string]string, key string) (int32, bool) {
	v, ok := annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > 1<<31-1 {
		return 0, false
	}
	return int32(n), true
}

// GetDesiredReplicasAnnotation returns rs's desired-replicas annotation: an
// unsigned decimal no larger than MaxInt32, and false when it is absent or
// malformed (R-ANN-1).
func GetDesiredReplicasAnnotation(rs *ReplicaSet) (int32, bool) {
	return getNonNegativeInt32FromAnnotation(rs.Annotations, DesiredReplicasAnnotation)
}

// GetMaxReplicasAnnotation returns rs's max-replicas annotation, read as
// [GetDesiredReplicasAnnotation] reads its own.
func GetMaxReplicasAnnotation(rs *ReplicaSet) (int32, bool) {
	return getNonNegativeInt32FromAnnotation(rs.Annotations, MaxReplicasAnnotation)
}

// ReplicasAnnotationsNeedUpdate reports whether rs's desired- and
// max-replicas annotations differ, as strings, from the decimal forms of
// desired and maxReplicas, or rs has no annotations at all (R-ANN-3).
func ReplicasAnnotationsNeedUpdate(rs *ReplicaSet, desired int32, maxReplicas int64) bool {
	a := rs.Annotations
	return a == nil ||
		a[DesiredReplicasAnnotation] != strconv.FormatInt(int64(desired), 10) ||
		a[MaxReplicasAnnotation] != strconv.FormatInt(maxReplicas, 10)
}

// SetReplicasAnnotations returns a deep copy of rs whose desired- and
// max-replicas annotations are desired and maxReplicas in decimal, and
// whether either string changed (R-ANN-2). rs is not modified, and the
// result shares no map or slice with it.
func SetReplicasAnnotations(rs ReplicaSet, desired int32, maxReplicas int64) (ReplicaSet, bool) {
	rs = rs.DeepCopy()
	changed := setReplicasAnnotations(&rs.Annotations, desired, maxReplicas)
	return rs, changed
}

func setReplicasAnnotations(a *map[string]string, desired int32, maxReplicas int64) bool {
	if *a == nil {
		*a = map[string]string{}
	}
	changed := setAnnotation(*a, DesiredReplicasAnnotation, strconv.FormatInt(int64(desired), 10))
	if setAnnotation(*a, MaxReplicasAnnotation, strconv.FormatInt(maxReplicas, 10)) {
		changed = true
	}
	return changed
}

// setAnnotation sets a[key] to v and reports whether it changed.
func setAnnotation(a map[string]string, key, v string) bool {
	if cur, ok := a[key]; ok && cur == v {
		return false
	}
	a[key] = v
	return true
}

// copyDeploymentAnnotationsToReplicaSet copies d's annotations onto a
// ReplicaSet's, except the skipped keys, and reports whether any value
// changed (R-ANN-4). It never removes a key.
func copyDeploymentAnnotationsToReplicaSet(d *Deployment, a *map[string]string) bool {
	if *a == nil {
		*a = map[string]string{}
	}
	changed := false
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) {
			continue
		}
		if setAnnotation(*a, k, v) {
			changed = true
		}
	}
	return changed
}

// setNewReplicaSetAnnotations brings the new ReplicaSet's annotations up to
// date (R-ANN-5): d's annotations, the revision newRevision when it is
// higher (recording the previous one in the revision history), and, for a
// ReplicaSet about to be created (exists false), the replica annotations of
// d's size. It reports whether anything changed. A revision that is present
// but not a number stops it after the copy and reports no change, as
// upstream's SetNewReplicaSetAnnotations does.
func setNewReplicaSetAnnotations(d *Deployment, rs *ReplicaSet, newRevision int64, exists bool) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, &rs.Annotations)
	old, had := rs.Annotations[RevisionAnnotation]
	oldN, err := revision.Parse(old)
	if err != nil {
		if old != "" {
			return false
		}
		oldN = 0
	}
	if oldN < newRevision {
		rs.Annotations[RevisionAnnotation] = strconv.FormatInt(newRevision, 10)
		changed = true
		if had {
			h := rs.Annotations[RevisionHistoryAnnotation]
			rs.Annotations[RevisionHistoryAnnotation] = revision.AppendHistory(h, old, revision.HistoryLimit)
		}
	}
	if !exists && setReplicasAnnotations(&rs.Annotations, d.Spec.Replicas, maxReplicas(d)) {
		changed = true
	}
	return changed
}

// newReplicaSetAnnotationsCurrent reports whether
// setNewReplicaSetAnnotations(d, rs, newRevision, true) would find nothing
// to change in rs's annotations (other than making a nil map empty): d's
// copied annotations are there with d's values, and rs's revision is not
// below newRevision or is not a number.
func newReplicaSetAnnotationsCurrent(d *Deployment, rs *ReplicaSet, newRevision int64) bool {
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) {
			continue
		}
		if cur, ok := rs.Annotations[k]; !ok || cur != v {
			return false
		}
	}
	old := rs.Annotations[RevisionAnnotation]
	oldN, err := revision.Parse(old)
	if err != nil {
		if old != "" {
			return true
		}
		oldN = 0
	}
	return oldN >= newRevision
}

// setDeploymentRevision sets the Deployment's revision annotation to rev
// and reports whether it changed (R-REV-4).
func (p *planner) setDeploymentRevision(rev string) bool {
	if p.d.Annotations[RevisionAnnotation] == rev {
		return false
	}
	p.ownAnnotations()
	if p.d.Annotations == nil {
		p.d.Annotations = map[string]string{}
	}
	p.d.Annotations[RevisionAnnotation] = rev
	return true
}

// revisionOf reads rs's revision annotation (R-REV-1): absent is revision 0.
func revisionOf(rs *ReplicaSet) revision.Rev {
	v, ok := rs.Annotations[RevisionAnnotation]
	return revision.Of(v, ok)
}

// Revision returns the revision annotation of a ReplicaSet: 0 when absent, an
// error when present and not a base-10 int64 (R-REV-1).
func Revision(rs ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return revision.Parse(v)
}

func revisions(sets []*ReplicaSet) []revision.Rev {
	return appendRevisions(make([]revision.Rev, 0, len(sets)), sets)
}

// appendRevisions appends the revisions of sets to dst.
func appendRevisions(dst []revision.Rev, sets []*ReplicaSet) []revision.Rev {
	for _, rs := range sets {
		dst = append(dst, revisionOf(rs))
	}
	return dst
}

// MaxRevision returns the highest revision among sets, 0 when there is none;
// unparsable revisions are skipped (R-REV-2).
func MaxRevision(sets []ReplicaSet) int64 { return revision.Max(revisions(pointers(sets))) }

// LastRevision returns the second highest revision among sets (the
// multiset: two ReplicaSets at the highest revision give that revision), 0
// when there are fewer than two (R-REV-3).
func LastRevision(sets []ReplicaSet) int64 { return revision.Last(revisions(pointers(sets))) }
