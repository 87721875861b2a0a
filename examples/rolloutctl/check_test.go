package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckPasses(t *testing.T) {
	args := []string{"check", "-f", manifestPath("three-deployments.yaml")}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	want := `OK   shop/frontend replicas=6: peak pods 8, min available 5, complete in 2m30s
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
				"FAIL shop/frontend replicas=6 at +30s: max-pods: 8 pods exist, above --max-pods 7 (peak 8)",
				"FAIL shop/frontend replicas=6 at +1m: min-available: 5 pods available, below --min-available 6 (lowest 5)",
				"FAIL shop/frontend replicas=6 at +2m30s: max-duration: the rollout takes 2m30s, longer than --max-duration 2m",
				"FAIL shop/api replicas=4 at +2m30s: max-duration: the rollout takes 4m,",
				"FAIL shop/worker replicas=20 at +0s: max-pods: 20 pods exist, above --max-pods 7 (peak 22)",
				"FAIL shop/worker replicas=20 at +2m30s: max-duration: the rollout takes 5m30s",
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
				"OK   shop/frontend replicas=4: peak pods 4, min available 4, complete in 3m30s", // 25% of 4: maxUnavailable 1
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
			args: []string{"-f", manifestPath("one-replica-surge-zero.yaml"), "--never-ready", markerImage},
			code: exitViolation,
			want: []string{
				"WARN singleton replicas=1 at +0s: single-replica-outage",
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
				"WARN singleton replicas=1 at +0s: single-replica-outage: one replica with maxSurge 0 forces maxUnavailable to 1: the only pod goes down during the rollout",
				"OK   singleton replicas=1: peak pods 1, min available 0, complete in 1m",
			},
		},
		{
			name: "one replica, surge 0, min available 1",
			args: []string{"-f", manifestPath("one-replica-surge-zero.yaml"), "--min-available", "1"},
			code: exitViolation,
			want: []string{
				"FAIL singleton replicas=1 at +0s: min-available: 0 pods available, below --min-available 1",
				"WARN singleton replicas=1 at +0s: single-replica-outage",
			},
		},
		{
			name: "Recreate stops every pod",
			args: []string{"-f", manifestPath("recreate.yaml"), "--min-available", "1"},
			code: exitViolation,
			want: []string{"FAIL reports replicas=3 at +0s: min-available: 0 pods available, below --min-available 1 (lowest 0)"},
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
				"WARN singleton replicas=1 at +0s: single-replica-outage",
				"OK   singleton replicas=1..3 (3 rollouts): peak pods 3, min available 0, longest 3m",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"check"}, tt.args...)
			r := runCLI(t, "", args...)
			r.wantCode(t, args, tt.code)
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("run(%q) printed %d lines, want %d:\n%s", args, len(lines), len(tt.want), r.stdout)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("run(%q) line %d:\n got %s\nwant %s...", args, i+1, lines[i], w)
				}
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	args := []string{"check", "-o", "json", "-f", manifestPath("three-deployments.yaml"), "--max-pods", "7"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	var out checkJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run(%q): %v\n%s", args, err, r.stdout)
	}
	want := checkJSON{
		OK: false,
		Deployments: []checked{
			{Deployment: "shop/frontend", MinReplicas: 6, MaxReplicas: 6, Rollouts: 1, OK: false, PeakPods: 8, MinAvailable: 5, Longest: 150},
			{Deployment: "shop/api", MinReplicas: 4, MaxReplicas: 4, Rollouts: 1, OK: true, PeakPods: 5, MinAvailable: 4, Longest: 240},
			{Deployment: "shop/worker", MinReplicas: 20, MaxReplicas: 20, Rollouts: 1, OK: false, PeakPods: 22, MinAvailable: 18, Longest: 330},
		},
		Violations: []violation{
			{Deployment: "shop/frontend", Replicas: 6, Rule: ruleMaxPods, Severity: "error", At: 30, Message: "8 pods exist, above --max-pods 7 (peak 8)"},
			{Deployment: "shop/worker", Replicas: 20, Rule: ruleMaxPods, Severity: "error", At: 0, Message: "20 pods exist, above --max-pods 7 (peak 22)"},
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
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 10 || lines[0] != "check: 10% (15 of 150 rollouts)" || lines[9] != "check: 100% (150 of 150 rollouts)" {
		t.Errorf("progress lines:\n%s", r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "OK   reports replicas=0..149 (150 rollouts)") {
		t.Errorf("output: %s", r.stdout)
	}
}
