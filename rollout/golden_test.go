package rollout_test

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

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
	// The recordings are v1.36.3's: its API and its controller's names.
	objs, err := rollout.DecodeOptions{Version: rollout.V1_36}.Decode(c.State)
	if err != nil {
		t.Fatalf("%s: decoding state: %v", c.Name, err)
	}
	if len(objs.Deployments) != 1 {
		t.Fatalf("%s: %d deployments", c.Name, len(objs.Deployments))
	}
	s := objs.State(objs.Deployments[0], c.Now)
	s.Options.Version = rollout.V1_36
	return s
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

// wrapsInt32 reports whether a case shows upstream's int32 arithmetic
// wrapping around: a negative number in its plan (counts or replica
// annotations) or in the state, or sums of ReplicaSet sizes, replicas plus
// surge, or a size times replicas plus surge past MaxInt32. It is
// the evidence each case of goldenWraps must show; many cases show it and
// still give upstream's plan, and those are compared.
func wrapsInt32(t testing.TB, state rollout.State, plan []byte) bool {
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

// goldenWraps names every case of the replay whose plan is not compared
// with upstream's, with the reason: upstream's int32 arithmetic wraps
// around there, so its plan holds a wrapped number or follows from one,
// and ours differs on purpose (see the README's Differences from
// upstream). It is the only exclusion: every other case must give
// upstream's plan. TestGolden checks each entry: the case exists, our plan
// differs from upstream's, the case shows the wrap (wrapsInt32), and our
// plan holds no negative number (checkNoWrap).
var goldenWraps = map[string]string{
	"random-00031": "sizes 2147483647 + 2147483644 sum past int32: upstream's sum wraps to -5, so it sees nothing to scale down and writes status.replicas -5; ours scales the old ReplicaSet down and stops at status.replicas with an *OverflowError",
	"random-00032": "the state after random-00031, holding upstream's wrapped status (-5), which the API server refuses: upstream's sums wrap as before and it writes nothing; ours plans as in random-00031",
	"random-00079": "sizes 2147483644 + 2147483644 sum past int32: upstream's sums wrap (status.replicas -8); ours scales the old ReplicaSet down and stops at status.replicas with an *OverflowError",
	"random-00080": "the state after random-00079, holding upstream's wrapped status (-8, availableReplicas -1218296045), which the API server refuses: upstream writes it again; ours plans as in random-00079",
	"random-00089": "replicas MaxInt32 + maxSurge 100% wraps to -2: upstream creates the new ReplicaSet at 0 with max-replicas -2; ours caps the surge and creates it at 2147483647",
	"random-00090": "the next sync, whose ReplicaSet holds upstream's max-replicas -2: upstream's replicas + maxSurge wraps again and it scales nothing; ours scales the new ReplicaSet up to 2147483647",
	"random-00275": "replicas MaxInt32 + maxSurge 30% wraps to -1503238554: upstream creates the new ReplicaSet at 0 with that max-replicas; ours caps the surge and creates it at 2147483647",
	"random-00276": "the next sync, whose ReplicaSet holds upstream's max-replicas -1503238554: upstream scales nothing; ours scales the new ReplicaSet up to 2147483647",
	"random-00736": "Q-3: proportional scaling multiplies 1073741824 by replicas + maxSurge in int32, which wraps: upstream scales the adopted ReplicaSet to 268435459 and leaves the other; ours scales them to 671088641 and 671088639",
	"random-01031": "replicas MaxInt32 + maxSurge 25% wraps to -1610612737, and the sizes sum past int32: upstream's proportional scaling writes max-replicas -1610612737; ours caps the surge, scales proportionally and stops at status.unavailableReplicas with an *OverflowError",
}

// The replay's counts, which the README states. Every case is compared
// with upstream's plan except those of goldenWraps.
const (
	goldenCases      = 1307
	goldenCompared   = goldenCases - 10 // len(goldenWraps)
	goldenRefused    = 21               // refused by validation, planned with SkipValidation
	goldenRefusedOvf = 3                // of those, in goldenWraps
)

// TestGolden replays every sync of the upstream controller in testdata
// through Plan. Each case outside goldenWraps must give upstream's plan:
// the same API calls with the same objects, names unmasked, the same
// events, and no error (the corpus records syncs that succeeded; where a
// plan carries recheckAt it is compared too). Each case of goldenWraps must
// differ from upstream's plan, show upstream's wrap, and hold no negative
// size, count or replica annotation, failing, if at all, with an
// *OverflowError. The number of cases, of cases compared and of refused
// states are pinned, so the replay cannot quietly compare fewer cases.
func TestGolden(t *testing.T) {
	cases := loadGolden(t)
	var compared, excluded, refused, refusedExcluded, rechecks int
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			seen[c.Name] = true
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
			want, got := normalize(t, c.Plan), normalize(t, report(t, rollout.NewReport(s.Now, actions, err)))
			if at, ok := recheckAt(t, c.Plan); ok {
				rechecks++
				if r := rollout.NewReport(s.Now, actions, err); !r.RecheckAt.Equal(at) {
					t.Errorf("recheckAt = %v, want %v", r.RecheckAt, at)
				}
			}
			diff := cmp.Diff(want, got)
			reason, wraps := goldenWraps[c.Name]
			if !wraps {
				if diff != "" {
					t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
				}
				compared++
				return
			}
			excluded++
			if s.Options.SkipValidation {
				refusedExcluded++
			}
			if diff == "" {
				t.Errorf("Plan() equals upstream's plan: remove the case from goldenWraps (%s)", reason)
			}
			if !wrapsInt32(t, s, c.Plan) {
				t.Errorf("no int32 wrap in the state or upstream's plan, yet goldenWraps says: %s", reason)
			}
			checkNoWrap(t, s, actions, err)
		})
	}
	for name := range goldenWraps {
		if !seen[name] {
			t.Errorf("goldenWraps names %s, which is not in the corpus", name)
		}
	}
	t.Logf("%d cases: %d equal to upstream, %d where upstream's int32 arithmetic wraps; %d refused by validation (%d of them wrapping), planned with SkipValidation; %d with recheckAt",
		len(cases), compared, excluded, refused, refusedExcluded, rechecks)
	type counts struct{ Cases, Compared, Excluded, Refused, RefusedExcluded int }
	want := counts{goldenCases, goldenCompared, len(goldenWraps), goldenRefused, goldenRefusedOvf}
	if diff := cmp.Diff(want, counts{len(cases), compared, excluded, refused, refusedExcluded}); diff != "" {
		t.Errorf("golden replay counts changed; update them and the README (-want +got):\n%s", diff)
	}
}

// report is r in the plan contract.
func report(t *testing.T, r rollout.Report) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recheckAt reads a plan's recheckAt, which golden.Normalize drops: the
// corpus records none so far.
func recheckAt(t *testing.T, plan []byte) (time.Time, bool) {
	t.Helper()
	var p struct {
		RecheckAt *time.Time `json:"recheckAt"`
	}
	if err := json.Unmarshal(plan, &p); err != nil {
		t.Fatal(err)
	}
	if p.RecheckAt == nil {
		return time.Time{}, false
	}
	return *p.RecheckAt, true
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
// (rollout.CheckNoNegative), and its error is nil or an *OverflowError
// itself, naming the count that does not fit.
func checkNoWrap(t *testing.T, s rollout.State, actions []rollout.Action, err error) {
	t.Helper()
	rollout.CheckNoNegative(t, s, actions)
	if _, ok := err.(*rollout.OverflowError); err != nil && !ok {
		t.Errorf("Plan() error = %v (%T), want nil or an *OverflowError", err, err)
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
