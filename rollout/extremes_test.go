package rollout_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestExtremeReplicas: replicas at MaxInt32 with a 100% surge. Upstream's
// replicas + maxSurge wraps negative; ours keeps the sum in int32, and the
// both-zero rule leaves room to move.
func TestExtremeReplicas(t *testing.T) {
	ru := rollout.RollingUpdate{MaxSurge: surge.Percent(100), MaxUnavailable: surge.Count(0)}
	s := rollout.WebState(math.MaxInt32, ru, "v2", rollout.WebReplicaSet("web-v1", "v1", math.MaxInt32, 1, rollout.WebEpoch))
	if l := rollout.Limits(s.Deployment); l.Surge != 0 || l.Unavailable != 1 {
		t.Errorf("Limits() = %+v, want surge 0 (capped) and unavailable 1", l)
	}
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	rollout.CheckNoNegative(t, s, actions)
	if a := actions[0]; a.Type != rollout.CreateReplicaSet || a.Annotations[rollout.MaxReplicasAnnotation] != "2147483647" {
		t.Errorf("first action %v with %v, want the new ReplicaSet with max-replicas 2147483647", a, a.Annotations)
	}
}

// TestUpstreamNegativeScale is the case the hardening issue names: replicas
// 1073741824 with 25% surge and ReplicaSets of 1073741824 each, where
// upstream scales a ReplicaSet to -268435453 and writes wrapped status
// counts. Ours refuses with an OverflowError or plans no negative number.
func TestUpstreamNegativeScale(t *testing.T) {
	const big = 1 << 30
	ru := rollout.DefaultRollingUpdate()
	s := rollout.WebState(big, ru, "v3",
		rollout.WebReplicaSet("web-v1", "v1", big, 1, rollout.WebEpoch),
		rollout.WebReplicaSet("web-v2", "v2", big, 2, rollout.WebEpoch.Add(time.Minute)),
		rollout.WebReplicaSet("web-v3", "v3", big, 3, rollout.WebEpoch.Add(2*time.Minute)))
	for _, rs := range s.ReplicaSets { // desired-replicas of an older size: a scaling event
		rs.Annotations[rollout.DesiredReplicasAnnotation] = "1000"
		rs.Annotations[rollout.MaxReplicasAnnotation] = "1250"
	}
	actions, err := rollout.Plan(s)
	rollout.CheckNoNegative(t, s, actions)
	// Scaling down from annotations that say the Deployment was 1000
	// replicas gives each ReplicaSet a share far beyond int32;
	// upstream's int32 product wraps to a negative size.
	var oe *rollout.OverflowError
	if !errors.As(err, &oe) {
		t.Fatalf("Plan() error = %v, want an *OverflowError", err)
	}
	if oe.Field != "replicaset web-v2 spec.replicas" || oe.Value <= math.MaxInt32 {
		t.Errorf("OverflowError = %+v, want web-v2's size past int32", oe)
	}

	// Without the scaling event the sizes sum past int32 in the status.
	for _, rs := range s.ReplicaSets {
		rs.Annotations[rollout.DesiredReplicasAnnotation] = strconv.Itoa(big)
		rs.Annotations[rollout.MaxReplicasAnnotation] = strconv.Itoa(big + big/4)
	}
	actions, err = rollout.Plan(s)
	rollout.CheckNoNegative(t, s, actions)
	if !errors.As(err, &oe) || oe.Field != "status.replicas" || oe.Value != 3*big {
		t.Errorf("Plan() error = %v, want status.replicas %d past int32", err, 3*big)
	}
}

// TestSumsPastInt32: the status of ReplicaSets whose sizes sum past int32
// cannot be written; Plan says which field overflows instead of wrapping.
func TestSumsPastInt32(t *testing.T) {
	s := rollout.WebState(1_000_000_000, rollout.DefaultRollingUpdate(), "v1",
		rollout.WebReplicaSet("web-a", "v1", 1_000_000_000, 1, rollout.WebEpoch),
		rollout.WebReplicaSet("web-b", "v0", 1_000_000_000, 0, rollout.WebEpoch.Add(-time.Minute)),
		rollout.WebReplicaSet("web-c", "vx", 1_000_000_000, 0, rollout.WebEpoch.Add(-2*time.Minute)))
	actions, err := rollout.Plan(s)
	rollout.CheckNoNegative(t, s, actions)
	var oe *rollout.OverflowError
	if !errors.As(err, &oe) || oe.Value != 3_000_000_000 {
		t.Fatalf("Plan() error = %v, want an *OverflowError for 3000000000", err)
	}
}

// TestRevisionsPastInt64: a revision annotation past int64 does not parse
// and is skipped (R-REV-2); one at MaxInt64 has no next revision, which is
// an error rather than upstream's wrap to a negative revision.
func TestRevisionsPastInt64(t *testing.T) {
	old := rollout.WebReplicaSet("web-v1", "v1", 3, 0, rollout.WebEpoch)
	old.Annotations[rollout.RevisionAnnotation] = "9223372036854775808"
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", old)
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatalf("Plan() with an unparsable revision: %v", err)
	}
	if a := actions[0]; a.Type != rollout.CreateReplicaSet || a.Annotations[rollout.RevisionAnnotation] != "1" {
		t.Errorf("first action %v with revision %q, want the new ReplicaSet at revision 1 (the other is skipped)", a, a.Annotations[rollout.RevisionAnnotation])
	}

	old.Annotations[rollout.RevisionAnnotation] = "9223372036854775807"
	if _, err := rollout.Plan(rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", old)); !errors.Is(err, revision.ErrOverflow) {
		t.Errorf("Plan() with revision MaxInt64 = %v, want revision.ErrOverflow", err)
	}
}

// TestMalformedReplicaAnnotations: desired- and max-replicas annotations
// that are huge, negative, fractional or not numbers count as missing
// (R-ANN-1): no scaling event, no saturation, and proportional scaling
// falls back to the Deployment's status.
func TestMalformedReplicaAnnotations(t *testing.T) {
	for _, v := range []string{"99999999999", "2147483648", "-5", "2.5", "x", "", " 3", "+3"} {
		t.Run(strconv.Quote(v), func(t *testing.T) {
			rs := rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch)
			rs.Annotations[rollout.DesiredReplicasAnnotation] = v
			rs.Annotations[rollout.MaxReplicasAnnotation] = v
			if n, ok := rollout.GetDesiredReplicasAnnotation(&rs); ok {
				t.Errorf("GetDesiredReplicasAnnotation = %d, true; want missing", n)
			}
			if n, ok := rollout.GetMaxReplicasAnnotation(&rs); ok {
				t.Errorf("GetMaxReplicasAnnotation = %d, true; want missing", n)
			}
			s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v1", rs)
			if rollout.IsSaturated(&s.Deployment, &rs) && v != "+3" {
				t.Errorf("IsSaturated with desired-replicas %q", v)
			}
			actions, err := rollout.Plan(s)
			if err != nil {
				t.Fatal(err)
			}
			rollout.CheckNoNegative(t, s, actions)
			for _, a := range actions {
				if a.Type == rollout.ScaleReplicaSet {
					t.Errorf("Plan() scales with desired-replicas %q: %v", v, a)
				}
			}
		})
	}
}

// TestManyEqualCreationTimes: hundreds of ReplicaSets created in the same
// second order by name (R-PRIM-4), so Plan's answer does not depend on their
// order, and among equal templates the first by name is the new one.
func TestManyEqualCreationTimes(t *testing.T) {
	var sets []rollout.ReplicaSet
	for i := range 300 {
		image := fmt.Sprintf("v%d", i%7) // several ReplicaSets per template
		size := int32(0)
		if i%50 == 0 {
			size = 2
		}
		sets = append(sets, rollout.WebReplicaSet(fmt.Sprintf("web-%03d", i), image, size, i, rollout.WebEpoch))
	}
	s := rollout.WebState(12, rollout.DefaultRollingUpdate(), "v3", sets...)
	s.Deployment.Spec.RevisionHistoryLimit = rollout.Int32(5)
	want, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if rs, ok := rollout.FindNewReplicaSet(s.Deployment, sets); !ok || rs.Name != "web-003" {
		t.Errorf("FindNewReplicaSet = %q, %v; want web-003, the first by name with v3", rs.Name, ok)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := slices.Clone(sets)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		s2 := s
		s2.ReplicaSets = shuffled
		got, err := rollout.Plan(s2)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Plan() depends on the order of equal-time ReplicaSets (-sorted +shuffled):\n%s", diff)
		}
	}
}

// TestIsSaturatedDesiredBeyondInt32: a desired-replicas annotation beyond
// int32 never makes a ReplicaSet saturated (R-SAT-1), even where upstream's
// truncation to int32 lands on spec.replicas: "4294967299" is 2^32 + 3,
// which truncates to 3. Through Plan: a paused Deployment of 3 whose new
// ReplicaSet is at 3, all available, with that annotation, next to an old
// one at 2, is scaled proportionally (the new one gives the surplus
// replica back, R-SCALE-4), not retired as saturated (old to 0).
func TestIsSaturatedDesiredBeyondInt32(t *testing.T) {
	ru := rollout.DefaultRollingUpdate() // 3 replicas: surge 1, max 4
	newRS := rollout.WebReplicaSet("web-v2", "v2", 3, 2, rollout.WebEpoch.Add(time.Minute))
	old := rollout.WebReplicaSet("web-v1", "v1", 2, 1, rollout.WebEpoch)
	for _, tc := range []struct {
		desired string
		want    bool
	}{
		{"3", true},
		{"+3", true},  // Atoi's sign
		{"003", true}, // and leading zeros
		{"4294967299", false},
		{"-4294967293", false}, // -2^32 + 3
		{"2147483651", false},  // MaxInt32 + 4, truncating to a negative number
		{"9223372036854775811", false},
	} {
		rs := newRS.DeepCopy()
		rs.Annotations[rollout.DesiredReplicasAnnotation] = tc.desired
		d := rollout.WebState(3, ru, "v2").Deployment
		if got := rollout.IsSaturated(&d, &rs); got != tc.want {
			t.Errorf("IsSaturated() with desired-replicas %q = %v, want %v", tc.desired, got, tc.want)
		}
	}

	// At 0 replicas a malformed annotation is not read as 0.
	for _, tc := range []struct {
		desired string
		want    bool
	}{{"0", true}, {"x", false}, {"", false}} {
		rs := rollout.WebReplicaSet("web-v2", "v2", 0, 2, rollout.WebEpoch)
		rs.Annotations[rollout.DesiredReplicasAnnotation] = tc.desired
		d := rollout.WebState(0, ru, "v2").Deployment
		if got := rollout.IsSaturated(&d, &rs); got != tc.want {
			t.Errorf("IsSaturated() at 0 replicas with desired-replicas %q = %v, want %v", tc.desired, got, tc.want)
		}
	}

	newRS.Annotations[rollout.DesiredReplicasAnnotation] = "4294967299"
	newRS.Annotations[rollout.MaxReplicasAnnotation] = "4"
	old.Annotations[rollout.DesiredReplicasAnnotation] = "3"
	old.Annotations[rollout.MaxReplicasAnnotation] = "4"
	s := rollout.WebState(3, ru, "v2", old, newRS)
	s.Deployment.Spec.Paused = true
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"web-v2 3->2"}, rollout.Writes(actions)); diff != "" {
		t.Errorf("Plan() writes mismatch (-want +got):\n%s", diff)
	}
}

// TestCollisionCountOverflow: a hash collision when status.collisionCount
// is already MaxInt32 is an *OverflowError naming the field and the value
// it would take, and the sync writes no status (upstream writes the count
// wrapped to MinInt32). One below, the count is raised to MaxInt32 and the
// sync fails with the *CollisionError.
func TestCollisionCountOverflow(t *testing.T) {
	for _, tc := range []struct {
		count      int32
		wantWrites []string // the status writes, "collisionCount=n"
		wantErr    error
	}{
		{count: math.MaxInt32 - 1, wantWrites: []string{"collisionCount=2147483647"}},
		{count: math.MaxInt32, wantErr: &rollout.OverflowError{Field: "status.collisionCount", Value: math.MaxInt32 + 1}},
	} {
		t.Run(strconv.Itoa(int(tc.count)), func(t *testing.T) {
			s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2")
			s.Deployment.Status.CollisionCount = rollout.Int32(tc.count)
			// Another template under the name the new ReplicaSet would take.
			taken := rollout.WebReplicaSet(rollout.NewReplicaSetName(s.Deployment), "other", 1, 1, rollout.WebEpoch)
			s.ReplicaSets = []rollout.ReplicaSet{taken}
			actions, err := rollout.Plan(s)
			var writes []string
			for _, a := range actions {
				if a.Type == rollout.UpdateDeploymentStatus {
					writes = append(writes, fmt.Sprintf("collisionCount=%d", a.Status.CollisionCount.Value))
				}
			}
			if diff := cmp.Diff(tc.wantWrites, writes); diff != "" {
				t.Errorf("Plan() status writes mismatch (-want +got):\n%s", diff)
			}
			if tc.wantErr == nil {
				var ce *rollout.CollisionError
				if !errors.As(err, &ce) || ce.Name != taken.Name {
					t.Errorf("Plan() error = %v, want a *CollisionError for %s", err, taken.Name)
				}
				return
			}
			var oe *rollout.OverflowError
			if !errors.As(err, &oe) || *oe != *tc.wantErr.(*rollout.OverflowError) {
				t.Errorf("Plan() error = %#v, want %#v", err, tc.wantErr)
			}
		})
	}
}
