package proportion_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// sized is a Change with the set's name instead of its index, so that
// expectations read like the upstream tests.
type sized struct {
	Name     string
	Replicas int64
}

// named returns changes as (name, size) pairs, in the order of changes.
func named(sets []proportion.Set, changes []proportion.Change) []sized {
	if changes == nil {
		return nil
	}
	out := make([]sized, len(changes))
	for i, c := range changes {
		out[i] = sized{sets[c.Index].Name, c.Replicas}
	}
	return out
}

// resize is the Resize for a Deployment of replicas with a resolved surge.
func resize(replicas, surge, status int32) proportion.Resize {
	return proportion.Resize{
		Replicas:       replicas,
		MaxReplicas:    int64(replicas) + int64(surge),
		StatusReplicas: status,
	}
}

// Upstream: TestGetReplicaSetFraction (B.17), deployment with maxSurge s.
// Plus D.6 and D.7.
func TestFraction(t *testing.T) {
	tests := []struct {
		name   string
		set    proportion.Set
		r      proportion.Resize
		want   int64
		reason string
	}{
		{
			name: "empty deployment always scales to 0",
			set:  proportion.Set{Replicas: 10},
			r:    resize(0, 0, 0),
			want: -10,
		},
		{
			name: "unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)",
			set:  proportion.Set{Replicas: 5},
			r:    resize(10, 0, 0),
			want: 0,
		},
		{
			name: "unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)",
			set:  proportion.Set{Replicas: 5, MaxReplicas: 0}, // annotation "0"
			r:    resize(10, 0, 0),
			want: 0,
		},
		{
			name: "scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)",
			set:  proportion.Set{Replicas: 50},
			r:    resize(120, 0, 100),
			want: 10,
		},
		{
			name: "scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)",
			set:  proportion.Set{Replicas: 50, MaxReplicas: 0}, // annotation "0"
			r:    resize(120, 0, 100),
			want: 10,
		},
		{
			name: "scale up by 1/5 should increase RS replicas by 1/5",
			set:  proportion.Set{Replicas: 50, MaxReplicas: 100},
			r:    resize(120, 0, 0),
			want: 10,
		},
		{
			name: "scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5",
			set:  proportion.Set{Replicas: 50, MaxReplicas: 110},
			r:    resize(120, 10, 0),
			want: 9, // 50·130/110 = 59.09
		},
		{
			name: "scale down by 1/6 should decrease RS replicas by 1/6",
			set:  proportion.Set{Replicas: 6, MaxReplicas: 12},
			r:    resize(10, 0, 0),
			want: -1,
		},
		{
			name: "scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6",
			set:  proportion.Set{Replicas: 50, MaxReplicas: 130},
			r:    resize(100, 10, 0),
			want: -8, // 50·110/130 = 42.31
		},
		{
			name:   "D.6 int32 overflow: 40000 annotated 50000 resized to 60000",
			set:    proportion.Set{Replicas: 40000, MaxReplicas: 50000},
			r:      resize(60000, 0, 0),
			want:   8000, // 40000·60000/50000 = 48000
			reason: "deliberate difference (Q-3): upstream multiplies 40000·60000 in int32, which wraps to -1894967296, and returns -77899",
		},
		{
			name:   "D.7 tie 2.5 rounds to 3 (TestScale no new rs 4->5)",
			set:    proportion.Set{Replicas: 2, MaxReplicas: 4},
			r:      resize(5, 0, 0),
			want:   1, // 2·5/4 = 2.5 → 3
			reason: "round half away from zero, as math.Round",
		},
		{
			name:   "D.7 tie 0.5 rounds to 1",
			set:    proportion.Set{Replicas: 1, MaxReplicas: 2},
			r:      resize(1, 0, 0),
			want:   0, // 1·1/2 = 0.5 → 1
			reason: "round half away from zero, as math.Round",
		},
		{
			name:   "D.7 tie -2.5 rounds to -3",
			set:    proportion.Set{Replicas: 5, MaxReplicas: 2},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: -1},
			want:   -8, // 5·(-1)/2 = -2.5 → -3
			reason: "round half away from zero, as math.Round; a negative maximum is invalid but the arithmetic stays exact",
		},
		{
			name:   "negative status replicas is no denominator",
			set:    proportion.Set{Replicas: 5},
			r:      resize(10, 0, -4),
			want:   0,
			reason: "deliberate difference: upstream divides by the negative status (validation forbids it)",
		},
		{
			name:   "negative max-replicas falls back to status",
			set:    proportion.Set{Replicas: 50, MaxReplicas: -1},
			r:      resize(120, 0, 100),
			want:   10,
			reason: "the annotation parser cannot produce a negative value; treated as missing",
		},
		{
			name: "largest int32 product is exact",
			set:  proportion.Set{Replicas: math.MaxInt32, MaxReplicas: math.MaxInt32},
			r:    proportion.Resize{Replicas: math.MaxInt32, MaxReplicas: 2*math.MaxInt32 + 1},
			want: math.MaxInt32 + 1, // (2^31-1)(2^32-1)/(2^31-1) = 2^32-1
		},
		{
			name:   "saturates above int64",
			set:    proportion.Set{Replicas: math.MaxInt32, MaxReplicas: 1},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: math.MaxInt64},
			want:   math.MaxInt64,
			reason: "the exact value, about 2^94, does not fit int64",
		},
		{
			name:   "saturates below int64",
			set:    proportion.Set{Replicas: math.MinInt32, MaxReplicas: 1},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: math.MaxInt64},
			want:   math.MinInt64,
			reason: "the exact value, about -2^94, does not fit int64",
		},
		// The 128-bit arithmetic at its edges.
		{
			name:   "product past 2^64, result within int64",
			set:    proportion.Set{Replicas: math.MaxInt32, MaxReplicas: math.MaxInt32},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: 1 << 40},
			want:   1<<40 - math.MaxInt32,
			reason: "the product's high word (127) is below the divisor: the quotient is 2^40 exactly",
		},
		{
			name:   "rounding carries into the high word",
			set:    proportion.Set{Replicas: 9, MaxReplicas: 4},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: 8198552921648689607},
			want:   math.MaxInt64,
			reason: "9m/4 = 2^64 - 1 + 3/4 rounds up to 2^64: saturates",
		},
		{
			name:   "just below int64 by the high word only",
			set:    proportion.Set{Replicas: 2, MaxReplicas: 1},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: math.MinInt64 + 1},
			want:   math.MinInt64,
			reason: "2(-2^63 + 1) - 2 = -2^64: the high word is -1 but the value does not fit",
		},
		{
			name:   "a size of -1",
			set:    proportion.Set{Replicas: -1, MaxReplicas: 2},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: 4},
			want:   -1, // round(-1·4/2) + 1
			reason: "invalid, but the arithmetic stays exact: the sign of the product is the size's",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := proportion.Fraction(tt.set, tt.r)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Fraction(%+v, %+v) mismatch (-want +got):\n%s%s", tt.set, tt.r, diff, tt.reason)
			}
		})
	}
}

func TestProportion(t *testing.T) {
	tests := []struct {
		name         string
		set          proportion.Set
		r            proportion.Resize
		toAdd, added int64
		want         int64
		reason       string
	}{
		{
			name:  "empty set gets nothing",
			set:   proportion.Set{Replicas: 0, MaxReplicas: 5},
			r:     resize(10, 0, 0),
			toAdd: 5,
			want:  0,
		},
		{
			name:  "nothing to add",
			set:   proportion.Set{Replicas: 3, MaxReplicas: 5},
			r:     resize(10, 0, 0),
			toAdd: 0,
			want:  0,
		},
		{
			name:  "budget used up",
			set:   proportion.Set{Replicas: 3, MaxReplicas: 5},
			r:     resize(10, 0, 0),
			toAdd: 5, added: 5,
			want: 0,
		},
		{
			name:  "scale up takes the fraction",
			set:   proportion.Set{Replicas: 3, MaxReplicas: 5},
			r:     resize(10, 0, 0),
			toAdd: 5,
			want:  3,
		},
		{
			name:  "scale up is limited by what is left",
			set:   proportion.Set{Replicas: 3, MaxReplicas: 5},
			r:     resize(10, 0, 0),
			toAdd: 5, added: 4,
			want: 1,
		},
		{
			name:   "scale up can shrink a set",
			set:    proportion.Set{Replicas: 5, MaxReplicas: 20},
			r:      resize(12, 0, 0),
			toAdd:  2,
			want:   -2, // round(5·12/20) = 3
			reason: "Q-19: the annotation exceeds the new maximum",
		},
		{
			name:  "scale down takes the fraction",
			set:   proportion.Set{Replicas: 3, MaxReplicas: 5},
			r:     resize(3, 0, 0),
			toAdd: -2,
			want:  -1, // round(1.8) = 2
		},
		{
			name:  "scale down is limited by what is left",
			set:   proportion.Set{Replicas: 8, MaxReplicas: 9},
			r:     resize(4, 0, 0),
			toAdd: -5, added: -4,
			want: -1,
		},
		{
			name:   "scale down can grow a set",
			set:    proportion.Set{Replicas: 4, MaxReplicas: 1},
			r:      resize(2, 0, 0),
			toAdd:  -7,
			want:   4, // 4·2/1 = 8
			reason: "Q-19: the annotation is below the set's size",
		},
		{
			name:   "D.6 int32 overflow",
			set:    proportion.Set{Replicas: 40000, MaxReplicas: 50000},
			r:      resize(60000, 0, 0),
			toAdd:  10000,
			want:   8000,
			reason: "deliberate difference (Q-3): upstream returns min(-77899, 10000) = -77899",
		},
		{
			name:   "what is left does not wrap",
			set:    proportion.Set{Replicas: 1, MaxReplicas: 1},
			r:      proportion.Resize{Replicas: 1, MaxReplicas: math.MaxInt64},
			toAdd:  math.MaxInt64,
			added:  -1,
			want:   math.MaxInt64 - 1,
			reason: "toAdd-added saturates at MaxInt64 instead of wrapping to MinInt64",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := proportion.Proportion(tt.set, tt.r, tt.toAdd, tt.added)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Proportion() mismatch (-want +got):\n%s%s", diff, tt.reason)
			}
		})
	}
}

// Timestamps of TestScale.
var (
	newer = time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	old   = time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	older = time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
)

// set builds a Set as TestScale does: max-replicas = the old Deployment's
// replicas + its surge.
func set(name string, created time.Time, replicas, maxReplicas int32) proportion.Set {
	return proportion.Set{Name: name, Created: created, Replicas: replicas, MaxReplicas: maxReplicas}
}

// Upstream: TestScale (C.5), the proportional cases. Sets are passed in the
// controller's order (old sets newest first, then the new set); the
// expectation lists every set in the order Distribute returns (and the
// controller writes) them. The Deployments have status.replicas 0.
//
// Left out, because the rollout package decides them before proportional
// scaling: #1 "normal scaling event: 10 -> 12" and #2 "normal scaling event:
// 10 -> 5" (a single active set is resized directly), #12 "proportional
// scaling: 0 -> 6" (no active set: the latest is resized directly) and #17
// "saturated but broken new replica set does not affect old pods" (toAdd 0
// and the annotations are current, so nothing is written).
func TestDistributeTestScale(t *testing.T) {
	tests := []struct {
		name string
		sets []proportion.Set
		r    proportion.Resize
		want []sized
	}{
		{
			name: "proportional scaling: 5 -> 10",
			sets: []proportion.Set{set("foo-v1", old, 3, 5), set("foo-v2", newer, 2, 5)},
			r:    resize(10, 0, 0),
			want: []sized{{"foo-v1", 6}, {"foo-v2", 4}},
		},
		{
			name: "proportional scaling: 5 -> 3",
			sets: []proportion.Set{set("foo-v1", old, 3, 5), set("foo-v2", newer, 2, 5)},
			r:    resize(3, 0, 0),
			want: []sized{{"foo-v1", 2}, {"foo-v2", 1}},
		},
		{
			name: "proportional scaling: 9 -> 4",
			sets: []proportion.Set{set("foo-v1", old, 1, 9), set("foo-v2", newer, 8, 9)},
			r:    resize(4, 0, 0),
			want: []sized{{"foo-v2", 4}, {"foo-v1", 0}},
		},
		{
			name: "proportional scaling: 7 -> 10",
			sets: []proportion.Set{set("foo-v2", old, 3, 7), set("foo-v1", older, 2, 7), set("foo-v3", newer, 2, 7)},
			r:    resize(10, 0, 0),
			want: []sized{{"foo-v2", 4}, {"foo-v3", 3}, {"foo-v1", 3}},
		},
		{
			name: "proportional scaling: 13 -> 8",
			sets: []proportion.Set{set("foo-v2", old, 8, 13), set("foo-v1", older, 3, 13), set("foo-v3", newer, 2, 13)},
			r:    resize(8, 0, 0),
			want: []sized{{"foo-v2", 5}, {"foo-v1", 2}, {"foo-v3", 1}},
		},
		{
			name: "leftover distribution: 3 -> 4",
			sets: []proportion.Set{set("foo-v2", old, 1, 3), set("foo-v1", older, 1, 3), set("foo-v3", newer, 1, 3)},
			r:    resize(4, 0, 0),
			want: []sized{{"foo-v3", 2}, {"foo-v2", 1}, {"foo-v1", 1}},
		},
		{
			name: "leftover distribution: 3 -> 2",
			sets: []proportion.Set{set("foo-v2", old, 1, 3), set("foo-v1", older, 1, 3), set("foo-v3", newer, 1, 3)},
			r:    resize(2, 0, 0),
			want: []sized{{"foo-v1", 0}, {"foo-v2", 1}, {"foo-v3", 1}},
		},
		{
			name: "proportional scaling (no new rs): 4 -> 5",
			sets: []proportion.Set{set("foo-v2", old, 2, 4), set("foo-v1", older, 2, 4)},
			r:    resize(5, 0, 0),
			want: []sized{{"foo-v2", 3}, {"foo-v1", 2}}, // 2·5/4 = 2.5 → 3 (D.7)
		},
		{
			name: "proportional scaling: 6 -> 0",
			sets: []proportion.Set{set("foo-v2", old, 2, 6), set("foo-v1", older, 1, 6), set("foo-v3", newer, 3, 6)},
			r:    resize(0, 0, 0),
			want: []sized{{"foo-v3", 0}, {"foo-v2", 0}, {"foo-v1", 0}},
		},
		{
			// foo-v2's annotations were written for a Deployment of 3
			// (desired 3, max 3): its share of 5 is 1·5/3 = 1.67 → 2.
			name: "failed rs update",
			sets: []proportion.Set{set("foo-v2", old, 1, 3), set("foo-v1", older, 1, 5), set("foo-v3", newer, 2, 5)},
			r:    resize(5, 0, 0),
			want: []sized{{"foo-v3", 2}, {"foo-v2", 2}, {"foo-v1", 1}},
		},
		{
			name: "deployment with surge pods",
			sets: []proportion.Set{set("foo-v1", old, 6, 12), set("foo-v2", newer, 6, 12)},
			r:    resize(20, 2, 0),
			want: []sized{{"foo-v2", 11}, {"foo-v1", 11}},
		},
		{
			name: "change both surge and size",
			sets: []proportion.Set{set("foo-v1", old, 8, 13), set("foo-v2", newer, 5, 13)},
			r:    resize(50, 6, 0),
			want: []sized{{"foo-v1", 34}, {"foo-v2", 22}},
		},
		{
			name: "change both size and template",
			sets: []proportion.Set{set("foo-v2", newer, 7, 10), set("foo-v1", old, 3, 10)},
			r:    resize(14, 0, 0),
			want: []sized{{"foo-v2", 10}, {"foo-v1", 4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := named(tt.sets, proportion.Distribute(tt.sets, tt.r))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Distribute() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Cases beyond TestScale: the documented degenerate cases, the clamp, and
// toAdd == 0.
func TestDistribute(t *testing.T) {
	tests := []struct {
		name   string
		sets   []proportion.Set
		r      proportion.Resize
		want   []sized
		reason string
	}{
		{
			name: "no sets",
			sets: nil,
			r:    resize(5, 1, 0),
			want: nil,
		},
		{
			name:   "nothing to add keeps the input order and sizes",
			sets:   []proportion.Set{set("b", older, 1, 0), set("a", newer, 4, 0), set("c", old, 2, 9)},
			r:      resize(6, 1, 0),
			want:   []sized{{"b", 1}, {"a", 4}, {"c", 2}},
			reason: "toAdd == 0: the controller writes every set, in its own order, to refresh annotations",
		},
		{
			name:   "no denominator: 3,3 scaled to 2",
			sets:   []proportion.Set{set("b", newer, 3, 0), set("a", old, 3, 0)},
			r:      resize(2, 0, 0),
			want:   []sized{{"a", 0}, {"b", 3}},
			reason: "STYLE §6: every Fraction is 0, the whole -4 goes to the first set, which the clamp stops at 0 (sum 3, not 2)",
		},
		{
			name:   "no denominator: scale up goes to the first set",
			sets:   []proportion.Set{set("b", newer, 3, 0), set("a", old, 3, 0)},
			r:      resize(10, 0, 0),
			want:   []sized{{"b", 7}, {"a", 3}},
			reason: "every Fraction is 0: the leftover 4 goes to the newer of the equal sets",
		},
		{
			name:   "no annotations falls back to status replicas",
			sets:   []proportion.Set{set("b", newer, 3, 0), set("a", old, 3, 0)},
			r:      resize(2, 0, 6),
			want:   []sized{{"a", 1}, {"b", 1}},
			reason: "each 3·2/6 = 1",
		},
		{
			name: "many small sets: four of 1 annotated 4 scaled to 2",
			sets: []proportion.Set{
				set("d", newer, 1, 4), set("c", old, 1, 4), set("b", older, 1, 4), set("a", older.Add(-time.Hour), 1, 4),
			},
			r:      resize(2, 0, 0),
			want:   []sized{{"a", 0}, {"b", 1}, {"c", 1}, {"d", 1}},
			reason: "each 1·2/4 = 0.5 rounds up to 1, so every Fraction is 0 and the first set is clamped (sum 3, not 2)",
		},
		{
			name:   "inconsistent annotations: scale down grows a set",
			sets:   []proportion.Set{set("b", newer, 4, 1), set("a", old, 5, 10)},
			r:      resize(2, 0, 0),
			want:   []sized{{"a", 0}, {"b", 8}},
			reason: "Q-19: b's Fraction is 4·2/1-4 = +4 in a scale-down; a would need -6 and is clamped (sum 8, not 2)",
		},
		{
			name:   "inconsistent annotations: scale up shrinks a set",
			sets:   []proportion.Set{set("b", newer, 5, 10), set("a", old, 5, 20)},
			r:      resize(12, 0, 0),
			want:   []sized{{"b", 9}, {"a", 3}},
			reason: "Q-19: a's Fraction is round(5·12/20)-5 = -2 in a scale-up; the leftover 3 goes to b",
		},
		{
			name:   "D.6 int32 overflow",
			sets:   []proportion.Set{set("big", old, 40000, 50000), set("new", newer, 10000, 50000)},
			r:      resize(60000, 0, 0),
			want:   []sized{{"big", 48000}, {"new", 12000}},
			reason: "deliberate difference (Q-3): upstream's Fraction for big is -77899 (int32 wrap), a negative size",
		},
		{
			name:   "out of domain: negative size and maximum are clamped",
			sets:   []proportion.Set{set("a", old, 5, 5), set("b", newer, -3, 5)},
			r:      proportion.Resize{Replicas: 5, MaxReplicas: -10},
			want:   []sized{{"a", 0}, {"b", 0}},
			reason: "upstream never sees these (FilterActive, validation); every size is clamped at 0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := named(tt.sets, proportion.Distribute(tt.sets, tt.r))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Distribute() mismatch (-want +got):\n%s%s", diff, tt.reason)
			}
		})
	}
}

func TestDistributeDoesNotModifySets(t *testing.T) {
	sets := []proportion.Set{set("a", older, 1, 3), set("b", old, 5, 3), set("c", newer, 2, 3)}
	want := slices.Clone(sets)
	for _, r := range []proportion.Resize{resize(10, 2, 0), resize(1, 0, 0), resize(5, 3, 0)} {
		proportion.Distribute(sets, r)
		if diff := cmp.Diff(want, sets); diff != "" {
			t.Errorf("Distribute(sets, %+v) modified sets (-want +got):\n%s", r, diff)
		}
	}
}

// Upstream: D.3 sort orders. a(2, T), b(2, T), c(2, T+1s), d(5, T), e(1, T+1s).
func TestCompare(t *testing.T) {
	T := older
	sets := []proportion.Set{
		set("a", T, 2, 0), set("b", T, 2, 0), set("c", T.Add(time.Second), 2, 0),
		set("d", T, 5, 0), set("e", T.Add(time.Second), 1, 0),
	}
	tests := []struct {
		name    string
		compare func(a, b proportion.Set) int
		want    []string
	}{
		{"BySizeNewer", proportion.CompareSizeNewer, []string{"d", "c", "b", "a", "e"}},
		{"BySizeOlder", proportion.CompareSizeOlder, []string{"d", "a", "b", "c", "e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Every rotation of the input sorts the same way.
			for k := range sets {
				in := append(slices.Clone(sets[k:]), sets[:k]...)
				slices.SortFunc(in, tt.compare)
				var got []string
				for _, s := range in {
					got = append(got, s.Name)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("SortFunc(rotation %d, %s) mismatch (-want +got):\n%s", k, tt.name, diff)
				}
			}
		})
	}
}

func TestCompareSameInstant(t *testing.T) {
	// Two times for the same instant in different locations are equal, so
	// the name decides (R-PRIM-4 compares instants).
	utc := older
	local := older.In(time.FixedZone("east", 3600))
	a, b := set("a", utc, 2, 0), set("b", local, 2, 0)
	if got := proportion.CompareSizeNewer(a, b); got <= 0 {
		t.Errorf("CompareSizeNewer(a, b) = %d, want > 0 (name descending)", got)
	}
	if got := proportion.CompareSizeOlder(a, b); got >= 0 {
		t.Errorf("CompareSizeOlder(a, b) = %d, want < 0 (name ascending)", got)
	}
}
