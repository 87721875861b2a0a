package proportion_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// FuzzDistribute checks, for arbitrary sizes, annotations, creation times
// and Resize values (up to three sets), that Distribute does not panic,
// returns one change per set and no negative size, does not depend on the
// order of the sets, and gives a single set all that is allowed.
func FuzzDistribute(f *testing.F) {
	// Seeds: the TestScale rows (sizes, annotations, replicas, surge), the
	// documented degenerate cases and D.6.
	seeds := []struct {
		n                      uint8
		r1, m1, r2, m2, r3, m3 int32
		t1, t2, t3             int64
		replicas               int32
		maxReplicas            int64
		status                 int32
	}{
		{2, 3, 5, 2, 5, 0, 0, 1, 2, 0, 10, 10, 0},                       // proportional scaling: 5 -> 10
		{2, 3, 5, 2, 5, 0, 0, 1, 2, 0, 3, 3, 0},                         // proportional scaling: 5 -> 3
		{2, 1, 9, 8, 9, 0, 0, 1, 2, 0, 4, 4, 0},                         // proportional scaling: 9 -> 4
		{3, 3, 7, 2, 7, 2, 7, 1, 0, 2, 10, 10, 0},                       // proportional scaling: 7 -> 10
		{3, 8, 13, 3, 13, 2, 13, 1, 0, 2, 8, 8, 0},                      // proportional scaling: 13 -> 8
		{3, 1, 3, 1, 3, 1, 3, 1, 0, 2, 4, 4, 0},                         // leftover distribution: 3 -> 4
		{3, 1, 3, 1, 3, 1, 3, 1, 0, 2, 2, 2, 0},                         // leftover distribution: 3 -> 2
		{2, 2, 4, 2, 4, 0, 0, 1, 0, 0, 5, 5, 0},                         // proportional scaling (no new rs): 4 -> 5
		{3, 2, 6, 1, 6, 3, 6, 1, 0, 2, 0, 0, 0},                         // proportional scaling: 6 -> 0
		{3, 1, 3, 1, 5, 2, 5, 1, 0, 2, 5, 5, 0},                         // failed rs update
		{2, 6, 12, 6, 12, 0, 0, 1, 2, 0, 20, 22, 0},                     // deployment with surge pods
		{2, 8, 13, 5, 13, 0, 0, 1, 2, 0, 50, 56, 0},                     // change both surge and size
		{2, 7, 10, 3, 10, 0, 0, 2, 1, 0, 14, 14, 0},                     // change both size and template
		{2, 3, 0, 3, 0, 0, 0, 1, 0, 0, 2, 2, 0},                         // no denominator: 3,3 scaled to 2
		{2, 5, 10, 4, 1, 0, 0, 1, 2, 0, 2, 2, 0},                        // inconsistent annotations
		{2, 40000, 50000, 10000, 50000, 0, 0, 1, 2, 0, 60000, 60000, 0}, // D.6
		{3, -1 << 31, 1<<31 - 1, 1<<31 - 1, 1, -5, -1, 0, 0, 0, 1, 1<<63 - 1, -1 << 31},
	}
	for _, s := range seeds {
		f.Add(s.n, s.r1, s.m1, s.r2, s.m2, s.r3, s.m3, s.t1, s.t2, s.t3, s.replicas, s.maxReplicas, s.status)
	}
	base := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, n uint8, r1, m1, r2, m2, r3, m3 int32, t1, t2, t3 int64, replicas int32, maxReplicas int64, status int32) {
		all := []proportion.Set{
			{Name: "s1", Created: base.Add(time.Duration(t1)), Replicas: r1, MaxReplicas: m1},
			{Name: "s2", Created: base.Add(time.Duration(t2)), Replicas: r2, MaxReplicas: m2},
			{Name: "s3", Created: base.Add(time.Duration(t3)), Replicas: r3, MaxReplicas: m3},
		}
		sets := all[:int(n)%(len(all)+1)]
		r := proportion.Resize{Replicas: replicas, MaxReplicas: maxReplicas, StatusReplicas: status}

		got := proportion.Distribute(sets, r)
		if len(got) != len(sets) {
			t.Fatalf("Distribute(%+v, %+v) returned %d changes for %d sets", sets, r, len(got), len(sets))
		}
		bySet := map[string]int64{}
		for _, c := range got {
			if c.Index < 0 || c.Index >= len(sets) {
				t.Fatalf("Distribute(%+v, %+v) = %v: index %d out of range", sets, r, got, c.Index)
			}
			if c.Replicas < 0 {
				t.Fatalf("Distribute(%+v, %+v) = %v: negative size", sets, r, got)
			}
			bySet[sets[c.Index].Name] = c.Replicas
		}
		if len(bySet) != len(sets) {
			t.Fatalf("Distribute(%+v, %+v) = %v: a set appears twice", sets, r, got)
		}

		reversed := slices.Clone(sets)
		slices.Reverse(reversed)
		byReversed := map[string]int64{}
		for _, c := range proportion.Distribute(reversed, r) {
			byReversed[reversed[c.Index].Name] = c.Replicas
		}
		if !maps.Equal(bySet, byReversed) {
			t.Fatalf("Distribute(%+v, %+v) depends on the input order: %v, reversed %v", sets, r, bySet, byReversed)
		}

		// A single set of non-negative size takes all that is allowed (the
		// leftover is everything its Proportion did not take), clamped at 0.
		if len(sets) == 1 && sets[0].Replicas >= 0 {
			allowed := int64(0)
			if replicas > 0 {
				allowed = maxReplicas
			}
			if want := max(allowed, 0); got[0].Replicas != want {
				t.Fatalf("Distribute(%+v, %+v) = %v, want size %d", sets, r, got, want)
			}
		}
	})
}
