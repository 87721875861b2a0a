package proportion_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// genSets draws up to maxN sets with distinct names s0, s1, ..., creation
// times within a few seconds of each other (so that ties occur), and sizes
// and annotations from the given generators.
func genSets(replicas, maxReplicas *rapid.Generator[int32], maxN int) *rapid.Generator[[]proportion.Set] {
	base := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	return rapid.Custom(func(t *rapid.T) []proportion.Set {
		n := rapid.IntRange(0, maxN).Draw(t, "sets")
		sets := make([]proportion.Set, n)
		for i := range sets {
			sets[i] = proportion.Set{
				Name:        fmt.Sprintf("s%d", i),
				Created:     base.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "created (s)")) * time.Second),
				Replicas:    replicas.Draw(t, "replicas"),
				MaxReplicas: maxReplicas.Draw(t, "max-replicas"),
			}
		}
		return sets
	})
}

// anyInt32 draws an int32 over the whole range, with the edges common:
// within 4 of either bound in about 1 of 3 draws, -2..2 in about 1 of 6.
func anyInt32() *rapid.Generator[int32] {
	return rapid.OneOf(
		rapid.Int32(), rapid.Int32(), rapid.Int32Range(-2, 2),
		rapid.Int32Range(math.MaxInt32-4, math.MaxInt32), rapid.Int32Range(math.MinInt32, math.MinInt32+4),
	)
}

// anyInt64 draws an int64 over the whole range, with the edges common:
// within 4 of either bound or of either int32 bound in about 1 of 2
// draws, -2..2 in about 1 of 8.
func anyInt64() *rapid.Generator[int64] {
	return rapid.OneOf(
		rapid.Int64(), rapid.Int64(), rapid.Int64(), rapid.Int64Range(-2, 2),
		rapid.Int64Range(math.MaxInt64-4, math.MaxInt64), rapid.Int64Range(math.MinInt64, math.MinInt64+4),
		rapid.Int64Range(math.MaxInt32-4, math.MaxInt32+4), rapid.Int64Range(math.MinInt32-4, math.MinInt32+4),
	)
}

// genResize draws a Resize with every field over its whole range, the
// edges of int32 and int64 common (anyInt32, anyInt64).
func genResize() *rapid.Generator[proportion.Resize] {
	return rapid.Custom(func(t *rapid.T) proportion.Resize {
		return proportion.Resize{
			Replicas:       anyInt32().Draw(t, "r.Replicas"),
			MaxReplicas:    anyInt64().Draw(t, "r.MaxReplicas"),
			StatusReplicas: anyInt32().Draw(t, "r.StatusReplicas"),
		}
	})
}

// Domain bounds: sizes, annotations and maxima an API server can hold
// (non-negative), small enough that no int64 sum saturates.
const domainMax = 1 << 22

// genDomainSets draws sets with Replicas and MaxReplicas in [0, domainMax].
func genDomainSets(maxN int) *rapid.Generator[[]proportion.Set] {
	return genSets(rapid.Int32Range(0, domainMax), rapid.Int32Range(0, domainMax), maxN)
}

// genDomainResize draws a Resize with every field in [0, domainMax].
func genDomainResize() *rapid.Generator[proportion.Resize] {
	return rapid.Custom(func(t *rapid.T) proportion.Resize {
		return proportion.Resize{
			Replicas:       rapid.Int32Range(0, domainMax).Draw(t, "r.Replicas"),
			MaxReplicas:    rapid.Int64Range(0, domainMax).Draw(t, "r.MaxReplicas"),
			StatusReplicas: rapid.Int32Range(0, domainMax).Draw(t, "r.StatusReplicas"),
		}
	})
}

// bigFraction is Fraction computed with math/big: round half away from zero
// of the exact quotient, clamped to int64.
func bigFraction(s proportion.Set, r proportion.Resize) int64 {
	if r.Replicas == 0 {
		return -int64(s.Replicas)
	}
	d := int64(s.MaxReplicas)
	if d <= 0 {
		d = int64(r.StatusReplicas)
	}
	if d <= 0 {
		return 0
	}
	num := new(big.Int).Mul(big.NewInt(int64(s.Replicas)), big.NewInt(r.MaxReplicas))
	den := big.NewInt(d)
	q, m := new(big.Int).QuoRem(num, den, new(big.Int)) // truncated
	twice := new(big.Int).Lsh(new(big.Int).Abs(m), 1)
	if twice.Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(num.Sign()))) // away from zero
	}
	q.Sub(q, big.NewInt(int64(s.Replicas)))
	switch {
	case q.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return math.MaxInt64
	case q.Cmp(big.NewInt(math.MinInt64)) < 0:
		return math.MinInt64
	}
	return q.Int64()
}

// TestFractionProperties checks Fraction against math/big over anyInt32
// and anyInt64, whose reach TestFractionReach pins: sizes and maxima at
// the int32 and int64 bounds, products past 2^64 that still fit and ones
// that saturate come up in every run; and, within the range a Deployment
// can reach, that it is exact.
func TestFractionProperties(t *testing.T) {
	t.Run("matches math/big over the full range", rapid.MakeCheck(func(t *rapid.T) {
		s := proportion.Set{
			Replicas:    anyInt32().Draw(t, "s.Replicas"),
			MaxReplicas: anyInt32().Draw(t, "s.MaxReplicas"),
		}
		r := genResize().Draw(t, "r")
		if got, want := proportion.Fraction(s, r), bigFraction(s, r); got != want {
			t.Fatalf("Fraction(%+v, %+v) = %d, want %d", s, r, got, want)
		}
	}))
	t.Run("exact for int32 maxima", rapid.MakeCheck(func(t *rapid.T) {
		// Sizes >= 0 and maxima up to 2^32 (int32 replicas + int32 surge):
		// never saturates.
		s := proportion.Set{
			Replicas:    rapid.Int32Min(0).Draw(t, "s.Replicas"),
			MaxReplicas: rapid.Int32Min(1).Draw(t, "s.MaxReplicas"),
		}
		r := proportion.Resize{
			Replicas:    rapid.Int32Min(1).Draw(t, "r.Replicas"),
			MaxReplicas: rapid.Int64Range(0, 1<<32).Draw(t, "r.MaxReplicas"),
		}
		got := proportion.Fraction(s, r)
		if got == math.MaxInt64 || got == math.MinInt64 {
			t.Fatalf("Fraction(%+v, %+v) = %d saturated", s, r, got)
		}
		if want := bigFraction(s, r); got != want {
			t.Fatalf("Fraction(%+v, %+v) = %d, want %d", s, r, got, want)
		}
	}))
}

// TestProportionProperties checks Proportion against Fraction and the
// exact budget over the same draws, where toAdd - added leaves int64 in
// about 1 of 7 (TestFractionReach).
func TestProportionProperties(t *testing.T) {
	t.Run("within what is left", rapid.MakeCheck(func(t *rapid.T) {
		s := proportion.Set{
			Replicas:    anyInt32().Draw(t, "s.Replicas"),
			MaxReplicas: anyInt32().Draw(t, "s.MaxReplicas"),
		}
		r := genResize().Draw(t, "r")
		toAdd := anyInt64().Draw(t, "toAdd")
		added := anyInt64().Draw(t, "added")
		got := proportion.Proportion(s, r, toAdd, added)
		f := proportion.Fraction(s, r)
		// What is left, exactly, saturated at the int64 bounds.
		left := new(big.Int).Sub(big.NewInt(toAdd), big.NewInt(added))
		if left.Cmp(big.NewInt(math.MaxInt64)) > 0 {
			left.SetInt64(math.MaxInt64)
		} else if left.Cmp(big.NewInt(math.MinInt64)) < 0 {
			left.SetInt64(math.MinInt64)
		}
		switch l := left.Int64(); {
		case s.Replicas == 0 || toAdd == 0 || toAdd == added:
			if got != 0 {
				t.Fatalf("Proportion() = %d, want 0", got)
			}
		case toAdd > 0:
			if got != min(f, l) {
				t.Fatalf("Proportion() = %d, want min(%d, %d)", got, f, l)
			}
		default:
			if got != max(f, l) {
				t.Fatalf("Proportion() = %d, want max(%d, %d)", got, f, l)
			}
		}
	}))
}

// scalingCompare returns the order Distribute uses for r, or nil for the
// input order.
// It also returns toAdd, which is exact only when allowed - current does
// not overflow; the order itself is decided by comparison, which cannot.
func scalingCompare(sets []proportion.Set, r proportion.Resize) (func(a, b proportion.Set) int, int64) {
	a, c := allowed(r), current(sets)
	switch {
	case a > c:
		return proportion.CompareSizeNewer, a - c
	case a < c:
		return proportion.CompareSizeOlder, a - c
	}
	return nil, 0
}

func allowed(r proportion.Resize) int64 {
	if r.Replicas > 0 {
		return r.MaxReplicas
	}
	return 0
}

func current(sets []proportion.Set) int64 {
	var sum int64
	for _, s := range sets {
		sum += int64(s.Replicas)
	}
	return sum
}

func sum(changes []proportion.Change) int64 {
	var s int64
	for _, c := range changes {
		s += c.Replicas
	}
	return s
}

// TestDistributeProperties checks Distribute's invariants: over any sets
// and Resize (anyInt32, anyInt64: sizes, maxima and budgets at the int32
// and int64 bounds, where its sums saturate), one change per set in
// scaling order, none negative, whatever the input order; within the
// domain of an API server's objects (genDomainSets), the sums the package
// documentation states.
func TestDistributeProperties(t *testing.T) {
	t.Run("one change per set, in scaling order, none negative", rapid.MakeCheck(func(t *rapid.T) {
		sets := genSets(anyInt32(), anyInt32(), 12).Draw(t, "sets")
		r := genResize().Draw(t, "r")
		got := proportion.Distribute(sets, r)
		if len(got) != len(sets) {
			t.Fatalf("Distribute() returned %d changes for %d sets", len(got), len(sets))
		}
		seen := make([]bool, len(sets))
		for _, c := range got {
			if c.Index < 0 || c.Index >= len(sets) || seen[c.Index] {
				t.Fatalf("Distribute() = %v: index %d out of range or repeated", got, c.Index)
			}
			seen[c.Index] = true
			if c.Replicas < 0 {
				t.Fatalf("Distribute() = %v: negative size", got)
			}
		}
		compare, _ := scalingCompare(sets, r)
		for k := 1; k < len(got); k++ {
			prev, next := got[k-1].Index, got[k].Index
			if compare == nil && prev > next || compare != nil && compare(sets[prev], sets[next]) > 0 {
				t.Fatalf("Distribute() = %v: set %d before set %d is out of order", got, prev, next)
			}
		}
	}))

	t.Run("independent of the input order", rapid.MakeCheck(func(t *rapid.T) {
		sets := genSets(anyInt32(), anyInt32(), 12).Draw(t, "sets")
		perm := rapid.Permutation(sets).Draw(t, "permuted")
		r := genResize().Draw(t, "r")
		bySet := func(sets []proportion.Set) map[string]int64 {
			m := map[string]int64{}
			for _, c := range proportion.Distribute(sets, r) {
				m[sets[c.Index].Name] = c.Replicas
			}
			return m
		}
		if diff := cmp.Diff(bySet(sets), bySet(perm)); diff != "" {
			t.Fatalf("Distribute() mismatch between input orders (-original +permuted):\n%s", diff)
		}
	}))

	t.Run("sum is max(allowed, all but the first)", rapid.MakeCheck(func(t *rapid.T) {
		sets := genDomainSets(12).Draw(t, "sets")
		r := genDomainResize().Draw(t, "r")
		got := proportion.Distribute(sets, r)
		if len(got) == 0 {
			return
		}
		rest := sum(got[1:])
		want := max(allowed(r), rest)
		if s := sum(got); s != want {
			t.Fatalf("Distribute() = %v sums to %d, want max(allowed %d, rest %d)", got, s, allowed(r), rest)
		}
		if _, toAdd := scalingCompare(sets, r); toAdd >= 0 && sum(got) != allowed(r) {
			t.Fatalf("Distribute() = %v sums to %d, want allowed %d (toAdd %d >= 0)", got, sum(got), allowed(r), toAdd)
		}
	}))

	t.Run("sum is allowed for up to three sets within their denominators", rapid.MakeCheck(func(t *rapid.T) {
		sets := genSets(rapid.Int32Range(1, domainMax), rapid.Just(int32(0)), 3).Draw(t, "sets")
		cur := int32(current(sets))
		r := proportion.Resize{
			Replicas:       rapid.Int32Range(0, domainMax).Draw(t, "r.Replicas"),
			MaxReplicas:    rapid.Int64Range(0, domainMax).Draw(t, "r.MaxReplicas"),
			StatusReplicas: rapid.Int32Range(cur, cur+domainMax).Draw(t, "r.StatusReplicas"),
		}
		for i := range sets {
			// 0 (missing: the status, >= cur, is used) or at least cur.
			if rapid.Bool().Draw(t, "annotated") {
				sets[i].MaxReplicas = rapid.Int32Range(cur, cur+domainMax).Draw(t, "max-replicas")
			}
		}
		got := proportion.Distribute(sets, r)
		if len(got) > 0 && sum(got) != allowed(r) {
			t.Fatalf("Distribute() = %v sums to %d, want allowed %d", got, sum(got), allowed(r))
		}
	}))

	t.Run("only the first set is clamped", rapid.MakeCheck(func(t *rapid.T) {
		sets := genDomainSets(12).Draw(t, "sets")
		r := genDomainResize().Draw(t, "r")
		got := proportion.Distribute(sets, r)
		_, toAdd := scalingCompare(sets, r)
		var added int64
		for k, c := range got {
			s := sets[c.Index]
			p := proportion.Proportion(s, r, toAdd, added)
			added += p
			if k > 0 && c.Replicas != int64(s.Replicas)+p {
				t.Fatalf("Distribute() = %v: change %d is %d, want %d%+d unclamped", got, k, c.Replicas, s.Replicas, p)
			}
		}
		if len(got) > 0 {
			first := sets[got[0].Index]
			want := max(int64(first.Replicas)+proportion.Proportion(first, r, toAdd, 0)+toAdd-added, 0)
			if got[0].Replicas != want {
				t.Fatalf("Distribute() = %v: first is %d, want %d", got, got[0].Replicas, want)
			}
		}
	}))

	t.Run("scaling to zero gives zeros", rapid.MakeCheck(func(t *rapid.T) {
		sets := genSets(rapid.Int32Min(0), rapid.Int32(), 12).Draw(t, "sets")
		r := genResize().Draw(t, "r")
		r.Replicas = 0
		for _, c := range proportion.Distribute(sets, r) {
			if c.Replicas != 0 {
				t.Fatalf("Distribute(%v, %+v) gives %d to set %d, want 0", sets, r, c.Replicas, c.Index)
			}
		}
	}))

	t.Run("no change keeps sizes and input order", rapid.MakeCheck(func(t *rapid.T) {
		sets := genSets(rapid.Int32Min(1), rapid.Int32(), 12).Draw(t, "sets")
		r := proportion.Resize{
			Replicas:       rapid.Int32Min(1).Draw(t, "r.Replicas"),
			MaxReplicas:    current(sets),
			StatusReplicas: rapid.Int32().Draw(t, "r.StatusReplicas"),
		}
		var want []proportion.Change
		for i, s := range sets {
			want = append(want, proportion.Change{Index: i, Replicas: int64(s.Replicas)})
		}
		if diff := cmp.Diff(want, proportion.Distribute(sets, r)); diff != "" {
			t.Fatalf("Distribute() mismatch (-want +got):\n%s", diff)
		}
	}))
}

func TestCompareProperties(t *testing.T) {
	for _, c := range []struct {
		name    string
		compare func(a, b proportion.Set) int
	}{
		{"CompareSizeNewer", proportion.CompareSizeNewer},
		{"CompareSizeOlder", proportion.CompareSizeOlder},
	} {
		t.Run(c.name+" is a total order", rapid.MakeCheck(func(t *rapid.T) {
			gen := genSets(rapid.Int32Range(0, 3), rapid.Just(int32(0)), 3)
			sets := gen.Draw(t, "sets")
			if len(sets) < 3 {
				return
			}
			sets[1].Name = rapid.SampledFrom([]string{"s0", "s1"}).Draw(t, "name b")
			a, b, d := sets[0], sets[1], sets[2]
			sign := func(x int) int { return min(max(x, -1), 1) }
			if sign(c.compare(a, b)) != -sign(c.compare(b, a)) {
				t.Fatalf("%s not antisymmetric for %+v, %+v", c.name, a, b)
			}
			if (c.compare(a, b) == 0) != (a.Replicas == b.Replicas && a.Created.Equal(b.Created) && a.Name == b.Name) {
				t.Fatalf("%s(%+v, %+v) = %d", c.name, a, b, c.compare(a, b))
			}
			if c.compare(a, b) <= 0 && c.compare(b, d) <= 0 && c.compare(a, d) > 0 {
				t.Fatalf("%s not transitive for %+v, %+v, %+v", c.name, a, b, d)
			}
		}))
	}
}
