package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

func testBudget(policy string) budget {
	pdb := &schema.PodDisruptionBudget{}
	pdb.Name = "web"
	if policy != "" {
		pdb.Spec.UnhealthyPodEvictionPolicy = &policy
	}
	return budget{pdb: policyObject[*schema.PodDisruptionBudget]{obj: pdb}}
}

// TestBudgetDrain carries the eviction API's and the disruption
// controller's rules (k8s.io/kubernetes v1.36.3,
// pkg/registry/core/pod/storage/eviction.go and
// pkg/controller/disruption/disruption.go) for a drain of a node holding
// n of the Deployment's pods.
func TestBudgetDrain(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		policy                        string
		ready, own, keep, expected, n int64
		want                          drainOutcome
	}{{
		// disruption.go updatePdbStatus: disruptionsAllowed =
		// currentHealthy - desiredHealthy; eviction.go checkAndDecrement
		// refuses at 0.
		name:  "disruptionsAllowed 0 refuses the eviction of a ready pod",
		ready: 3, own: 3, keep: 3, expected: 4, n: 1,
		want: drainOutcome{allowed: 0, evicted: 0, refused: true, left: 3, leftDeleted: 2},
	}, {
		name:  "each eviction takes one from disruptionsAllowed: 2 of 3 go",
		ready: 6, own: 6, keep: 4, expected: 6, n: 3,
		want: drainOutcome{allowed: 2, evicted: 2, refused: true, left: 4, leftDeleted: 3},
	}, {
		name:  "disruptionsAllowed covers the node's pods: the drain goes through",
		ready: 6, own: 6, keep: 4, expected: 6, n: 2,
		want: drainOutcome{allowed: 2, evicted: 2, left: 4, leftDeleted: 4},
	}, {
		// updatePdbStatus: negative disruptionsAllowed is stored as 0.
		name:  "fewer healthy than desired: 0 allowed, not negative",
		ready: 2, own: 2, keep: 4, expected: 6, n: 1,
		want: drainOutcome{allowed: 0, refused: true, left: 2, leftDeleted: 1},
	}, {
		// updatePdbStatus: expectedCount <= 0 allows nothing.
		name:  "no pod expected: nothing allowed",
		ready: 1, own: 1, keep: 0, expected: 0, n: 1,
		want: drainOutcome{allowed: 0, refused: true, left: 1, leftDeleted: 0},
	}, {
		// eviction.go: an unready pod is evicted without counting when
		// currentHealthy >= desiredHealthy > 0 (IfHealthyBudget).
		name:  "IfHealthyBudget, budget healthy: the unready pod goes, the ready ones beyond disruptionsAllowed wait",
		ready: 4, own: 4, keep: 4, expected: 6, n: 5,
		want: drainOutcome{allowed: 0, refused: true, left: 4, leftDeleted: 0},
	}, {
		name:  "IfHealthyBudget: only unready pods on the node, budget healthy: the drain goes through",
		ready: 0, own: 0, keep: 0, expected: 2, n: 1,
		// desiredHealthy 0: the unready pod goes to checkAndDecrement,
		// and disruptionsAllowed 0 refuses it.
		want: drainOutcome{allowed: 0, refused: true},
	}, {
		name:   "AlwaysAllow: unready pods go whatever the budget",
		policy: "AlwaysAllow",
		ready:  0, own: 0, keep: 2, expected: 2, n: 1,
		want: drainOutcome{allowed: 0},
	}, {
		name:   "IfHealthyBudget: unready pods wait while the budget is unhealthy",
		policy: "IfHealthyBudget",
		ready:  1, own: 1, keep: 2, expected: 2, n: 2,
		want: drainOutcome{allowed: 0, refused: true, left: 1, leftDeleted: 0},
	}, {
		name:  "other Deployments' ready pods count toward currentHealthy",
		ready: 8, own: 3, keep: 6, expected: 8, n: 2,
		want: drainOutcome{allowed: 2, evicted: 2, left: 6, leftDeleted: 6},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := testBudget(tc.policy).drain(tc.ready, tc.own, tc.keep, tc.expected, tc.n)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(drainOutcome{})); diff != "" {
				t.Errorf("drain() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBudgetDrainProperties: a drain of more pods never leaves more
// ready, and is refused whenever a drain of fewer is; for one pod it is
// refused exactly when the ready pods are at or below what the budget
// keeps (the rule before --drain-pods), the node's pod being ready; the
// drain never takes more than disruptionsAllowed, nor leaves fewer than
// the budget keeps unless there were fewer to start with.
func TestBudgetDrainProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := testBudget(rapid.SampledFrom([]string{"", "IfHealthyBudget", "AlwaysAllow"}).Draw(t, "policy"))
		expected := rapid.Int64Range(0, 1<<31).Draw(t, "expected")
		keep := rapid.Int64Range(0, expected).Draw(t, "keep")
		ready := rapid.Int64Range(0, expected).Draw(t, "ready")
		own := rapid.Int64Range(0, ready).Draw(t, "own")
		n := rapid.Int64Range(1, 1<<31).Draw(t, "n")
		more := n + rapid.Int64Range(0, 1<<31).Draw(t, "more")
		a, c := b.drain(ready, own, keep, expected, n), b.drain(ready, own, keep, expected, more)
		if c.left > a.left || c.leftDeleted > a.leftDeleted {
			t.Fatalf("n %d leaves %d (%d deleting), n %d leaves %d (%d)", n, a.left, a.leftDeleted, more, c.left, c.leftDeleted)
		}
		if a.refused && !c.refused {
			t.Fatalf("n %d refused, n %d not", n, more)
		}
		if a.evicted > a.allowed || a.allowed < 0 {
			t.Fatalf("evicted %d of %d allowed", a.evicted, a.allowed)
		}
		if a.left < min(keep, ready) {
			t.Fatalf("an eviction drain leaves %d ready, below %d kept (of %d)", a.left, keep, ready)
		}
		if own >= 1 && expected > 0 {
			if one := b.drain(ready, own, keep, expected, 1); one.refused != (ready <= keep) {
				t.Fatalf("one pod, ready %d, keep %d: refused %v", ready, keep, one.refused)
			}
		}
	})
}
