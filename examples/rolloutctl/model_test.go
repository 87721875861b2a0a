package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDefaultModelIsControllers: every command that simulates runs the
// controllers model by default (issue 23) and says so in its header, with
// the clients' limits that --kube-api-qps and --kube-api-burst set; the
// older models stay a flag away.
func TestDefaultModelIsControllers(t *testing.T) {
	const controllers = "the Deployment and ReplicaSet controllers as they run (kube-api-qps 20, kube-api-burst 30)"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate"}, controllers},
		{[]string{"check", "-f", "testdata/nginx-deployment.yaml"}, controllers},
		{[]string{"simulate", "--kube-api-qps", "50", "--kube-api-burst", "100"}, "controllers as they run (kube-api-qps 50, kube-api-burst 100)"},
		{[]string{"simulate", "--kube-api-qps", "-1"}, "controllers as they run (no client rate limit)"},
		{[]string{"simulate", "--model", "interval"}, "a sync every 30s"},
		{[]string{"simulate", "--model", "interval", "--interval", "10s"}, "a sync every 10s"},
		{[]string{"simulate", "--model", "event"}, "a sync at each change"},
		{[]string{"simulate", "--interval", "30s"}, "a sync every 30s"},
	} {
		r := runDefault(t, nil, tt.args...)
		r.wantCode(t, tt.args, exitOK)
		model := ""
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "pod model: ") {
				model = l
				break
			}
		}
		if !strings.HasSuffix(model, tt.want) {
			t.Errorf("run(%q) header %q, want it to end with %q", tt.args, model, tt.want)
		}
	}
}

// TestModelFlagErrors: the model's flags refuse what they cannot mean.
func TestModelFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"simulate", "--model", "fast"},
		{"simulate", "--model", "controllers", "--interval", "30s"},
		{"simulate", "--kube-api-qps", "0"},
		{"simulate", "--kube-api-burst", "0"},
		{"check", "-f", "testdata/nginx-deployment.yaml", "--model", "controllers", "--interval", "1m"},
	} {
		r := runDefault(t, nil, args...)
		if r.code == exitOK || r.stderr == "" {
			t.Errorf("run(%q) = %d, stderr %q; want an error", args, r.code, r.stderr)
		}
	}
}

// TestDefaultSimulationPassesTheCeiling is issue 23's point on peaks: the
// real controllers create the new ReplicaSet's pods while the old ones
// still await deletion, so the peak may pass replicas + maxSurge (real
// runs of this rollout: 13 to 14); the summary says so with the range of
// the races.
func TestDefaultSimulationPassesTheCeiling(t *testing.T) {
	r := runDefault(t, nil, "simulate")
	r.wantCode(t, []string{"simulate"}, exitOK)
	if !strings.Contains(r.stdout, "peak pods:     13 (13 to 15 as the controllers race; ceiling 13)") {
		t.Errorf("simulate summary:\n%s\nwant peak pods 13, 13 to 15 as the controllers race", r.stdout)
	}
}

// TestCheckSamplesLongRanges: an HPA range of 2..5000 under the default
// model is checked at 128 counts, and the output says so (issue 23: the
// range took 210s).
func TestCheckSamplesLongRanges(t *testing.T) {
	args := []string{"check", "-f", "testdata/nginx-deployment.yaml", "--replicas", "2..5000"}
	r := runDefault(t, nil, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "OK   nginx-deployment replicas=2..5000 (128 rollouts sampled from 4999 counts)") {
		t.Errorf("check printed:\n%s\nwant 128 rollouts sampled from 4999 counts", r.stdout)
	}
}

// TestCheckRangeSharesMaxWork: the counts of a range share --max-work
// (issue 23: a range whose counts each ran to the limit took minutes).
// With a budget the range cannot fit, the larger counts stop at the
// limit, each with a limit finding (the first in full, the others named
// after it), and a line says which counts were computed to the end and
// which were projected.
func TestCheckRangeSharesMaxWork(t *testing.T) {
	args := []string{"check", "-f", "testdata/nginx-deployment.yaml", "--replicas", "2..5000", "--max-work", "20000"}
	r := runDefault(t, nil, args...)
	r.wantCode(t, args, exitLimit)
	want := regexp.MustCompile(`(?m)^LIMIT nginx-deployment replicas=2\.\.5000 \(128 rollouts sampled from 4999 counts\): (\d+) computed to the end, (\d+) stopped at the work limit \(--max-work, shared by the range's counts\) and projected: \d+ to 5000$`)
	m := want.FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("check printed:\n%s\nwant a line of the computed and projected counts", r.stdout)
	}
	also := regexp.MustCompile(`(?m)^     also at replicas \d+ to 5000 \((\d+) more counts, each with its own figures in -o json\)$`).FindStringSubmatch(r.stdout)
	limits := strings.Count(r.stdout, "\nLIMIT nginx-deployment replicas=") - 1
	if also == nil || limits != 1 || m[2] != strconv.Itoa(1+atoi(t, also[1])) || m[1] == "0" {
		t.Errorf("check printed:\n%s\n%s counts computed, %s projected, and %d limit findings named %v: want some computed, a finding per projected count", r.stdout, m[1], m[2], limits, also)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
