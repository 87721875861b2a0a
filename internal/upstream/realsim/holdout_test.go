package realsim_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// holdoutSeed draws the held-out sample; it was fixed before any case was
// run and is not to be changed to pick other cases.
const holdoutSeed = 20261128

// Flags of TestHoldout: another seed draws another sample (rollout/sim's
// holdout table is holdoutSeed's), and more runs a case measure its race
// further.
var (
	holdoutSeedFlag = flag.Uint64("holdout-seed", holdoutSeed, "TestHoldout: the seed of the sample to draw")
	holdoutRunsFlag = flag.Int("holdout-runs", holdoutRuns, "TestHoldout: runs of each case")
)

// holdoutCases is how many cases the held-out sample has.
const holdoutCases = 30

// holdoutRuns is how many times each case is run: the whole sample takes
// about a minute of wall time on two shared cores (the slowest case, 490
// replicas ready after 45.5 s with pods terminating for 30 s, 26 s), so
// no case needs fewer.
const holdoutRuns = 5

// holdoutMaxEstimate is the longest rollout a draw may take by
// holdoutEstimate: longer ones are drawn again, so that every run can
// complete within the harness's DefaultMaxTime.
const holdoutMaxEstimate = 20 * time.Minute

// A holdoutDraw is one case of the held-out sample, with how many times to
// run it.
type holdoutDraw struct {
	c    realsim.Case
	runs int
}

// holdoutSample draws holdoutCases cases, each to be run runs times, from
// rand seeded with seed, across the families of issue 23, and reports how
// many draws it refused (the API server refuses maxSurge and
// maxUnavailable both 0) and how many it drew again as too long to
// measure (holdoutEstimate over holdoutMaxEstimate):
//   - replicas log-uniform over 1 to 300 (in 5 of 6 draws) or 300 to
//     1,000;
//   - Recreate in 1 of 10 draws; otherwise maxSurge and maxUnavailable
//     each a count (1 to half the replicas; 1 below 4 replicas) or a
//     percentage (0 to 100), in 1 of 5 draws one of them (either) 0 or 0%;
//   - pods ready at once in 3 of 10 draws, otherwise after 0.1 to 60 s (in
//     steps of 0.1 s);
//   - minReadySeconds 0 in 3 of 4 draws, otherwise 1 to 10;
//   - pods terminating 0, 5 or 30 s, each in 1 of 3 draws;
//   - a pod quota in 3 of 20 draws: replicas plus 0 to maxSurge (resolved);
//   - the controllers' client limits: kube-controller-manager's (20 QPS,
//     burst 30) in 4 of 5 draws, otherwise 5 QPS burst 10, 50 QPS burst 100
//     or no limit, each alike.
func holdoutSample(seed uint64, runs int) (draws []holdoutDraw, refused, tooLong int) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	logUniform := func(lo, hi float64) int32 {
		return int32(math.Round(math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))))
	}
	for len(draws) < holdoutCases {
		c := realsim.Case{}
		if rng.IntN(6) < 5 {
			c.Replicas = logUniform(1, 300)
		} else {
			c.Replicas = logUniform(300, 1000)
		}
		c.Recreate = rng.IntN(10) == 0
		if !c.Recreate {
			value := func() string {
				if rng.IntN(2) == 0 {
					return fmt.Sprintf("%d%%", rng.IntN(101))
				}
				return fmt.Sprint(1 + rng.IntN(max(1, int(c.Replicas)/2)))
			}
			c.MaxSurge, c.MaxUnavailable = value(), value()
			if rng.IntN(5) == 0 {
				zero := "0"
				if rng.IntN(2) == 0 {
					zero = "0%"
				}
				if rng.IntN(2) == 0 {
					c.MaxSurge = zero
				} else {
					c.MaxUnavailable = zero
				}
			}
		}
		if rng.IntN(10) >= 3 {
			c.ReadyAfter = time.Duration(1+rng.IntN(600)) * 100 * time.Millisecond
		}
		if rng.IntN(4) == 0 {
			c.MinReadySeconds = int32(1 + rng.IntN(10))
		}
		c.Terminating = []time.Duration{0, 5 * s, 30 * s}[rng.IntN(3)]
		if rng.IntN(20) < 3 {
			surge := int32(0)
			if !c.Recreate {
				surge = maxSurge(c)
			}
			c.MaxPods = c.Replicas + int32(rng.IntN(int(surge)+1))
		}
		if rng.IntN(5) == 0 {
			l := []struct {
				qps   float32
				burst int
			}{{5, 10}, {50, 100}, {-1, 0}}[rng.IntN(3)]
			c.QPS, c.Burst = l.qps, l.burst
		}
		if !c.Recreate && percentOrCount(c.MaxSurge) == 0 && percentOrCount(c.MaxUnavailable) == 0 {
			refused++
			continue
		}
		if holdoutEstimate(c) > holdoutMaxEstimate {
			tooLong++
			continue
		}
		c.Name = holdoutName(len(draws), c)
		draws = append(draws, holdoutDraw{c, runs})
	}
	return draws, refused, tooLong
}

// percentOrCount is the number of a count or a percentage, as the API
// server's validation reads it.
func percentOrCount(v string) int {
	var n int
	fmt.Sscanf(strings.TrimSuffix(v, "%"), "%d", &n)
	return n
}

// holdoutEstimate is a rough length of c's rollout: its steps (replicas
// over maxSurge + maxUnavailable, one for Recreate), each as long as a
// pod takes to become available plus a second, and the pod writes (two a
// replica) at the client's rate.
func holdoutEstimate(c realsim.Case) time.Duration {
	steps := int32(1)
	if !c.Recreate {
		surge, unavail := limits(c)
		steps = (c.Replicas + surge + unavail - 1) / (surge + unavail)
	}
	per := c.ReadyAfter + time.Duration(c.MinReadySeconds)*s + s
	qps := float64(c.QPS)
	if qps == 0 {
		qps = realsim.DefaultQPS
	}
	writes := time.Duration(0)
	if qps > 0 {
		writes = time.Duration(float64(2*c.Replicas) / qps * float64(time.Second))
	}
	return time.Duration(steps)*per + writes + c.Terminating
}

// holdoutName names the i-th case of the sample by what it varies.
func holdoutName(i int, c realsim.Case) string {
	var b strings.Builder
	fmt.Fprintf(&b, "holdout/%02d/%d", i, c.Replicas)
	if c.Recreate {
		b.WriteString("/recreate")
	} else {
		fmt.Fprintf(&b, "/%s-%s", c.MaxSurge, c.MaxUnavailable)
	}
	fmt.Fprintf(&b, "/ready-%v", c.ReadyAfter)
	if c.MinReadySeconds > 0 {
		fmt.Fprintf(&b, "/minready-%d", c.MinReadySeconds)
	}
	if c.Terminating > 0 {
		fmt.Fprintf(&b, "/terminating-%v", c.Terminating)
	}
	if c.MaxPods > 0 {
		fmt.Fprintf(&b, "/max-%d", c.MaxPods)
	}
	if c.QPS != 0 {
		fmt.Fprintf(&b, "/qps-%g-%d", c.QPS, c.Burst)
	}
	return b.String()
}

// TestHoldoutSample pins the draw: the same seed gives the same cases,
// within the ranges holdoutSample documents, each one the API server
// accepts (maxSurge and maxUnavailable not both 0, percentages up to
// 100%) and short enough to measure. (TestHoldout runs them and the
// model, which fail on a case either rejects.)
func TestHoldoutSample(t *testing.T) {
	a, refused, tooLong := holdoutSample(holdoutSeed, holdoutRuns)
	b, _, _ := holdoutSample(holdoutSeed, holdoutRuns)
	if len(a) != holdoutCases {
		t.Fatalf("%d cases, want %d", len(a), holdoutCases)
	}
	names := map[string]bool{}
	for i, d := range a {
		c := d.c
		if d != b[i] {
			t.Errorf("case %d drawn as %+v, then as %+v", i, d, b[i])
		}
		if names[c.Name] {
			t.Errorf("case %d: name %q drawn twice", i, c.Name)
		}
		names[c.Name] = true
		if c.Replicas < 1 || c.Replicas > 1000 {
			t.Errorf("%s: %d replicas, want 1 to 1000", c.Name, c.Replicas)
		}
		if !c.Recreate {
			for _, v := range []string{c.MaxSurge, c.MaxUnavailable} {
				if n := percentOrCount(v); n < 0 || strings.HasSuffix(v, "%") && n > 100 {
					t.Errorf("%s: %q out of range", c.Name, v)
				}
			}
			if percentOrCount(c.MaxSurge) == 0 && percentOrCount(c.MaxUnavailable) == 0 {
				t.Errorf("%s: maxSurge and maxUnavailable both 0", c.Name)
			}
		}
		if c.MaxPods != 0 && (c.MaxPods < c.Replicas || c.MaxPods > c.Replicas+maxSurge(c)) {
			t.Errorf("%s: quota %d outside replicas to replicas + maxSurge", c.Name, c.MaxPods)
		}
		if c.ReadyAfter > time.Minute || c.MinReadySeconds > 10 || holdoutEstimate(c) > holdoutMaxEstimate {
			t.Errorf("%s: readiness %v, minReadySeconds %d, about %v", c.Name, c.ReadyAfter, c.MinReadySeconds, holdoutEstimate(c))
		}
	}
	t.Logf("seed %d: %d cases, %d draws refused (maxSurge and maxUnavailable 0), %d drawn again as too long", holdoutSeed, len(a), refused, tooLong)
	for _, d := range a {
		t.Logf("%s (%d runs, about %v)", d.c.Name, d.runs, holdoutEstimate(d.c).Round(time.Second))
	}
}

// holdoutFigCase is c as realfig describes it.
func holdoutFigCase(c realsim.Case) realfig.Case {
	j := c.JSON()
	return realfig.Case{
		Name: j.Name, Replicas: j.Replicas, Recreate: j.Recreate,
		MaxSurge: j.MaxSurge, MaxUnavailable: j.MaxUnavailable,
		MinReadySeconds: j.MinReadySeconds, ReadyAfterSeconds: j.ReadyAfterSeconds,
		TerminatingSeconds: j.TerminatingSeconds, MaxPods: j.MaxPods,
		QPS: float64(j.QPS), Burst: j.Burst,
	}
}

// TestHoldout (with -long or REALSIM_LONG=1) runs the held-out sample
// (holdoutSample with holdoutSeed, or -holdout-seed) on the real
// controllers, holdoutRuns (or -holdout-runs) runs a case, one subtest a
// case, checks every run as the families' runs are checked, and logs each
// case's real ranges as a row of rollout/sim's holdout table, with the
// misses realfig.Judge finds in the model's figures for it, then how many
// cases are within the rule on each figure.
func TestHoldout(t *testing.T) {
	if !*long {
		t.Skip("with -long or REALSIM_LONG=1: 30 drawn cases, 5 runs each")
	}
	draws, _, _ := holdoutSample(*holdoutSeedFlag, *holdoutRunsFlag)
	var hits struct{ complete, peak, minAv, all, bounds int }
	for _, d := range draws {
		t.Run(d.c.Name, func(t *testing.T) {
			start := time.Now()
			var ms []realsim.Measurement
			for range d.runs {
				m, err := realsim.Run(t, d.c)
				if err != nil {
					t.Fatal(err)
				}
				checkMeasurement(t, d.c, m)
				t.Logf("run: completed %v at %v, deadline exceeded %v, peak %d, fewest available %d, refused %d, conflicts %v",
					m.Completed, m.Complete, m.DeadlineExceeded, m.PeakPods, m.MinAvailable, m.Refused, m.Conflicts)
				ms = append(ms, m)
			}
			r := realsim.Summarize("holdout", d.c, ms)
			fc := holdoutFigCase(d.c)
			f, err := realfig.Simulate(fc)
			if err != nil {
				t.Fatal(err)
			}
			rec := realfig.Record{Case: fc, Runs: r.Runs, Completed: r.Completed,
				CompleteSeconds: realfig.Range(r.CompleteSeconds), PeakPods: realfig.Range(r.PeakPods), MinAvailable: realfig.Range(r.MinAvailable)}
			misses := realfig.Judge(rec, f)
			t.Logf("ROW %s", holdoutRow(fc, r, misses))
			hits.all += b2i(len(misses) == 0)
			hits.complete += b2i(!slices.ContainsFunc(misses, func(m string) bool { return strings.HasPrefix(m, "completes") || strings.HasPrefix(m, "does not") }))
			hits.peak += b2i(!slices.ContainsFunc(misses, func(m string) bool { return strings.HasPrefix(m, "peak") }))
			hits.minAv += b2i(!slices.ContainsFunc(misses, func(m string) bool { return strings.HasPrefix(m, "fewest") }))
			hits.bounds += b2i(len(realfig.Bounds(rec, f)) == 0)
			t.Logf("model: completed %v at %v, peak %d (high %d), fewest available %d (high %d); bounds %q; wall %v",
				f.Completed, f.Complete, f.PeakPods, f.PeakPodsHigh, f.MinAvailable, f.MinAvailableHigh, realfig.Bounds(rec, f), time.Since(start).Round(time.Millisecond))
		})
	}
	t.Logf("within the rule, of %d cases: completion %d, peak %d, fewest available %d, all three %d; realfig.Bounds holds on %d",
		len(draws), hits.complete, hits.peak, hits.minAv, hits.all, hits.bounds)
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// holdoutRow is the Go table row of rollout/sim's holdout table for c.
func holdoutRow(c realfig.Case, r realsim.Record, misses []string) string {
	rng := func(x realsim.Range) string {
		return fmt.Sprintf("realfig.Range{Min: %g, Median: %g, Max: %g}", x.Min, x.Median, x.Max)
	}
	m := "nil"
	if len(misses) > 0 {
		m = fmt.Sprintf("%#v", misses)
	}
	return fmt.Sprintf("{realfig.Case{Name: %q, Replicas: %d, Recreate: %v, MaxSurge: %q, MaxUnavailable: %q, MinReadySeconds: %d, ReadyAfterSeconds: %g, TerminatingSeconds: %g, MaxPods: %d, QPS: %g, Burst: %d}, %d, %d, %d, %s, %s, %s, %s},",
		c.Name, c.Replicas, c.Recreate, c.MaxSurge, c.MaxUnavailable, c.MinReadySeconds, c.ReadyAfterSeconds, c.TerminatingSeconds, c.MaxPods, c.QPS, c.Burst,
		r.Runs, r.Completed, r.DeadlineExceeded, rng(r.CompleteSeconds), rng(r.PeakPods), rng(r.MinAvailable), m)
}
