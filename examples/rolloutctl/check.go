package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/workers"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

const checkHelp = `rolloutctl check [-f FILE]... [--max-pods N] [--min-available N|P%] [--max-duration D]
       [--replicas MIN..MAX] [--quota-pods N] [--max-rollouts N] [--ready-after D] [--never-ready IMAGE]...
       [--model MODEL] [--kube-api-qps QPS] [--kube-api-burst N] [--interval D]
       [--max-work N] [--workers N] [--fail-on error|warning]
       [-o FORMAT] [--format FORMAT [--output FILE]]... [--live FILE]... [-n NAMESPACE]

Simulates a rollout of EACH Deployment in the input, at each replica count
to check, against the limits the flags set and those of the policy objects
in the input (per namespace, across all files), and checks these rules:

  max-pods           at most --max-pods pods exist at any time
  min-available      at least --min-available pods are available at any time
                     (N, or P% of the replicas of the moment, rounded up)
  max-duration       the rollout completes within --max-duration
  never-finishes     the rollout can complete at all. Said only when it is
                     proved: the simulation stopped where nothing is left to
                     happen (a quota with no room to surge and maxUnavailable
                     0; new pods that never become ready (--never-ready) and
                     maxUnavailable 0; a paused Deployment), or admission
                     refuses every pod (a LimitRange's min or max, a quota
                     on cpu or memory that the containers do not request, a
                     quota with no room for one pod or for the new ReplicaSet)
  progress-deadline  Progressing never turns False with ProgressDeadlineExceeded
  full-outage        (warning) the strategy lets every pod go down at once
  quota-throttles    (warning) a quota refuses pods during the rollout, which
                     waits for room: throttled, not blocked
  pdb-drain-blocked  (warning) during the rollout the ready pods drop to what
                     a PodDisruptionBudget keeps: node drains are refused
  pdb-no-disruption  a PodDisruptionBudget allows no eviction even with every
                     replica ready: node drains never finish
  hpa-replicas       (warning) spec.replicas is set while an HPA scales the
                     Deployment

Policy objects: a ResourceQuota limits the namespace's pods and their
requests and limits (pods, requests.cpu, requests.memory, limits.cpu,
limits.memory, count/replicasets.apps), its headroom being its hard limit
less what the namespace uses (status.used when the input has it, else the
pods of the other Deployments); a LimitRange gives containers without
requests or limits its defaults, and refuses pods outside its min and max;
a HorizontalPodAutoscaler's minReplicas..maxReplicas are the replica counts
checked. --replicas and --quota-pods override them. --max-rollouts N
checks each rollout while the N-1 others of its namespace with the largest
surge roll out at once (their surges add up against the quota).

The rollout changes the pod template as 'kubectl rollout restart' does
(with an annotation), or, with --never-ready, the first container's image
to the marker image "rolloutctl/next"; when the input holds the
Deployment's ReplicaSets in the middle of a rollout, it rolls out the
template as given instead. --never-ready new stands for the images the
rollout brings in. Pods are ready as soon as they are created
(--ready-after), and the Deployment and ReplicaSet controllers run as in
kube-controller-manager, each behind its API client's rate limit
(--kube-api-qps 20, --kube-api-burst 30); where they race, the highest
peak and the fewest available pods are judged. --model interval syncs one
controller every --interval (30s) instead, as the golden recordings did
(--interval D alone implies it), and --model event at each change; under those, long regular phases are
fast-forwarded, so 100,000 replicas one pod at a time take no longer to
check than 10. The controllers model is not fast-forwarded: it checks a
range of more than 128 replica counts at 128 of them (the first 32 and
the rest spread evenly up to the last), and says so.

Each violation is listed with the Deployment, the replicas, the time after
the start of the sync where it happened and the field to change, as
file:line and path; one that the input already holds before the first sync
is marked (input). A simulation that stops at its limit (--max-work syncs
computed one by one) before its rollout ends decides nothing: it is listed
as LIMIT. Output is in input order, whatever --workers.

Reports: text, json, yaml, sarif (SARIF 2.1.0, for code scanning), junit
(JUnit XML, for test tabs) and github (GitHub Actions annotations). -o F
writes one to standard output; --format F --output FILE pairs write
several at once. Exit 1 when a rule is broken (warnings count with
--fail-on warning), else 3 when a simulation hit its limit, else 0 (one OK
line per Deployment); 2 on bad input. A progress line goes to stderr when
more than 100 rollouts are checked.

With --live, FILE holds the manifests to apply and --live the live objects:
each Deployment is checked after 'kubectl apply', with the live ReplicaSets
and Pods, and the policy objects of both (a manifest's taking the place of
the live one of its name): the rollout the apply starts, or else, as
without --live, a restart's. The text and JSON reports start with one line
per Deployment saying whether the apply starts a rollout (in -o json,
"apply"). See 'rolloutctl diff -h'.
`

// markerImage is the image check rolls out to with --never-ready.
const markerImage = "rolloutctl/next"

// restartAnnotation is the pod template annotation `kubectl rollout
// restart` sets to the time, which check sets to start a rollout without
// --never-ready.
const restartAnnotation = "kubectl.kubernetes.io/restartedAt"

// checkProgressRuns is the number of rollouts from which check reports
// progress.
const checkProgressRuns = 100

// checked is the outcome for one Deployment over its replica range.
type checked struct {
	Deployment   string `json:"deployment"`
	MinReplicas  int32  `json:"minReplicas"`
	MaxReplicas  int32  `json:"maxReplicas"`
	Rollouts     int64  `json:"rollouts"`
	OK           bool   `json:"ok"`
	PeakPods     int64  `json:"peakPods"`
	MinAvailable int64  `json:"minAvailable"`
	// Longest is the longest of the rollouts that completed.
	Longest float64 `json:"longestSeconds"`
	// Undecided counts the rollouts whose simulation stopped at its limit.
	Undecided int64 `json:"undecided"`
	// Rules are the rules applied; Location is the Deployment.
	Rules    []string `json:"rules"`
	Location place    `json:"location"`
}

// checkJSON is check -o json.
type checkJSON struct {
	OK          bool        `json:"ok"`
	PodModel    string      `json:"podModel"`
	Deployments []checked   `json:"deployments"`
	Violations  []violation `json:"violations"`
}

type checkFlags struct {
	simFlags
	live         liveFlags
	maxPods      int
	minAvailable minAvailableFlag
	maxDuration  time.Duration
	workers      int
	maxRollouts  int
	failOn       string
	outputs      outputFlags
	// memo shares the runs of rollouts of one shape (nil: none, as the
	// tests compare).
	memo *simMemo
}

func runCheck(e *env, args []string) int {
	var f checkFlags
	fs := newFlagSet("check")
	f.input.add(fs, "", false)
	f.live.add(fs)
	fs.IntVar(&f.maxPods, "max-pods", 0, "rule: at most `N` pods at any time (0: no rule)")
	fs.Var(&f.minAvailable, "min-available", "rule: at least `N|P%` pods available at any time")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "rule: the rollout completes within this (0: no rule)")
	fs.Var(&f.replicas, "replicas", "check each replica count `MIN..MAX` (or N) instead of spec.replicas or an HPA's range")
	f.addQuota(fs)
	fs.IntVar(&f.maxRollouts, "max-rollouts", 1, "check each rollout while `N`-1 others of its namespace roll out at once (their surges add up in a quota)")
	f.addReady(fs)
	f.addControllers(fs, "time between two syncs of --model interval (default 30s)")
	f.addLimit(fs)
	f.input.addOptions(fs)
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "simulate `N` rollouts at once (the default is the number of cores)")
	fs.StringVar(&f.failOn, "fail-on", severityError, "exit 1 on findings of this `severity` or worse: error or warning")
	f.outputs.addOutputs(fs, "text", "json", "yaml", "sarif", "junit", "github")
	if code := parse(e, fs, checkHelp, args); code >= 0 {
		return code
	}
	outs, err := f.outputs.resolve(fs)
	if err != nil {
		return fail(e, "check", err)
	}
	switch {
	case f.maxPods < 0 || f.maxDuration < 0:
		err = fmt.Errorf("--max-pods and --max-duration must not be negative")
	case f.workers < 1:
		err = fmt.Errorf("--workers %d: must be at least 1", f.workers)
	case f.maxRollouts < 1:
		err = fmt.Errorf("--max-rollouts %d: must be at least 1", f.maxRollouts)
	case f.failOn != severityError && f.failOn != severityWarning:
		err = fmt.Errorf("--fail-on %q: want error or warning", f.failOn)
	default:
		err = f.check()
	}
	if err != nil {
		return fail(e, "check", err)
	}
	in, answers, err := f.live.load(e, &f.input, "check")
	if err != nil {
		return fail(e, "check", err)
	}
	f.memo = &simMemo{}
	out, limited, err := f.run(e, in)
	if err != nil {
		return fail(e, "check", err)
	}
	if code := writeReports(e, "check", outs, func(format string, w io.Writer) error { return f.render(format, w, out, answers) }); code != exitOK {
		return code
	}
	switch {
	case !out.OK:
		return exitViolation
	case f.failOn == severityWarning && slices.ContainsFunc(out.Violations, func(v violation) bool { return v.Severity == severityWarning }):
		return exitViolation
	case limited:
		return exitLimit
	}
	return exitOK
}

// run checks every Deployment of in, at each of its replica counts, and
// reports whether a simulation hit its limit.
func (f *checkFlags) run(e *env, in *loaded) (checkJSON, bool, error) {
	deps := in.objs.Deployments
	if err := in.quotaViews(f.maxRollouts); err != nil {
		return checkJSON{}, false, err
	}
	// With the namespaces worked out, each Deployment's policy reads them
	// only: several at once.
	policies := make([]rolloutPolicy, 0, len(deps))
	var failure error
	workers.InOrder(int64(len(deps)), f.workers, func(k int64) rolloutPolicy {
		p, err := f.policyFor(in, deps[k])
		if err != nil {
			p.err = fmt.Errorf("%s: %w", in.source(deps[k]), err)
		}
		return p
	}, func(_ int64, p rolloutPolicy) bool {
		failure = p.err
		policies = append(policies, p)
		return p.err == nil
	})
	if failure != nil {
		return checkJSON{}, false, failure
	}
	// One job per Deployment and replica count, numbered in input order:
	// job i is Deployment k at replicas counts[k][i - first[k]]; a
	// Deployment whose pods admission refuses has one job, which
	// simulates nothing.
	first := make([]int64, len(deps)+1)
	counts := make([][]int32, len(deps))
	sample := f.config().Model == sim.ModelControllers
	for k, p := range policies {
		counts[k] = replicaCounts(p.lo, p.hi, sample)
		n := int64(len(counts[k]))
		if p.refused {
			n = 1
		}
		first[k+1] = first[k] + n
	}
	total := first[len(deps)]
	quotas := ""
	if f.quotaPods == 0 && slices.ContainsFunc(policies, func(p rolloutPolicy) bool { return p.quotas }) {
		quotas = "pod quotas from the namespaces' ResourceQuotas"
	}
	var (
		out      = checkJSON{OK: true, PodModel: describeModel(f.config(), quotas), Deployments: []checked{}, Violations: []violation{}}
		limited  bool
		progress = newProgress(e.stderr, "check:", "rollouts", total, checkProgressRuns)
		c        checked
		drains   []drainBlock
	)
	job := func(i int64) (int, int32) {
		k, _ := slices.BinarySearch(first, i+1)
		k--
		return k, counts[k][i-first[k]]
	}
	record := func(v violation) {
		switch v.Severity {
		case severityError:
			c.OK, out.OK = false, false
		case severityLimit:
			c.Undecided++
			limited = true
		}
		out.Violations = append(out.Violations, v)
	}
	workers.InOrder(total, f.workers, func(i int64) rolloutCheck {
		k, r := job(i)
		if policies[k].refused {
			return rolloutCheck{}
		}
		return f.checkOne(in, &policies[k], deps[k], r)
	}, func(i int64, r rolloutCheck) bool {
		k, replicas := job(i)
		d, pol := deps[k], &policies[k]
		if r.err != nil {
			failure = fmt.Errorf("%s: Deployment %s at %d replicas: %w", in.source(d), qualified(d), replicas, r.err)
			return false
		}
		if i == first[k] {
			c = checked{Deployment: qualified(d), MinReplicas: pol.lo, MaxReplicas: pol.hi, OK: true, MinAvailable: -1,
				Rules: pol.rules, Location: in.deploymentPlace(d, "metadata.name")}
			drains = drains[:0]
			for _, v := range pol.static {
				record(v)
			}
		}
		if !pol.refused {
			c.Rollouts++
			c.PeakPods = max(c.PeakPods, r.sum.PeakPods)
			if c.MinAvailable < 0 || r.sum.MinAvailable < c.MinAvailable {
				c.MinAvailable = r.sum.MinAvailable
			}
			if r.sum.Outcome == sim.OutcomeComplete {
				c.Longest = max(c.Longest, r.sum.Duration.Seconds())
			}
		}
		for _, v := range r.violations {
			record(v)
		}
		drains = append(drains, r.drains...)
		if i == first[k+1]-1 {
			for _, v := range drainViolations(in, d, pol.budgets, drains) {
				record(v)
			}
			c.MinAvailable = max(c.MinAvailable, 0)
			out.Deployments = append(out.Deployments, c)
		}
		progress.add(1)
		return true
	})
	return out, limited, failure
}

// The replica counts check simulates: every count of a range of up to
// sampleCounts; of a longer one under the controllers model, whose runs
// are not fast-forwarded, the first sampleHead counts and the rest spread
// evenly up to the last, which is always among them.
const (
	sampleCounts = 128
	sampleHead   = 32
)

// replicaCounts returns the replica counts to check in lo..hi (lo <= hi),
// in increasing order, sampled as sampleCounts says when sample is true.
func replicaCounts(lo, hi int32, sample bool) []int32 {
	n := int64(hi) - int64(lo) + 1
	if !sample || n <= sampleCounts {
		out := make([]int32, 0, n)
		for r := int64(lo); r <= int64(hi); r++ {
			out = append(out, int32(r))
		}
		return out
	}
	out := make([]int32, 0, sampleCounts)
	for r := int64(lo); r < int64(lo)+sampleHead; r++ {
		out = append(out, int32(r))
	}
	// The rest: sampleCounts-sampleHead counts from lo+sampleHead to hi,
	// evenly spread, in int64 so that no step overflows.
	from, span, k := int64(lo)+sampleHead, int64(hi)-int64(lo)-sampleHead, int64(sampleCounts-sampleHead)
	for i := int64(1); i <= k; i++ {
		r := from + span*i/k
		if r > int64(out[len(out)-1]) {
			out = append(out, int32(r))
		}
	}
	return out
}
