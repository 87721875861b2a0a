package realsim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestRaceTrace (with -long or REALSIM_LONG=1) runs shapes where the
// first writes of a step race (pods ready at once, a large step; maxSurge
// or maxUnavailable 0) with the request log on, and logs for each run
// where its fewest available and its peak were reached: the requests of
// the instant, and the new pods created and old ones deleted since the
// Deployment controller's last write to a ReplicaSet before it. With
// REALSIM_TRACE_DIR set it writes each run's whole log (events aside)
// there, one file per run (realsim README, "Races at the floor and the
// peak").
func TestRaceTrace(t *testing.T) {
	if !*long {
		t.Skip("with -long or REALSIM_LONG=1")
	}
	cases := traceCases
	if only := os.Getenv("REALSIM_TRACE_ONLY"); only != "" {
		cases = nil
		for _, c := range traceCases {
			if strings.Contains(c.Name, only) {
				cases = append(cases, c)
			}
		}
	}
	runs := 3
	if n := os.Getenv("REALSIM_TRACE_RUNS"); n != "" {
		fmt.Sscan(n, &runs)
	}
	dir := os.Getenv("REALSIM_TRACE_DIR")
	for _, c := range cases {
		c.Requests = true
		for i := range runs {
			m, err := realsim.Run(t, c)
			if err != nil {
				t.Fatal(err)
			}
			checkMeasurement(t, c, m)
			t.Logf("%s run %d: complete %v, peak %d, fewest available %d\n%s", c.Name, i, m.Complete, m.PeakPods, m.MinAvailable, traceSummary(m))
			if dir != "" {
				name := strings.ReplaceAll(c.Name, "/", "_") + fmt.Sprintf("_%d.txt", i)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(formatLog(m.Requests)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// traceCases are shapes drawn for the trace, none of them a held-out row.
var traceCases = []realsim.Case{
	{Name: "trace/300/30%-40%", Replicas: 300, MaxSurge: "30%", MaxUnavailable: "40%"},
	{Name: "trace/60/70%-20%/terminating-5s", Replicas: 60, MaxSurge: "70%", MaxUnavailable: "20%", Terminating: 5 * time.Second},
	{Name: "trace/150/10-50%", Replicas: 150, MaxSurge: "10", MaxUnavailable: "50%"},
	{Name: "trace/12/90%-3", Replicas: 12, MaxSurge: "90%", MaxUnavailable: "3"},
	{Name: "trace/250/0-70%", Replicas: 250, MaxSurge: "0", MaxUnavailable: "70%"},
	{Name: "trace/120/40%-0", Replicas: 120, MaxSurge: "40%", MaxUnavailable: "0"},
	{Name: "trace/50/7-0", Replicas: 50, MaxSurge: "7", MaxUnavailable: "0"},
	{Name: "trace/10/25%-25%", Replicas: 10},
	{Name: "trace/2/1-1/terminating-5s", Replicas: 2, MaxSurge: "1", MaxUnavailable: "1", Terminating: 5 * time.Second},
	{Name: "trace/30/2-3", Replicas: 30, MaxSurge: "2", MaxUnavailable: "3"},
	{Name: "trace/8/1-3", Replicas: 8, MaxSurge: "1", MaxUnavailable: "3"},
	{Name: "trace/14/60%-4", Replicas: 14, MaxSurge: "60%", MaxUnavailable: "4"},
	// Drawn after rollout/sim's holdsDeletions, to check it.
	{Name: "check/90/12-0", Replicas: 90, MaxSurge: "12", MaxUnavailable: "0"},
	{Name: "check/200/15%-0/ready-2s", Replicas: 200, MaxSurge: "15%", MaxUnavailable: "0", ReadyAfter: 2 * time.Second},
	{Name: "check/40/6-0/minready-3", Replicas: 40, MaxSurge: "6", MaxUnavailable: "0", MinReadySeconds: 3},
	{Name: "check/25/30%-0/terminating-5s", Replicas: 25, MaxSurge: "30%", MaxUnavailable: "0", Terminating: 5 * time.Second},
	// Drawn for the peaks below every real run (maxSurge 0, and
	// maxUnavailable 0 with pods slow to become ready), none a held-out row.
	{Name: "peak/400/0-45", Replicas: 400, MaxSurge: "0", MaxUnavailable: "45"},
	{Name: "peak/300/0-80%/ready-30s", Replicas: 300, MaxSurge: "0", MaxUnavailable: "80%", ReadyAfter: 30 * time.Second},
	{Name: "peak/60/0-20/ready-10s", Replicas: 60, MaxSurge: "0", MaxUnavailable: "20", ReadyAfter: 10 * time.Second},
	{Name: "peak/400/50%-0%/ready-40s/terminating-5s", Replicas: 400, MaxSurge: "50%", MaxUnavailable: "0%", ReadyAfter: 40 * time.Second, Terminating: 5 * time.Second},
	{Name: "peak/50/2-2/ready-1s/minready-2", Replicas: 50, MaxSurge: "2", MaxUnavailable: "2", ReadyAfter: time.Second, MinReadySeconds: 2},
	{Name: "peak/1000/25%-25%/ready-60s", Replicas: 1000, ReadyAfter: 60 * time.Second},
	// Drawn after rollout/sim's burstLeads (the whole burst ahead from
	// 300 replicas), to check it.
	{Name: "burst/350/30%-10%/ready-10s", Replicas: 350, MaxSurge: "30%", MaxUnavailable: "10%", ReadyAfter: 10 * time.Second},
	{Name: "burst/600/2-3%", Replicas: 600, MaxSurge: "2", MaxUnavailable: "3%"},
	{Name: "burst/800/25%-25%/ready-20s/minready-3", Replicas: 800, ReadyAfter: 20 * time.Second, MinReadySeconds: 3},
	{Name: "burst/320/10%-0/ready-5s", Replicas: 320, MaxSurge: "10%", MaxUnavailable: "0", ReadyAfter: 5 * time.Second},
	// Drawn after rollout/sim's notePodRace counted two creations ahead
	// where more than one pod goes at their instant, to check it.
	{Name: "two/45/2-3/ready-1s/minready-2", Replicas: 45, MaxSurge: "2", MaxUnavailable: "3", ReadyAfter: time.Second, MinReadySeconds: 2},
	{Name: "two/35/3-3/ready-2s", Replicas: 35, MaxSurge: "3", MaxUnavailable: "3", ReadyAfter: 2 * time.Second},
	{Name: "two/70/4-2/ready-1s/minready-1", Replicas: 70, MaxSurge: "4", MaxUnavailable: "2", ReadyAfter: time.Second, MinReadySeconds: 1},
}

// formatLog is one line per request, events aside.
func formatLog(log []realsim.Request) string {
	var b strings.Builder
	for _, r := range log {
		if r.Resource == "events" {
			continue
		}
		fmt.Fprintf(&b, "%9.3f %-10s %-6s %-19s %-22s pods %4d avail %4d %s %s\n",
			r.At.Seconds(), r.Who, r.Verb, r.Resource, r.Name, r.Pods, r.Available, r.Detail, r.Err)
	}
	return b.String()
}

// traceSummary tells, for the first request at the fewest available and
// the first at the peak, what led to it since the Deployment controller's
// last ReplicaSet write before it.
func traceSummary(m realsim.Measurement) string {
	var b strings.Builder
	for _, w := range []struct {
		what string
		at   func(realsim.Request) bool
	}{
		{"fewest available", func(r realsim.Request) bool { return r.Available == m.MinAvailable }},
		{"peak", func(r realsim.Request) bool { return r.Pods == m.PeakPods }},
	} {
		at := -1
		for i, r := range m.Requests {
			if w.at(r) {
				at = i
				break
			}
		}
		if at < 0 {
			fmt.Fprintf(&b, "  %s: at the change\n", w.what)
			continue
		}
		from := 0
		for i := at; i >= 0; i-- {
			r := m.Requests[i]
			if r.Who == "deployment" && strings.HasPrefix(r.Resource, "replicasets") && r.Verb != "get" && r.Err == "" && !strings.Contains(r.Resource, "/") {
				from = i
				break
			}
		}
		scaledDown := 0
		for _, r := range m.Requests[:at+1] {
			if r.Who == "deployment" && r.Resource == "replicasets" && r.Verb == "update" && r.Err == "" && strings.HasPrefix(r.Detail, "old") {
				scaledDown++
			}
		}
		var created, deleted, ready, removed int
		for _, r := range m.Requests[from : at+1] {
			switch {
			case r.Resource == "pods" && r.Verb == "create" && r.Err == "":
				created++
			case r.Resource == "pods" && r.Verb == "delete" && r.Err == "":
				deleted++
			case r.Who == "kubelet" && r.Verb == "ready":
				ready++
			case r.Who == "kubelet" && r.Verb == "remove":
				removed++
			}
		}
		r, s := m.Requests[at], m.Requests[from]
		fmt.Fprintf(&b, "  %s at %v (%s %s %s), after %d scale-downs: since %v (%s %s %s): %d created, %d deleted, %d readied, %d removed\n",
			w.what, r.At, r.Who, r.Verb, r.Name, scaledDown, s.At, s.Who, s.Verb, s.Detail, created, deleted, ready, removed)
	}
	return b.String()
}
