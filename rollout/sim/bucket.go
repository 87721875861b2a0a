package sim

import "time"

// A bucket is a client's token bucket as client-go builds it from QPS and
// burst (golang.org/x/time/rate under flowcontrol): full at the start,
// refilled at QPS tokens a second up to burst, and granting reservations in
// the order they are made. It is kept as the time at which the bucket
// would be full again had every reservation been granted (the "theoretical
// arrival time" of a generic cell rate algorithm), which gives the same
// grants as rate.Limiter's token count for reservations made in time
// order.
type bucket struct {
	unlimited bool
	interval  time.Duration // the time one token takes to refill: 1/QPS
	burst     int64
	tat       time.Time
}

// newBucket returns a bucket of qps and burst; a negative qps, as in
// client-go, means no limit. qps must not be 0 (see Controllers.limits).
func newBucket(qps float64, burst int) bucket {
	if qps < 0 {
		return bucket{unlimited: true}
	}
	return bucket{interval: time.Duration(float64(time.Second) / qps), burst: int64(burst)}
}

// take reserves one token at now and returns when it is granted: now while
// tokens are left, else when the reservations before it have used the
// refill.
func (b *bucket) take(now time.Time) time.Time {
	if b.unlimited {
		return now
	}
	if b.tat.Before(now) {
		b.tat = now
	}
	b.tat = b.tat.Add(b.interval)
	return later(b.tat.Add(-time.Duration(b.burst)*b.interval), now)
}

// allow takes a token at now if one is left, and reports whether it did:
// the non-blocking use of a bucket, as the event recorder's spam filter
// makes it.
func (b *bucket) allow(now time.Time) bool {
	if b.unlimited {
		return true
	}
	tat := b.tat
	if tat.Before(now) {
		tat = now
	}
	tat = tat.Add(b.interval)
	if tat.Add(-time.Duration(b.burst) * b.interval).After(now) {
		return false
	}
	b.tat = tat
	return true
}
