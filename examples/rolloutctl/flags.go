package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/surge"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty value")
	}
	*l = append(*l, s)
	return nil
}

// valueFlag is a count or a percent ("2", "25%"), as maxSurge takes, that
// may be left unset.
type valueFlag struct {
	v   surge.Value
	set bool
}

func (f *valueFlag) String() string {
	if !f.set {
		return ""
	}
	return f.v.String()
}

func (f *valueFlag) Set(s string) error {
	v, err := surge.Parse(s)
	if err != nil {
		return fmt.Errorf("want a count such as 2 or a percent such as 25%%: %w", err)
	}
	if v.Int() < 0 {
		return fmt.Errorf("must not be negative")
	}
	f.v, f.set = v, true
	return nil
}

// replicasFlag is a replica count or an inclusive range "MIN..MAX".
type replicasFlag struct {
	min, max int32
	set      bool
}

func (f *replicasFlag) String() string {
	if !f.set {
		return ""
	}
	if f.min == f.max {
		return strconv.Itoa(int(f.min))
	}
	return fmt.Sprintf("%d..%d", f.min, f.max)
}

func (f *replicasFlag) Set(s string) error {
	lo, hi, isRange := strings.Cut(s, "..")
	if !isRange {
		hi = lo
	}
	a, err := parseReplicas(lo)
	if err != nil {
		return err
	}
	b, err := parseReplicas(hi)
	if err != nil {
		return err
	}
	if a > b {
		return fmt.Errorf("range %d..%d is empty: MIN must not exceed MAX", a, b)
	}
	f.min, f.max, f.set = a, b, true
	return nil
}

func parseReplicas(s string) (int32, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a replica count (0 to %d)", s, math.MaxInt32)
	}
	return int32(n), nil
}

// hpaChange is one --hpa D=N: at D after the start, set replicas to N.
type hpaChange struct {
	after    time.Duration
	replicas int32
}

// hpaFlag is the repeatable --hpa flag.
type hpaFlag []hpaChange

func (f *hpaFlag) String() string {
	var parts []string
	for _, c := range *f {
		parts = append(parts, fmt.Sprintf("%s=%d", c.after, c.replicas))
	}
	return strings.Join(parts, ",")
}

func (f *hpaFlag) Set(s string) error {
	d, n, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want DURATION=REPLICAS, such as 1m=20")
	}
	after, err := time.ParseDuration(d)
	if err != nil || after < 0 {
		return fmt.Errorf("%q is not a duration such as 90s or 2m", d)
	}
	r, err := parseReplicas(n)
	if err != nil {
		return err
	}
	*f = append(*f, hpaChange{after, r})
	return nil
}

// imageFlag is --image [CONTAINER=]IMAGE.
type imageFlag struct {
	container, image string
}

func (f *imageFlag) String() string {
	if f.container == "" {
		return f.image
	}
	return f.container + "=" + f.image
}

func (f *imageFlag) Set(s string) error {
	c, img, ok := strings.Cut(s, "=")
	if !ok {
		c, img = "", s
	}
	if img == "" || strings.ContainsAny(img, " \t") {
		return fmt.Errorf("%q is not an image", img)
	}
	f.container, f.image = c, img
	return nil
}

// minAvailableFlag is --min-available N or P% (of the replicas, rounded up).
type minAvailableFlag struct{ valueFlag }

// of returns the minimum for replicas: N, or ceil(P% of replicas).
func (f *minAvailableFlag) of(replicas int32) int32 {
	return f.v.ScaleUp(replicas)
}
