package check

import "testing"

// TestReplicaCounts: check simulates every count of a short range, and of
// a long one the first 32 and the rest spread evenly (96 more under the
// controllers model, 9,968 under the others), the last always among
// them, in increasing order.
func TestReplicaCounts(t *testing.T) {
	for _, tt := range []struct {
		lo, hi int32
		most   int
		want   int
	}{
		{2, 12, sampleCounts, 11},
		{2, 129, sampleCounts, 128},
		{2, 130, sampleCounts, 128},
		{2, 5000, sampleCounts, 128},
		{2, 5000, sampleCountsFast, 4999},
		{0, 2147483647, sampleCounts, 128},
		{0, 2147483647, sampleCountsFast, 10_000},
		{2147483600, 2147483647, sampleCounts, 48},
	} {
		got := replicaCounts(tt.lo, tt.hi, tt.most)
		if len(got) != tt.want || got[0] != tt.lo || got[len(got)-1] != tt.hi {
			t.Errorf("replicaCounts(%d, %d, %d): %d counts from %d to %d, want %d from %d to %d",
				tt.lo, tt.hi, tt.most, len(got), got[0], got[len(got)-1], tt.want, tt.lo, tt.hi)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Fatalf("replicaCounts(%d, %d, %d) not increasing at %d: %d, %d", tt.lo, tt.hi, tt.most, i, got[i-1], got[i])
			}
		}
		if n := min(len(got), 32); len(got) == tt.most && got[n-1] != tt.lo+int32(n)-1 {
			t.Errorf("replicaCounts(%d, %d): the first 32 are not every count: %v", tt.lo, tt.hi, got[:n])
		}
	}
}
