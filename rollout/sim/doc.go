// Package sim simulates whole rollouts: it drives [rollout.Plan] and
// [rollout.Apply] sync after sync under a deterministic model of pods, with
// time as data.
//
// [Run] starts from a [rollout.State] (often [FromDeployment] followed by
// [WithImage]) and returns every sync as a [Step], with the ReplicaSets'
// sizes and pods after it, and a [Summary]: whether and how the rollout
// ended ("complete", "progress deadline exceeded", "blocked by quota", ...),
// how long it took, and the extremes it went through (peak pods, fewest
// available pods, time below the availability floor).
//
// # The pod model
//
// [PodModel] stands in for the ReplicaSet controller and the kubelet: pods
// become ready a fixed time after their creation (plus seeded jitter),
// except those of images listed in NeverReady; they are available once
// ready for the ReplicaSet's minReadySeconds; a deleted pod terminates for
// a fixed time; and a pod quota may refuse creations. Pods are counted in
// cohorts that share their times, so the cost of a run grows with its
// events, not its pods: a rollout of 100,000 replicas runs in seconds.
//
// # Time
//
// Nothing reads the clock. With Config.Interval the controller syncs at
// fixed intervals, as the golden harness did (every 30s); without it the
// controller is event driven, syncing after each change and at each
// progress re-check, so a rollout whose pods are ready at once takes no
// simulated time at all.
//
// # Without a simulation
//
// [ComputeBounds] and [BoundsRange] give the surge, the availability floor
// and the fewest size-changing syncs of a strategy for a replica count;
// [PreviewUndo] shows what `kubectl rollout undo` would restore.
package sim
