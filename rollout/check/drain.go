package check

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// A node drain during a rollout, against the PodDisruptionBudgets of the
// Deployment's pods, as the eviction API (pkg/registry/core/pod/storage,
// eviction.go) and the disruption controller (pkg/controller/disruption)
// decide it:
//
//   - the budget's status holds disruptionsAllowed = currentHealthy -
//     desiredHealthy, or 0 when that is negative or no pod is expected
//     (expectedPods, the replicas of the controllers owning the selected
//     pods); currentHealthy counts the selected pods that are ready and
//     neither being deleted nor just evicted; desiredHealthy is what
//     minAvailable or maxUnavailable keeps of expectedPods;
//   - an eviction of a ready pod is refused (429) when disruptionsAllowed
//     is 0, and otherwise takes one from it; kubectl drain retries a
//     refused eviction every 5s, so the drain waits;
//   - an eviction of a pod that is not ready goes through without counting
//     when the budget's unhealthyPodEvictionPolicy is AlwaysAllow, or when
//     currentHealthy >= desiredHealthy > 0 (IfHealthyBudget, the default);
//     else it is refused as a ready pod's is; a Pending or terminating pod
//     is evicted whatever the budgets say;
//   - a pod that more than one budget selects cannot be evicted at all
//     (500), so a drain of its node fails (RulePDBNever says so).
//
// The Deployment controller never evicts: it scales ReplicaSets and the
// ReplicaSet controller deletes pods, so no budget gates the rollout
// itself, only the drains that run while it goes on.

// drainOutcome is what a drain of a node holding n of a Deployment's pods
// does at one moment of its rollout, with ready of the budget's selected
// pods ready (own of them the Deployment's), keep the budget's
// desiredHealthy and expected its expectedPods.
type drainOutcome struct {
	allowed int64 // disruptionsAllowed
	evicted int64 // ready pods the eviction API lets go
	refused bool  // some eviction is refused: the drain waits
	// left and leftDeleted are the ready pods the budget selects after
	// an eviction drain, and after a drain that deletes the node's pods
	// without the eviction API.
	left, leftDeleted int64
}

// drain returns what a drain of a node holding n of the Deployment's pods
// does. The node's pods are taken to be ready ones, as many as are ready,
// and the rest running but not ready: the worst case for the budget.
func (b budget) drain(ready, own, keep, expected, n int64) drainOutcome {
	o := drainOutcome{allowed: max(ready-keep, 0)}
	if expected <= 0 {
		o.allowed = 0
	}
	healthy := min(n, max(own, 0))
	unhealthy := n - healthy
	o.evicted = min(healthy, o.allowed)
	o.refused = healthy > o.allowed
	if unhealthy > 0 && !b.alwaysAllow() && !(ready >= keep && keep > 0) {
		o.refused = true
	}
	o.left, o.leftDeleted = ready-o.evicted, ready-healthy
	return o
}

// worseThanAtRest reports whether a drain outcome o of n pods, at a
// moment with replicas, is refused where the same drain with every
// replica ready is not, or evicts fewer pods than it: what the rollout
// does to drains. A drain the budget refuses at rest as much (it allows
// fewer than n evictions with every replica ready) waits for
// replacement pods whether a rollout runs or not; one it refuses
// entirely at rest is RulePDBNever's. For n = 1 it is o.refused, unless
// the budget allows no eviction at rest.
func (b budget) worseThanAtRest(o drainOutcome, replicas int32, n int64) bool {
	expected := int64(replicas) + b.others
	rest := b.drain(expected, int64(replicas), b.keep(replicas), expected, n)
	return o.refused && (!rest.refused || o.evicted < rest.evicted)
}

// alwaysAllow reports whether the budget lets pods that are not ready be
// evicted whatever its state (unhealthyPodEvictionPolicy AlwaysAllow).
func (b budget) alwaysAllow() bool {
	p := b.pdb.obj.Spec.UnhealthyPodEvictionPolicy
	return p != nil && *p == "AlwaysAllow"
}

// drainPods returns how many of the Deployment's pods the drained node
// holds: Config.DrainPods, else 1. The node count of the placement rules
// does not set it: which nodes hold the pods is the scheduler's spreading,
// which the placement model leaves out.
func (f *checker) drainPods() int64 {
	if f.drainN > 0 {
		return int64(f.drainN)
	}
	return 1
}

// drainWords words a drain block for RulePDBDrain's message; counts are
// the replica counts where drains are refused, blk's count the first of
// them. The figures are blk's, and the message says so where counts
// holds others: a range's finding names the count it describes. The
// budget is worded at the Deployment's replicas when the block starts
// (blk.scaled), as the cluster has them then: after an HPA's scale-up,
// the pods it keeps of the scaled count, not of the count checked.
func drainWords(b budget, blk drainBlock, counts string) string {
	own := blk.fewest - b.others
	o := b.drain(blk.fewest, own, blk.keep, int64(blk.scaled)+b.others, blk.n)
	what := "a node drain"
	if blk.n != 1 {
		what = fmt.Sprintf("a drain of a node holding %d of its pods", blk.n)
	}
	at := fmt.Sprint(blk.replicas)
	if blk.scaled != blk.replicas {
		at += fmt.Sprintf(", scaled to %d by then", blk.scaled)
	}
	if counts != fmt.Sprint(blk.replicas) {
		at += fmt.Sprintf(", the first of the counts %s where it is refused", counts)
	}
	s := fmt.Sprintf("during the rollout the ready pods drop to %d while %s: %s is refused %s (at replicas %s): the budget allows %s then",
		blk.fewest, b.describe(blk.scaled), what, span(blk.from, blk.to), at, words.Plural(int(min(o.allowed, math.MaxInt32)), "eviction"))
	if blk.n != 1 {
		rest := int64(blk.scaled) + b.others
		s += fmt.Sprintf(" (%d with every replica ready)", b.drain(rest, int64(blk.scaled), b.keep(blk.scaled), rest, blk.n).allowed)
	}
	if o.evicted > 0 {
		s += fmt.Sprintf(", the drain takes %d and leaves %d ready, and waits", o.evicted, o.left)
	} else {
		s += ", and the drain waits"
	}
	if blk.deadline > 0 {
		s += fmt.Sprintf(" (after the progress deadline was exceeded at +%s: the controllers go on)", words.Duration(blk.deadline))
	}
	if o.leftDeleted < blk.keep {
		s += fmt.Sprintf("; a drain that deletes pods without eviction (kubectl drain --disable-eviction, a node lost) leaves %d ready, below the %d it keeps", o.leftDeleted, blk.keep)
	}
	return s
}

// drainNote is the note of a Deployment with budgets: the rollout is not
// gated by them, and the fewest ready pods a drain leaves at the worst
// moment of its rollouts, budget by budget (lows, in budget order), or,
// with more than one budget, that no pod can be evicted.
func drainNote(d rollout.Deployment, budgets []budget, lows []drainLow) string {
	names := ""
	for i, b := range budgets {
		if i > 0 {
			names += ", "
		}
		names += b.pdb.obj.Name
	}
	kind := "PodDisruptionBudget"
	if len(budgets) > 1 {
		kind += "s"
	}
	s := fmt.Sprintf("%s: the rollout is not gated by %s %s (the Deployment controller scales ReplicaSets and deletes pods without the eviction API); only evictions are, such as those of a node drain", Qualified(d), kind, names)
	if len(budgets) > 1 {
		return s + ", and none of its pods can be evicted, as more than one budget selects them"
	}
	for _, w := range lows {
		at := fmt.Sprint(w.replicas)
		if w.scaled != w.replicas {
			at += fmt.Sprintf(", scaled to %d by then", w.scaled)
		}
		s += fmt.Sprintf("; a drain of a node holding %s at the worst moment (+%s, at replicas %s) leaves %d of the pods %s selects ready (%d if it deletes them without eviction)",
			words.Plural(int(min(w.n, math.MaxInt32)), "pod"), words.Duration(w.at), at, w.left, budgets[w.budget].pdb.obj.Name, w.leftDeleted)
	}
	return s
}

// drainLow is the worst moment of a Deployment's rollouts for an eviction
// drain of a node holding n of its pods, for one budget: the fewest of
// the pods the budget selects left ready, when and at which replica
// count checked (scaled: the Deployment's replicas at that moment, which
// a change of the run may have set); and the fewest a drain that deletes
// them without eviction leaves, at its own worst moment.
type drainLow struct {
	budget            int
	n                 int64
	replicas, scaled  int32
	at                time.Duration
	left, leftDeleted int64
}

// drainLows returns, for each budget, the moment of runs (the moments of
// the race orders judged) where an eviction drain of n pods leaves the
// fewest selected pods ready, the first of equal ones.
func drainLows(budgets []budget, replicas int32, n int64, runs ...[]moment) []drainLow {
	var out []drainLow
	for i, b := range budgets {
		low := drainLow{budget: i, n: n, replicas: replicas, left: -1, leftDeleted: -1}
		for _, moments := range runs {
			for _, m := range moments {
				ready := m.ready + b.others
				o := b.drain(ready, m.ready, b.keep(m.replicas), int64(m.replicas)+b.others, n)
				if low.left < 0 || o.left < low.left {
					low.at, low.left, low.scaled = m.at, o.left, m.replicas
				}
				if low.leftDeleted < 0 || o.leftDeleted < low.leftDeleted {
					low.leftDeleted = o.leftDeleted
				}
			}
		}
		if low.left >= 0 {
			out = append(out, low)
		}
	}
	return out
}

// lowerDrains returns, budget by budget, the lower of two drainLows
// results over the same budgets (a's on a tie), with the fewer pods left
// by a drain without eviction of the two.
func lowerDrains(a, b []drainLow) []drainLow {
	out := append([]drainLow(nil), a...)
	for _, w := range b {
		k := -1
		for j := range out {
			if out[j].budget == w.budget {
				k = j
			}
		}
		switch {
		case k < 0:
			out = append(out, w)
		case w.left < out[k].left:
			w.leftDeleted = min(w.leftDeleted, out[k].leftDeleted)
			out[k] = w
		default:
			out[k].leftDeleted = min(out[k].leftDeleted, w.leftDeleted)
		}
	}
	slices.SortStableFunc(out, func(x, y drainLow) int { return x.budget - y.budget })
	return out
}
