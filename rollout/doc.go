// Package rollout computes what the Kubernetes Deployment controller
// (v1.36) does, as pure functions over plain Deployment, ReplicaSet and Pod
// values.
//
// [Plan] is one controller sync: given a [State] (the Deployment, the
// ReplicaSets and Pods of its namespace, and the time), it returns the
// [Action] list the controller would carry out, the same API calls in the
// same order with the same events. [Apply] is the reference applier that
// advances a State by those actions, as an API server would. Plan neither
// reads the clock nor modifies its input.
//
// # A rolling update, step by step
//
// Take the seed example: nginx-deployment with 10 replicas, maxSurge 25% and
// maxUnavailable 25%, all 10 pods of its ReplicaSet available, and the image
// changed from nginx:1.9 to nginx:1.9.3.
//
// [Limits] resolves the strategy against the 10 replicas: maxSurge rounds up
// to 3, maxUnavailable rounds down to 2 ([ResolveFenceposts], package
// surge). So at most 13 pods may exist and at least 8 must be available.
//
// Sync 1: no ReplicaSet has the new template ([FindNewReplicaSet] compares
// templates ignoring the pod-template-hash label), so the rollout creates
// one. [NewRSNewReplicas] sizes it: 10 + 3 = 13 allowed, 10 exist, so 3.
// In the same sync the old ReplicaSet shrinks: all 13 counted pods minus the
// 8 that must stay available minus the 3 new ones not yet available leaves
// 2, so old goes 10 -> 8. The status write records revision 2 and the
// Progressing condition NewReplicaSetCreated.
//
// Sync 2, once the 3 new pods are available: 8 + 3 = 11 pods, so the new
// ReplicaSet may grow by 2, to 5.
//
// Sync 3: 13 pods, 13 available, 8 needed: old shrinks by 5, to 3.
// Sync 4: new grows to 10. Sync 5: old goes to 0. Sync 6: with every
// replica updated and available, Progressing becomes NewReplicaSetAvailable
// and, from then on, old ReplicaSets beyond revisionHistoryLimit are
// deleted.
//
// The functions behind each decision, in the order Plan calls them:
// adoption and release (claimReplicaSets), pause bookkeeping, rollback
// (rollback), scaling events and proportional scaling ([GetReplicaSetProportion],
// package proportion), then the strategy: RollingUpdate grows the new
// ReplicaSet ([NewRSNewReplicas]) or shrinks old ones (unhealthy replicas
// first, then within maxUnavailable), Recreate scales old ReplicaSets to
// zero and waits for their pods before creating the new one. Every sync
// ends with the status ([DeploymentComplete], [DeploymentProgressing],
// [DeploymentTimedOut]).
//
// # Upstream names
//
// The helpers of upstream's deployment util package exist here under their
// names and with their meaning: [MaxSurge], [MaxUnavailable],
// [MinAvailable], [ResolveFenceposts], [NewRSNewReplicas],
// [GetReplicaSetProportion] (and [GetProportion]), [FindNewReplicaSet],
// [FindOldReplicaSets], [FindActiveOrLatest], [FilterActiveReplicaSets],
// [IsSaturated], [DeploymentComplete], [DeploymentProgressing],
// [DeploymentTimedOut], the replica counts
// ([GetReplicaCountForReplicaSets] and its siblings, or [Count] for all at
// once), the annotation helpers and the condition helpers. None of them
// modifies or reorders its arguments, and sums are int64 so that none
// wraps.
//
// # Values, defaults and validation
//
// The types mirror apps/v1 and core/v1 field names, so kubectl's JSON
// decodes into them ([Decode] reads a List or a single object). Decoding
// applies the API server's defaults, and only decoding does: replicas 1,
// strategy RollingUpdate with 25%/25%, revisionHistoryLimit 10,
// progressDeadlineSeconds 600, and the pod template defaults. Fields the API
// keeps as nil pointers where nil means something are [OptionalInt32].
// [Validate] refuses what the API server refuses, and Plan refuses it too
// unless [Options].SkipValidation is set.
//
// Rule identifiers in comments, such as R-ROLL-6 or Q-1, refer to the
// behaviour specification this package was built from; the README lists
// where it differs from upstream on purpose.
package rollout
