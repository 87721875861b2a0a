package check

import "testing"

// TestReplicaCounts: check simulates every count of a short range, and of
// a long one under the controllers model the first 32 and 96 more spread
// evenly, the last always among them, in increasing order.
func TestReplicaCounts(t *testing.T) {
	for _, tt := range []struct {
		lo, hi int32
		sample bool
		want   int
	}{
		{2, 12, true, 11},
		{2, 129, true, 128},
		{2, 130, true, 128},
		{2, 5000, true, 128},
		{2, 5000, false, 4999},
		{0, 2147483647, true, 128},
		{2147483600, 2147483647, true, 48},
	} {
		got := replicaCounts(tt.lo, tt.hi, tt.sample)
		if len(got) != tt.want || got[0] != tt.lo || got[len(got)-1] != tt.hi {
			t.Errorf("replicaCounts(%d, %d, %v): %d counts from %d to %d, want %d from %d to %d",
				tt.lo, tt.hi, tt.sample, len(got), got[0], got[len(got)-1], tt.want, tt.lo, tt.hi)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Fatalf("replicaCounts(%d, %d, %v) not increasing at %d: %d, %d", tt.lo, tt.hi, tt.sample, i, got[i-1], got[i])
			}
		}
		if n := min(len(got), 32); tt.sample && len(got) == 128 && got[n-1] != tt.lo+int32(n)-1 {
			t.Errorf("replicaCounts(%d, %d): the first 32 are not every count: %v", tt.lo, tt.hi, got[:n])
		}
	}
}
