package rollout_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestPlanSharedAsPlan: on random states, the generators' and the
// fuzzer's mutated ones, PlanShared returns Plan's actions, field by
// field, and its error, and leaves the state as it was (deep copied
// before the call). Were the sync to change a map or slice after an
// action took it, that action would show the later value, unlike Plan's.
// Most draws that write share a map or slice between an action and the
// state or another action, which is what PlanShared is for.
func TestPlanSharedAsPlan(t *testing.T) {
	runs, shared := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		if rapid.Bool().Draw(t, "mutated") {
			s = mutatedState().Draw(t, "mutated state")
		}
		before := rollout.DeepCopyState(s)
		want, wantErr := rollout.Plan(s)
		got, gotErr := rollout.PlanShared(s)
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Fatalf("PlanShared() error = %v, Plan() error = %v", gotErr, wantErr)
		}
		opts := []cmp.Option{cmpopts.EquateEmpty(), cmpopts.EquateComparable(surge.Value{})}
		if diff := cmp.Diff(want, got, opts...); diff != "" {
			t.Fatalf("PlanShared() differs from Plan() (-Plan +PlanShared):\n%s", diff)
		}
		if diff := cmp.Diff(before, s, opts...); diff != "" {
			t.Fatalf("PlanShared() modified the state (-before +after):\n%s", diff)
		}
		runs++
		if sharesAny(s, got) {
			shared++
		}
	})
	t.Logf("%d of %d draws shared", shared, runs)
	gen.Covered(t, "shared a map or slice between an action and the state or another action", shared, runs, 0.4) // 50% over 1,000 draws
}

// sharesAny reports whether an action of actions holds a map or a
// conditions slice that the state or another of them holds too.
func sharesAny(s rollout.State, actions []rollout.Action) bool {
	seen := map[uintptr]bool{}
	add := func(v any) bool {
		r := reflect.ValueOf(v)
		if r.IsNil() || r.Kind() == reflect.Slice && r.Len() == 0 {
			return false
		}
		p := r.Pointer()
		found := seen[p]
		seen[p] = true
		return found
	}
	add(s.Deployment.Annotations)
	add(s.Deployment.Status.Conditions)
	for _, rs := range s.ReplicaSets {
		add(rs.Annotations)
	}
	for _, a := range actions {
		if add(a.Annotations) {
			return true
		}
		if a.Status != nil && add(a.Status.Conditions) {
			return true
		}
	}
	return false
}
