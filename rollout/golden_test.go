package rollout_test

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout"
)

const goldenDir = "../testdata/golden"

func loadGolden(t testing.TB) []golden.Case {
	t.Helper()
	cases, err := golden.Load(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// goldenState decodes a case's state at the time of its sync.
func goldenState(t testing.TB, c golden.Case) rollout.State {
	t.Helper()
	objs, err := rollout.Decode(c.State)
	if err != nil {
		t.Fatalf("%s: decoding state: %v", c.Name, err)
	}
	if len(objs.Deployments) != 1 {
		t.Fatalf("%s: %d deployments", c.Name, len(objs.Deployments))
	}
	return objs.State(objs.Deployments[0], c.Now)
}

// normalize is golden.Normalize, failing t on malformed JSON.
func normalize(t testing.TB, plan []byte) map[string]any {
	t.Helper()
	out, err := golden.Normalize(plan)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// overflows reports whether upstream's int32 arithmetic wraps in this case:
// a negative number in its plan (counts or replica annotations) or in the
// state, or sums of ReplicaSet sizes, or replicas plus surge, past MaxInt32.
// There our answer differs on purpose.
func overflows(t testing.TB, state rollout.State, plan []byte) bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case float64:
			return v < 0
		case string:
			return strings.HasPrefix(v, "-") && strings.Trim(v, "-0123456789") == ""
		case map[string]any:
			for k, x := range v {
				if k != "deprecated.deployment.rollback.to" && k != "deployment.kubernetes.io/revision" &&
					k != "deployment.kubernetes.io/revision-history" && walk(x) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	var v any
	if err := json.Unmarshal(plan, &v); err != nil {
		t.Fatal(err)
	}
	if walk(v) {
		return true
	}
	st, err := json.Marshal(state.Deployment)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(st, &v); err != nil {
		t.Fatal(err)
	}
	if walk(v) {
		return true
	}
	var spec, status int64
	for _, rs := range state.ReplicaSets {
		spec += int64(rs.Spec.Replicas)
		status += int64(rs.Status.Replicas)
		if rs.Spec.Replicas < 0 || rs.Status.Replicas < 0 || rs.Status.AvailableReplicas < 0 || rs.Status.ReadyReplicas < 0 {
			return true
		}
	}
	maxR := int64(state.Deployment.Spec.Replicas)
	if ru := state.Deployment.Spec.Strategy.RollingUpdate; state.Deployment.Spec.Strategy.Type == rollout.RollingUpdateStrategy {
		maxR += int64(ru.MaxSurge.ScaleUp(state.Deployment.Spec.Replicas))
	}
	if spec > math.MaxInt32 || status > math.MaxInt32 || maxR > math.MaxInt32 {
		return true
	}
	// proportional scaling multiplies a size by replicas + surge in
	// int32.
	for _, rs := range state.ReplicaSets {
		if int64(rs.Spec.Replicas)*maxR > math.MaxInt32 {
			return true
		}
	}
	return false
}

// The replay's counts, which the README states: every case is either
// compared with upstream's plan or is one where upstream's int32 arithmetic
// wraps; some states hold objects the API server refuses, planned with
// Options.SkipValidation as upstream's controller would plan them.
const (
	goldenCases      = 1307
	goldenCompared   = 1285
	goldenOverflows  = 22 // not compared: checked by checkNoWrap
	goldenRefused    = 21 // refused by validation, in either group
	goldenRefusedOvf = 4  // of those, among the overflows
)

// TestGolden replays every sync of the upstream controller in testdata
// through Plan: where upstream's arithmetic does not wrap, the plans must
// be equal; where it wraps, ours must hold no negative number and fail, if
// at all, with an *OverflowError (checkNoWrap). The counts of both groups
// are pinned, so the replay cannot quietly compare fewer cases.
func TestGolden(t *testing.T) {
	cases := loadGolden(t)
	var compared, overflow, refused, refusedOverflow int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s := goldenState(t, c)
			if err := validState(s); err != nil {
				// The API server refuses this Deployment, so no controller
				// sees it; Plan refuses it too unless told to go on.
				if acts, perr := rollout.Plan(s); perr == nil || acts != nil {
					t.Fatalf("Plan() = %v, %v for a Deployment Validate refuses (%v)", acts, perr, err)
				}
				refused++
				s.Options.SkipValidation = true
			}
			actions, err := rollout.Plan(s)
			checkEventReasons(t, actions)
			if overflows(t, s, c.Plan) {
				overflow++
				if s.Options.SkipValidation {
					refusedOverflow++
				}
				checkNoWrap(t, s, actions, err)
				return
			}
			got, merr := json.Marshal(rollout.NewReport(s.Now, actions, err))
			if merr != nil {
				t.Fatal(merr)
			}
			if diff := cmp.Diff(normalize(t, c.Plan), normalize(t, got)); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
				return
			}
			compared++
		})
	}
	t.Logf("%d cases: %d equal to upstream, %d where upstream overflows int32; %d refused by validation (%d of them overflowing), planned with SkipValidation",
		len(cases), compared, overflow, refused, refusedOverflow)
	type counts struct{ Cases, Compared, Overflows, Refused, RefusedOverflows int }
	want := counts{goldenCases, goldenCompared, goldenOverflows, goldenRefused, goldenRefusedOvf}
	if diff := cmp.Diff(want, counts{len(cases), compared, overflow, refused, refusedOverflow}); diff != "" && !t.Failed() {
		t.Errorf("golden replay counts changed; update them and the README (-want +got):\n%s", diff)
	}
}

func validState(s rollout.State) error {
	errs := []error{rollout.Validate(s.Deployment)}
	for _, rs := range s.ReplicaSets {
		errs = append(errs, rollout.ValidateReplicaSet(rs))
	}
	return errors.Join(errs...)
}

// checkNoWrap checks a plan for s where upstream wrapped int32: ours
// computes no negative size, count or replica annotation
// (rollout.CheckNoNegative), and fails, if it does, with an *OverflowError
// naming the count that does not fit.
func checkNoWrap(t *testing.T, s rollout.State, actions []rollout.Action, err error) {
	t.Helper()
	rollout.CheckNoNegative(t, s, actions)
	var oe *rollout.OverflowError
	if err != nil && !errors.As(err, &oe) {
		t.Errorf("Plan() error = %v, want nil or an *OverflowError", err)
	}
}

// checkEventReasons checks that every event a plan records has one of the
// exported types and reasons.
func checkEventReasons(t *testing.T, actions []rollout.Action) {
	t.Helper()
	reasons := []string{rollout.ScalingReplicaSetReason, rollout.SelectingAllReason, rollout.RollbackDone,
		rollout.RollbackRevisionNotFound, rollout.RollbackTemplateUnchanged}
	for _, a := range actions {
		e := a.Event
		if e.IsZero() {
			continue
		}
		if (e.Type != rollout.EventTypeNormal && e.Type != rollout.EventTypeWarning) || !slices.Contains(reasons, e.Reason) {
			t.Errorf("event %q: not an exported type and reason", e)
		}
	}
}
