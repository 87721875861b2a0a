package sim

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// PodTiming is how long a pod of a template takes to become ready and to
// go away once deleted, as the kubelet of v1.36 runs the template's probes
// and hooks, with the reasons in words for a report's header. It is what
// the template says; what it cannot say (image pulls, how long a regular
// init container runs, how long an application takes to exit on SIGTERM,
// an exec or HTTP preStop hook) counts as no time, and the reasons say so.
type PodTiming struct {
	// ReadyAfter is the time from a pod's start to its readiness: the
	// first readiness probe that may pass, after the startup probe of its
	// container and the sidecars started before it, plus the further
	// periods successThreshold asks for. A container without a readiness
	// probe is ready once started.
	ReadyAfter time.Duration
	// ReadyReason says where ReadyAfter comes from, as "15s from
	// readinessProbe initialDelaySeconds 10, periodSeconds 5 (container
	// app)" or "at once: no readinessProbe or startupProbe".
	ReadyReason string
	// Terminating is the time from a pod's deletion to its removal: the
	// longest preStop sleep of its containers, at most GracePeriod.
	Terminating time.Duration
	// TerminatingReason says where Terminating comes from.
	TerminatingReason string
	// GracePeriod is the pod's terminationGracePeriodSeconds (30s when
	// unset): the longest a deleted pod can stay terminating, whatever its
	// hooks and its application do.
	GracePeriod time.Duration
}

// The API server's defaults for a probe's period and thresholds and for a
// pod's termination grace period, in seconds.
const (
	defaultProbePeriod = 10
	defaultGracePeriod = 30
)

// maxSeconds is the longest time, in whole seconds, a time.Duration holds.
const maxSeconds = math.MaxInt64 / int64(time.Second)

// seconds converts whole seconds to a Duration, saturating at the longest
// Duration (about 292 years) for the int32 and int64 extremes the API
// server accepts.
func seconds(s int64) time.Duration {
	if s >= maxSeconds {
		return math.MaxInt64
	}
	return time.Duration(s) * time.Second
}

// addSat adds two non-negative counts of seconds, saturating at maxSeconds.
func addSat(a, b int64) int64 {
	if a > maxSeconds-b {
		return maxSeconds
	}
	return a + b
}

// TimingOf reads a pod template's readiness and termination times, as the
// kubelet of v1.36 would run them (pkg/kubelet/prober and the kuberuntime's
// container start and kill):
//
//   - A probe first runs as its container starts and then every
//     periodSeconds (default 10), and is skipped while the container has run
//     for less than initialDelaySeconds: its first pass comes at the first
//     period boundary at or after the initial delay. successThreshold
//     (default 1) passes in a row are needed, one period apart.
//   - The readiness probe waits for the startup probe; when that passes,
//     the kubelet runs the readiness probe at once and then every period.
//   - Regular containers start once the sidecars (init containers with
//     restartPolicy Always) before them have started; regular init
//     containers are taken to finish at once.
//   - The pod is ready when every container and sidecar is.
//   - A deleted pod runs its preStop hooks, then its containers are
//     stopped, all within terminationGracePeriodSeconds (default 30). A
//     preStop sleep takes its seconds; an exec or HTTP hook, and the
//     application's own exit, are taken as immediate.
//
// Times beyond what a time.Duration holds saturate at the longest
// Duration. TimingOf never fails on a spec that [rollout.ParsePodSpec] or
// decoding a Deployment produced; an error means the spec's JSON could not
// be read.
func TimingOf(spec rollout.PodSpec) (PodTiming, error) {
	s, res := schema.DecodePodSpec(spec.JSON(), schema.DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 || res.Malformed {
		return PodTiming{}, fmt.Errorf("sim: reading the pod template's probes: %v", res.Errs)
	}
	var t PodTiming
	t.ReadyAfter, t.ReadyReason = readiness(s)
	t.Terminating, t.TerminatingReason, t.GracePeriod = termination(s)
	return t, nil
}

// probeTimes returns a probe's fields with the API server's defaults.
func probeTimes(p *schema.Probe) (delay, period, threshold int64) {
	delay, period, threshold = int64(p.InitialDelaySeconds), int64(p.PeriodSeconds), int64(p.SuccessThreshold)
	if period <= 0 {
		period = defaultProbePeriod
	}
	if threshold <= 0 {
		threshold = 1
	}
	return max(delay, 0), period, threshold
}

// firstPass returns, in seconds after a container's start, when a probe
// whose runs start at from (and repeat every period) first passes: the
// first run at or after the initial delay, and successThreshold-1 more
// periods.
func firstPass(p *schema.Probe, from int64) int64 {
	delay, period, threshold := probeTimes(p)
	at := from
	if delay > from {
		// ceil((delay-from)/period) periods after from; delay-from and
		// period are positive and below 2^32, so this cannot overflow.
		at = addSat(from, (delay-from+period-1)/period*period)
	}
	return addSat(at, (threshold-1)*period)
}

// containerReady returns when c is started and ready, in seconds after it
// starts, and the words for its readiness (empty when it is ready at once).
func containerReady(c *schema.Container) (started, ready int64, why string) {
	var parts []string
	if p := c.StartupProbe; p != nil {
		started = firstPass(p, 0)
		if started > 0 {
			parts = append(parts, "startupProbe "+probeWords(p))
		}
	}
	ready = started
	if p := c.ReadinessProbe; p != nil {
		ready = firstPass(p, started)
		if ready > started || len(parts) == 0 && ready > 0 {
			parts = append(parts, "readinessProbe "+probeWords(p))
		}
	}
	return started, ready, strings.Join(parts, " then ")
}

// probeWords names the fields of p that set its timing.
func probeWords(p *schema.Probe) string {
	delay, period, threshold := probeTimes(p)
	w := fmt.Sprintf("initialDelaySeconds %d, periodSeconds %d", delay, period)
	if threshold > 1 {
		w += fmt.Sprintf(", successThreshold %d", threshold)
	}
	return w
}

// readiness returns the pod's time to ready and its reason: the container
// (or sidecar) that is ready last.
func readiness(s *schema.PodSpec) (time.Duration, string) {
	var (
		offset int64 // when the next container starts
		last   int64 = -1
		why    string
	)
	consider := func(c *schema.Container, start int64) int64 {
		started, ready, w := containerReady(c)
		if at := addSat(start, ready); at > last && w != "" {
			last, why = at, fmt.Sprintf("%s (%s)", w, containerWords(c, start))
		} else if at > last {
			last = at
		}
		return addSat(start, started)
	}
	for i := range s.InitContainers {
		if c := &s.InitContainers[i]; sidecar(c) {
			offset = consider(c, offset)
		}
	}
	for i := range s.Containers {
		consider(&s.Containers[i], offset)
	}
	if last <= 0 || why == "" {
		return 0, "at once: no readinessProbe or startupProbe delays it"
	}
	d := seconds(last)
	return d, fmt.Sprintf("%s from %s", d, why)
}

// sidecar reports whether an init container is a sidecar: one with
// restartPolicy Always, which keeps running beside the containers.
func sidecar(c *schema.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == "Always"
}

// containerWords names a container, and the start its sidecars delay.
func containerWords(c *schema.Container, start int64) string {
	kind := "container"
	if sidecar(c) {
		kind = "sidecar"
	}
	if start > 0 {
		return fmt.Sprintf("%s %s, started %s after the pod as the sidecars before it start", kind, c.Name, seconds(start))
	}
	return kind + " " + c.Name
}

// termination returns how long a deleted pod takes to go, its reason and
// the pod's grace period.
func termination(s *schema.PodSpec) (time.Duration, string, time.Duration) {
	grace := int64(defaultGracePeriod)
	graceWords := "terminationGracePeriodSeconds 30 (the default)"
	if g := s.TerminationGracePeriodSeconds; g != nil {
		grace = max(*g, 0)
		graceWords = fmt.Sprintf("terminationGracePeriodSeconds %d", grace)
	}
	var (
		sleep   int64
		sleeper string   // the container with the longest preStop sleep
		unknown []string // containers with an exec, HTTP or TCP preStop hook
	)
	hooks := func(c *schema.Container) {
		if c.Lifecycle == nil || c.Lifecycle.PreStop == nil {
			return
		}
		switch h := c.Lifecycle.PreStop; {
		case h.Sleep != nil:
			if sec := max(h.Sleep.Seconds, 0); sec > sleep || sleeper == "" {
				sleep, sleeper = sec, c.Name
			}
		case h.Exec != nil || h.HTTPGet != nil || h.TCPSocket != nil:
			unknown = append(unknown, c.Name)
		}
	}
	// Regular init containers have finished; sidecars stop with the pod.
	for i := range s.InitContainers {
		if c := &s.InitContainers[i]; sidecar(c) {
			hooks(c)
		}
	}
	for i := range s.Containers {
		hooks(&s.Containers[i])
	}
	graceDur := seconds(grace)
	var why string
	d := time.Duration(0)
	switch {
	case sleeper != "" && sleep >= grace:
		d = graceDur
		why = fmt.Sprintf("%s: preStop sleep %ds (container %s) cut at %s", d, sleep, sleeper, graceWords)
	case sleeper != "":
		d = seconds(sleep)
		why = fmt.Sprintf("%s from preStop sleep %ds (container %s), within %s", d, sleep, sleeper, graceWords)
	default:
		why = "at once: no preStop sleep; the containers are taken to exit on the stop signal (at most " + graceWords + ")"
	}
	if len(unknown) > 0 {
		why += fmt.Sprintf("; the preStop hook of %s is taken as immediate", strings.Join(unknown, ", "))
	}
	return d, why, graceDur
}
