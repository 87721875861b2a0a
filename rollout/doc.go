// Package rollout computes what the Kubernetes Deployment controller
// (1.35, 1.36 and 1.37; see [Version]) does, as pure functions over plain
// Deployment, ReplicaSet and Pod values.
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
// one ([NewReplicaSet]). [NewRSNewReplicas] sizes it: 10 + 3 = 13 allowed,
// 10 exist, so 3. In the same sync the old ReplicaSet shrinks: all 13
// counted pods minus the 8 that must stay available minus the 3 new ones
// not yet available leaves 2, so old goes 10 -> 8. The status write records
// revision 2 and the Progressing condition NewReplicaSetCreated.
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
// # Kubernetes versions
//
// A [Version] names a supported minor: [V1_35], [V1_36] or [V1_37]; the
// zero value, [Latest], is the newest. What a user sees differ between
// minors is above all the names: the pod-template-hash is a hash of a text
// that holds every field of the minor's pod template, unset ones included,
// so each minor names every ReplicaSet differently
// ([PodTemplateHashFor]). During an upgrade the controller-manager may be a
// minor older than the API server (Kubernetes' version skew policy); the
// names follow the controller-manager ([Options.Version]), the reading of
// manifests the API server ([DecodeOptions.Version]: a field that the
// minor does not have is an unknown field).
//
// # Carrying out a plan
//
// A controller built on Plan runs one sync per event, as upstream's does:
//
//  1. Build a [State] from its cache: the Deployment, every ReplicaSet and
//     Pod of its namespace, and the current time (a zero Now is refused,
//     [ErrZeroNow]). Plan reads nothing else and remembers nothing.
//  2. Carry out the actions in order. Each one for which [Action.IsAPICall]
//     is true is one request: patch the owner reference in
//     (AdoptReplicaSet, [NewControllerRef]) or out (ReleaseReplicaSet);
//     create Action.Created; update a ReplicaSet to size To with
//     Action.Annotations and Action.MinReadySeconds (ScaleReplicaSet,
//     UpdateReplicaSet); delete a ReplicaSet; update the Deployment's
//     annotations and template (UpdateDeployment); update its status
//     subresource with Action.Status and Action.Annotations
//     (UpdateDeploymentStatus). Record Action.Event once its call has
//     succeeded; a RecordEvent action is an event alone.
//  3. Stop at the first call that fails. The actions after it assume it
//     succeeded: a scale-down was sized against the availability an earlier
//     write left, a status write counts a ReplicaSet just created. Requeue
//     the Deployment with backoff; upstream retries up to 15 times, doubling
//     from 5 ms. A Conflict on a second write of the same object is
//     such a failure.
//  4. When Plan returns an error, first carry out the actions it returned
//     with it: after a hash collision ([*CollisionError]) the status write
//     that raises collisionCount is what lets the next sync pick another
//     name. Then requeue with backoff.
//  5. A RecheckProgress action, when present, is the last one: it is not a
//     call but a request to sync again at Action.At to judge the progress
//     deadline (at or before now means at once).
//  6. Plan again on the next event: a change to the Deployment, to one of
//     its ReplicaSets or to their pods, or a recheck falling due. Never
//     reuse a plan: the next sync must see what the API server stored
//     (UIDs of created ReplicaSets, raised generations, new statuses).
//
// Apply carries out step 2 on a State, as an API server that accepts every
// call would. The package example Example_controllerLoop is such a loop in a
// few lines, and package rollout/kube has one over client-go.
//
// # Upstream names
//
// Readers with upstream's source open can follow it here by name. The
// planner's methods are those of upstream's DeploymentController (dc
// below); the exported helpers keep upstream's names, meanings and, where
// they take pointers, upstream's argument shapes. Upstream file by file
// (pkg/controller/deployment, util/ for deployment_util.go):
//
//	deployment_controller.go
//	  syncDeployment                     Plan (planner.syncDeployment)
//	  getReplicaSetsForDeployment        planner.getReplicaSetsForDeployment: AdoptReplicaSet, ReleaseReplicaSet
//	  getPodMapForDeployment             planner.getPodMapForDeployment
//	  resolveControllerRef               IsControlledBy
//	  handlers, queue, worker, handleErr the caller's loop ("Carrying out a plan")
//	sync.go
//	  sync                               planner.sync
//	  syncStatusOnly                     planner.syncStatusOnly
//	  checkPausedConditions              planner.checkPausedConditions
//	  getAllReplicaSetsAndSyncRevision   planner.getAllReplicaSetsAndSyncRevision
//	  getNewReplicaSet                   planner.getNewReplicaSet (syncNewReplicaSet, createNewReplicaSet; NewReplicaSet builds it)
//	  scale                              planner.scale (scaleProportionally)
//	  scaleReplicaSet                    planner.scaleReplicaSet
//	  cleanupDeployment                  planner.cleanupDeployment (revision.Prune)
//	  syncDeploymentStatus               planner.syncDeploymentStatus
//	  calculateStatus                    CalculateStatus
//	  isScalingEvent                     planner.isScalingEvent
//	  generateReplicaSetName             NewReplicaSetName (hash.Name)
//	rolling.go
//	  rolloutRolling, reconcileNewReplicaSet, reconcileOldReplicaSets,
//	  cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate
//	                                     planner methods of the same names
//	recreate.go
//	  rolloutRecreate, scaleDownOldReplicaSetsForRecreate, oldPodsRunning,
//	  scaleUpNewReplicaSetForRecreate    planner methods of the same names
//	rollback.go
//	  rollback, rollbackToTemplate, updateDeploymentAndClearRollbackTo,
//	  getRollbackTo                      planner methods of the same names
//	  emitRollback{Warning,Normal}Event  Event values (RollbackDone, ...)
//	  setRollbackTo                      the caller sets RollbackToAnnotation
//	progress.go
//	  syncRolloutStatus                  planner.syncRolloutStatus
//	  getReplicaFailures                 getReplicaFailure (the first one)
//	  requeueStuckDeployment             planner.requeueStuckDeployment: RecheckProgress
//	util/deployment_util.go
//	  NewDeploymentCondition, GetDeploymentCondition, SetDeploymentCondition,
//	  RemoveDeploymentCondition, ReplicaSetToDeploymentCondition,
//	  MaxRevision, LastRevision, Revision, FindActiveOrLatest,
//	  GetDesiredReplicasAnnotation, SetReplicasAnnotations,
//	  ReplicasAnnotationsNeedUpdate, MaxUnavailable, MinAvailable, MaxSurge,
//	  GetReplicaSetProportion, EqualIgnoreHash, FindNewReplicaSet,
//	  FindOldReplicaSets, Get{,Actual,Ready,Available,Terminating}ReplicaCountForReplicaSets,
//	  DeploymentComplete, DeploymentProgressing, DeploymentTimedOut,
//	  NewRSNewReplicas, IsSaturated, ResolveFenceposts, HasProgressDeadline,
//	  HasRevisionHistoryLimit, ReplicaSetsByRevision
//	                                     the same names here
//	  getMaxReplicasAnnotation           GetMaxReplicasAnnotation
//	  getNonNegativeInt32FromAnnotation  getNonNegativeInt32FromAnnotation
//	  getReplicaSetFraction              proportion.Fraction
//	  SetDeploymentRevision              planner.setDeploymentRevision
//	  SetNewReplicaSetAnnotations        setNewReplicaSetAnnotations
//	  copyDeploymentAnnotationsToReplicaSet, skipCopyAnnotation
//	                                     the same names (CopiesAnnotation exported)
//	  SetDeploymentAnnotationsTo         setDeploymentAnnotationsTo
//	  SetFromReplicaSetTemplate          setFromReplicaSetTemplate
//	  IsRollingUpdate                    Strategy.Type == RollingUpdateStrategy
//	  ListReplicaSets, ListPods, RsListFromClient, WaitForObservedDeployment,
//	  GetDeploymentsForReplicaSet        the caller's: State holds the lists
//	  *Reason constants                  Reason* constants; RollbackDone and
//	                                     the other event reasons by their names
//	pkg/controller (controller_utils.go, controller_ref_manager.go)
//	  FilterActiveReplicaSets, ReplicaSetsByCreationTimestamp,
//	  ReplicaSetsBySizeOlder, ReplicaSetsBySizeNewer
//	                                     the same names (and Compare* functions)
//	  ComputeHash                        PodTemplateHash (schema renders, hash.FNV32a)
//	  ReplicaSetControllerRefManager     planner.getReplicaSetsForDeployment
//	metav1 NewControllerRef, IsControlledBy
//	                                     NewControllerRef, IsControlledBy
//
// None of the helpers modifies or reorders its arguments, and sums are int64
// so that none wraps.
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
// # The behaviour specification
//
// Rule identifiers in comments and tests, such as R-ROLL-6 or Q-1, are
// defined in SPEC.md beside this package: what upstream does, which upstream
// function does it, and, in its last section, every difference from
// upstream.
//
// # Changes to the API
//
// [Action.Template], [Action.Status] and [Action.Created] are pointers, set
// only on the action type that carries each (UpdateDeployment,
// UpdateDeploymentStatus, CreateReplicaSet) and nil on every other. They
// were values: an Action was 624 bytes, and a simulated rollout holds one
// for each sync. Reading a field through them compiles unchanged; code that
// builds an Action takes the address of its value, and code that compares
// one with cmp compares what they point to. Each action Plan returns owns
// its pointees, and the JSON form ([Action.MarshalJSON]) is unchanged.
package rollout
