package sim_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

func TestTimingOf(t *testing.T) {
	for _, tc := range []struct {
		name        string
		spec        string
		ready       time.Duration
		readyWhy    string // a part of ReadyReason
		terminating time.Duration
		termWhy     string // a part of TerminatingReason
		grace       time.Duration
	}{{
		name:     "no probes: ready at once, gone at once, grace 30s",
		spec:     `{"containers":[{"name":"app","image":"nginx"}]}`,
		readyWhy: "at once", termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "readiness initialDelay 10 period 5: the probe at 10s passes",
		spec:  `{"containers":[{"name":"app","image":"nginx","readinessProbe":{"httpGet":{"port":80},"initialDelaySeconds":10,"periodSeconds":5}}]}`,
		ready: 10 * time.Second, readyWhy: "10s from readinessProbe initialDelaySeconds 10, periodSeconds 5 (container app)",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "initialDelay between periods waits for the next period",
		spec:  `{"containers":[{"name":"app","image":"nginx","readinessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":12,"periodSeconds":5}}]}`,
		ready: 15 * time.Second, readyWhy: "15s from readinessProbe initialDelaySeconds 12, periodSeconds 5",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "period defaults to 10s",
		spec:  `{"containers":[{"name":"app","image":"nginx","readinessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":5}}]}`,
		ready: 10 * time.Second, readyWhy: "periodSeconds 10",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "no initial delay: the probe run as the container starts passes",
		spec:  `{"containers":[{"name":"app","image":"nginx","readinessProbe":{"tcpSocket":{"port":80},"periodSeconds":3}}]}`,
		ready: 0, readyWhy: "at once", termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "successThreshold 3 adds two periods",
		spec:  `{"containers":[{"name":"app","image":"nginx","readinessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":4,"periodSeconds":2,"successThreshold":3}}]}`,
		ready: 8 * time.Second, readyWhy: "successThreshold 3",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "startupProbe, then the readiness probe at once",
		spec:  `{"containers":[{"name":"app","image":"nginx","startupProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":20,"periodSeconds":10},"readinessProbe":{"tcpSocket":{"port":80},"periodSeconds":5}}]}`,
		ready: 20 * time.Second, readyWhy: "startupProbe initialDelaySeconds 20, periodSeconds 10 (container app)",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:  "startupProbe passing before the readiness delay: readiness ticks from the startup",
		spec:  `{"containers":[{"name":"app","image":"nginx","startupProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":3,"periodSeconds":3},"readinessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":10,"periodSeconds":4}}]}`,
		ready: 11 * time.Second, readyWhy: "startupProbe initialDelaySeconds 3, periodSeconds 3 then readinessProbe initialDelaySeconds 10, periodSeconds 4",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name: "the slowest container decides",
		spec: `{"containers":[
			{"name":"fast","image":"a","readinessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":5,"periodSeconds":5}},
			{"name":"slow","image":"b","readinessProbe":{"tcpSocket":{"port":81},"initialDelaySeconds":30,"periodSeconds":10}}]}`,
		ready: 30 * time.Second, readyWhy: "(container slow)", termWhy: "at once", grace: 30 * time.Second,
	}, {
		name: "a sidecar's startup delays the containers after it",
		spec: `{"initContainers":[
			{"name":"migrate","image":"m"},
			{"name":"proxy","image":"p","restartPolicy":"Always","startupProbe":{"tcpSocket":{"port":15000},"initialDelaySeconds":5,"periodSeconds":5}}],
		       "containers":[{"name":"app","image":"a","readinessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":10,"periodSeconds":10}}]}`,
		ready: 15 * time.Second, readyWhy: "(container app, started 5s after the pod as the sidecars before it start)",
		termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:     "preStop sleep within the grace period",
		spec:     `{"terminationGracePeriodSeconds":60,"containers":[{"name":"app","image":"nginx","lifecycle":{"preStop":{"sleep":{"seconds":15}}}}]}`,
		readyWhy: "at once", terminating: 15 * time.Second, termWhy: "15s from preStop sleep 15s (container app), within terminationGracePeriodSeconds 60",
		grace: 60 * time.Second,
	}, {
		name:     "preStop sleep cut at the grace period",
		spec:     `{"containers":[{"name":"app","image":"nginx","lifecycle":{"preStop":{"sleep":{"seconds":45}}}}]}`,
		readyWhy: "at once", terminating: 30 * time.Second, termWhy: "cut at terminationGracePeriodSeconds 30 (the default)",
		grace: 30 * time.Second,
	}, {
		name:     "an exec preStop hook is taken as immediate, and said",
		spec:     `{"containers":[{"name":"app","image":"nginx","lifecycle":{"preStop":{"exec":{"command":["nginx","-s","quit"]}}}}]}`,
		readyWhy: "at once", termWhy: "the preStop hook of app is taken as immediate", grace: 30 * time.Second,
	}, {
		name:     "a regular init container's hooks never run at deletion",
		spec:     `{"initContainers":[{"name":"init","image":"i","lifecycle":{"preStop":{"sleep":{"seconds":20}}}}],"containers":[{"name":"app","image":"nginx"}]}`,
		readyWhy: "at once", termWhy: "at once", grace: 30 * time.Second,
	}, {
		name:     "grace period 0",
		spec:     `{"terminationGracePeriodSeconds":0,"containers":[{"name":"app","image":"nginx","lifecycle":{"preStop":{"sleep":{"seconds":5}}}}]}`,
		readyWhy: "at once", terminating: 0, termWhy: "cut at terminationGracePeriodSeconds 0",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sim.TimingOf(rollout.MustParsePodSpec(tc.spec))
			if err != nil {
				t.Fatal(err)
			}
			if got.ReadyAfter != tc.ready || !strings.Contains(got.ReadyReason, tc.readyWhy) {
				t.Errorf("ready after %v (%q), want %v (%q)", got.ReadyAfter, got.ReadyReason, tc.ready, tc.readyWhy)
			}
			if got.Terminating != tc.terminating || !strings.Contains(got.TerminatingReason, tc.termWhy) {
				t.Errorf("terminating %v (%q), want %v (%q)", got.Terminating, got.TerminatingReason, tc.terminating, tc.termWhy)
			}
			if got.GracePeriod != tc.grace {
				t.Errorf("grace period %v, want %v", got.GracePeriod, tc.grace)
			}
		})
	}
}

// TestTimingOfExtremes: the largest values the API server accepts saturate
// at the longest Duration instead of wrapping around.
func TestTimingOfExtremes(t *testing.T) {
	spec := rollout.MustParsePodSpec(fmt.Sprintf(`{"terminationGracePeriodSeconds":%d,"containers":[{"name":"a","image":"x",
		"startupProbe":{"tcpSocket":{"port":1},"initialDelaySeconds":%[2]d,"periodSeconds":%[2]d},
		"readinessProbe":{"tcpSocket":{"port":1},"initialDelaySeconds":%[2]d,"periodSeconds":%[2]d,"successThreshold":%[2]d},
		"lifecycle":{"preStop":{"sleep":{"seconds":%[1]d}}}}]}`, int64(math.MaxInt64), math.MaxInt32))
	got, err := sim.TimingOf(spec)
	if err != nil {
		t.Fatal(err)
	}
	// MaxInt32 + (MaxInt32-1)*MaxInt32 seconds is far beyond a Duration.
	if got.ReadyAfter != math.MaxInt64 {
		t.Errorf("ReadyAfter = %v, want it saturated", got.ReadyAfter)
	}
	if got.Terminating != math.MaxInt64 || got.GracePeriod != math.MaxInt64 {
		t.Errorf("Terminating %v, GracePeriod %v: want both saturated", got.Terminating, got.GracePeriod)
	}
}

// TestTimingOfProperties: times are never negative; a longer initial delay
// never makes a pod ready sooner; termination never exceeds the grace
// period.
func TestTimingOfProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		delay := rapid.Int32Range(0, math.MaxInt32).Draw(t, "delay")
		more := rapid.Int32Range(0, math.MaxInt32-delay).Draw(t, "more")
		period := rapid.Int32Range(1, math.MaxInt32).Draw(t, "period")
		threshold := rapid.Int32Range(1, math.MaxInt32).Draw(t, "threshold")
		sleep := rapid.Int64Range(0, math.MaxInt64).Draw(t, "sleep")
		grace := rapid.Int64Range(0, math.MaxInt64).Draw(t, "grace")
		timing := func(delay int32) sim.PodTiming {
			spec := rollout.MustParsePodSpec(fmt.Sprintf(`{"terminationGracePeriodSeconds":%d,"containers":[{"name":"a","image":"x",
				"readinessProbe":{"tcpSocket":{"port":1},"initialDelaySeconds":%d,"periodSeconds":%d,"successThreshold":%d},
				"lifecycle":{"preStop":{"sleep":{"seconds":%d}}}}]}`, grace, delay, period, threshold, sleep))
			got, err := sim.TimingOf(spec)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		a, b := timing(delay), timing(delay+more)
		if a.ReadyAfter < time.Duration(delay)*time.Second && a.ReadyAfter != math.MaxInt64 || a.ReadyAfter > b.ReadyAfter {
			t.Fatalf("ready after %v with delay %d, %v with delay %d", a.ReadyAfter, delay, b.ReadyAfter, delay+more)
		}
		if a.Terminating < 0 || a.Terminating > a.GracePeriod {
			t.Fatalf("terminating %v, grace period %v", a.Terminating, a.GracePeriod)
		}
	})
}

func ExampleTimingOf() {
	spec := rollout.MustParsePodSpec(`{
		"terminationGracePeriodSeconds": 45,
		"containers": [{
			"name": "web", "image": "nginx:1.27",
			"readinessProbe": {"httpGet": {"path": "/healthz", "port": 80}, "initialDelaySeconds": 10, "periodSeconds": 5},
			"lifecycle": {"preStop": {"sleep": {"seconds": 20}}}
		}]}`)
	timing, err := sim.TimingOf(spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ready after:", timing.ReadyReason)
	fmt.Println("terminating:", timing.TerminatingReason)
	// Output:
	// ready after: 10s from readinessProbe initialDelaySeconds 10, periodSeconds 5 (container web)
	// terminating: 20s from preStop sleep 20s (container web), within terminationGracePeriodSeconds 45
}
