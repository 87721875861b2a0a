package gen

import (
	"math"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// status draws a Deployment status with non-negative counts, near
// math.MaxInt32 in about 1 of 4 non-empty ones, and a collision count in
// about 1 of 4, half of them near math.MaxInt32.
func status(t *rapid.T, d rollout.Deployment) rollout.DeploymentStatus {
	if rapid.IntRange(0, 3).Draw(t, "status kind") == 0 {
		return rollout.DeploymentStatus{}
	}
	small := rapid.Int32Range(0, 60)
	if rapid.IntRange(0, 3).Draw(t, "status counts near MaxInt32") == 0 {
		small = NearMaxInt32()
	}
	s := rollout.DeploymentStatus{
		ObservedGeneration: rapid.Int64Range(0, d.Generation).Draw(t, "status.observedGeneration"),
		Replicas:           small.Draw(t, "status.replicas"),
		UpdatedReplicas:    small.Draw(t, "status.updatedReplicas"),
	}
	s.ReadyReplicas = rapid.Int32Range(0, s.Replicas).Draw(t, "status.readyReplicas")
	s.AvailableReplicas = rapid.Int32Range(0, s.ReadyReplicas).Draw(t, "status.availableReplicas")
	s.UnavailableReplicas = max(0, d.Spec.Replicas-s.AvailableReplicas)
	if rapid.Bool().Draw(t, "status.terminatingReplicas present") {
		s.TerminatingReplicas = rollout.Int32(rapid.Int32Range(0, 3).Draw(t, "status.terminatingReplicas"))
	}
	if rapid.IntRange(0, 3).Draw(t, "status.collisionCount present") == 0 {
		cc := rapid.OneOf(rapid.Int32Range(0, 3), rapid.SampledFrom([]int32{math.MaxInt32 - 1, math.MaxInt32})).Draw(t, "status.collisionCount")
		s.CollisionCount = rollout.Int32(cc)
	}
	at := Epoch().Add(time.Duration(rapid.IntRange(0, 3600).Draw(t, "condition time")) * time.Second)
	if rapid.Bool().Draw(t, "available condition") {
		s.Conditions = append(s.Conditions, rollout.NewDeploymentCondition(rollout.Available, rollout.ConditionTrue,
			rollout.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", at))
	}
	if rapid.Bool().Draw(t, "progressing condition") {
		reason := rapid.SampledFrom([]string{
			rollout.ReasonNewReplicaSetCreated, rollout.ReasonFoundNewReplicaSet, rollout.ReasonReplicaSetUpdated,
			rollout.ReasonNewReplicaSetAvailable, rollout.ReasonProgressDeadlineExceeded,
			rollout.ReasonDeploymentPaused, rollout.ReasonDeploymentResumed,
		}).Draw(t, "progressing reason")
		st := rollout.ConditionTrue
		switch reason {
		case rollout.ReasonProgressDeadlineExceeded:
			st = rollout.ConditionFalse
		case rollout.ReasonDeploymentPaused, rollout.ReasonDeploymentResumed:
			st = rollout.ConditionUnknown
		}
		s.Conditions = append(s.Conditions, rollout.NewDeploymentCondition(rollout.Progressing, st, reason, "generated", at))
	}
	return s
}

// replicaSetStatus draws a status consistent with rs's size.
func replicaSetStatus(t *rapid.T, rs rollout.ReplicaSet) rollout.ReplicaSetStatus {
	size := rs.Spec.Replicas
	s := rollout.ReplicaSetStatus{Replicas: size}
	if rapid.IntRange(0, 3).Draw(t, "status lags") == 0 {
		lag := int64(rapid.IntRange(-3, 2).Draw(t, "status.replicas lag"))
		s.Replicas = int32(min(math.MaxInt32, max(0, int64(size)+lag)))
	}
	s.ReadyReplicas = rapid.OneOf(rapid.Just(s.Replicas), rapid.Int32Range(0, s.Replicas)).Draw(t, "status.readyReplicas")
	s.AvailableReplicas = rapid.OneOf(rapid.Just(s.ReadyReplicas), rapid.Int32Range(0, s.ReadyReplicas)).Draw(t, "status.availableReplicas")
	s.FullyLabeledReplicas = s.Replicas
	s.ObservedGeneration = rapid.Int64Range(max(0, rs.Generation-1), rs.Generation).Draw(t, "status.observedGeneration")
	if s.ObservedGeneration > 0 && rapid.IntRange(0, 5).Draw(t, "terminatingReplicas absent") != 0 {
		s.TerminatingReplicas = rollout.Int32(rapid.Int32Range(0, 2).Draw(t, "status.terminatingReplicas"))
	}
	if rapid.IntRange(0, 9).Draw(t, "replica failure") == 0 {
		s.Conditions = []rollout.ReplicaSetCondition{{
			Type: rollout.ReplicaFailure, Status: rollout.ConditionTrue, Reason: "FailedCreate",
			Message: "pods \"x\" is forbidden: exceeded quota", LastTransitionTime: rs.CreationTimestamp,
		}}
	}
	return s
}
