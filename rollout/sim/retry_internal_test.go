package sim

import (
	"testing"
	"time"
)

// TestRetryDelay pins the per-item backoff of client-go's default
// controller rate limiter: 5ms times 2 to the failures before, at most
// 1000s, without overflow however many failures.
func TestRetryDelay(t *testing.T) {
	for _, tt := range []struct {
		failures int
		want     time.Duration
	}{
		{0, 5 * time.Millisecond},
		{1, 10 * time.Millisecond},
		{4, 80 * time.Millisecond},
		{14, 81920 * time.Millisecond},
		{16, 327680 * time.Millisecond},
		{17, 655360 * time.Millisecond},
		{18, maxRetryDelay}, // 1310.72s, capped
		{30, maxRetryDelay},
		{31, maxRetryDelay},
		{1 << 30, maxRetryDelay},
	} {
		if got := retryDelay(tt.failures); got != tt.want {
			t.Errorf("retryDelay(%d) = %v, want %v", tt.failures, got, tt.want)
		}
	}
}

// TestAddRateLimited checks the work queue's side of a failed sync, step
// by step: every call counts a failure; the pending delayed add is the
// earliest asked for, a later one leaves it (and schedules nothing); and
// the overall bucket (10 a second, burst 100, shared by the ReplicaSets)
// delays the 101st retry of one instant by 100ms even where the
// per-item backoff is 5ms.
func TestAddRateLimited(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &runner{ctl: newCtlRun(Controllers{}, raceFIFO)}
	s := &setSync{}
	steps := []struct {
		name         string
		at           time.Duration
		wantFailures int
		wantRetry    time.Duration
		wantEvents   int
	}{
		{"first failure: 5ms", 0, 1, 5 * time.Millisecond, 1},
		{"second at once: 10ms, later than the pending add", 0, 2, 5 * time.Millisecond, 1},
		{"third at 1ms: 21ms, pending stays", time.Millisecond, 3, 5 * time.Millisecond, 1},
	}
	for _, st := range steps {
		r.addRateLimited("a", s, t0.Add(st.at))
		if s.failures != st.wantFailures || !s.retryPending || s.retryAt.Sub(t0) != st.wantRetry || len(r.ctl.events) != st.wantEvents {
			t.Fatalf("%s: failures %d, pending %v at %v, %d events; want %d, true at %v, %d events",
				st.name, s.failures, s.retryPending, s.retryAt.Sub(t0), len(r.ctl.events), st.wantFailures, st.wantRetry, st.wantEvents)
		}
	}
	// The pending add fires (handle's evSetWake clears it); a failure
	// then asks for 5ms << 3 = 40ms after it.
	s.retryPending = false
	r.addRateLimited("a", s, t0.Add(5*time.Millisecond))
	if want := 45 * time.Millisecond; s.retryAt.Sub(t0) != want || s.failures != 4 {
		t.Fatalf("after the add fired: retry at %v with %d failures, want %v with 4", s.retryAt.Sub(t0), s.failures, want)
	}

	// The overall bucket: 100 other ReplicaSets fail at one instant, then
	// one more, whose first failure would wait 5ms.
	r = &runner{ctl: newCtlRun(Controllers{}, raceFIFO)}
	at := t0.Add(time.Hour)
	for i := range 100 {
		o := &setSync{}
		r.addRateLimited(string(rune('a'+i%26))+string(rune('a'+i/26)), o, at)
		if d := o.retryAt.Sub(at); d != 5*time.Millisecond {
			t.Fatalf("retry %d within the burst at %v, want 5ms", i+1, d)
		}
	}
	last := &setSync{}
	r.addRateLimited("last", last, at)
	if d := last.retryAt.Sub(at); d != 100*time.Millisecond {
		t.Errorf("101st retry of an instant at %v, want 100ms (the bucket's next token)", d)
	}
}
