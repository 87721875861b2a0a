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

// Counts words replica counts, given in increasing order, as "3", "2..4"
// or "1, 3..5, 9": each run of consecutive counts as its first and last.
func Counts(counts []int32) string {
	var parts []string
	for i := 0; i < len(counts); {
		j := i
		for j+1 < len(counts) && counts[j+1] == counts[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, fmt.Sprint(counts[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d..%d", counts[i], counts[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
