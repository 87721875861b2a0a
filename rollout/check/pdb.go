package check

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// PodDisruptionBudgets against a rollout: the Deployment controller does
// not ask them (it scales ReplicaSets, it does not evict), but while a
// rollout holds the ready pods at or below a budget, every eviction of
// those pods is refused: node drains and cluster upgrades wait for the
// rollout. And a budget that allows no eviction even when every replica
// is ready blocks drains for good.

// A budget is a PodDisruptionBudget that selects a Deployment's pods.
type budget struct {
	pdb   policyObject[*schema.PodDisruptionBudget]
	field string // the spec field that sets it: spec.minAvailable or spec.maxUnavailable
	// others are the replicas of the other Deployments it selects, ready
	// throughout the rollout, and expected in its count.
	others int64
}

// budgetsFor returns the PodDisruptionBudgets of d's namespace that select
// its pods (by its template's labels).
func (in *Input) budgetsFor(d rollout.Deployment) []budget {
	ns := in.policy[d.Namespace]
	if ns == nil {
		return nil
	}
	var out []budget
	for _, i := range ns.pdbsOf[d.Name] {
		p := ns.pdbs[i]
		b := budget{pdb: p, field: "spec.minAvailable", others: ns.pdbReplicas[i] - int64(d.Spec.Replicas)}
		if p.obj.Spec.MaxUnavailable != nil {
			b.field = "spec.maxUnavailable"
		}
		out = append(out, b)
	}
	return out
}

// keep returns how many of the pods the budget selects must stay ready
// when d has replicas (the disruption controller's desiredHealthy):
// minAvailable, as a count or a percent of the expected pods rounded up,
// or the expected pods less maxUnavailable (rounded up). The expected pods
// are the replicas of the Deployments it selects.
func (b budget) keep(replicas int32) int64 {
	expected := int64(replicas) + b.others
	s := b.pdb.obj.Spec
	switch {
	case s.MaxUnavailable != nil:
		return max(expected-scaleUp(*s.MaxUnavailable, expected), 0)
	case s.MinAvailable != nil && s.MinAvailable.Type == schema.IntType:
		return int64(s.MinAvailable.IntVal)
	case s.MinAvailable != nil:
		return scaleUp(*s.MinAvailable, expected)
	}
	return 0
}

// scaleUp is intstr.GetScaledValueFromIntOrPercent rounding up: a count,
// or a percent of total.
func scaleUp(v schema.IntOrString, total int64) int64 {
	if v.Type == schema.IntType {
		return int64(v.IntVal)
	}
	var p int64
	fmt.Sscanf(v.StrVal, "%d%%", &p) // validated: [0-9]+%
	return (p*total + 99) / 100
}

// describe words the budget for replicas: "PodDisruptionBudget web
// (minAvailable 90%) keeps 9 of 10 pods ready".
func (b budget) describe(replicas int32) string {
	s := b.pdb.obj.Spec
	v := s.MinAvailable
	what := "minAvailable"
	if s.MaxUnavailable != nil {
		v, what = s.MaxUnavailable, "maxUnavailable"
	}
	setting := "no minAvailable or maxUnavailable"
	if v != nil {
		setting = what + " " + v.String()
	}
	return fmt.Sprintf("PodDisruptionBudget %s (%s) keeps %d of %d pods ready", b.pdb.obj.Name, setting, b.keep(replicas), int64(replicas)+b.others)
}

// drainBlock is when a rollout at some replica count holds a budget's
// pods at or below what it keeps.
type drainBlock struct {
	budget   int   // index in the Deployment's budgets
	replicas int32 // the replica count checked
	// scaled is the Deployment's spec.replicas when the block starts,
	// which keep is of: replicas, unless a change of the run (an HPA's
	// scale-up, sim.Config.Changes) set another count by then.
	scaled     int32
	from, to   time.Duration
	fewest     int64 // the fewest ready pods it selects
	keep       int64
	throughEnd bool  // still blocked after the last sync
	n          int64 // the Deployment's pods on the node drained
	// deadline is when the progress deadline was exceeded, for a block
	// that starts after it in a run that went on past it (0 otherwise).
	deadline time.Duration
}

// drainBlocks finds, for each budget, the syncs where a drain of a node
// holding n of the Deployment's pods is refused and fares worse than at
// rest (budget.worseThanAtRest): for n = 1, where the ready pods the
// budget selects are at or below what it keeps.
func drainBlocks(budgets []budget, replicas int32, moments []moment, n int64) []drainBlock {
	var out []drainBlock
	for i, b := range budgets {
		var blk *drainBlock
		for k, m := range moments {
			keep := b.keep(m.replicas)
			ready := m.ready + b.others
			expected := int64(m.replicas) + b.others
			if expected == 0 || !b.worseThanAtRest(b.drain(ready, m.ready, keep, expected, n), m.replicas, n) {
				continue
			}
			if blk == nil {
				out = append(out, drainBlock{budget: i, replicas: replicas, scaled: m.replicas, from: m.at, fewest: ready, keep: keep, n: n})
				blk = &out[len(out)-1]
			}
			blk.to, blk.fewest, blk.throughEnd = m.at, min(blk.fewest, ready), k == len(moments)-1
		}
	}
	return out
}

// worseDrains returns, budget by budget, the drain blocks of the race
// order that holds the budget's pods lower: b's where they drop to fewer
// ready pods than in a (or a has none for it), a's otherwise. Both are
// drainBlocks' results over the same budgets, in budget order.
func worseDrains(a, b []drainBlock) []drainBlock {
	fewest := func(blocks []drainBlock, i int) (int64, bool) {
		var low int64
		found := false
		for _, blk := range blocks {
			if blk.budget == i && (!found || blk.fewest < low) {
				low, found = blk.fewest, true
			}
		}
		return low, found
	}
	last := -1
	for _, blk := range a {
		last = max(last, blk.budget)
	}
	for _, blk := range b {
		last = max(last, blk.budget)
	}
	var out []drainBlock
	for i := 0; i <= last; i++ {
		from := a
		if lb, ok := fewest(b, i); ok {
			if la, ok := fewest(a, i); !ok || lb < la {
				from = b
			}
		}
		for _, blk := range from {
			if blk.budget == i {
				out = append(out, blk)
			}
		}
	}
	return out
}

// summaryDrains returns the drain blocks that the run's fewest available
// pods (Summary.MinAvailable, of the worse race order, between syncs
// included) make for a drain of n pods, one per budget where it is
// refused, for the replica count checked, the Deployment having scaled
// replicas at that moment. The caller uses it only where available pods
// are ready pods (minReadySeconds 0).
func summaryDrains(budgets []budget, replicas, scaled int32, sum sim.Summary, n int64) []drainBlock {
	var out []drainBlock
	for i, b := range budgets {
		keep := b.keep(scaled)
		ready := sum.MinAvailable + b.others
		expected := int64(scaled) + b.others
		if expected == 0 || !b.worseThanAtRest(b.drain(ready, sum.MinAvailable, keep, expected, n), scaled, n) {
			continue
		}
		out = append(out, drainBlock{budget: i, replicas: replicas, scaled: scaled, from: sum.MinAvailableAt, to: sum.MinAvailableAt, fewest: ready, keep: keep, n: n})
	}
	return out
}

// summaryMoment is the run's fewest available pods as a moment, for
// drainLows: ready pods where minReadySeconds is 0.
func summaryMoment(replicas int32, sum sim.Summary) moment {
	return moment{at: sum.MinAvailableAt, ready: sum.MinAvailable, avail: sum.MinAvailable, replicas: replicas}
}
