package realsim_test

import (
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

var (
	long   = flag.Bool("long", os.Getenv("REALSIM_LONG") != "", "run the full families (also REALSIM_LONG=1)")
	update = flag.Bool("update", false, "run the full families and write "+recordPath)
)

// recordPath is the main module's file of measurements.
const recordPath = "../../../testdata/realsim/" + realsim.Version + ".json"

const s = time.Second

// A family is cases that vary one thing.
type family struct {
	name  string
	cases []realsim.Case
}

// runs is how many times a case is run: 3 in the short set, 8 in the
// full families (the runs of 1,000 replicas vary by up to 8 s).
func runs(_ realsim.Case, full bool) int {
	if full {
		return 8
	}
	return 3
}

// families are the cases the recorded file holds (full) or the short set
// CI runs on every push (a few of each family, fewer runs).
func families(full bool) []family {
	pick := func(all []realsim.Case, short ...int) []realsim.Case {
		if full {
			return all
		}
		var out []realsim.Case
		for _, i := range short {
			out = append(out, all[i])
		}
		return out
	}
	var scale []realsim.Case
	for _, r := range []int32{1, 2, 3, 5, 10, 25, 50, 100, 250, 500, 1000, 2000} {
		scale = append(scale, realsim.Case{Name: fmt.Sprintf("scale/%d", r), Replicas: r, ReadyAfter: 5 * s})
	}
	type strategy struct {
		name           string
		recreate       bool
		surge, unavail string
	}
	strategies := []strategy{{"25%-25%", false, "25%", "25%"}, {"1-0", false, "1", "0"}, {"0-1", false, "0", "1"}, {"recreate", true, "", ""}}
	var strat []realsim.Case
	for _, r := range []int32{10, 100} {
		for _, st := range strategies {
			for _, ready := range []time.Duration{0, 5 * s} {
				strat = append(strat, realsim.Case{Name: fmt.Sprintf("strategy/%s/%d/ready-%v", st.name, r, ready),
					Replicas: r, Recreate: st.recreate, MaxSurge: st.surge, MaxUnavailable: st.unavail, ReadyAfter: ready})
			}
		}
	}
	var readiness []realsim.Case
	for _, r := range []int32{10, 100, 1000} {
		for _, ready := range []time.Duration{0, 1 * s, 5 * s, 15 * s, 30 * s, 60 * s} {
			readiness = append(readiness, realsim.Case{Name: fmt.Sprintf("readiness/%d/%v", r, ready), Replicas: r, ReadyAfter: ready})
		}
	}
	var minReady []realsim.Case
	for _, r := range []int32{10, 100} {
		for _, mr := range []int32{5, 10} {
			for _, ready := range []time.Duration{0, 5 * s} {
				minReady = append(minReady, realsim.Case{Name: fmt.Sprintf("minready/%d/%ds/ready-%v", r, mr, ready),
					Replicas: r, MinReadySeconds: mr, ReadyAfter: ready})
			}
		}
	}
	var term []realsim.Case
	for _, r := range []int32{10, 100} {
		for _, st := range []strategy{strategies[0], strategies[1], strategies[3]} {
			for _, tt := range []time.Duration{5 * s, 30 * s} {
				term = append(term, realsim.Case{Name: fmt.Sprintf("terminating/%s/%d/%v", st.name, r, tt),
					Replicas: r, Recreate: st.recreate, MaxSurge: st.surge, MaxUnavailable: st.unavail, ReadyAfter: 5 * s, Terminating: tt})
			}
		}
	}
	var quota []realsim.Case
	for _, q := range []struct {
		replicas, maxPods int32
		term              time.Duration
	}{{10, 10, 0}, {10, 11, 0}, {10, 12, 0}, {10, 13, 0}, {10, 12, 30 * s}, {100, 100, 0}, {100, 110, 0}, {100, 125, 0}, {100, 110, 30 * s}} {
		quota = append(quota, realsim.Case{Name: fmt.Sprintf("quota/%d/max-%d/terminating-%v", q.replicas, q.maxPods, q.term),
			Replicas: q.replicas, MaxPods: q.maxPods, ReadyAfter: 5 * s, Terminating: q.term})
	}
	var qps []realsim.Case
	for _, r := range []int32{100, 1000} {
		for _, l := range []struct {
			qps   float32
			burst int
		}{{5, 10}, {50, 100}, {-1, 0}} {
			qps = append(qps, realsim.Case{Name: fmt.Sprintf("qps/%d/%g-%d", r, l.qps, l.burst), Replicas: r, ReadyAfter: 5 * s, QPS: l.qps, Burst: l.burst})
		}
	}
	return []family{
		{"scale", pick(scale, 4, 7)},
		{"strategy", pick(strat, 0, 1, 3, 5, 7)},
		{"readiness", pick(readiness, 2, 8, 10)},
		{"minready", pick(minReady, 1)},
		{"terminating", pick(term, 1, 5)},
		{"quota", pick(quota, 1, 4)},
		{"qps", pick(qps, 2)},
	}
}

// runCase runs c n times and checks what must hold in every run.
func runCase(t *testing.T, c realsim.Case, n int) []realsim.Measurement {
	t.Helper()
	var ms []realsim.Measurement
	// A timeline costs a scan of the objects at every write: up to 100
	// replicas it is cheap, and checkMeasurement checks the sizes in it.
	c.Timeline = c.Replicas <= 100
	for range n {
		m, err := realsim.Run(t, c)
		if err != nil {
			t.Fatal(err)
		}
		checkMeasurement(t, c, m)
		ms = append(ms, m)
	}
	return ms
}

// checkMeasurement checks what the controllers guarantee whatever the
// order of their goroutines.
func checkMeasurement(t *testing.T, c realsim.Case, m realsim.Measurement) {
	t.Helper()
	if !m.Completed {
		// A quota's refusals are retried with the ReplicaSet controller's
		// per-item exponential backoff (kubernetes#98656), which can
		// outlast the progress deadline: the rollout has then failed as
		// kubectl rollout status reports it. Anything else must complete.
		if c.MaxPods == 0 || !m.DeadlineExceeded {
			t.Errorf("%s: did not complete: %+v", c.Name, m)
		}
		return
	}
	// Every new pod must become ready, and then available.
	if least := c.ReadyAfter + time.Duration(c.MinReadySeconds)*s; c.Replicas > 0 && m.Complete < least-time.Second {
		t.Errorf("%s: complete at %v, before a pod can be available (%v)", c.Name, m.Complete, least)
	}
	if m.LastChange < m.Complete {
		t.Errorf("%s: last change %v before completion %v", c.Name, m.LastChange, m.Complete)
	}
	if m.PeakPods < c.Replicas {
		t.Errorf("%s: peak %d pods, fewer than the %d replicas of the start", c.Name, m.PeakPods, c.Replicas)
	}
	if c.MaxPods > 0 && m.PeakPods > c.MaxPods {
		t.Errorf("%s: peak %d pods over the quota of %d", c.Name, m.PeakPods, c.MaxPods)
	}
	if m.MinAvailable > c.Replicas {
		t.Errorf("%s: fewest available %d, more than the replicas", c.Name, m.MinAvailable)
	}
	for i, sm := range m.Timeline {
		// maxSurge bounds the sum of the ReplicaSets' sizes; Recreate
		// never has both an old and a new ReplicaSet above zero.
		if c.Recreate && sm.OldSpec > 0 && sm.NewSpec > 0 {
			t.Errorf("%s: Recreate sample %d with old and new ReplicaSets scaled up: %+v", c.Name, i, sm)
		}
		if !c.Recreate && sm.OldSpec+sm.NewSpec > c.Replicas+maxSurge(c) {
			t.Errorf("%s: sample %d: sizes %d + %d over replicas + maxSurge = %d", c.Name, i, sm.OldSpec, sm.NewSpec, c.Replicas+maxSurge(c))
		}
	}
	if c.Recreate {
		// Recreate creates no new pod while an old one exists.
		if m.PeakPods != c.Replicas || m.MinAvailable != 0 {
			t.Errorf("%s: Recreate with peak %d and fewest available %d, want %d and 0", c.Name, m.PeakPods, m.MinAvailable, c.Replicas)
		}
		return
	}
	// The Deployment controller scales an old ReplicaSet down only as far
	// as maxUnavailable allows, by the pods it sees available.
	if floor := c.Replicas - maxUnavailable(c); m.MinAvailable < floor {
		t.Errorf("%s: fewest available %d, below replicas - maxUnavailable = %d", c.Name, m.MinAvailable, floor)
	}
}

// maxUnavailable and maxSurge resolve c's strategy as upstream does
// (maxSurge rounding up, maxUnavailable down, and maxUnavailable 1 when
// both are 0).
func maxUnavailable(c realsim.Case) int32 { _, u := limits(c); return u }

func maxSurge(c realsim.Case) int32 { s, _ := limits(c); return s }

func limits(c realsim.Case) (surge, unavail int32) {
	resolve := func(v string, up bool) int32 {
		var p int32
		if _, err := fmt.Sscanf(v, "%d%%", &p); err == nil && len(v) > 0 && v[len(v)-1] == '%' {
			x := int64(p) * int64(c.Replicas)
			if up {
				return int32((x + 99) / 100)
			}
			return int32(x / 100)
		}
		fmt.Sscanf(v, "%d", &p)
		return p
	}
	j := c.JSON()
	surge, unavail = resolve(j.MaxSurge, true), resolve(j.MaxUnavailable, false)
	if surge == 0 && unavail == 0 {
		unavail = 1
	}
	return surge, unavail
}

// TestFamilies runs the short set of cases (with -long or REALSIM_LONG=1,
// the full families), each several times, checks every run, logs each
// case's ranges, and holds the runs to the recorded file: each completion
// within max(0.6 s, 10%) of the recorded range, for the cases whose
// recorded runs all completed with no refusal (refused creations are
// retried after backoffs that vary by minutes).
func TestFamilies(t *testing.T) {
	start := time.Now()
	recorded := map[string]realsim.Record{}
	for _, r := range readRecord(t).Cases {
		recorded[r.Case.Name] = r
	}
	for _, f := range families(*long) {
		t.Run(f.name, func(t *testing.T) {
			for _, c := range f.cases {
				ms := runCase(t, c, runs(c, *long))
				r := realsim.Summarize(f.name, c, ms)
				t.Logf("%-40s complete %s s, last change %s s, peak %s, fewest available %s, refused %s",
					c.Name, r.CompleteSeconds, r.LastChangeSeconds, r.PeakPods, r.MinAvailable, r.Refused)
				rec, ok := recorded[c.Name]
				if !ok || rec.Completed != rec.Runs || rec.Refused.Max > 0 {
					continue
				}
				lo := rec.CompleteSeconds.Min - max(0.6, 0.1*rec.CompleteSeconds.Min)
				hi := rec.CompleteSeconds.Max + max(0.6, 0.1*rec.CompleteSeconds.Max)
				for _, m := range ms {
					if got := m.Complete.Seconds(); got < lo || got > hi {
						t.Errorf("%s: complete at %v, recorded %s s: the harness has changed; record again (TestRecord -update)", c.Name, m.Complete, rec.CompleteSeconds)
					}
				}
			}
		})
	}
	t.Logf("wall time %v", time.Since(start))
}
