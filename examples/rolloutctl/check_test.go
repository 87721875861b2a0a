package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

func TestCheckPasses(t *testing.T) {
	args := []string{"check", "-f", manifestPath("three-deployments.yaml")}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	want := checkHead + `OK   shop/frontend replicas=6: peak pods 8, min available 5, complete in 2m30s
OK   shop/api replicas=4: peak pods 5, min available 4, complete in 4m
OK   shop/worker replicas=20: peak pods 22, min available 18, complete in 5m30s
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("check mismatch (-want +got):\n%s", diff)
	}
}

// Each case lists the lines check must print, in order; exit 1 unless
// only warnings.
func TestCheckViolations(t *testing.T) {
	three := manifestPath("three-deployments.yaml")
	tests := []struct {
		name string
		args []string
		code int
		want []string // each the start of an output line, in order
	}{
		{
			name: "limits",
			args: []string{"-f", three, "--max-pods", "7", "--min-available", "90%", "--max-duration", "2m"},
			code: exitViolation,
			want: []string{
				"FAIL shop/frontend replicas=6 at +30s: max-pods: 8 pods exist, above the max-pods limit 7 (peak 8)",
				"FAIL shop/frontend replicas=6 at +1m: min-available: 5 pods available, below the min-available limit 6 (lowest 5)",
				"FAIL shop/frontend replicas=6 at +2m: max-duration: the rollout takes 2m30s, longer than the max-duration limit 2m",
				"FAIL shop/api replicas=4 at +2m: max-duration: the rollout takes 4m,",
				"FAIL shop/worker replicas=20 at +0s (input): max-pods: the input already has 20 pods, above the max-pods limit 7, before the first sync",
				"FAIL shop/worker replicas=20 at +30s: max-pods: 22 pods exist, above the max-pods limit 7 (peak 22)",
				"FAIL shop/worker replicas=20 at +2m: max-duration: the rollout takes 5m30s",
			},
		},
		{
			name: "quota without headroom and maxUnavailable 0",
			args: []string{"-f", three, "--quota-pods", "5"},
			code: exitViolation,
			want: []string{
				"FAIL shop/frontend replicas=6 at +1m: never-finishes: the rollout can never finish: blocked by quota",
				"FAIL shop/frontend replicas=6 at +11m: progress-deadline: progress deadline exceeded",
				"OK   shop/api replicas=4",
				"FAIL shop/worker replicas=20 at +1m: never-finishes: the rollout can never finish: blocked by quota",
				"FAIL shop/worker replicas=20 at +6m: progress-deadline",
			},
		},
		{
			name: "quota of exactly the replicas",
			args: []string{"-f", three, "--quota-pods", "4", "--replicas", "4"},
			code: exitViolation,
			want: []string{
				// 25% of 4: maxUnavailable 1, so the rollout goes on, throttled.
				"WARN shop/frontend replicas=4 at +1m: quota-throttles: a pod quota of 4: the quota refused pods 3 times",
				"OK   shop/frontend replicas=4: peak pods 4, min available 4, complete in 3m30s",
				"FAIL shop/api replicas=4 at +30s: never-finishes: the rollout can never finish: the quota of 4 pods leaves no room above 4 replicas for a surge pod, and maxUnavailable is 0",
				"FAIL shop/api replicas=4 at +10m30s: progress-deadline",
				"FAIL shop/worker replicas=4",
				"FAIL shop/worker replicas=4",
			},
		},
		{
			name: "new pods never ready",
			args: []string{"-f", three, "--never-ready", "new"},
			code: exitViolation,
			want: []string{
				"FAIL shop/frontend replicas=6 at +1m: never-finishes: the rollout can never finish: stuck: new pods never become ready",
				"FAIL shop/frontend replicas=6 at +11m30s: progress-deadline",
				"FAIL shop/api replicas=4 at +30s: never-finishes: the rollout can never finish: maxUnavailable is 0 and the new pods never become ready, so no old pod may go",
				"FAIL shop/api replicas=4 at +11m: progress-deadline",
				"FAIL shop/worker replicas=20 at +1m: never-finishes",
				"FAIL shop/worker replicas=20 at +6m30s: progress-deadline",
			},
		},
		{
			name: "the marker image never ready",
			args: []string{"-f", manifestPath("one-replica-surge-zero.yaml"), "--never-ready", check.MarkerImage},
			code: exitViolation,
			want: []string{
				"WARN singleton replicas=1 at +0s: full-outage",
				"FAIL singleton replicas=1 at +1m: never-finishes: the rollout can never finish: stuck: new pods never become ready (ReplicaSet singleton-",
				"FAIL singleton replicas=1 at +11m30s: progress-deadline",
			},
		},
		{
			name: "slow pods: deadline exceeded, yet the rollout finishes",
			args: []string{"-f", manifestPath("recreate.yaml"), "--ready-after", "12m"},
			code: exitViolation,
			want: []string{"FAIL reports replicas=3 at +11m30s: progress-deadline: progress deadline exceeded: ReplicaSet"},
		},
		{
			name: "one replica, surge 0: a warning",
			args: []string{"-f", manifestPath("one-replica-surge-zero.yaml")},
			code: exitOK,
			want: []string{
				"WARN singleton replicas=1 at +0s: full-outage: maxSurge 0 and maxUnavailable 25% both round to 0 for 1 replica, so maxUnavailable becomes 1: the only pod goes down during the rollout",
				"OK   singleton replicas=1: peak pods 1, min available 0, complete in 1m",
			},
		},
		{
			name: "one replica, surge 0, min available 1",
			args: []string{"-f", manifestPath("one-replica-surge-zero.yaml"), "--min-available", "1"},
			code: exitViolation,
			want: []string{
				"FAIL singleton replicas=1 at +0s: min-available: 0 pods available, below the min-available limit 1",
				"WARN singleton replicas=1 at +0s: full-outage",
			},
		},
		{
			name: "Recreate stops every pod",
			args: []string{"-f", manifestPath("recreate.yaml"), "--min-available", "1"},
			code: exitViolation,
			want: []string{"FAIL reports replicas=3 at +0s: min-available: 0 pods available, below the min-available limit 1 (lowest 0)"},
		},
		{
			name: "mid-rollout: the template as given",
			args: []string{"-f", manifestPath("web-mid-rollout.yaml"), "--never-ready", "nginx:1.9.3"},
			code: exitViolation,
			want: []string{
				"FAIL web replicas=10 at +1m: never-finishes: the rollout can never finish: stuck: new pods never become ready (ReplicaSet web-65588c57d8 has 5 of 10 pods available",
				"FAIL web replicas=10 at +11m30s: progress-deadline",
			},
		},
		{
			name: "a range",
			args: []string{"-f", manifestPath("one-replica-surge-zero.yaml"), "--replicas", "1..3"},
			code: exitOK,
			want: []string{
				"WARN singleton replicas=1 at +0s: full-outage",
				"OK   singleton replicas=1..3 (3 rollouts): peak pods 3, min available 0, longest 3m",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLines(t, "", tt.code, tt.want, tt.args...)
		})
	}
}

// checkLines runs check with args and stdin and compares its exit code
// and the start of each line it prints.
func checkLines(t *testing.T, stdin string, code int, want []string, args ...string) {
	t.Helper()
	args = append([]string{"check"}, args...)
	r := runCLI(t, stdin, args...)
	r.wantCode(t, args, code)
	lines := strings.Split(strings.TrimSuffix(afterModel(t, r.stdout), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("run(%q) printed %d lines, want %d:\n%s", args, len(lines), len(want), r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("run(%q) line %d:\n got %s\nwant %s...", args, i+1, lines[i], w)
		}
	}
}

// oneByOne is a Deployment of n replicas rolled out one pod at a time.
func oneByOne(n int) string {
	return fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "slow"}, "spec": {"replicas": %d,
		"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
		"selector": {"matchLabels": {"app": "slow"}}, "template": {"metadata": {"labels": {"app": "slow"}},
		"spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}`, n)
}

// TestCheckSlowRolloutIsNotImpossible is issue 11's defect 2: with 1440
// replicas one pod at a time, check said "the rollout can never finish",
// because the simulation stopped at 24 hours; 100,000 replicas failed the
// same way. Both complete, and quickly: the regular phase is
// fast-forwarded.
func TestCheckSlowRolloutIsNotImpossible(t *testing.T) {
	checkLines(t, oneByOne(1440), exitOK, []string{"OK   slow replicas=1440: peak pods 1441, min available 1440, complete in 24h"})
	checkLines(t, oneByOne(100000), exitOK, []string{"OK   slow replicas=100000: peak pods 100001, min available 100000, complete in 69d10h40m"})
	checkLines(t, oneByOne(1440), exitViolation, []string{"FAIL slow replicas=1440 at +12h: max-duration: the rollout takes 24h, longer than the max-duration limit 12h"},
		"--max-duration", "12h")
}

// TestCheckNeverFinishesIsProved: "can never finish" is said only where
// the simulation stopped with nothing left to happen: pods that never
// become ready with maxUnavailable 0, a quota below the surge, a paused
// Deployment.
func TestCheckNeverFinishesIsProved(t *testing.T) {
	checkLines(t, oneByOne(3), exitViolation, []string{
		"FAIL slow replicas=3 at +30s: never-finishes: the rollout can never finish: maxUnavailable is 0 and the new pods never become ready, so no old pod may go",
		"FAIL slow replicas=3 at +11m: progress-deadline"}, "--never-ready", "new")
	checkLines(t, oneByOne(3), exitViolation, []string{
		"FAIL slow replicas=3 at +30s: never-finishes: the rollout can never finish: the quota of 3 pods leaves no room above 3 replicas for a surge pod, and maxUnavailable is 0",
		"FAIL slow replicas=3 at +10m30s: progress-deadline"}, "--quota-pods", "3")
	paused := strings.Replace(oneByOne(3), `"replicas": 3,`, `"replicas": 3, "paused": true,`, 1)
	checkLines(t, paused, exitViolation, []string{
		"FAIL slow replicas=3 at +0s: never-finishes: the rollout can never finish: Deployment slow is paused, so nothing rolls out until it is resumed"})
}

// TestCheckLimitIsNotAVerdict: a simulation that stops at --max-work
// before its rollout ends decides nothing: a LIMIT line, exit 3 (exit 1
// if another rule broke), and no OK line.
func TestCheckLimitIsNotAVerdict(t *testing.T) {
	want := "LIMIT slow replicas=20 at +1m30s: limit: the simulation stopped at its limit of 4 units of work (controller syncs and pod writes taken one by one, and the pods they walk) before the rollout ended"
	checkLines(t, oneByOne(20), exitLimit, []string{want}, "--max-work", "4")
	checkLines(t, oneByOne(20), exitViolation, []string{
		"FAIL slow replicas=20 at +0s: max-pods: 21 pods exist, above the max-pods limit 20 (peak 21)", want}, "--max-work", "4", "--max-pods", "20")
}

// TestWorkLimitWordedAsUnits: --max-work counts units of work (sim.Cost.Work:
// the syncs computed one by one, and under the controllers model a unit
// for every 2 cohorts of pods beyond 256 that an event walks), and every
// command that takes it says so in its help, as check's LIMIT line does
// (TestCheckLimitIsNotAVerdict): none says "N syncs" alone.
func TestWorkLimitWordedAsUnits(t *testing.T) {
	for _, name := range []string{"simulate", "check", "undo"} {
		r := runCLI(t, "", name, "-h")
		r.wantCode(t, []string{name, "-h"}, exitOK)
		flat := strings.Join(strings.Fields(r.stdout), " ")
		if !strings.Contains(flat, "-max-work N stop a simulation after N units of work: syncs computed one by one") ||
			!strings.Contains(flat, "a unit per 4,096 cohorts of pods beyond 256 that one event holds") {
			t.Errorf("%s -h does not word --max-work as units of work:\n%s", name, r.stdout)
		}
		if name != "undo" && !strings.Contains(flat, "--max-work units of work (controller syncs and pod writes taken one by one, and the pods they walk)") &&
			!strings.Contains(flat, "--max-work units of work: controller syncs and pod writes taken one by one, and the pods they walk") {
			t.Errorf("%s -h: its text does not word --max-work as units of work:\n%s", name, r.stdout)
		}
		if strings.Contains(flat, "--max-work syncs") {
			t.Errorf("%s -h words --max-work as syncs:\n%s", name, r.stdout)
		}
	}
}

// TestCheckDurationEndsAtCompletion is issue 11's defect 3 in check: the
// seed example completes at +2m30s, so --max-duration 2m30s passes.
func TestCheckDurationEndsAtCompletion(t *testing.T) {
	checkLines(t, string(defaultManifest), exitOK, []string{"OK   nginx-deployment replicas=10: peak pods 13, min available 8, complete in 2m30s"}, "--max-duration", "2m30s")
	checkLines(t, string(defaultManifest), exitViolation, []string{"FAIL nginx-deployment replicas=10 at +2m29s: max-duration: the rollout takes 2m30s"}, "--max-duration", "2m29s")
}

// TestCheckReportsInputStateApart is issue 11's defect 4: pods the input
// held at the start were blamed on the rollout, at the end of the run
// ("8 pods existed between syncs"). They are reported at +0s as the
// input's; the rollout is blamed only for going further.
func TestCheckReportsInputStateApart(t *testing.T) {
	checkLines(t, "", exitViolation, []string{
		"FAIL web replicas=3 at +0s (input): max-pods: the input already has 13 pods, above the max-pods limit 7, before the first sync"},
		"-f", manifestPath("web-mid-rollout.yaml"), "--replicas", "3", "--max-pods", "7")
	r := runCLI(t, "", "check", "-o", "json", "-f", manifestPath("web-mid-rollout.yaml"), "--replicas", "3", "--max-pods", "7")
	var out check.Report
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Findings) != 1 || out.Findings[0].Cause != check.CauseInput {
		t.Errorf("check -o json: %v, %+v; want one violation caused by the input", err, out.Findings)
	}
}

// TestCheckOutputInInputOrderWhateverWorkers: check runs rollouts at once
// on --workers goroutines and prints them in input order all the same.
func TestCheckOutputInInputOrderWhateverWorkers(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d%02d"}, "spec": {"replicas": %d,
			"strategy": {"rollingUpdate": {"maxSurge": %d, "maxUnavailable": 0}},
			"selector": {"matchLabels": {"app": "a"}}, "template": {"metadata": {"labels": {"app": "a"}},
			"spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}`+"\n", i, 1+i%13, 1+i%3)
	}
	args := []string{"check", "--max-pods", "12", "--max-duration", "3m", "--replicas", "1..6"}
	one := runCLI(t, b.String(), append(args, "--workers", "1")...)
	many := runCLI(t, b.String(), append(args, "--workers", "7")...)
	if one.code != exitViolation || one.stdout != many.stdout || one.stderr != many.stderr {
		t.Errorf("--workers 1 and 7 differ (exit %d, %d):\n%s\n---\n%s", one.code, many.code, one.stdout, many.stdout)
	}
	body := afterModel(t, one.stdout)
	if strings.Index(body, " d00 ") != 4 || !strings.Contains(one.stdout, "OK   d59 ") || strings.Index(one.stdout, "d58") > strings.Index(one.stdout, "d59") {
		t.Errorf("output not in input order:\n%s", one.stdout)
	}
}

// TestCheckOutageWarning is issue 11's defect 12: the warning said
// "forces maxUnavailable to 1" even when the user set 1, and
// maxUnavailable 100% got none.
func TestCheckOutageWarning(t *testing.T) {
	all := strings.Replace(oneByOne(4), `"maxSurge": 1, "maxUnavailable": 0`, `"maxSurge": 1, "maxUnavailable": "100%"`, 1)
	checkLines(t, all, exitOK, []string{
		"WARN slow replicas=4 at +0s: full-outage: maxUnavailable 100% lets all 4 replicas be unavailable at once: every pod may go down during the rollout",
		"OK   slow replicas=4"})
	one := strings.Replace(oneByOne(1), `"maxSurge": 1, "maxUnavailable": 0`, `"maxSurge": 0, "maxUnavailable": 1`, 1)
	checkLines(t, one, exitOK, []string{
		"WARN slow replicas=1 at +0s: full-outage: maxUnavailable 1 lets the only replica be unavailable: its pod goes down during the rollout",
		"OK   slow replicas=1"})
}

func TestCheckJSON(t *testing.T) {
	args := []string{"check", "-o", "json", "-f", manifestPath("three-deployments.yaml"), "--max-pods", "7"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	var out check.Report
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run(%q): %v\n%s", args, err, r.stdout)
	}
	file := manifestPath("three-deployments.yaml")
	rules := []string{check.RuleNeverFinish, check.RuleDeadline, check.RuleDeadlineMargin, check.RuleOutage, check.RuleMaxPods}
	dep := func(name string, line int) check.Location {
		return check.Location{File: file, Line: line, Field: "metadata.name", Object: "Deployment shop/" + name, Written: true}
	}
	want := check.Report{
		OK:         false,
		Kubernetes: "Kubernetes 1.37",
		PodModel:   podModelFromTemplates,
		Notes:      []string{"not checked (only Deployments roll out here): 1 Service"},
		Deployments: []check.Result{
			{Deployment: "shop/frontend", MinReplicas: 6, MaxReplicas: 6, Rollouts: 1, OK: false, PeakPods: 8, MinAvailable: 5, Longest: 150, Completed: 1, Rules: rules, Location: dep("frontend", 6)},
			{Deployment: "shop/api", MinReplicas: 4, MaxReplicas: 4, Rollouts: 1, OK: true, PeakPods: 5, MinAvailable: 4, Longest: 240, Completed: 1, Rules: rules, Location: dep("api", 45)},
			{Deployment: "shop/worker", MinReplicas: 20, MaxReplicas: 20, Rollouts: 1, OK: false, PeakPods: 22, MinAvailable: 18, Longest: 330, Completed: 1, Rules: rules, Location: dep("worker", 75)},
		},
		Findings: []check.Finding{
			{Deployment: "shop/frontend", Replicas: 6, Rule: check.RuleMaxPods, Severity: "error", At: 30, Cause: check.CauseRollout, Message: "8 pods exist, above the max-pods limit 7 (peak 8)",
				// The manifest leaves the strategy out: the line of spec.
				Location: check.Location{File: file, Line: 10, Field: "spec.strategy.rollingUpdate.maxSurge", Object: "Deployment shop/frontend"}},
			{Deployment: "shop/worker", Replicas: 20, Rule: check.RuleMaxPods, Severity: "error", At: 0, Cause: check.CauseInput, Message: "the input already has 20 pods, above the max-pods limit 7, before the first sync",
				Location: check.Location{File: file, Line: 80, Field: "spec.replicas", Object: "Deployment shop/worker", Written: true}},
			{Deployment: "shop/worker", Replicas: 20, Rule: check.RuleMaxPods, Severity: "error", At: 30, Cause: check.CauseRollout, Message: "22 pods exist, above the max-pods limit 7 (peak 22)",
				Location: check.Location{File: file, Line: 84, Field: "spec.strategy.rollingUpdate.maxSurge", Object: "Deployment shop/worker", Written: true}},
		},
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("check -o json mismatch (-want +got):\n%s", diff)
	}
}

func TestCheckProgress(t *testing.T) {
	args := []string{"check", "-f", manifestPath("recreate.yaml"), "--replicas", "0..149"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	// Progress is for a terminal, after a second (TestIssue27ProgressOnlyOnATerminal).
	if r.stderr != "" {
		t.Errorf("progress lines on a stderr that is no terminal:\n%s", r.stderr)
	}
	if !strings.HasPrefix(afterModel(t, r.stdout), "OK   reports replicas=0..149 (150 rollouts)") {
		t.Errorf("output: %s", r.stdout)
	}
}

// podModelFromTemplates is check's pod model line without --ready-after,
// --terminating and a quota, under --model interval (which runWith adds):
// each Deployment's pods ready and terminating as its template says.
const podModelFromTemplates = "pod model: pods ready as each template's probes say, deleted pods terminate as each template's preStop sleep and grace period say, no pod quota, a sync every 30s"

// checkHead is the head of check's text report without version, pod time
// and quota flags: the Kubernetes minor (the newest by default), then
// the pod model.
const checkHead = "Kubernetes 1.37\n" + podModelFromTemplates + "\n"

// afterModel returns check's text output after its head, whose first line
// must name the Kubernetes minors and whose second the pod model.
func afterModel(t *testing.T, out string) string {
	t.Helper()
	version, rest, _ := strings.Cut(out, "\n")
	model, rest, _ := strings.Cut(rest, "\n")
	if !strings.HasPrefix(version, "Kubernetes 1.") || !strings.HasPrefix(model, "pod model: ") {
		t.Errorf("output does not start with the Kubernetes minor and the pod model:\n%s", out)
	}
	return rest
}

// TestOutageNamesTheFieldToChange: a single replica that maxUnavailable 1
// lets go down is fixed in maxUnavailable; one that goes down because
// both limits round to 0 is fixed by a surge pod, in maxSurge.
func TestOutageNamesTheFieldToChange(t *testing.T) {
	deployment := func(surge, unavailable string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: solo
spec:
  replicas: 1
  selector:
    matchLabels: {app: solo}
  strategy:
    rollingUpdate:
      maxSurge: ` + surge + `
      maxUnavailable: ` + unavailable + `
  template:
    metadata:
      labels: {app: solo}
    spec:
      containers:
      - name: solo
        image: solo:2
`
	}
	for _, tt := range []struct {
		surge, unavailable string
		want               check.Location
	}{
		{"1", "1", check.Location{Line: 12, Field: "spec.strategy.rollingUpdate.maxUnavailable"}},
		{"0%", "10%", check.Location{Line: 11, Field: "spec.strategy.rollingUpdate.maxSurge"}},
	} {
		file := filepath.Join(t.TempDir(), "solo.yaml")
		if err := os.WriteFile(file, []byte(deployment(tt.surge, tt.unavailable)), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"check", "-o", "json", "-f", file}
		r := runCLI(t, "", args...)
		var out check.Report
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("run(%q): %v\n%s%s", args, err, r.stdout, r.stderr)
		}
		if len(out.Findings) != 1 || out.Findings[0].Rule != check.RuleOutage {
			t.Fatalf("run(%q) violations = %+v, want one %s", args, out.Findings, check.RuleOutage)
		}
		tt.want.File, tt.want.Object, tt.want.Written = file, "Deployment solo", true
		if diff := cmp.Diff(tt.want, out.Findings[0].Location); diff != "" {
			t.Errorf("maxSurge %s, maxUnavailable %s: location mismatch (-want +got):\n%s", tt.surge, tt.unavailable, diff)
		}
	}
}

// TestCheckJSONTellsCompleteAtOnceFromNone: longestSeconds is 0 both for
// a rollout complete at once (the seed example under --model event, pods
// ready at once) and where no rollout completed (new pods that never
// become ready, maxUnavailable 0); "completed", always written, tells
// them apart, and longestSeconds keeps its meaning.
func TestCheckJSONTellsCompleteAtOnceFromNone(t *testing.T) {
	tests := []struct {
		name      string
		stdin     string
		args      []string
		code      int
		longest   float64
		completed int64
		rollouts  int64
	}{
		{"complete at once", string(defaultManifest), []string{"--model", "event"}, exitOK, 0, 1, 1},
		{"none complete", oneByOne(3), []string{"--never-ready", check.MarkerImage}, exitViolation, 0, 0, 1},
		{"complete in 3m each, a range", "", []string{"-f", manifestPath("one-replica-surge-zero.yaml"), "--replicas", "1..3"}, exitOK, 180, 3, 3},
		{"none complete, a range", oneByOne(3), []string{"--replicas", "1..3", "--never-ready", check.MarkerImage}, exitViolation, 0, 0, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"check", "-o", "json"}, tt.args...)
			var stdin io.Reader // a terminal: -f
			if tt.stdin != "" {
				stdin = strings.NewReader(tt.stdin)
			}
			r := runWith(t, stdin, args...)
			r.wantCode(t, args, tt.code)
			var out struct {
				Deployments []map[string]json.RawMessage `json:"deployments"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Deployments) != 1 {
				t.Fatalf("run(%q): %v\n%s", args, err, r.stdout)
			}
			d := out.Deployments[0]
			var longest float64
			var completed, rollouts int64
			for key, v := range map[string]any{"longestSeconds": &longest, "completed": &completed, "rollouts": &rollouts} {
				raw, ok := d[key]
				if !ok {
					t.Fatalf("run(%q): no %q in %s", args, key, r.stdout)
				}
				if err := json.Unmarshal(raw, v); err != nil {
					t.Fatalf("run(%q): %q: %v", args, key, err)
				}
			}
			if longest != tt.longest || completed != tt.completed || rollouts != tt.rollouts {
				t.Errorf("run(%q): longestSeconds %g, completed %d of %d rollouts; want %g, %d of %d", args, longest, completed, rollouts, tt.longest, tt.completed, tt.rollouts)
			}
		})
	}
}

// TestCheckOKLineWithoutACompletion: the OK line says "complete in 0s"
// only for a rollout that completed at once; one that did not is "not
// complete" (for a range, "none complete"), as check -o json's completed
// says.
func TestCheckOKLineWithoutACompletion(t *testing.T) {
	one := check.Result{Deployment: "web", MinReplicas: 3, MaxReplicas: 3, Rollouts: 1, OK: true, PeakPods: 4, MinAvailable: 3}
	many := one
	many.MaxReplicas, many.Rollouts = 5, 3
	tests := []struct {
		name      string
		r         check.Result
		completed int64
		want      string
	}{
		{"one, at once", one, 1, "OK   web replicas=3: peak pods 4, min available 3, complete in 0s\n"},
		{"one, not complete", one, 0, "OK   web replicas=3: peak pods 4, min available 3, not complete\n"},
		{"a range, at once", many, 3, "OK   web replicas=3..5 (3 rollouts): peak pods 4, min available 3, longest 0s\n"},
		{"a range, none complete", many, 0, "OK   web replicas=3..5 (3 rollouts): peak pods 4, min available 3, none complete\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.r.Completed = tt.completed
			var b strings.Builder
			writeOK(&b, tt.r)
			if b.String() != tt.want {
				t.Errorf("writeOK = %q, want %q", b.String(), tt.want)
			}
		})
	}
}

// TestCheckRangeFindingsALineARule: over a replica range, the text report
// writes a rule's finding at the first count it is broken at in full and
// names the other counts in one line after it (a range of 5,000 counts
// wrote 5,000 lines a rule), while -o json keeps a finding for each
// count. The default strategy (25%/25%) leaves a pod unavailable from 4
// replicas on, so --min-available 100% breaks at 4..12 of 1..12.
func TestCheckRangeFindingsALineARule(t *testing.T) {
	dep := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 3,
		"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
		"spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}`
	args := []string{"--replicas", "1..12", "--min-available", "100%", "--ready-after", "5s"}
	checkLines(t, dep, exitViolation, []string{
		"FAIL web replicas=4 at ",
		"     also at replicas 5..12 (8 more counts, each with its own figures in -o json)",
	}, args...)
	r := runCLI(t, dep, append([]string{"check", "-o", "json"}, args...)...)
	var out struct {
		Violations []struct {
			Rule     string `json:"rule"`
			Replicas int32  `json:"replicas"`
		} `json:"violations"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("-o json: %v\n%s", err, r.stdout)
	}
	var counts []int32
	for _, f := range out.Violations {
		if f.Rule == "min-available" {
			counts = append(counts, f.Replicas)
		}
	}
	if want := []int32{4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(counts, want) {
		t.Errorf("-o json's min-available findings at replicas %v, want %v", counts, want)
	}
}
