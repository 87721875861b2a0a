package rollout_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// goldenSeeds reads the golden scenarios, whose states seed the fuzzers.
func goldenSeeds(tb testing.TB) []golden.Case {
	tb.Helper()
	cases, err := golden.Scenarios(goldenDir)
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// decodeCases are inputs for Decode beyond the golden states: the shapes
// of objects it must handle, and regressions the fuzzer found, each
// checked by TestDecodeRoundTrip and seeding FuzzDecode.
var decodeCases = []struct {
	name, input, reason string
}{
	{name: "empty", input: ``},
	{name: "empty object", input: `{}`},
	{name: "array", input: `[]`},
	{name: "empty list", input: `{"kind":"List","items":[]}`},
	{name: "typed list", input: `{"kind":"DeploymentList","items":[{"kind":"Deployment","spec":{"replicas":2,"template":{"spec":{}}}}]}`},
	{name: "untyped list", input: `{"items":[{"kind":"Pod","status":{"phase":"Running"}}]}`},
	{name: "recreate drops rollingUpdate", input: `{"kind":"Deployment","spec":{"replicas":null,"strategy":{"type":"Recreate","rollingUpdate":{"maxSurge":1}},"template":{"spec":{}}}}`},
	{name: "partial rollingUpdate", input: `{"kind":"Deployment","spec":{"strategy":{"rollingUpdate":{"maxSurge":"50%","maxUnavailable":0}},"revisionHistoryLimit":null,"template":{"spec":{}}}}`},
	{name: "condition time with zone", input: `{"kind":"Deployment","spec":{"template":{"spec":{}}},"status":{"conditions":[{"type":"Progressing","lastUpdateTime":"2026-01-01T00:00:00.5+02:00"}]}}`},
	{name: "container defaults", input: `{"kind":"Deployment","spec":{"template":{"spec":{"containers":[{"image":"x"}],"initContainers":[{"image":"y:latest"}]}}}}`},
	{
		name:   "deployment without spec",
		input:  `{"kind":"List","items":[{"kind":"Deployment","metadata":{"name":"a"}}]}`,
		reason: "an absent spec gets none of the API server's defaults (replicas 1, RollingUpdate 25%/25%, history 10, deadline 600), so the re-encoded spec decodes with them",
	},
	{
		name:   "replicaset without spec",
		input:  `{"kind":"ReplicaSet","metadata":{"name":"a"}}`,
		reason: "an absent spec keeps replicas 0 instead of the default 1, and the pod template spec stays absent",
	},
	{
		name:   "template without spec",
		input:  `{"kind":"Deployment","spec":{"replicas":1,"template":{"metadata":{"labels":{"app":"web"}}}}}`,
		reason: "an absent template spec decodes to nil and encodes as {}, which decodes to the defaulted pod spec",
	},
	{
		name:   "null template spec",
		input:  `{"kind":"Deployment","spec":{"template":{"metadata":{"labels":{}},"spec":null}}}`,
		reason: "as for an absent template spec",
	},
	{
		name:   "empty status conditions",
		input:  `{"kind":"ReplicaSet","spec":{"template":{"spec":{}}},"status":{"terminatingReplicas":null,"conditions":[]}}`,
		reason: "an empty conditions list decodes to an empty slice and encodes as absent, which decodes to nil",
	},
	{
		name:   "empty deployment conditions",
		input:  `{"kind":"Deployment","spec":{"template":{"spec":{}}},"status":{"conditions":[]}}`,
		reason: "as for a ReplicaSet's conditions",
	},
	{
		name:   "empty selector values",
		input:  `{"kind":"Deployment","spec":{"selector":{"matchExpressions":[{"key":"a","operator":"Exists","values":[]}]},"template":{"spec":{}}}}`,
		reason: "an empty values list decodes to an empty slice and encodes as absent, which decodes to nil",
	},
}

func TestDecodeRoundTrip(t *testing.T) {
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			checkDecodeRoundTrip(t, []byte(tc.input))
		})
	}
}

// TestDecodeDefaultsWithoutSpec is the regression behind "deployment
// without spec" and "replicaset without spec": an object whose spec is
// absent gets the API server's defaults like one whose spec is {}.
func TestDecodeDefaultsWithoutSpec(t *testing.T) {
	const withSpec = `{"kind":"List","items":[{"kind":"Deployment","metadata":{"name":"a"},"spec":{}},{"kind":"ReplicaSet","metadata":{"name":"b"},"spec":{}}]}`
	const without = `{"kind":"List","items":[{"kind":"Deployment","metadata":{"name":"a"}},{"kind":"ReplicaSet","metadata":{"name":"b"}}]}`
	want, err := rollout.Decode([]byte(withSpec))
	if err != nil {
		t.Fatal(err)
	}
	got, err := rollout.Decode([]byte(without))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, rollout.StateCmp); diff != "" {
		t.Errorf("Decode() mismatch (-want +got):\n%s", diff)
	}
}

// FuzzDecode checks that Decode never panics and that every object it
// decodes survives json.Marshal and Decode unchanged.
func FuzzDecode(f *testing.F) {
	for _, s := range goldenSeeds(f) {
		f.Add([]byte(s.State))
	}
	for _, tc := range decodeCases {
		f.Add([]byte(tc.input))
	}
	f.Fuzz(checkDecodeRoundTrip)
}

// checkDecodeRoundTrip decodes data and checks that every object decoded
// survives json.Marshal and Decode unchanged, and that decoding with
// DecodeOptions.Compact (through a StringTable, which packs the specs)
// gives the same objects.
func checkDecodeRoundTrip(t *testing.T, data []byte) {
	objs, err := rollout.Decode(data)
	if err != nil {
		return
	}
	compact, err := rollout.DecodeOptions{Compact: true, Strings: &rollout.StringTable{}}.Decode(data)
	if err != nil {
		t.Fatalf("Decode with Compact: %v; without, no error", err)
	}
	want, _ := json.Marshal(objs)
	got, _ := json.Marshal(compact)
	if string(got) != string(want) {
		t.Fatalf("Decode with Compact gives\n%s\nwant\n%s", got, want)
	}
	for _, d := range objs.Deployments {
		var got []rollout.Deployment
		roundTrip(t, d, func(o rollout.Objects) int { got = o.Deployments; return len(o.Deployments) })
		if diff := cmp.Diff(d, got[0], rollout.StateCmp); diff != "" {
			t.Fatalf("Decode(Marshal(deployment)) mismatch (-want +got):\n%s", diff)
		}
	}
	for _, rs := range objs.ReplicaSets {
		var got []rollout.ReplicaSet
		roundTrip(t, rs, func(o rollout.Objects) int { got = o.ReplicaSets; return len(o.ReplicaSets) })
		if diff := cmp.Diff(rs, got[0], rollout.StateCmp); diff != "" {
			t.Fatalf("Decode(Marshal(replicaset)) mismatch (-want +got):\n%s", diff)
		}
	}
	for _, p := range objs.Pods {
		var got []rollout.Pod
		roundTrip(t, p, func(o rollout.Objects) int { got = o.Pods; return len(o.Pods) })
		if diff := cmp.Diff(p, got[0], rollout.StateCmp); diff != "" {
			t.Fatalf("Decode(Marshal(pod)) mismatch (-want +got):\n%s", diff)
		}
	}
}

// roundTrip marshals v, decodes the result and checks, with pick, that it
// holds exactly one object of v's kind and nothing else.
func roundTrip(t *testing.T, v any, pick func(rollout.Objects) int) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T) error: %v", v, err)
	}
	o, err := rollout.Decode(b)
	if err != nil {
		t.Fatalf("Decode(%s) error: %v", b, err)
	}
	if n := len(o.Deployments) + len(o.ReplicaSets) + len(o.Pods); n != 1 || pick(o) != 1 {
		t.Fatalf("Decode(%s) = %d objects, want one %T", b, n, v)
	}
}

// FuzzPlan decodes fuzz bytes as a List and plans a sync of each
// Deployment in it (at most four): Plan never panics; when it succeeds on
// an input with unique ReplicaSet names, its actions are ones an API
// server accepts in sequence, with no negative size or count (see
// checkPlanActions); its errors are the documented ones. With
// SkipValidation Plan and Apply must still not panic.
func FuzzPlan(f *testing.F) {
	for _, s := range goldenSeeds(f) {
		f.Add([]byte(s.State), s.Now.Unix())
	}
	for _, tc := range planCases {
		f.Add([]byte(tc.state), gen.Epoch().Add(time.Hour).Unix())
	}
	f.Fuzz(checkPlanInput)
}

// checkPlanInput decodes data and plans a sync of each Deployment in it
// (at most four) at now, checking what FuzzPlan checks.
func checkPlanInput(t *testing.T, data []byte, now int64) {
	objs, err := rollout.Decode(data)
	if err != nil {
		return
	}
	for i, d := range objs.Deployments {
		if i == 4 {
			break
		}
		s := objs.State(d, time.Unix(now, 0).UTC())
		actions, err := rollout.Plan(s)
		if err != nil && !isDocumentedPlanError(err) {
			t.Fatalf("Plan() error %q is not one Plan documents", err)
		}
		if uniqueNames(s) {
			checkPlanActions(t, s, actions)
		}
		next := rollout.Apply(s, actions)
		if _, err := rollout.Plan(next); err != nil && !isDocumentedPlanError(err) {
			t.Fatalf("Plan(Apply(s, Plan(s))) error %q is not one Plan documents", err)
		}
		s.Options.SkipValidation = true
		actions, _ = rollout.Plan(s)
		rollout.Apply(s, actions)
	}
}

// planCases are regressions for FuzzPlan's checks, kept as named cases.
var planCases = []struct {
	name, reason, state string
}{
	{
		name:   "revision at MaxInt64",
		reason: "an old ReplicaSet at revision MaxInt64 makes the next revision overflow (revision.ErrOverflow); Plan returns that error, which its documentation does not list (it is not an *OverflowError)",
		state: `{"kind":"List","items":[
{"kind":"Deployment","metadata":{"name":"web","uid":"dep-uid","generation":1},
 "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"app:v2"}]}}}},
{"kind":"ReplicaSet","metadata":{"name":"web-1","uid":"rs-1","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"web","pod-template-hash":"1"},
  "annotations":{"deployment.kubernetes.io/revision":"9223372036854775807"},
  "ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"dep-uid","controller":true}]},
 "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web","pod-template-hash":"1"}},"template":{"metadata":{"labels":{"app":"web","pod-template-hash":"1"}},"spec":{"containers":[{"name":"app","image":"app:v1"}]}}}}]}`,
	},
}

func TestPlanRegressions(t *testing.T) {
	for _, tc := range planCases {
		t.Run(tc.name, func(t *testing.T) {
			checkPlanInput(t, []byte(tc.state), gen.Epoch().Add(time.Hour).Unix())
		})
	}
}

// uniqueNames reports whether the ReplicaSets of s's namespace have
// distinct names and UIDs, as the API server guarantees.
func uniqueNames(s rollout.State) bool {
	names, uids := map[string]bool{}, map[string]bool{}
	for _, rs := range s.ReplicaSets {
		if rs.Namespace != s.Deployment.Namespace {
			continue
		}
		if names[rs.Name] || (rs.UID != "" && uids[rs.UID]) {
			return false
		}
		names[rs.Name], uids[rs.UID] = true, true
	}
	return true
}

// mutatedState draws a [gen.State] and then changes it in ways the
// generators avoid: garbage annotations, orphaned and foreign
// ReplicaSets, unmatched labels, deletion timestamps, odd strategies and
// sizes, and validation skipped.
func mutatedState() *rapid.Generator[rollout.State] {
	return rapid.Custom(func(t *rapid.T) rollout.State {
		s := rollout.DeepCopyState(gen.State().Draw(t, "state"))
		d := &s.Deployment
		anyString := rapid.SampledFrom([]string{"", "0", "1", "-1", "+3", "007", "abc", "9223372036854775807", "2147483648", "4294967296", " 1"})
		anyInt32 := rapid.OneOf(rapid.Int32Range(-3, 60), rapid.Int32())
		for range rapid.IntRange(0, 6).Draw(t, "mutations") {
			var rs *rollout.ReplicaSet
			if len(s.ReplicaSets) > 0 {
				rs = &s.ReplicaSets[rapid.IntRange(0, len(s.ReplicaSets)-1).Draw(t, "replicaSet")]
			}
			switch m := rapid.IntRange(0, 14).Draw(t, "mutation"); {
			case m == 0:
				d.Spec.Replicas = anyInt32.Draw(t, "replicas")
			case m == 1:
				ms := rapid.OneOf(rapid.Map(anyInt32, surge.Count), rapid.Map(rapid.Int64Range(-5, 300), surge.Percent)).Draw(t, "maxSurge")
				mu := rapid.OneOf(rapid.Map(anyInt32, surge.Count), rapid.Map(rapid.Int64Range(-5, 300), surge.Percent)).Draw(t, "maxUnavailable")
				d.Spec.Strategy = rollout.Strategy{Type: rollout.StrategyType(rapid.SampledFrom([]string{"RollingUpdate", "Recreate", "", "Blue"}).Draw(t, "type")),
					RollingUpdate: rollout.RollingUpdate{MaxSurge: ms, MaxUnavailable: mu}}
			case m == 2:
				if d.Annotations == nil {
					d.Annotations = map[string]string{}
				}
				key := rapid.SampledFrom([]string{rollout.RevisionAnnotation, rollout.RollbackToAnnotation, "team"}).Draw(t, "deployment annotation")
				d.Annotations[key] = anyString.Draw(t, "value")
			case m == 3 && rs != nil:
				if rs.Annotations == nil {
					rs.Annotations = map[string]string{}
				}
				key := rapid.SampledFrom([]string{rollout.RevisionAnnotation, rollout.DesiredReplicasAnnotation, rollout.MaxReplicasAnnotation, rollout.RevisionHistoryAnnotation}).Draw(t, "annotation")
				rs.Annotations[key] = anyString.Draw(t, "value")
			case m == 4 && rs != nil:
				rs.OwnerReferences = nil // an orphan
			case m == 5 && rs != nil:
				rs.OwnerReferences = []rollout.OwnerReference{{Kind: "Deployment", Name: "other", UID: "other-uid", Controller: true}}
			case m == 6 && rs != nil:
				rs.Labels = map[string]string{"app": "other"}
			case m == 7 && rs != nil:
				rs.DeletionTimestamp = s.Now
			case m == 8:
				d.DeletionTimestamp = s.Now
			case m == 9 && rs != nil:
				rs.Spec.Replicas = anyInt32.Draw(t, "size")
				rs.Status.Replicas = anyInt32.Draw(t, "status.replicas")
				rs.Status.AvailableReplicas = anyInt32.Draw(t, "status.availableReplicas")
			case m == 10:
				d.Spec.Selector = rollout.LabelSelector{MatchLabels: rapid.SampledFrom([]map[string]string{nil, {}, {"app": "other"}}).Draw(t, "selector")}
			case m == 11:
				d.Spec.Selector.MatchExpressions = []rollout.LabelSelectorRequirement{{Key: "app",
					Operator: rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist", "Near"}).Draw(t, "operator"),
					Values:   rapid.SampledFrom([][]string{nil, {"web"}, {"x", "y"}}).Draw(t, "values")}}
			case m == 12 && rs != nil:
				rs.UID = rapid.SampledFrom([]string{"", "dep-uid", s.ReplicaSets[0].UID}).Draw(t, "uid")
			case m == 13:
				d.Status.CollisionCount = rollout.Int32(rapid.SampledFrom([]int32{0, 1, rollout.Unlimited}).Draw(t, "collisionCount"))
			case m == 14 && rs != nil:
				rs.Spec.Template = d.Spec.Template // a second ReplicaSet may now match
			}
		}
		s.Options.SkipValidation = rapid.IntRange(0, 3).Draw(t, "skip validation") == 0
		s.Options.RefreshStaleAnnotations = rapid.Bool().Draw(t, "refresh stale annotations")
		return s
	})
}

// FuzzPlanGenerated plans generated and mutated states: Plan never
// panics and fails only as documented; on a state the API server accepts
// (validated, unique names) its actions are accepted in sequence and
// carry no negative size or count; Plan does not modify its input.
func FuzzPlanGenerated(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		s := mutatedState().Draw(t, "state")
		before := rollout.DeepCopyState(s)
		actions, err := rollout.Plan(s)
		if diff := cmp.Diff(before, s, rollout.StateCmp); diff != "" {
			t.Fatalf("Plan() modified its input (-before +after):\n%s", diff)
		}
		if s.Options.SkipValidation {
			rollout.Apply(s, actions)
			return
		}
		if err != nil && !isDocumentedPlanError(err) {
			t.Fatalf("Plan() error %q is not one Plan documents", err)
		}
		if uniqueNames(s) {
			checkPlanActions(t, s, actions)
		}
	}))
}

// anyAction draws an arbitrary action, usually naming one of sets.
func anyAction(sets []rollout.ReplicaSet) *rapid.Generator[rollout.Action] {
	return rapid.Custom(func(t *rapid.T) rollout.Action {
		types := []rollout.ActionType{rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet, rollout.CreateReplicaSet,
			rollout.ScaleReplicaSet, rollout.UpdateReplicaSet, rollout.DeleteReplicaSet, rollout.UpdateDeployment,
			rollout.UpdateDeploymentStatus, rollout.RecordEvent, rollout.RecheckProgress, "Bogus", ""}
		a := rollout.Action{Type: rapid.SampledFrom(types).Draw(t, "type")}
		names := []string{"", "missing"}
		for _, rs := range sets {
			names = append(names, rs.Name)
		}
		a.ReplicaSet = rapid.SampledFrom(names).Draw(t, "replicaSet")
		a.From = rapid.Int32().Draw(t, "from")
		a.To = rapid.Int32().Draw(t, "to")
		a.MinReadySeconds = rapid.Int32().Draw(t, "minReadySeconds")
		if rapid.Bool().Draw(t, "annotations") {
			a.Annotations = map[string]string{"k": rapid.String().Draw(t, "annotation")}
		}
		if rapid.Bool().Draw(t, "labels") {
			a.Labels = map[string]string{"app": "web"}
		}
		// The pointer fields are drawn for any type, and nil as often as
		// not: Apply reads a nil one as the zero value.
		if rapid.Bool().Draw(t, "status") {
			st := rollout.DeploymentStatus{Replicas: rapid.Int32().Draw(t, "status.replicas")}
			if rapid.Bool().Draw(t, "conditions") {
				st.Conditions = []rollout.Condition{{Type: rollout.Progressing, Status: rollout.ConditionTrue}}
			}
			a.Status = &st
		}
		if rapid.Bool().Draw(t, "template") {
			a.Template = &rollout.PodTemplate{Labels: map[string]string{"app": "web"},
				Spec: rollout.MustParsePodSpec(rapid.SampledFrom([]string{"", "{}", `{"a":1}`, "null"}).Draw(t, "spec"))}
		}
		switch rapid.IntRange(0, 2).Draw(t, "created") {
		case 0:
			if len(sets) > 0 {
				rs := sets[rapid.IntRange(0, len(sets)-1).Draw(t, "created from a set")].DeepCopy()
				a.Created = &rs
			}
		case 1:
			a.Created = &rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: a.ReplicaSet}}
		}
		a.At = time.Unix(rapid.Int64Range(-1e10, 1e10).Draw(t, "at"), 0)
		return a
	})
}

// applyCases are regressions FuzzApply found, kept as named cases.
var applyCases = []struct {
	name, reason string
	state        func() rollout.State
	actions      []rollout.Action
}{
	{
		name:   "pods share maps",
		reason: "Apply copies the Pods slice but not each pod's labels, annotations and owner references, so the result shares them with the input",
		state: func() rollout.State {
			return rollout.State{
				Deployment: rollout.Deployment{ObjectMeta: rollout.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid"}},
				Pods: []rollout.Pod{{ObjectMeta: rollout.ObjectMeta{Name: "p", Namespace: "default",
					Labels:          map[string]string{"app": "web"},
					OwnerReferences: []rollout.OwnerReference{{Kind: "ReplicaSet", Name: "web-1", UID: "rs-uid", Controller: true}},
				}, Phase: rollout.PodRunning}},
			}
		},
	},
}

func TestApplyRegressions(t *testing.T) {
	for _, tc := range applyCases {
		t.Run(tc.name, func(t *testing.T) {
			checkApply(t, tc.state(), tc.actions)
		})
	}
}

// FuzzApply applies arbitrary action lists to generated states: Apply
// never panics, modifies neither the state nor the actions, and returns a
// state that shares no memory with them; ApplyTo on a copy of the state
// gives the same state, sharing no memory with the actions.
func FuzzApply(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		actions := rapid.SliceOfN(anyAction(s.ReplicaSets), 0, 12).Draw(t, "actions")
		checkApply(t, s, actions)
	}))
}

// checkApply applies actions to s and checks that neither changes, even
// when the result is written to.
func checkApply(t interface {
	Helper()
	Fatalf(string, ...any)
}, s rollout.State, actions []rollout.Action) {
	t.Helper()
	before := rollout.DeepCopyState(s)
	actionsBefore := slices.Clone(actions)
	for i, a := range actions {
		actionsBefore[i] = deepCopyAction(a)
	}
	out := rollout.Apply(s, actions)
	if diff := cmp.Diff(before, s, rollout.StateCmp); diff != "" {
		t.Fatalf("Apply() modified its state (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(actionsBefore, actions); diff != "" {
		t.Fatalf("Apply() modified its actions (-before +after):\n%s", diff)
	}
	rollout.Scribble(&out)
	if diff := cmp.Diff(before, s, rollout.StateCmp); diff != "" {
		t.Fatalf("Apply()'s result shares memory with its state (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(actionsBefore, actions); diff != "" {
		t.Fatalf("Apply()'s result shares memory with its actions (-before +after):\n%s", diff)
	}
	// ApplyTo, in place on a copy of s, gives the same result.
	want := rollout.Apply(s, actions)
	in := rollout.DeepCopyState(s)
	rollout.ApplyTo(&in, actions)
	in.Pods = want.Pods // Apply copies the pods; ApplyTo keeps them as they were
	if diff := cmp.Diff(want, in, rollout.StateCmp, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("ApplyTo() differs from Apply() (-Apply +ApplyTo):\n%s", diff)
	}
	rollout.Scribble(&in)
	if diff := cmp.Diff(actionsBefore, actions); diff != "" {
		t.Fatalf("ApplyTo()'s result shares memory with its actions (-before +after):\n%s", diff)
	}
}

func deepCopyAction(a rollout.Action) rollout.Action {
	b := a
	if a.Labels != nil {
		b.Labels = map[string]string{}
		for k, v := range a.Labels {
			b.Labels[k] = v
		}
	}
	if a.Annotations != nil {
		b.Annotations = map[string]string{}
		for k, v := range a.Annotations {
			b.Annotations[k] = v
		}
	}
	if a.Template != nil {
		tmpl := a.Template.DeepCopy()
		b.Template = &tmpl
	}
	if a.Status != nil {
		st := rollout.Deployment{Status: *a.Status}.DeepCopy().Status
		b.Status = &st
	}
	if a.Created != nil {
		rs := a.Created.DeepCopy()
		b.Created = &rs
	}
	return b
}
