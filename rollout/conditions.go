package rollout

import "time"

// Condition reasons the controller writes (spec §1.2).
const (
	ReasonNewReplicaSetCreated       = "NewReplicaSetCreated"
	ReasonFoundNewReplicaSet         = "FoundNewReplicaSet"
	ReasonReplicaSetCreateError      = "ReplicaSetCreateError"
	ReasonReplicaSetUpdated          = "ReplicaSetUpdated"
	ReasonNewReplicaSetAvailable     = "NewReplicaSetAvailable"
	ReasonProgressDeadlineExceeded   = "ProgressDeadlineExceeded"
	ReasonDeploymentPaused           = "DeploymentPaused"
	ReasonDeploymentResumed          = "DeploymentResumed"
	ReasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// NewDeploymentCondition returns a condition whose update and transition
// times are both now (R-COND-1).
func NewDeploymentCondition(t ConditionType, status ConditionStatus, reason, message string, now time.Time) Condition {
	return Condition{Type: t, Status: status, Reason: reason, Message: message, LastUpdateTime: now, LastTransitionTime: now}
}

// GetDeploymentCondition returns the first condition of type t (R-COND-2).
func GetDeploymentCondition(s DeploymentStatus, t ConditionType) (Condition, bool) {
	for _, c := range s.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// SetDeploymentCondition returns s with c set (R-COND-3): when a condition
// of c's type already has c's status and reason, s is returned unchanged
// (its message and times are not refreshed); otherwise every condition of
// that type is removed and c is appended at the end, keeping the old
// transition time when the status is unchanged. The conditions of s are not
// modified in place.
func SetDeploymentCondition(s DeploymentStatus, c Condition) DeploymentStatus {
	cur, ok := GetDeploymentCondition(s, c.Type)
	if ok && cur.Status == c.Status && cur.Reason == c.Reason {
		return s
	}
	if ok && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	// The others in their order, then c, in one new slice.
	s.Conditions = withCondition(s.Conditions, c)
	return s
}

// replaceCondition returns s with its conditions of c's type replaced by
// c, as RemoveDeploymentCondition and then SetDeploymentCondition give it
// (the others in their order, then c as it is), in one new slice.
func replaceCondition(s DeploymentStatus, c Condition) DeploymentStatus {
	s.Conditions = withCondition(s.Conditions, c)
	return s
}

// withCondition returns a new slice of the conditions in cs not of c's
// type, in their order, then c, with no room to spare: a condition is
// large, and most writes replace one rather than add one. cs is not
// modified.
func withCondition(cs []Condition, c Condition) []Condition {
	n := 1
	for _, o := range cs {
		if o.Type != c.Type {
			n++
		}
	}
	out := make([]Condition, 0, n)
	for _, o := range cs {
		if o.Type != c.Type {
			out = append(out, o)
		}
	}
	return append(out, c)
}

// RemoveDeploymentCondition returns s without conditions of type t, the
// others in their order (R-COND-4). The conditions of s are not modified in
// place; none left gives nil.
func RemoveDeploymentCondition(s DeploymentStatus, t ConditionType) DeploymentStatus {
	var kept []Condition
	for _, c := range s.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	s.Conditions = kept
	return s
}

// ReplicaSetToDeploymentCondition converts a ReplicaSet condition: both times
// become its transition time (R-COND-5).
func ReplicaSetToDeploymentCondition(c ReplicaSetCondition) Condition {
	return Condition{
		Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
		LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime,
	}
}

// HasProgressDeadline reports whether d has a progress deadline: set and
// not [Unlimited] (R-COND-6).
func HasProgressDeadline(d Deployment) bool {
	p := d.Spec.ProgressDeadlineSeconds
	return p.Valid && p.Value != Unlimited
}

// HasRevisionHistoryLimit reports whether d limits its old ReplicaSets: set
// and not [Unlimited] (R-COND-6).
func HasRevisionHistoryLimit(d Deployment) bool {
	l := d.Spec.RevisionHistoryLimit
	return l.Valid && l.Value != Unlimited
}

// DeploymentComplete reports whether status shows d fully rolled out: all
// spec.replicas updated, existing and available, and the current generation
// observed (R-PRED-1).
func DeploymentComplete(d Deployment, status DeploymentStatus) bool {
	r := d.Spec.Replicas
	return status.UpdatedReplicas == r && status.Replicas == r && status.AvailableReplicas == r &&
		status.ObservedGeneration >= d.Generation
}

// DeploymentProgressing reports whether next shows progress over d.Status:
// more updated, ready or available replicas, or fewer old ones (R-PRED-2).
func DeploymentProgressing(d Deployment, next DeploymentStatus) bool {
	old := d.Status
	oldOld := int64(old.Replicas) - int64(old.UpdatedReplicas)
	newOld := int64(next.Replicas) - int64(next.UpdatedReplicas)
	return next.UpdatedReplicas > old.UpdatedReplicas || newOld < oldOld ||
		next.ReadyReplicas > old.ReadyReplicas || next.AvailableReplicas > old.AvailableReplicas
}

// DeploymentTimedOut reports whether d has gone without progress for longer
// than its progress deadline at now, judged from the Progressing condition
// of status (R-PRED-3): never without a deadline or condition, never once
// NewReplicaSetAvailable, always once ProgressDeadlineExceeded, and
// otherwise when the condition's update time plus the deadline is strictly
// before now. A now before the update time is not a timeout.
func DeploymentTimedOut(d Deployment, status DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	c, ok := GetDeploymentCondition(status, Progressing)
	if !ok {
		return false
	}
	switch c.Reason {
	case ReasonNewReplicaSetAvailable:
		return false
	case ReasonProgressDeadlineExceeded:
		return true
	}
	return deadline(d, c).Before(now)
}

func deadline(d Deployment, c Condition) time.Time {
	return c.LastUpdateTime.Add(time.Duration(d.Spec.ProgressDeadlineSeconds.Value) * time.Second)
}
