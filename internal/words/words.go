// Package words holds the few ways of putting numbers and names into
// words that the gate (rollout/check) and the command (rolloutctl) share,
// so that a finding and a table say a duration or a Deployment alike.
package words

import (
	"fmt"
	"strings"
	"time"
)

// Duration prints d compactly: 0s, 45s, 2m30s, 1h0m5s, 3d4h, rounded to the
// millisecond.
func Duration(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d == 0:
		return "0s"
	case d < 0:
		return "-" + Duration(-d)
	case d >= 2*day:
		s := fmt.Sprintf("%dd", d/day)
		if rest := d % day; rest > 0 {
			s += Duration(rest)
		}
		return s
	}
	s := d.Round(time.Millisecond).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Plural returns "1 sync" or "n syncs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
