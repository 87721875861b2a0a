package revision_test

import (
	stdcmp "cmp"
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/revision"
	"pgregory.net/rapid"
)

// genRev draws invalid revisions, small revisions (so duplicates and ties
// are common), the extremes, and arbitrary int64s.
func genRev() *rapid.Generator[revision.Rev] {
	return rapid.OneOf(
		rapid.Just(revision.Rev{}),
		rapid.Custom(func(t *rapid.T) revision.Rev {
			return revision.Rev{N: rapid.Int64Range(-3, 10).Draw(t, "small"), Valid: true}
		}),
		rapid.Custom(func(t *rapid.T) revision.Rev {
			return revision.Rev{N: rapid.SampledFrom([]int64{math.MinInt64, math.MaxInt64 - 1, math.MaxInt64}).Draw(t, "extreme"), Valid: true}
		}),
		rapid.Custom(func(t *rapid.T) revision.Rev {
			return revision.Rev{N: rapid.Int64().Draw(t, "any"), Valid: true}
		}),
	)
}

// TestMaxLastNextProperties checks Max, Last and Next over lists of
// genRev, which draws MinInt64, MaxInt64-1 and MaxInt64 for about a quarter
// of the revisions, so every run meets Next's overflow (ErrOverflow) and
// the step just below it.
func TestMaxLastNextProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		revs := rapid.SliceOf(genRev()).Draw(t, "revs")
		m, last := revision.Max(revs), revision.Last(revs)
		if last < 0 || last > m {
			t.Fatalf("Last = %d, Max = %d: want 0 <= Last <= Max", last, m)
		}
		next, err := revision.Next(revs)
		if m == math.MaxInt64 {
			if !errors.Is(err, revision.ErrOverflow) || next != 0 {
				t.Fatalf("Next = %d, %v; want 0, ErrOverflow", next, err)
			}
			return
		}
		if err != nil || next != m+1 || next < 1 {
			t.Fatalf("Next = %d, %v; want %d, nil", next, err, m+1)
		}
		for _, r := range revs {
			if r.Valid && next <= r.N {
				t.Fatalf("Next = %d is not greater than revision %d", next, r.N)
			}
		}
	})
}

// Next applied to revisions that came through Parse.
func TestNextParsedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values := rapid.SliceOf(rapid.OneOf(
			rapid.StringMatching(`[+-]?[0-9]{1,20}`),
			rapid.String(),
		)).Draw(t, "annotations")
		revs := make([]revision.Rev, len(values))
		for i, v := range values {
			revs[i] = revision.Of(v, true)
		}
		next, err := revision.Next(revs)
		if err != nil {
			return
		}
		for _, v := range values {
			if n, perr := revision.Parse(v); perr == nil && next <= n {
				t.Fatalf("Next = %d is not greater than parsed %q", next, v)
			}
		}
	})
}

func TestAppendHistoryProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		history := rapid.StringOf(rapid.SampledFrom([]rune("12,"))).Draw(t, "history")
		old := rapid.StringOf(rapid.SampledFrom([]rune("0123456789"))).Draw(t, "old")
		limit := rapid.IntRange(-2, 24).Draw(t, "limit")
		got := revision.AppendHistory(history, old, limit)

		if history == "" || history[0] == ',' {
			if got != old {
				t.Fatalf("got %q, want old %q (history starts with an empty piece)", got, old)
			}
			return
		}
		if len(old) > limit {
			// Nothing fits, not even old: unchanged.
			if got != history {
				t.Fatalf("got %q, want history %q unchanged (old longer than limit)", got, history)
			}
			return
		}
		// Appended: fits, ends with old, is a tail of history+","+old cut at a
		// piece boundary, and is the longest such tail that fits.
		if len(got) > limit {
			t.Fatalf("len(%q) = %d > limit %d", got, len(got), limit)
		}
		full := history + "," + old
		if !strings.HasSuffix(full, got) || !strings.HasSuffix(got, old) {
			t.Fatalf("got %q is not a tail of %q ending with %q", got, full, old)
		}
		if cut := len(full) - len(got); cut > 0 && full[cut-1] != ',' {
			t.Fatalf("got %q does not start at a piece boundary of %q", got, full)
		}
		if prev := strings.LastIndexByte(full[:max(len(full)-len(got)-1, 0)], ','); len(got) < len(full) {
			longer := full[prev+1:]
			if len(longer) <= limit {
				t.Fatalf("got %q but the longer tail %q also fits in %d", got, longer, limit)
			}
		}
	})
}

// genSets draws old ReplicaSets with small creation offsets so ties are
// common; names are unique.
func genSets(t *rapid.T, rev *rapid.Generator[revision.Rev], maxN int) []revision.Set {
	n := rapid.IntRange(0, maxN).Draw(t, "n")
	sets := make([]revision.Set, n)
	for i := range sets {
		sets[i] = revision.Set{
			Name:    "rs-" + strconv.Itoa(rapid.IntRange(0, 99).Draw(t, "name")) + "-" + strconv.Itoa(i),
			Created: t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "created")) * time.Second),
			Rev:     rev.Draw(t, "rev"),
			Idle:    rapid.Bool().Draw(t, "idle"),
		}
	}
	return sets
}

func TestPruneProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Up to 60 sets, so sort.Sort goes past insertion sort (12 elements)
		// with an inconsistent comparison.
		sets := genSets(t, genRev(), 60)
		limit := rapid.Int32Range(-2, 62).Draw(t, "limit")
		before := slices.Clone(sets)
		got := revision.Prune(sets, limit)

		if diff := cmp.Diff(before, sets); diff != "" {
			t.Fatalf("Prune modified sets (-before +after):\n%s", diff)
		}
		diff := len(sets) - int(max(limit, 0))
		if len(got) > max(diff, 0) {
			t.Fatalf("Prune returned %d indices, more than diff %d", len(got), diff)
		}
		seen := map[int]bool{}
		for _, i := range got {
			if i < 0 || i >= len(sets) || seen[i] || !sets[i].Idle {
				t.Fatalf("Prune returned %v: index %d out of range, repeated or not idle", got, i)
			}
			seen[i] = true
		}
		if !slices.Equal(got, revision.Prune(sets, limit)) {
			t.Fatalf("Prune is not deterministic for one input order")
		}
		// Same answer as sort.Sort on a copy of sets, as upstream sorts its
		// list, even when the comparison is inconsistent.
		if diff := cmp.Diff(upstreamPrune(sets, limit), names(sets, got)); diff != "" {
			t.Fatalf("Prune() mismatch (-upstream +got):\n%s", diff)
		}
	})
}

// With every revision valid and unique names, ByRevision is the total order
// (revision, creation, name): Prune matches a stable-sort reference and does
// not depend on the order of sets.
func TestPruneValidRevisionsProperty(t *testing.T) {
	valid := rapid.Custom(func(t *rapid.T) revision.Rev {
		return revision.Rev{N: rapid.Int64Range(-1, 5).Draw(t, "n"), Valid: true}
	})
	rapid.Check(t, func(t *rapid.T) {
		sets := genSets(t, valid, 20)
		limit := rapid.Int32Range(0, 14).Draw(t, "limit")
		got := names(sets, revision.Prune(sets, limit))

		sorted := slices.Clone(sets)
		slices.SortStableFunc(sorted, func(a, b revision.Set) int {
			return stdcmp.Or(stdcmp.Compare(a.Rev.N, b.Rev.N), a.Created.Compare(b.Created), stdcmp.Compare(a.Name, b.Name))
		})
		var want []string
		for i := 0; i < len(sorted)-int(limit); i++ {
			if sorted[i].Idle {
				want = append(want, sorted[i].Name)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Prune() mismatch (-want +got):\n%s", diff)
		}
		shuffled := rapid.Permutation(sets).Draw(t, "shuffled")
		if diff := cmp.Diff(got, names(shuffled, revision.Prune(shuffled, limit))); diff != "" {
			t.Fatalf("Prune() depends on input order (-original +shuffled):\n%s", diff)
		}
	})
}

func TestRollbackProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		revs := rapid.SliceOf(genRev()).Draw(t, "revs")
		to := rapid.OneOf(rapid.Int64Range(-2, 10), rapid.Int64()).Draw(t, "to")
		before := slices.Clone(revs)
		index, target, err := revision.Rollback(revs, to)
		if !slices.Equal(before, revs) {
			t.Fatalf("Rollback modified revs")
		}
		wantTarget := to
		if to == 0 {
			wantTarget = revision.Last(revs)
		}
		if target != wantTarget {
			t.Fatalf("target = %d, want %d", target, wantTarget)
		}
		first := slices.IndexFunc(revs, func(r revision.Rev) bool { return r.Valid && r.N == target })
		switch {
		case to == 0 && target == 0:
			if err != revision.ErrNoPrevious || index != -1 {
				t.Fatalf("Rollback = %d, %v; want -1, ErrNoPrevious", index, err)
			}
		case first < 0:
			if err != revision.ErrNotFound || index != -1 {
				t.Fatalf("Rollback = %d, %v; want -1, ErrNotFound", index, err)
			}
		default:
			if err != nil || index != first || !revs[index].Valid || revs[index].N != target {
				t.Fatalf("Rollback = %d, %d, %v; want %d with revision %d", index, target, err, first, target)
			}
		}
	})
}

func TestParseRollbackToProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int64().Draw(t, "n")
		to, ok := revision.ParseRollbackTo(strconv.FormatInt(n, 10))
		if !ok || to != n {
			t.Fatalf("ParseRollbackTo(%d) = %d, %v", n, to, ok)
		}
	})
}

// upstreamSets is upstream's ReplicaSetsByRevision shape: sort.Sort over the
// elements themselves rather than over indices.
type upstreamSets []revision.Set

func (o upstreamSets) Len() int      { return len(o) }
func (o upstreamSets) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o upstreamSets) Less(i, j int) bool {
	if !o[i].Rev.Valid || !o[j].Rev.Valid || o[i].Rev.N == o[j].Rev.N {
		if o[i].Created.Equal(o[j].Created) {
			return o[i].Name < o[j].Name
		}
		return o[i].Created.Before(o[j].Created)
	}
	return o[i].Rev.N < o[j].Rev.N
}

// upstreamPrune is cleanupDeployment's selection on a sorted copy of sets,
// returning names.
func upstreamPrune(sets []revision.Set, limit int32) []string {
	c := upstreamSets(slices.Clone(sets))
	diff := len(c) - int(max(limit, 0))
	if diff <= 0 {
		return nil
	}
	sort.Sort(c)
	var out []string
	for _, s := range c[:diff] {
		if s.Idle {
			out = append(out, s.Name)
		}
	}
	return out
}
