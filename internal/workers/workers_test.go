package workers

import (
	"slices"
	"sync/atomic"
	"testing"
)

// TestEachCallsEveryIndexOnce: every index in 0..n-1 is called exactly
// once, whatever the number of workers (none, one, fewer or more than n).
func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100} {
		for _, w := range []int{-1, 0, 1, 2, 3, 200} {
			calls := make([]atomic.Int32, n)
			Each(n, w, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Errorf("n %d workers %d: index %d called %d times", n, w, i, c)
				}
			}
		}
	}
}

// TestInOrderEmitsInIndexOrder: the results come out in index order,
// each computed once, whatever the workers, and emit returning false
// stops the emission at once.
func TestInOrderEmitsInIndexOrder(t *testing.T) {
	for _, n := range []int64{0, 1, 31, 32, 33, 1000} {
		for _, w := range []int{1, 2, 8} {
			var got []int64
			InOrder(n, w, func(i int64) int64 { return i * i }, func(i, r int64) bool {
				if r != i*i {
					t.Errorf("n %d workers %d: result %d for index %d", n, w, r, i)
				}
				got = append(got, i)
				return true
			})
			want := make([]int64, n)
			for i := range want {
				want[i] = int64(i)
			}
			if !slices.Equal(got, want) {
				t.Errorf("n %d workers %d: emitted %v", n, w, got)
			}
		}
	}
	var emitted int
	InOrder(1000, 2, func(i int64) int64 { return i }, func(i, _ int64) bool { emitted++; return i < 9 })
	if emitted != 10 {
		t.Errorf("emit returned false at index 9, yet %d results were emitted", emitted)
	}
}
