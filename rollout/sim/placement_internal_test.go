package sim

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestAddBindsAsBind: under PodModel.Room, a creation where no pod waits
// and all fit binds its pods at once (add), leaving the cohorts, the
// ReplicaSets' creation counts and the ReplicaSets bound that adding the
// pods pending and binding them (bind, which walks every cohort) leaves;
// and any other creation goes that way. Drawn over ReplicaSets of normal
// cohorts, some pending, owned or not, terminating orphans and the room.
func TestAddBindsAsBind(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		room := int64(rapid.IntRange(0, 20).Draw(t, "room"))
		cfg := PodModel{
			ReadyAfter:  time.Duration(rapid.IntRange(0, 2).Draw(t, "readyAfter")) * 500 * time.Millisecond,
			Terminating: time.Duration(rapid.IntRange(0, 2).Draw(t, "terminating")) * 500 * time.Millisecond,
			Room:        func(bound int64) int64 { return room - bound },
		}
		m := newPodModel(cfg)
		m.stagger = rapid.Bool().Draw(t, "stagger")
		names := []string{"a", "b", "c"}[:rapid.IntRange(1, 3).Draw(t, "sets")]
		for _, name := range names {
			ps := setCohorts(&podSet{name: name, owned: rapid.Bool().Draw(t, "owned")}, drawCohorts(t))
			ps.normalize()
			m.sets[name] = ps
		}
		if rapid.Bool().Draw(t, "orphans") {
			m.orphans = []cohort{{n: int64(rapid.IntRange(1, 3).Draw(t, "orphans")), deleted: time.Unix(0, 0)}}
		}
		name := rapid.SampledFrom(names).Draw(t, "created in")
		k := int64(rapid.IntRange(1, 5).Draw(t, "pods"))
		now := time.Unix(0, 0).Add(time.Duration(rapid.IntRange(0, 4).Draw(t, "now")) * 500 * time.Millisecond)

		got, want := m.clone(), m.clone()
		got.add(got.sets[name], k, now)
		ps := want.sets[name]
		ps.created += k
		ps.cohorts = append(ps.cohorts, cohort{n: k, created: now, never: true, pending: true})
		ps.normalize()
		want.bind(now)

		for _, n := range names {
			g, w := got.sets[n], want.sets[n]
			if !reflect.DeepEqual(g.all(), w.all()) && (len(g.all()) > 0 || len(w.all()) > 0) || g.created != w.created {
				t.Fatalf("set %s after creating %d in %s: %v (created %d), want %v (created %d)", n, k, name, g.all(), g.created, w.all(), w.created)
			}
		}
		if !slices.Equal(got.bound, want.bound) {
			t.Fatalf("bound %v, want %v", got.bound, want.bound)
		}
	})
}

// TestPendingPodsDeletedAtOnce: a pending pod (bound to no node) that the
// ReplicaSet controller deletes is gone at once, where a bound one
// terminates for PodModel.Terminating: the API server deletes a pod with
// no spec.nodeName without a grace period (its CheckGracefulDelete sets
// the period to 0), so a quota or a node counts it no more, and it is
// never bound.
func TestPendingPodsDeletedAtOnce(t *testing.T) {
	start := time.Unix(0, 0)
	m := newPodModel(PodModel{Terminating: 30 * time.Second, ReadyAfter: 10 * time.Second, Room: func(bound int64) int64 { return 3 - bound }})
	ps := m.set(&rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "web-1", UID: "1"}})
	m.add(ps, 5, start) // three bound, two pending
	if got := ps.pending(); got != 2 {
		t.Fatalf("%d pods pending after creating 5 with room for 3, want 2", got)
	}
	m.remove(ps, 3, start.Add(time.Second)) // the two pending first, then a bound one
	if ps.pending() != 0 || ps.running() != 2 || ps.goneN != 1 || ps.existing() != 3 {
		t.Fatalf("after deleting 3: %d pending, %d running, %d terminating, %d existing; want 0, 2, 1 (the bound one), 3",
			ps.pending(), ps.running(), ps.goneN, ps.existing())
	}
	m.cfg.Room = func(bound int64) int64 { return 10 - bound }
	m.bind(start.Add(2 * time.Second))
	if ps.running() != 2 {
		t.Fatalf("%d running after room was made, want 2: a deleted pod was bound", ps.running())
	}
}
