package sim

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBucket checks the client token bucket against what
// golang.org/x/time/rate grants for client-go's QPS and burst: a full
// bucket at the start, then one token every 1/QPS, reservations granted
// in the order they are made.
func TestBucket(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	for _, tt := range []struct {
		name       string
		qps        float64
		burst      int
		at         []time.Time // reservation times, in order
		wantGrants []time.Time
	}{
		{"burst of 3 at once, then 1 every 50ms (QPS 20)", 20, 3,
			[]time.Time{t0, t0, t0, t0, t0}, []time.Time{t0, t0, t0, ms(50), ms(100)}},
		{"the bucket refills while idle", 20, 2,
			[]time.Time{t0, t0, t0, ms(200), ms(200), ms(200)}, []time.Time{t0, t0, ms(50), ms(200), ms(200), ms(250)}},
		{"a refill never passes the burst", 10, 1,
			[]time.Time{t0, ms(5000), ms(5000)}, []time.Time{t0, ms(5000), ms(5100)}},
		{"a negative QPS is no limit", -1, 0,
			[]time.Time{t0, t0, t0}, []time.Time{t0, t0, t0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBucket(tt.qps, tt.burst)
			var got []time.Time
			for _, at := range tt.at {
				got = append(got, b.take(at))
			}
			if diff := cmp.Diff(tt.wantGrants, got); diff != "" {
				t.Errorf("take() grants mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBucketAllow checks the spam filter's use: a token if one is left,
// else none taken.
func TestBucketAllow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := newBucket(1.0/300, 25)
	for i := range 25 {
		if !b.allow(t0) {
			t.Fatalf("allow() #%d = false, want the burst of 25", i+1)
		}
	}
	if b.allow(t0) || b.allow(t0.Add(299*time.Second)) {
		t.Errorf("allow() = true past the burst, before 300s")
	}
	if !b.allow(t0.Add(300 * time.Second)) {
		t.Errorf("allow() at 300s = false, want one token refilled")
	}
}
