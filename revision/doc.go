// Package revision computes the Deployment controller's revision numbers, the
// revision-history annotation, which old ReplicaSets history cleanup deletes,
// and which ReplicaSet a rollback restores.
//
// It reproduces Kubernetes v1.36.3 (pkg/controller/deployment) on plain values:
// callers read the annotations and pass strings, [Rev] values and [Set]
// descriptions; nothing here knows what a ReplicaSet is.
//
// # Revisions
//
// A revision annotation is a base-10 int64 ([Parse]). [Of] turns an
// annotation lookup into a [Rev]: a missing annotation is revision 0, an
// unparsable one is a Rev with Valid false, which every function here skips
// (R-REV-1). [Max] and [Last] are the largest and second-largest revisions
// (R-REV-2, R-REV-3) and [Next] is the revision a new ReplicaSet gets.
//
// # History
//
// When an old ReplicaSet is promoted again (after a rollback), its previous
// revision is appended to a comma-separated history bounded to [HistoryLimit]
// characters by [AppendHistory] (R-ANN-5 step 6).
//
// # Cleanup and rollback
//
// [Prune] selects the old ReplicaSets that revision-history cleanup deletes
// (R-CLEAN-3, R-CLEAN-4); [Rollback] and [ParseRollbackTo] select the
// ReplicaSet a rollback request restores (R-RB-1, R-RB-2).
//
// # Differences from upstream
//
//   - [Next] returns [ErrOverflow] instead of wrapping past math.MaxInt64 to a
//     negative revision.
//
// All functions are pure: they read their arguments, never modify or reorder
// an input slice, and never panic.
package revision
