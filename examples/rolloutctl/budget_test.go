package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCheckTimeoutAndDrainEveryFormat: --timeout and --drain-pods give
// their findings at the right file and line in the text, github, SARIF
// and JUnit reports: the timeout at search.yaml's progressDeadlineSeconds
// (line 8), the margin warning there too, and the drain of a node holding
// 2 of api's pods at drain.yaml's maxUnavailable (line 11), which a drain
// of 1 pod does not break; the note that the budget does not gate the
// rollout is on stderr, and in the github and SARIF reports too.
func TestCheckTimeoutAndDrainEveryFormat(t *testing.T) {
	// The default model, the controllers as they run, as the manual shows.
	files := []string{"--model", "controllers", "-f", "testdata/budget/search.yaml", "-f", "testdata/budget/drain.yaml"}
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"text", []string{
			"FAIL shop/search replicas=6 at +5m: timeout: the rollout is expected to take 10m0.002s, longer than the timeout 5m",
			"[testdata/budget/search.yaml:8 spec.progressDeadlineSeconds; ",
			"WARN shop/search replicas=6 at +0s: progress-deadline-margin: wave 1 waits 1m40s for progress",
			"WARN shop/api replicas=6 at +2ms: pdb-drain-blocked: during the rollout the ready pods drop to 5 while PodDisruptionBudget api (minAvailable 4) keeps 4 of 6 pods ready: a drain of a node holding 2 of its pods is refused",
			"[testdata/budget/drain.yaml:11 spec.strategy.rollingUpdate.maxUnavailable; testdata/budget/drain.yaml:28 PodDisruptionBudget shop/api spec.minAvailable]",
		}},
		{"github", []string{
			"::error file=testdata/budget/search.yaml,line=8,title=rolloutctl timeout::shop/search replicas=6 at +5m: the rollout is expected to take 10m",
			"::warning file=testdata/budget/search.yaml,line=8,title=rolloutctl progress-deadline-margin::",
			"::warning file=testdata/budget/drain.yaml,line=11,title=rolloutctl pdb-drain-blocked::shop/api replicas=6 at +2ms: during the rollout",
			"::notice title=rolloutctl note::shop/api: the rollout is not gated by PodDisruptionBudget api",
		}},
		{"sarif", []string{
			`"ruleId": "timeout"`, `"ruleId": "pdb-drain-blocked"`, `"ruleId": "progress-deadline-margin"`,
			`"uri": "testdata/budget/search.yaml"`, `"startLine": 8`, `"startLine": 11`,
			"a drain of a node holding 2 of its pods is refused",
			`"toolExecutionNotifications"`, `"text": "shop/api: the rollout is not gated by PodDisruptionBudget api`,
		}},
		{"junit", []string{
			`<testcase name="timeout" classname="rolloutctl.check.shop/search" file="testdata/budget/search.yaml" line="8"`,
			"testdata/budget/search.yaml:8: spec.progressDeadlineSeconds: replicas=6 at +5m: the rollout is expected to take 10m",
			"testdata/budget/drain.yaml:11: spec.strategy.rollingUpdate.maxUnavailable: replicas=6 at +2ms: during the rollout the ready pods drop to 5",
		}},
	} {
		args := append([]string{"check", "-o", tc.format, "--timeout", "300s", "--drain-pods", "2"}, files...)
		r := runCLI(t, "", args...)
		r.wantCode(t, args, exitViolation)
		for _, w := range tc.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("check -o %s: no %q in\n%s", tc.format, w, r.stdout)
			}
		}
		if !strings.Contains(r.stderr, "shop/api: the rollout is not gated by PodDisruptionBudget api") {
			t.Errorf("check -o %s: no note that the budget does not gate the rollout in\n%s", tc.format, r.stderr)
		}
	}
	// One pod per node: the budget allows that eviction all along.
	args := []string{"check", "--drain-pods", "1", "--model", "controllers", "-f", "testdata/budget/drain.yaml"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	if strings.Contains(r.stdout, "pdb-drain-blocked") || !strings.Contains(r.stderr, "a drain of a node holding 1 pod at the worst moment (+2ms, at replicas 6) leaves 4 of the pods api selects ready") {
		t.Errorf("check --drain-pods 1:\n%s\n%s", r.stdout, r.stderr)
	}
	// The timeout is a duration, not negative; --drain-pods not negative.
	for _, bad := range [][]string{{"--timeout", "-1s"}, {"--drain-pods", "-1"}} {
		args := append(append([]string{"check"}, bad...), files...)
		runCLI(t, "", args...).wantCode(t, args, exitBadInput)
	}
}

// TestManualBudgetExamples keeps the manual's time budget (within and
// past the progress deadline) and drain examples true: what it shows for each command (run in
// testdata/budget) is what check prints, its notes on stderr after the
// report.
func TestManualBudgetExamples(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "-f", "search.yaml", "--timeout", "300s"},
		{"check", "-f", "drain.yaml", "--drain-pods", "2"},
		{"check", "-f", "indexer.yaml", "--timeout", "5m"},
	} {
		run := slices.Clone(args)
		run[2] = "testdata/budget/" + run[2]
		r := runDefault(t, nil, run...)
		out := strings.ReplaceAll(r.stdout, "testdata/budget/", "")
		for _, line := range strings.Split(r.stderr, "\n") {
			if strings.HasPrefix(line, "rolloutctl check: note: ") {
				out += line + "\n"
			}
		}
		want := "```\n$ rolloutctl " + strings.Join(args, " ") + "\n" + out + "```"
		if !strings.Contains(string(b), want) {
			t.Errorf("README.md does not show what `rolloutctl %s` prints; paste it again:\n%s", strings.Join(args, " "), want)
		}
	}
}
