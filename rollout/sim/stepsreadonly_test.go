package sim_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestJumpedStepsNotWrittenLater checks the assumption that lets the
// fast-forward's steps share their slices and maps (jumpsteps.go, the
// textForms and scratch of commit): nothing the run does after a step is
// handed over writes into it. Each step is deep-copied as Observe sees it,
// and the Result's steps, once the run is over, must equal those copies,
// in a 3,000-replica maxSurge-1 rollout of which most syncs are jumped.
func TestJumpedStepsNotWrittenLater(t *testing.T) {
	if testing.Short() {
		t.Skip("about 7 s")
	}
	s := rollingState(t, 3000, rolling(surge.Count(1), surge.Count(0)))
	var seen []sim.Step
	cfg := sim.Config{Model: sim.ModelControllers, Observe: func(st sim.Step) { seen = append(seen, deepStep(st)) }}
	res := run(t, s, cfg)
	if res.Summary.FastForwarded < res.Summary.Syncs*9/10 {
		t.Fatalf("Run() fast-forwarded %d of %d syncs, want at least 90%%", res.Summary.FastForwarded, res.Summary.Syncs)
	}
	if len(seen) != len(res.Steps) {
		t.Fatalf("Observe saw %d steps, the Result holds %d", len(seen), len(res.Steps))
	}
	for i := range seen {
		if diff := cmp.Diff(seen[i], res.Steps[i], cmpopts.EquateErrors(), cmpopts.EquateComparable(surge.Value{})); diff != "" {
			t.Fatalf("step %d of %d changed after it was handed over (-as handed over +at the end):\n%s", i, len(seen), diff)
		}
	}
}

// deepStep returns a copy of st that shares no slice or map with it
// (every reference a rollout.Action holds: its maps, template, status
// conditions and created ReplicaSet).
func deepStep(st sim.Step) sim.Step {
	st.Actions = slices.Clone(st.Actions)
	for i := range st.Actions {
		a := &st.Actions[i]
		a.Labels = maps.Clone(a.Labels)
		a.Annotations = maps.Clone(a.Annotations)
		if a.Template != nil {
			tmpl := a.Template.DeepCopy()
			a.Template = &tmpl
		}
		if a.Status != nil {
			status := *a.Status
			status.Conditions = slices.Clone(status.Conditions)
			a.Status = &status
		}
		if a.Created != nil {
			rs := a.Created.DeepCopy()
			a.Created = &rs
		}
	}
	st.Sets = slices.Clone(st.Sets)
	st.Conditions = slices.Clone(st.Conditions)
	return st
}

// TestSharedSetCountsNotWrittenLater checks the ownership rule behind
// steps sharing their Sets when the counts are unchanged (report.go's
// setCounts, which counts into a buffer it reuses): no step's Sets is
// that buffer, nor written after the step is handed over. Each step is
// deep-copied as Observe sees it and must equal the Result's step once
// the run is over, in small rollouts of the kind check runs, where some
// steps do share their Sets.
func TestSharedSetCountsNotWrittenLater(t *testing.T) {
	shared := 0
	for _, replicas := range []int32{2, 5, 10} {
		s := rollingState(t, replicas, rolling(surge.Count(1), surge.Count(0)))
		var seen []sim.Step
		cfg := sim.Config{Model: sim.ModelControllers, Observe: func(st sim.Step) { seen = append(seen, deepStep(st)) }}
		res := run(t, s, cfg)
		if diff := cmp.Diff(seen, res.Steps, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%d replicas: steps changed after Observe saw them (-seen +final):\n%s", replicas, diff)
		}
		for i := 1; i < len(res.Steps); i++ {
			a, b := res.Steps[i-1].Sets, res.Steps[i].Sets
			if len(a) > 0 && len(b) > 0 && &a[0] == &b[0] {
				shared++
			}
		}
	}
	if shared == 0 {
		t.Fatal("no step shared the Sets of the step before: the test checks nothing")
	}
}
