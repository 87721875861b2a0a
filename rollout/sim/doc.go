// Package sim simulates whole rollouts: it drives [rollout.Plan] and
// [rollout.ApplyTo] sync after sync under a deterministic model of pods, with
// time as data.
//
// [Run] starts from a [rollout.State] (often [FromDeployment] followed by
// [WithImage]) and returns the state it started from and every sync as a
// [Step], with the ReplicaSets' sizes and pods after it, and a [Summary]:
// how the rollout ended (an [Outcome]: complete, progress deadline
// exceeded, blocked by quota, ...), how long it took, and the extremes it
// went through (peak pods, fewest available pods, time below the
// availability floor of the moment).
//
// # The pod model
//
// [PodModel] stands in for the ReplicaSet controller and the kubelet: pods
// become ready a fixed time after their creation (plus seeded jitter),
// except those of images listed in NeverReady; they are available once
// ready for the ReplicaSet's minReadySeconds; a deleted pod terminates for
// a fixed time; and a pod quota may refuse creations. Pods are counted in
// cohorts that share their times, so the cost of a sync does not grow with
// its pods.
//
// # Time, limits and size
//
// Nothing reads the clock. With Config.Interval the controller syncs at
// fixed intervals, as the golden harness did (every 30s); without it the
// controller is event driven, syncing after each change and at each
// progress re-check, so a rollout whose pods are ready at once takes no
// simulated time at all.
//
// Long regular phases, such as a maxSurge of 1 over 100,000 replicas, are
// fast-forwarded (see Run): the Result is the same as sync by sync, and
// the cost grows with the output rather than with the syncs;
// Config.Observe hands the steps over one at a time, so that a caller
// need not hold them all. A run stops
// at a limit (Config.MaxSyncs, MaxTime, MaxWork) only when asked to, or
// when its syncs keep changing in irregular ways; it then says so with
// OutcomeLimit, which is not a verdict on the rollout.
//
// # Without a simulation
//
// [ComputeBounds] and [BoundsRange] give the surge, the availability floor
// and the fewest size-changing syncs of a strategy for a replica count;
// [PreviewUndo] shows what `kubectl rollout undo` would restore.
package sim
