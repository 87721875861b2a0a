// Package proportion distributes a change in a Deployment's size across its
// active ReplicaSets when the Deployment is resized in the middle of a
// rollout (proportional scaling), as the Kubernetes Deployment controller
// does (R-SCALE-4 to R-SCALE-7).
//
// # Model
//
// A [Set] is one active ReplicaSet: its name, creation time, size and the
// max-replicas annotation the controller last wrote on it (the Deployment's
// replicas plus maxSurge at that time; 0 when missing or invalid; parsing
// the annotation is the caller's job, R-ANN-1). A [Resize] is the Deployment
// after the change: its replicas, its new maximum (replicas plus the
// resolved maxSurge) and its status replicas.
//
// Each set keeps its share of the old maximum in the new one. [Fraction] is
// that target minus the current size:
//
//	Fraction = round(Replicas * r.MaxReplicas / MaxReplicas) - Replicas
//
// rounding half away from zero (2.5 → 3). A set without a max-replicas
// annotation is measured against the Deployment's status replicas instead;
// if that is 0 too, its Fraction is 0. Scaling to 0 replicas gives every
// set a Fraction of minus its size. [Proportion] limits a Fraction to what
// is left of the budget, and [Distribute] walks all sets (R-SCALE-4):
//
//	allowed = r.MaxReplicas if r.Replicas > 0, else 0
//	toAdd   = allowed - Σ Replicas
//
// It visits the sets largest first, ties broken newer first when growing
// ([CompareSizeNewer]) and older first when shrinking ([CompareSizeOlder]),
// gives each its [Proportion], then gives the rounding leftover to the first
// set in that order and clamps that set at 0. The worked example of
// R-SCALE-7: sets of 8 (older) and 5 (newer) annotated with 13, resized to
// 50 replicas with a surge of 6 (allowed 56), become 34 and 22.
//
// # When the sizes sum to allowed
//
// Let every set have Replicas >= 0, let r.MaxReplicas >= 0, and let no sum
// leave int64 (which needs a Replicas·r.MaxReplicas/MaxReplicas near 2^63:
// sizes and maxima near math.MaxInt32 with tiny annotations). Then the
// result sums to
//
//	max(allowed, the sum of every size but the first's)
//
// so it is never below allowed, and it equals allowed exactly when the
// first set in scaling order did not need the clamp at 0. That is always the
// case when toAdd >= 0 (scaling up, or no change). When toAdd < 0 it is the
// case when r.Replicas == 0 (every size becomes 0), and when there are at
// most three sets and every set's denominator (its MaxReplicas, or
// r.StatusReplicas when it has none) is at least the current Σ Replicas,
// the usual state mid-rollout, since the annotations record the maximum the
// sets were sized against. Outside that, the clamp can lose part of a
// scale-down, as upstream does:
//
//   - No denominator at all (no annotations and StatusReplicas == 0): every
//     Fraction is 0 and the whole of toAdd goes to the first set. Sets 3 and
//     3 scaled to 2 end at 0 and 3 (sum 3): the first set would need -1.
//   - Many small sets: four sets of 1 annotated with 4, scaled to 2. Each
//     1·2/4 = 0.5 rounds up to 1, so every Fraction is 0 and the first set
//     would need -1: the result is 0, 1, 1, 1 (sum 3).
//   - Inconsistent annotations: a set of 5 annotated 10 and a set of 4
//     annotated 1, scaled to 2. The second set's Fraction is +4 in a
//     scale-down; the result is 0 and 8 (sum 8).
//
// A set whose annotation is far below its size can also grow beyond
// math.MaxInt32 (upstream would wrap); the caller decides what to do with
// such a size.
//
// # Differences from upstream
//
// The arithmetic is exact: [Fraction] multiplies and divides in 128-bit
// integers and the sums are int64, where upstream multiplies in int32 and
// wraps. With a set of 40000 annotated 50000 and a Deployment resized
// to 60000 replicas, upstream computes a Fraction of -77899 and a negative
// target size; Fraction returns +8000. A negative status replica count
// counts as no denominator. Everything else, including the leftover rule,
// the clamp of only the first set (R-SCALE-4 step 7, Q-19) and the
// tie-breaks (R-PRIM-5, R-PRIM-6), is upstream's.
//
// All functions are pure: they do not modify their arguments, and
// [Fraction] and [Proportion] do not allocate.
package proportion
