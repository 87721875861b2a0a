package sim

import "testing"

// TestStepsAhead checks the room a jump reserves for the Result's steps:
// the periods until the first number that goes down reaches zero, less
// the jump's and its checking period's, times the steps of a period,
// plus a sixteenth; nothing when no number goes down or none is left;
// at most maxStepsAhead.
func TestStepsAhead(t *testing.T) {
	for _, tt := range []struct {
		name string
		nums []int64
		d    []int64
		m    int64
		p    int
		want int
	}{
		{"nothing goes down", []int64{5, 3000}, []int64{3_000_000_000, 10}, 5, 70, 0},
		// 1,000 left at 10 a period: 100 periods, 6 of them taken.
		{"an old ReplicaSet shrinks", []int64{9, 1000, 2000}, []int64{3, -10, 10}, 5, 70, 94*70 + 94*70/16},
		{"the first to reach zero decides", []int64{1000, 300}, []int64{-10, -10}, 5, 70, 24*70 + 24*70/16},
		{"negative numbers are not counts", []int64{-50, 1000}, []int64{-1, -10}, 5, 70, 94*70 + 94*70/16},
		{"none left", []int64{60}, []int64{-10}, 5, 70, 0},
		{"bounded", []int64{1 << 40}, []int64{-1}, 0, 70, maxStepsAhead},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := stepsAhead(tt.nums, tt.d, tt.m, tt.p); got != tt.want {
				t.Errorf("stepsAhead(%v, %v, %d, %d) = %d, want %d", tt.nums, tt.d, tt.m, tt.p, got, tt.want)
			}
		})
	}
}
