package gen_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// An edge is a class of states at the edges of int32 and int64 that a
// property run must reach, with the share of generated states that must
// fall in it.
type edge struct {
	name  string
	floor float64 // the least share of states, in percent
	in    func(s rollout.State, actions []rollout.Action, err error) bool
}

// The floors are 4% or more, so that a property of 100 runs (rapid's
// default) reaches each class with a probability above 98%
// (1 - 0.96^100).
var edges = []edge{
	{"replicas within 16 of MaxInt32", 15, func(s rollout.State, _ []rollout.Action, _ error) bool {
		return s.Deployment.Spec.Replicas >= math.MaxInt32-16
	}},
	{"replicas + maxSurge past MaxInt32 (surge capped)", 5, func(s rollout.State, _ []rollout.Action, _ error) bool {
		d := s.Deployment
		return d.Spec.Strategy.Type == rollout.RollingUpdateStrategy &&
			int64(d.Spec.Replicas)+int64(d.Spec.Strategy.RollingUpdate.MaxSurge.ScaleUp(d.Spec.Replicas)) > math.MaxInt32
	}},
	{"a ReplicaSet within 16 of MaxInt32", 10, func(s rollout.State, _ []rollout.Action, _ error) bool {
		for _, rs := range s.ReplicaSets {
			if rs.Spec.Replicas >= math.MaxInt32-16 {
				return true
			}
		}
		return false
	}},
	{"ReplicaSet sizes summing past MaxInt32", 5, func(s rollout.State, _ []rollout.Action, _ error) bool {
		var sum int64
		for _, rs := range s.ReplicaSets {
			sum += int64(rs.Spec.Replicas)
		}
		return sum > math.MaxInt32
	}},
	{"Plan: *OverflowError on a status count", 4, func(_ rollout.State, _ []rollout.Action, err error) bool {
		var oe *rollout.OverflowError
		return errors.As(err, &oe) && strings.HasPrefix(oe.Field, "status.") && oe.Field != "status.collisionCount"
	}},
	{"Plan: *OverflowError on a ReplicaSet's size (proportional scaling)", 4, func(_ rollout.State, _ []rollout.Action, err error) bool {
		var oe *rollout.OverflowError
		return errors.As(err, &oe) && strings.HasSuffix(oe.Field, " spec.replicas")
	}},
	{"Plan: *OverflowError on status.collisionCount", 4, func(_ rollout.State, _ []rollout.Action, err error) bool {
		var oe *rollout.OverflowError
		return errors.As(err, &oe) && oe.Field == "status.collisionCount"
	}},
	{"Plan: *CollisionError", 4, func(_ rollout.State, _ []rollout.Action, err error) bool {
		var ce *rollout.CollisionError
		return errors.As(err, &ce)
	}},
	{"Plan: revision past MaxInt64", 4, func(_ rollout.State, _ []rollout.Action, err error) bool {
		return errors.Is(err, revision.ErrOverflow)
	}},
	{"a desired-replicas annotation beyond int32", 8, func(s rollout.State, _ []rollout.Action, _ error) bool {
		for _, rs := range s.ReplicaSets {
			if n, err := strconv.ParseInt(rs.Annotations[rollout.DesiredReplicasAnnotation], 10, 64); err == nil && n > math.MaxInt32 {
				return true
			}
		}
		return false
	}},
	{"Plan: a size written within 16 of MaxInt32", 5, func(_ rollout.State, actions []rollout.Action, _ error) bool {
		for _, a := range actions {
			if (a.Type == rollout.ScaleReplicaSet || a.Type == rollout.CreateReplicaSet) && a.To >= math.MaxInt32-16 {
				return true
			}
		}
		return false
	}},
	{"Plan: succeeds", 40, func(_ rollout.State, _ []rollout.Action, err error) bool { return err == nil }},
}

// TestReach measures how often the states of [gen.State] reach each edge
// class, over 2000 states drawn from fixed seeds, and fails when a class
// falls below its floor: the generator is what makes the properties of
// package rollout reach the overflow paths, so the reach is pinned here.
func TestReach(t *testing.T) {
	const n = 2000
	hits := make([]int, len(edges))
	for seed := range n {
		s := gen.State().Example(seed)
		actions, err := rollout.Plan(s)
		for i, e := range edges {
			if e.in(s, actions, err) {
				hits[i]++
			}
		}
	}
	var report strings.Builder
	for i, e := range edges {
		share := 100 * float64(hits[i]) / n
		fmt.Fprintf(&report, "%5.1f%% (floor %4.1f%%) %s\n", share, e.floor, e.name)
		if share < e.floor {
			t.Errorf("%s: %.1f%% of %d states, want at least %.1f%%", e.name, share, n, e.floor)
		}
	}
	t.Logf("reach over %d states:\n%s", n, report.String())
}
