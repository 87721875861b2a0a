package check

import (
	"fmt"
	"strings"
	"time"
)

// lines returns the lines of err's message (errors.Join puts one error on
// each), none for nil.
func lines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
}

// fmtDuration prints d compactly: 0s, 45s, 2m30s, 1h5s, 3d4h.
func fmtDuration(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d == 0:
		return "0s"
	case d < 0:
		return "-" + fmtDuration(-d)
	case d >= 2*day:
		s := fmt.Sprintf("%dd", d/day)
		if rest := d % day; rest > 0 {
			s += fmtDuration(rest)
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

// plural returns "1 sync" or "n syncs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
