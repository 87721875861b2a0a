package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/check"
)

const checkHelp = `rolloutctl check [-f] FILE|DIR|-... [--exclude GLOB]... [-n NAMESPACE]
       [--max-pods N] [--min-available N|P%] [--max-duration D] [--timeout D] [--drain-pods N]
       [--replicas MIN..MAX] [--quota-pods N] [--max-rollouts N] [--ready-after D] [--terminating D]
       [--never-ready IMAGE]... [--nodes N [--node-allocatable cpu=..,memory=..,pods=..]]
       [--model MODEL] [--kube-api-qps QPS] [--kube-api-burst N] [--interval D]
       [--max-work N] [--workers N] [--fail-on error|warning] [--require-deployments]
       [-o FORMAT] [--format FORMAT [--output FILE]]... [--live FILE]...

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
                     maxUnavailable 0; a paused Deployment; a pod the nodes
                     never have a place for), or admission
                     refuses every pod (a LimitRange's min or max, a quota
                     on cpu or memory that the containers do not request, a
                     quota with no room for one pod or for the new ReplicaSet)
  timeout            the rollout is complete within --timeout, the CI's
                     'kubectl rollout status --timeout': the finding names
                     the slowest wave, and when 'helm upgrade --wait' (Helm
                     3, which waits for replicas - maxUnavailable new pods
                     ready) is satisfied
  progress-deadline  Progressing never turns False with ProgressDeadlineExceeded:
                     no wave (the time between two syncs that see progress,
                     which resets the deadline) outlasts progressDeadlineSeconds
  progress-deadline-margin
                     (warning) a wave takes more than 80% of
                     progressDeadlineSeconds
  full-outage        (warning) the strategy lets every pod go down at once
  quota-throttles    (warning) a quota refuses pods during the rollout, which
                     waits for room: throttled, not blocked
  placement-waits    (warning) new pods wait pending for a place on the nodes
                     until old pods leave: the rollout finishes, later
  pdb-drain-blocked  (warning) during the rollout the ready pods drop so low
                     that a PodDisruptionBudget refuses the evictions of a
                     drain of a node holding --drain-pods of them (default
                     1): the drain waits; the finding says what a drain
                     without eviction leaves. A note says that the budget
                     does not gate the rollout itself, and the fewest ready
                     pods such a drain leaves at the worst moment
  pdb-no-disruption  a PodDisruptionBudget allows no eviction even with every
                     replica ready, or two select the same pods (the eviction
                     API refuses those): node drains never finish
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

Placement: with Nodes in the input ('kubectl get nodes -o yaml') or
--nodes N identical nodes (each with --node-allocatable, pods 110 by
default), the pods of a rollout are placed on them: a node is eligible
when it is schedulable and its NoSchedule and NoExecute taints are
tolerated and it matches the nodeSelector and the required node
affinity; it holds as many pods as its allocatable less the requests of
the input's Pods bound to it (spec.nodeName) allows, one where the pod
takes a hostPort. Required pod anti-affinity against the Deployment's
own pods allows one per domain of its topology key, a topology spread
constraint with DoNotSchedule at most maxSkew more in a domain than in
the emptiest, a ReadWriteOncePod claim one pod at all, and a
ReadWriteOnce claim (its PersistentVolumeClaim in the input) only the
node holding it, to which the scheduler does not send new pods while
another node has room. A pod without a place stays pending, not ready:
a rollout that needs one for good never finishes, one that waits for old
pods to leave finishes later (placement-waits). --nodes knows no zones:
it leaves out the constraints on other topology keys.

The rollout changes the pod template as 'kubectl rollout restart' does
(with an annotation), or, with --never-ready, the first container's image
to the marker image "rolloutctl/next"; when the input holds the
Deployment's ReplicaSets in the middle of a rollout, it rolls out the
template as given instead. --never-ready new stands for the images the
rollout brings in. Pods become ready as each template's probes say
and terminate for its preStop sleep within its grace period
(--ready-after and --terminating set one time for all); the Deployment
and ReplicaSet controllers run as in kube-controller-manager, each behind
its API client's rate limit (--kube-api-qps 20, --kube-api-burst 30);
where they race, the worse of the two likelier orders is judged, and
max-pods warns when only the order that defers every deletion passes it.
--model interval syncs one controller every --interval (30s) instead, as
the golden recordings did (--interval D alone implies it), and --model
event at each change; under those, long regular phases are
fast-forwarded, so 100,000 replicas one pod at a time take no longer to
check than 10. The controllers model is not fast-forwarded: it checks a
range of more than 128 replica counts at 128 of them (the first 32 and
the rest spread evenly up to the last), and says so; the other models
check a range of more than 10,000 counts at 10,000 of them so.

Each violation is listed with the Deployment, the replicas, the time after
the start of the sync where it happened and the field to change, as
file:line and path; one that the input already holds before the first sync
is marked (input). A simulation that stops at its limit (--max-work units
of work: controller syncs and pod writes taken one by one, and the pods
they walk) before its rollout ends is listed as LIMIT, with the
projection of the rest (how long the rollout takes at least, and proved
bounds of the pods at once and of the available pods); so is one that
makes one more sync than --max-work has units (check records each sync:
a rollout of 1,000,000 replicas one pod at a time makes nine million,
at little work each), without a projection. It decides only
what these bounds decide,
which the LIMIT line names: --max-duration and --timeout broken by the
lower bound of the duration, --max-pods and --min-available kept by the
pod bounds (a bound past the limit is a warning); never whether or when
the rollout completes, so check exits 3 unless it finds a violation.
The replica counts of a Deployment share one --max-work: each
runs first with its share, then the counts that stopped at theirs run
again, smallest first, with what the others left; a line says which
counts were computed to the end and which stopped at the limit. Over a
range, the text and the github annotations give a rule's findings at
the first count that breaks it and name the other counts ("also at
replicas 5..12 (8 more counts, each with its own figures in -o json)");
json, yaml, sarif and junit give each count's. Output is in input
order, whatever --workers.

Input: a directory is read recursively, leaving out hidden entries, what
--exclude matches and files that hold no Kubernetes object, each with a
note on stderr (a kustomize directory gets a note to pipe 'kustomize
build' in); a file named twice is read once. An object given in two
directories (or two files of one directory) is checked in each, with the
objects of its directory (or file). Objects that name no namespace are in -n's (default: default), as
'kubectl apply -n' puts them. A document that cannot be read as the API
server reads it (apiVersion is required, as kubectl requires it) is a
finding of rule input, in every report, and the rest is checked. Kinds
that are not checked are named in a note; an input with no Deployment is
a note and exit 0 (exit 2 with --require-deployments).

Reports: text, json, yaml, sarif (SARIF 2.1.0, for code scanning), junit
(JUnit XML, for test tabs) and github (GitHub Actions annotations). -o F
(or --output F) writes one to standard output; --format F --output FILE
pairs write several at once. Every report is written, then: exit 2 when
an input was bad, else 1 when a rule is broken (warnings count with
--fail-on warning), else 3 when a simulation hit its limit, else 0 (one OK
line per Deployment). Progress goes to stderr when it is a terminal and
loading or checking takes over a second.

With --live, FILE holds the manifests to apply and --live the live objects:
each Deployment is checked after 'kubectl apply', with the live ReplicaSets
and Pods, and the policy objects of both (a manifest's taking the place of
the live one of its name): the rollout the apply starts, or else, as
without --live, a restart's. The text and JSON reports start with one line
per Deployment saying whether the apply starts a rollout (in -o json,
"apply"). A manifest or live object that cannot be read, and an apply
that kubectl or the API server refuses, is a finding of rule input at its
file and line too, and the other Deployments are applied and checked. See
'rolloutctl diff -h'.
`

// checkProgressRuns is the number of rollouts from which check reports
// progress.
const checkProgressRuns = 100

type checkFlags struct {
	simFlags
	live         liveFlags
	maxPods      int
	minAvailable minAvailableFlag
	maxDuration  time.Duration
	timeout      time.Duration
	drainPods    int
	workers      int
	maxRollouts  int
	failOn       string
	outputs      outputFlags
	// requireDeployments makes an input without Deployments bad input.
	requireDeployments bool
	// wd is the working directory, which JUnit paths are relative to.
	wd string
}

// inputFindings returns the findings of rule check.RuleInput.
func inputFindings(out check.Report) []check.Finding {
	var bad []check.Finding
	for _, v := range out.Findings {
		if v.Rule == check.RuleInput {
			bad = append(bad, v)
		}
	}
	return bad
}

// config returns the check's configuration for the flags.
func (f *checkFlags) config() check.Config {
	return check.Config{
		MaxPods:          f.maxPods,
		MinAvailable:     f.minAvailable.v,
		MinAvailableRule: f.minAvailable.set,
		MaxDuration:      f.maxDuration,
		Timeout:          f.timeout,
		DrainPods:        int32(f.drainPods),
		MaxRollouts:      f.maxRollouts,
		MinReplicas:      f.replicas.min,
		MaxReplicas:      f.replicas.max,
		ReplicasSet:      f.replicas.set,
		QuotaPods:        f.quotaPods,
		Nodes:            f.place.nodes,
		NodeAllocatable:  f.place.allocatable.v,
		NeverReady:       slices.Clone([]string(f.neverReady)),
		Sim:              f.simFlags.config(),
		ReadyAfterFixed:  f.readyAfter.set,
		TerminatingFixed: f.terminating.set,
		Options:          f.input.options,
		Workers:          f.workers,
	}
}

func runCheck(e *env, args []string) int {
	var f checkFlags
	fs := newFlagSet("check")
	f.input.add(fs, "", false)
	f.live.add(fs)
	fs.IntVar(&f.maxPods, "max-pods", 0, "rule: at most `N` pods at any time (0: no rule)")
	fs.Var(&f.minAvailable, "min-available", "rule: at least `N|P%` pods available at any time")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "rule: the rollout completes within this (0: no rule)")
	fs.DurationVar(&f.timeout, "timeout", 0, "rule: the rollout is complete within this, the CI's kubectl rollout status --timeout (0: no rule)")
	fs.IntVar(&f.drainPods, "drain-pods", 0, "pdb-drain-blocked judges a drain of a node holding `N` of the Deployment's pods (0: 1)")
	fs.Var(&f.replicas, "replicas", "check each replica count `MIN..MAX` (or N) instead of spec.replicas or an HPA's range")
	f.addQuota(fs)
	fs.IntVar(&f.maxRollouts, "max-rollouts", 1, "check each rollout while `N`-1 others of its namespace roll out at once (their surges add up in a quota)")
	f.addReady(fs)
	f.addTerminating(fs)
	f.place.add(fs)
	f.addControllers(fs, "time between two syncs of --model interval (default 30s)")
	f.addLimit(fs)
	f.input.addOptions(fs)
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "simulate `N` rollouts at once (the default is the number of cores)")
	fs.StringVar(&f.failOn, "fail-on", check.SeverityError, "exit 1 on findings of this `severity` or worse: error or warning")
	fs.BoolVar(&f.requireDeployments, "require-deployments", false, "exit 2 when the input holds no Deployment (by default: a note, and exit 0)")
	f.outputs.addOutputs(fs, "text", "json", "yaml", "sarif", "junit", "github")
	if code := parse(e, fs, checkHelp, args); code >= 0 {
		return code
	}
	outs, err := f.outputs.resolve(fs)
	if err != nil {
		return fail(e, "check", err)
	}
	switch {
	case f.maxPods < 0 || f.maxDuration < 0 || f.timeout < 0:
		err = fmt.Errorf("--max-pods, --max-duration and --timeout must not be negative")
	case f.drainPods < 0 || f.drainPods > 1<<31-1:
		err = fmt.Errorf("--drain-pods %d: must be from 0 to 2147483647", f.drainPods)
	case f.workers < 1:
		err = fmt.Errorf("--workers %d: must be at least 1", f.workers)
	case f.maxRollouts < 1:
		err = fmt.Errorf("--max-rollouts %d: must be at least 1", f.maxRollouts)
	case f.failOn != check.SeverityError && f.failOn != check.SeverityWarning:
		err = fmt.Errorf("--fail-on %q: want error or warning", f.failOn)
	default:
		err = errors.Join(f.check(), f.place.check())
	}
	if err != nil {
		return fail(e, "check", err)
	}
	var (
		in      *check.Input
		answers []answer
	)
	started := time.Now() // for the progress of a long check, on a terminal
	loading := e.after(time.Second, "rolloutctl check: loading the inputs...")
	if len(f.live.files) == 0 {
		// A bad document is a finding, and the rest is checked.
		f.input.namespace = f.live.namespace.name
		in, err = f.input.gather(e, "check", f.input.options.SkipValidation)
	} else {
		// So with --live: a refused manifest or apply, or a bad live
		// object, is a finding, and the rest is applied and checked.
		in, answers, err = f.live.gather(e, &f.input, "check")
	}
	if loading() && err == nil {
		fmt.Fprintf(e.stderr, "rolloutctl check: loaded %d Deployments in %s\n", len(in.Objects().Deployments), words.Duration(time.Since(started).Round(100*time.Millisecond)))
	}
	if err != nil {
		return fail(e, "check", err)
	}
	f.wd, _ = os.Getwd()
	cfg := f.config()
	var progress *progress
	checking := time.Now()
	e.memory.keep()
	cfg.Progress = func(done, total int64) {
		e.memory.follow()
		if !e.stderrTerminal || time.Since(checking) < time.Second {
			return
		}
		if progress == nil {
			progress = newProgress(e.stderr, "check:", "rollouts", total, checkProgressRuns)
		}
		progress.add(done - progress.done)
	}
	stopWatch := e.memory.watch()
	out := check.Run(in, cfg)
	stopWatch()
	for _, line := range problemLines(inputFindings(out), f.input.maxSize) {
		fmt.Fprintf(e.stderr, "rolloutctl check: %s\n", line)
	}
	for _, n := range out.Notes {
		fmt.Fprintf(e.stderr, "rolloutctl check: note: %s\n", n)
	}
	if code := writeReports(e, "check", outs, func(format string, w io.Writer) error { return f.render(format, w, out, answers) }); code != exitOK {
		return code
	}
	switch {
	case out.BadInput():
		return exitBadInput
	case f.requireDeployments && len(out.Deployments) == 0:
		fmt.Fprintf(e.stderr, "rolloutctl check: no Deployment, and --require-deployments\n")
		return exitBadInput
	case !out.OK:
		return exitViolation
	case f.failOn == check.SeverityWarning && slices.ContainsFunc(out.Findings, func(v check.Finding) bool { return v.Severity == check.SeverityWarning }):
		return exitViolation
	case out.Limited():
		return exitLimit
	}
	return exitOK
}
