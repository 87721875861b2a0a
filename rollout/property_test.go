package rollout_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// isDocumentedPlanError reports whether err is one of the failures Plan's
// documentation lists: a refused object (*FieldError), a name collision,
// a count that overflows int32, a revision with no next one, a selector that
// cannot be converted, or a controlled ReplicaSet without a namespace, name
// or UID.
func isDocumentedPlanError(err error) bool {
	var fe *rollout.FieldError
	var ce *rollout.CollisionError
	var oe *rollout.OverflowError
	if errors.As(err, &fe) || errors.As(err, &ce) || errors.As(err, &oe) || errors.Is(err, revision.ErrOverflow) {
		return true
	}
	switch msg := err.Error(); {
	case msg == "no owner namespace provided", msg == "no owner name provided", msg == "no owner uid provided":
		return true
	case strings.HasPrefix(msg, "deployment ") && strings.Contains(msg, " has invalid label selector: "):
		return true
	}
	return false
}

// errString is err's message, or "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkPlanActions walks actions over s the way Apply does, one at a time,
// and reports the first one an API server would not accept in that
// sequence: a ReplicaSet action naming no ReplicaSet of the namespace (or,
// for a create, one that exists), a scale or update whose From is not the
// ReplicaSet's current size, a negative size, or a status write with a
// negative count. It also checks that Apply(s, actions) equals applying
// the actions one by one. It needs unique ReplicaSet names in s's namespace.
func checkPlanActions(t interface {
	Helper()
	Fatalf(string, ...any)
}, s rollout.State, actions []rollout.Action) {
	t.Helper()
	cur := rollout.Apply(s, nil) // s, with slices that are never nil
	find := func(name string) (rollout.ReplicaSet, bool) {
		for _, rs := range cur.ReplicaSets {
			if rs.Name == name && rs.Namespace == s.Deployment.Namespace {
				return rs, true
			}
		}
		return rollout.ReplicaSet{}, false
	}
	for i, a := range actions {
		switch a.Type {
		case rollout.CreateReplicaSet:
			if _, ok := find(a.ReplicaSet); ok {
				t.Fatalf("action %d %v: creates a ReplicaSet that exists", i, a)
			}
			if a.To < 0 || a.From != 0 || a.Created.Spec.Replicas != a.To || a.Created.Name != a.ReplicaSet {
				t.Fatalf("action %d %v: bad create (created %q size %d)", i, a, a.Created.Name, a.Created.Spec.Replicas)
			}
		case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
			rs, ok := find(a.ReplicaSet)
			if !ok {
				t.Fatalf("action %d %v: no such ReplicaSet", i, a)
			}
			if a.From != rs.Spec.Replicas {
				t.Fatalf("action %d %v: From %d, but the ReplicaSet's size is %d", i, a, a.From, rs.Spec.Replicas)
			}
			if a.To < 0 || (a.Type == rollout.UpdateReplicaSet) != (a.From == a.To) {
				t.Fatalf("action %d %v: bad size", i, a)
			}
		case rollout.DeleteReplicaSet, rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet:
			if _, ok := find(a.ReplicaSet); !ok {
				t.Fatalf("action %d %v: no such ReplicaSet", i, a)
			}
		case rollout.UpdateDeploymentStatus:
			st := a.Status
			for _, n := range []int64{st.ObservedGeneration, int64(st.Replicas), int64(st.UpdatedReplicas), int64(st.ReadyReplicas),
				int64(st.AvailableReplicas), int64(st.UnavailableReplicas), int64(st.TerminatingReplicas.Value), int64(st.CollisionCount.Value)} {
				if n < 0 {
					t.Fatalf("action %d: status with a negative count: %+v", i, st)
				}
			}
		case rollout.UpdateDeployment, rollout.RecordEvent, rollout.RecheckProgress:
		default:
			t.Fatalf("action %d: unknown type %q", i, a.Type)
		}
		cur = rollout.Apply(cur, []rollout.Action{a})
	}
	if diff := cmp.Diff(cur, rollout.Apply(s, actions), rollout.StateCmp); diff != "" {
		t.Fatalf("Apply(s, actions) differs from applying them one by one (-one by one +all):\n%s", diff)
	}
}

// reversedState returns s with its ReplicaSets and Pods in reverse order.
func reversedState(s rollout.State) rollout.State {
	s.ReplicaSets = slices.Clone(s.ReplicaSets)
	slices.Reverse(s.ReplicaSets)
	s.Pods = slices.Clone(s.Pods)
	slices.Reverse(s.Pods)
	return s
}

// TestPlanProperties checks Plan's invariants over gen.State, 100 states
// per property (rapid's default). internal/gen's TestReach pins what those
// states reach, each class in at least 4% of them, so a run meets every
// class with a probability above 98%: replicas within 16 of MaxInt32 and
// replicas + maxSurge past it; ReplicaSets near MaxInt32 whose sizes sum
// past it and sizes written near it; Plan failing with an *OverflowError
// on a status count, on a ReplicaSet's size in proportional scaling and on
// status.collisionCount, with a *CollisionError, and with a revision past
// MaxInt64; desired-replicas annotations beyond int32. So "no negative size
// or count" and "apply then plan again" cover every overflow path of Plan.
// "new ReplicaSet within surge" draws gen.Deployment and gen.ReplicaSets,
// whose replicas are near MaxInt32 in about 1 of 4, and the sizes with them.
func TestPlanProperties(t *testing.T) {
	t.Run("independent of input order", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		p := s
		p.ReplicaSets = rapid.Permutation(s.ReplicaSets).Draw(t, "replicaSets order")
		p.Pods = rapid.Permutation(s.Pods).Draw(t, "pods order")
		want, wantErr := rollout.Plan(s)
		got, gotErr := rollout.Plan(p)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Plan() mismatch (-want +got):\n%s", diff)
		}
		if errString(wantErr) != errString(gotErr) {
			t.Fatalf("Plan() error = %v after permuting, want %v", gotErr, wantErr)
		}
	}))
	t.Run("does not modify its input", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		want := rollout.DeepCopyState(s)
		rollout.Plan(s)
		if diff := cmp.Diff(want, s, rollout.StateCmp); diff != "" {
			t.Fatalf("Plan() modified its input (-before +after):\n%s", diff)
		}
	}))
	t.Run("no negative size or count", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions, _ := rollout.Plan(s)
		for i, a := range actions {
			if (a.Type == rollout.ScaleReplicaSet || a.Type == rollout.CreateReplicaSet) && a.To < 0 {
				t.Fatalf("action %d %v: negative target", i, a)
			}
		}
		checkPlanActions(t, s, actions)
	}))
	t.Run("apply then plan again", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions, err := rollout.Plan(s)
		if err != nil && !isDocumentedPlanError(err) {
			t.Fatalf("Plan() error %q is not one Plan documents", err)
		}
		next := rollout.Apply(s, actions)
		_, err2 := rollout.Plan(next)
		if err2 != nil && !isDocumentedPlanError(err2) {
			t.Fatalf("Plan(Apply(s, Plan(s))) error %q is not one Plan documents", err2)
		}
		var fe *rollout.FieldError
		if err == nil && errors.As(err2, &fe) {
			t.Fatalf("Apply(s, Plan(s)) made a valid state invalid: %v", err2)
		}
	}))
	t.Run("a progress recheck is the last action, and alone", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions, _ := rollout.Plan(s)
		for i, a := range actions {
			if a.Type == rollout.RecheckProgress && i != len(actions)-1 {
				t.Fatalf("RecheckProgress at %d of %d actions: %v", i, len(actions), actions)
			}
		}
	}))
	t.Run("the created ReplicaSet is NewReplicaSet's", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions, _ := rollout.Plan(s)
		i := slices.IndexFunc(actions, func(a rollout.Action) bool { return a.Type == rollout.CreateReplicaSet })
		if i < 0 {
			return
		}
		// The ReplicaSets the sync claimed: those the Deployment controls and
		// selects, and those it adopts. None has the new template.
		adopted := map[string]bool{}
		for _, a := range actions[:i] {
			if a.Type == rollout.AdoptReplicaSet {
				adopted[a.ReplicaSet] = true
			}
		}
		d := s.Deployment
		var claimed []*rollout.ReplicaSet
		for j := range s.ReplicaSets {
			rs := &s.ReplicaSets[j]
			if rs.Namespace == d.Namespace && (adopted[rs.Name] ||
				rollout.IsControlledBy(&rs.ObjectMeta, &d.ObjectMeta) && d.Spec.Selector.Matches(rs.Labels)) {
				claimed = append(claimed, rs)
			}
		}
		want, err := rollout.NewReplicaSet(&d, claimed)
		if err != nil {
			t.Fatalf("NewReplicaSet() error: %v", err)
		}
		if diff := cmp.Diff(&want, actions[i].Created, rollout.StateCmp); diff != "" {
			t.Fatalf("Plan() created another ReplicaSet than NewReplicaSet() (-NewReplicaSet +Plan):\n%s", diff)
		}
	}))
	t.Run("new ReplicaSet within surge", rapid.MakeCheck(func(t *rapid.T) {
		d := gen.Deployment().Draw(t, "deployment")
		sets := gen.ReplicaSets(d).Draw(t, "replicaSets")
		var newRS rollout.ReplicaSet
		all := sets
		if len(sets) > 0 && rapid.Bool().Draw(t, "new in list") {
			newRS = sets[rapid.IntRange(0, len(sets)-1).Draw(t, "new index")]
		} else {
			// Being created: size 0, sized against the others.
			newRS = rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "web-new"}}
		}
		got, err := rollout.NewRSNewReplicas(&d, rollout.Pointers(all), &newRS)
		if err != nil {
			t.Fatalf("NewRSNewReplicas() error: %v", err)
		}
		replicas := int64(d.Spec.Replicas)
		if d.Spec.Strategy.Type == rollout.RecreateStrategy {
			if int64(got) != replicas {
				t.Fatalf("NewRSNewReplicas() = %d for Recreate, want replicas %d", got, replicas)
			}
			return
		}
		var sum int64
		for _, rs := range all {
			sum += int64(rs.Spec.Replicas)
		}
		maxTotal := replicas + int64(rollout.MaxSurge(d))
		after := sum - int64(newRS.Spec.Replicas) + int64(got)
		if newRS.Name == "web-new" {
			after = sum + int64(got)
		}
		if sum <= maxTotal && after > maxTotal {
			t.Fatalf("NewRSNewReplicas() = %d takes the sum %d -> %d above replicas+maxSurge = %d", got, sum, after, maxTotal)
		}
		if int64(newRS.Spec.Replicas) <= replicas && (int64(got) > replicas || got < newRS.Spec.Replicas) {
			t.Fatalf("NewRSNewReplicas() = %d from %d, want within [%d, replicas %d]", got, newRS.Spec.Replicas, newRS.Spec.Replicas, replicas)
		}
	}))
}

// TestLimitsProperties checks Limits and MaxUnavailable over
// gen.Deployment: replicas near MaxInt32 in about 1 of 4 draws, where
// replicas + maxSurge passes int32 and the surge is capped, with maxSurge
// percents up to 200%.
func TestLimitsProperties(t *testing.T) {
	t.Run("maxUnavailable within replicas", rapid.MakeCheck(func(t *rapid.T) {
		d := gen.Deployment().Draw(t, "deployment")
		if u := rollout.MaxUnavailable(d); u < 0 || u > d.Spec.Replicas {
			t.Fatalf("MaxUnavailable() = %d, want within [0, replicas %d]", u, d.Spec.Replicas)
		}
	}))
	t.Run("rolling update can progress", rapid.MakeCheck(func(t *rapid.T) {
		d := gen.Deployment().Draw(t, "deployment")
		l := rollout.Limits(d)
		if l.Surge < 0 || l.Unavailable < 0 || int64(d.Spec.Replicas)+int64(l.Surge) > math.MaxInt32 {
			t.Fatalf("Limits() = %+v for replicas %d: negative or replicas+surge overflows", l, d.Spec.Replicas)
		}
		if d.Spec.Strategy.Type != rollout.RollingUpdateStrategy {
			if l != (surge.Limits{}) {
				t.Fatalf("Limits() = %+v for %s, want zero", l, d.Spec.Strategy.Type)
			}
			return
		}
		if d.Spec.Replicas > 0 && int64(l.Surge)+int64(l.Unavailable) < 1 {
			t.Fatalf("Limits() = %+v for replicas %d: surge+unavailable < 1", l, d.Spec.Replicas)
		}
	}))
}

// limitsCases are the minimal failures of "rolling update can progress",
// kept as named cases.
var limitsCases = []struct {
	name, reason string
	replicas     int32
	ru           rollout.RollingUpdate
}{
	{
		name:     "MaxInt32 replicas, maxSurge 1, maxUnavailable 0",
		reason:   "Limits clamps Surge to MaxInt32-replicas = 0, and Unavailable stays 0: no pod may be added or removed, so the rollout can never progress (upstream's replicas+maxSurge wraps negative and stalls too)",
		replicas: math.MaxInt32,
		ru:       rollout.RollingUpdate{MaxSurge: surge.Count(1), MaxUnavailable: surge.Count(0)},
	},
	{
		name:     "MaxInt32-1 replicas, maxSurge 25%, maxUnavailable 0%",
		reason:   "the boundary next to it: Surge is clamped from 536870912 to 1, so the rollout can progress",
		replicas: math.MaxInt32 - 1,
		ru:       rollout.RollingUpdate{MaxSurge: surge.Percent(25), MaxUnavailable: surge.Percent(0)},
	},
}

func TestLimitsRegressions(t *testing.T) {
	for _, tc := range limitsCases {
		t.Run(tc.name, func(t *testing.T) {
			d := rollout.Deployment{Spec: rollout.DeploymentSpec{Replicas: tc.replicas,
				Strategy: rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: tc.ru}}}
			if l := rollout.Limits(d); int64(l.Surge)+int64(l.Unavailable) < 1 {
				t.Errorf("Limits() = %+v for replicas %d (%s): surge+unavailable < 1", l, tc.replicas, tc.reason)
			}
		})
	}
}

// TestActionPointerProperties checks Action's pointer fields over Plan's
// outputs for generated states: each is set exactly for the type that
// carries it (Template for UpdateDeployment, Status for
// UpdateDeploymentStatus, Created for CreateReplicaSet), and each action
// owns what it points to: writing through one action's pointers and maps
// changes neither another action of the plan nor the state planned from.
func TestActionPointerProperties(t *testing.T) {
	t.Run("set exactly for their types", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions, _ := rollout.Plan(s)
		for i, a := range actions {
			if (a.Template != nil) != (a.Type == rollout.UpdateDeployment) {
				t.Fatalf("action %d %v: Template set %v", i, a, a.Template != nil)
			}
			if (a.Status != nil) != (a.Type == rollout.UpdateDeploymentStatus) {
				t.Fatalf("action %d %v: Status set %v", i, a, a.Status != nil)
			}
			if (a.Created != nil) != (a.Type == rollout.CreateReplicaSet) {
				t.Fatalf("action %d %v: Created set %v", i, a, a.Created != nil)
			}
		}
	}))
	t.Run("owned by each action", rapid.MakeCheck(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions, _ := rollout.Plan(s)
		if len(actions) == 0 {
			return
		}
		state := rollout.DeepCopyState(s)
		before := make([]rollout.Action, len(actions))
		for i, a := range actions {
			before[i] = deepCopyAction(a)
		}
		i := rapid.IntRange(0, len(actions)-1).Draw(t, "scribbled action")
		scribbleAction(&actions[i])
		for j := range actions {
			if j == i {
				continue
			}
			if diff := cmp.Diff(before[j], actions[j]); diff != "" {
				t.Fatalf("writing through action %d changed action %d (-before +after):\n%s", i, j, diff)
			}
		}
		if diff := cmp.Diff(state, s, rollout.StateCmp); diff != "" {
			t.Fatalf("writing through action %d changed the state (-before +after):\n%s", i, diff)
		}
	}))
}

// scribbleAction writes into everything a points to: its maps, its
// template's maps, its status and its created ReplicaSet (a PodSpec cannot
// be written, so it may be shared).
func scribbleAction(a *rollout.Action) {
	scribble := func(m map[string]string) {
		for k := range m {
			m[k] = "scribbled"
		}
	}
	scribble(a.Labels)
	scribble(a.Annotations)
	if a.Template != nil {
		scribble(a.Template.Labels)
		scribble(a.Template.Annotations)
	}
	if a.Status != nil {
		a.Status.Replicas = -7
		for i := range a.Status.Conditions {
			a.Status.Conditions[i].Message = "scribbled"
		}
	}
	if rs := a.Created; rs != nil {
		rs.Name = "scribbled"
		rs.Spec.Replicas = -7
		scribble(rs.Labels)
		scribble(rs.Annotations)
		for i := range rs.OwnerReferences {
			rs.OwnerReferences[i].Name = "scribbled"
		}
		scribble(rs.Spec.Selector.MatchLabels)
		scribble(rs.Spec.Template.Labels)
		scribble(rs.Spec.Template.Annotations)
	}
}
