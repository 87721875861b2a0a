package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// A repeatable flag accumulates its values; every other flag may be given
// once (see once).
type repeatable interface{ repeatable() }

// once wraps a flag that takes one value, so that giving it twice is an
// error rather than the last value silently winning.
type once struct {
	flag.Value
	name  string
	given string // the first value, once given
}

// String is the value's; flag.PrintDefaults calls it on a zero once too.
func (o *once) String() string {
	if o == nil || o.Value == nil {
		return ""
	}
	return o.Value.String()
}

func (o *once) Set(s string) error {
	if o.given != "" {
		return fmt.Errorf("given twice (%q, then %q): it takes one value", o.given, s)
	}
	if err := o.Value.Set(s); err != nil {
		return err
	}
	o.given = s
	if s == "" {
		o.given = `""`
	}
	return nil
}

// onceBool is once for a boolean flag, which may be given without a value.
type onceBool struct{ once }

func (o *onceBool) IsBoolFlag() bool { return true }

// refuseRepeats wraps every flag of fs that is not repeatable in once.
func refuseRepeats(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(repeatable); ok {
			return
		}
		o := once{Value: f.Value, name: f.Name}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = &onceBool{o}
			return
		}
		f.Value = &o
	})
}

// unwrapOnce undoes refuseRepeats, so that flag.PrintDefaults sees each
// flag's own zero value.
func unwrapOnce(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		switch v := f.Value.(type) {
		case *once:
			f.Value = v.Value
		case *onceBool:
			f.Value = v.Value
		}
	})
}

// listFlag is a repeatable string flag.
type listFlag []string

func (*listFlag) repeatable()      {}
func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	if s == "" {
		return errors.New("empty value")
	}
	*l = append(*l, s)
	return nil
}

// versionFlag is a Kubernetes minor, as 1.36, that may be left unset.
type versionFlag struct {
	v   rollout.Version
	set bool
}

func (f *versionFlag) String() string {
	if !f.set {
		return ""
	}
	return f.v.String()
}

func (f *versionFlag) Set(s string) error {
	v, err := rollout.ParseVersion(s)
	if err != nil {
		return err
	}
	f.v, f.set = v.Resolve(), true
	return nil
}

// durationFlag is a duration that may be left unset, for the pod times
// that default to what the template says.
type durationFlag struct {
	v   time.Duration
	set bool
}

func (f *durationFlag) String() string {
	if !f.set {
		return ""
	}
	return f.v.String()
}

func (f *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("%s: must not be negative", s)
	}
	f.v, f.set = v, true
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
		return errors.New("must not be negative")
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

func (*hpaFlag) repeatable() {}

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
		return errors.New("want DURATION=REPLICAS, such as 1m=20")
	}
	after, err := time.ParseDuration(d)
	if err != nil || after < 0 {
		return fmt.Errorf("%q is not a duration such as 90s or 2m", d)
	}
	for _, c := range *f {
		if c.after == after {
			return fmt.Errorf("two changes at %s", after)
		}
	}
	r, err := parseReplicas(n)
	if err != nil {
		return err
	}
	*f = append(*f, hpaChange{after, r})
	return nil
}

// imageFlag is one --image [CONTAINER=]IMAGE.
type imageFlag struct {
	container, image string
}

func (f imageFlag) String() string {
	if f.container == "" {
		return f.image
	}
	return f.container + "=" + f.image
}

// imagesFlag is the repeatable --image: one image per container.
type imagesFlag []imageFlag

func (*imagesFlag) repeatable() {}

func (f *imagesFlag) String() string {
	var parts []string
	for _, i := range *f {
		parts = append(parts, i.String())
	}
	return strings.Join(parts, ",")
}

func (f *imagesFlag) Set(s string) error {
	var i imageFlag
	if c, img, ok := strings.Cut(s, "="); ok {
		if c == "" {
			return fmt.Errorf("%q names no container: want CONTAINER=IMAGE, or IMAGE for the first container", s)
		}
		i = imageFlag{c, img}
	} else {
		i.image = s
	}
	if i.image == "" || strings.ContainsAny(i.image, " \t") {
		return fmt.Errorf("%q is not an image", i.image)
	}
	for _, prev := range *f {
		if prev.container == i.container {
			which := "the first container"
			if i.container != "" {
				which = "container " + strconv.Quote(i.container)
			}
			return fmt.Errorf("two images for %s (%s and %s)", which, prev.image, i.image)
		}
	}
	*f = append(*f, i)
	return nil
}

// minAvailableFlag is --min-available N or P% (of the replicas, rounded
// up), at most 100%.
type minAvailableFlag struct{ valueFlag }

func (f *minAvailableFlag) Set(s string) error {
	if err := f.valueFlag.Set(s); err != nil {
		return err
	}
	if f.v.IsPercent() && f.v.Int() > 100 {
		f.set = false
		return fmt.Errorf("%s is more than all the replicas: at most 100%%", s)
	}
	return nil
}

// sizeFlag is a size in bytes: 1000000, 500KB, 256MiB, 1GiB.
type sizeFlag int64

func (f *sizeFlag) String() string { return formatSize(int64(*f)) }

func (f *sizeFlag) Set(s string) error {
	num := strings.TrimRight(s, "KMGTiB")
	unit := s[len(num):]
	mult := map[string]int64{"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if mult == 0 || err != nil || n <= 0 || n > math.MaxInt64/mult {
		return fmt.Errorf("%q is not a size such as 512MiB, 1GiB or 1000000", s)
	}
	*f = sizeFlag(n * mult)
	return nil
}

// formatSize prints n bytes in the largest binary unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return strconv.FormatInt(n, 10)
}
