package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const defaultGolden = "testdata/simulate-default.golden"

// The default run's table (the controllers model since issue 23) is
// pinned; go test -run TestSimulateDefaultGolden -update rewrites it.
func TestSimulateDefaultGolden(t *testing.T) {
	r := runDefault(t, nil, "simulate")
	r.wantCode(t, []string{"simulate"}, exitOK)
	if *update {
		if err := os.WriteFile(defaultGolden, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(defaultGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), r.stdout); diff != "" {
		t.Errorf("simulate mismatch (-want +got):\n%s", diff)
	}
}

// simOut is simulate -o json, every field: the tests decode with
// DisallowUnknownFields to pin the documented shape.
type simOut struct {
	Title      string    `json:"title"`
	Kubernetes string    `json:"kubernetes"`
	PodModel   string    `json:"podModel"`
	PodTimes   []string  `json:"podTimes"`
	Policy     []string  `json:"policy"`
	Deployment string    `json:"deployment"`
	Namespace  string    `json:"namespace"`
	Start      time.Time `json:"start"`
	Initial    stepOut   `json:"initial"`
	Steps      []stepOut `json:"steps"`
	Summary    struct {
		Outcome        string  `json:"outcome"`
		Detail         string  `json:"detail"`
		Duration       float64 `json:"durationSeconds"`
		LastChange     float64 `json:"lastChangeSeconds"`
		DeadlineAt     float64 `json:"deadlineExceededSeconds"`
		CompleteAfter  float64 `json:"completeAfterDeadlineSeconds"`
		Syncs          int     `json:"syncs"`
		FastForwarded  int     `json:"fastForwarded"`
		PeakDesired    int64   `json:"peakDesired"`
		PeakPods       int64   `json:"peakPods"`
		PeakPodsAt     float64 `json:"peakPodsAtSeconds"`
		Ceiling        int64   `json:"ceiling"`
		MinAvailable   int64   `json:"minAvailable"`
		MinAvailableAt float64 `json:"minAvailableAtSeconds"`
		PeakPodsLow    int64   `json:"peakPodsLow"`
		PeakPodsHigh   int64   `json:"peakPodsHigh"`
		MinAvailHigh   int64   `json:"minAvailableHigh"`
		Floor          int32   `json:"floor"`
		BelowFloor     float64 `json:"belowFloorSeconds"`
		FailedCreates  int     `json:"failedCreates"`
		UpToDeadline   *struct {
			PeakPods       int64   `json:"peakPods"`
			PeakPodsAt     float64 `json:"peakPodsAtSeconds"`
			Ceiling        int64   `json:"ceiling"`
			MinAvailable   int64   `json:"minAvailable"`
			MinAvailableAt float64 `json:"minAvailableAtSeconds"`
			PeakPodsLow    int64   `json:"peakPodsLow"`
			PeakPodsHigh   int64   `json:"peakPodsHigh"`
			MinAvailHigh   int64   `json:"minAvailableHigh"`
			Floor          int32   `json:"floor"`
		} `json:"upToDeadline"`
	} `json:"summary"`
}

type stepOut struct {
	At       time.Time `json:"at"`
	Offset   float64   `json:"offsetSeconds"`
	Replicas int32     `json:"replicas"`
	Floor    int32     `json:"floor"`
	Ceiling  int64     `json:"ceiling"`
	Sets     []struct {
		Name                                            string
		Revision                                        string
		New                                             bool
		Desired, Current, Ready, Available, Terminating int32
	} `json:"sets"`
	Actions []struct {
		Type       string `json:"type"`
		ReplicaSet string `json:"replicaSet"`
		From       *int32 `json:"from"`
		To         *int32 `json:"to"`
		Event      string `json:"event"`
		Reason     string `json:"reason"`
	} `json:"actions"`
	Conditions []struct {
		Type, Status, Reason, Message      string
		LastUpdateTime, LastTransitionTime time.Time
	} `json:"conditions"`
	Error string `json:"error"`
}

func simulateJSON(t *testing.T, stdin string, args ...string) simOut {
	t.Helper()
	args = append([]string{"simulate", "-o", "json"}, args...)
	r := runCLI(t, stdin, args...)
	r.wantCode(t, args, exitOK)
	var out simOut
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("run(%q): %v\n%s", args, err, r.stdout)
	}
	return out
}

// sizes returns the (new, old) desired counts after each step, without
// repeats.
func sizes(out simOut) [][2]int32 {
	var seq [][2]int32
	for _, st := range out.Steps {
		var p [2]int32
		for _, s := range st.Sets {
			if s.New {
				p[0] += s.Desired
			} else {
				p[1] += s.Desired
			}
		}
		if len(seq) == 0 || seq[len(seq)-1] != p {
			seq = append(seq, p)
		}
	}
	return seq
}

// The default run is the seed example, and its sizes are the real
// controller's: new 3 / old 8, then new 5, old 3, new 10, old 0.
func TestSimulateDefaultSteps(t *testing.T) {
	out := simulateJSON(t, "")
	want := [][2]int32{{3, 8}, {5, 8}, {5, 3}, {10, 3}, {10, 0}}
	if diff := cmp.Diff(want, sizes(out)); diff != "" {
		t.Errorf("simulate sizes (new, old) mismatch (-want +got):\n%s", diff)
	}
	s := out.Summary
	type summary struct {
		Outcome                         string
		Syncs                           int
		Duration                        float64
		PeakPods, MinAvailable, Ceiling int64
		Floor                           int32
		BelowFloor                      float64
	}
	got := summary{s.Outcome, s.Syncs, s.Duration, s.PeakPods, s.MinAvailable, s.Ceiling, s.Floor, s.BelowFloor}
	if diff := cmp.Diff(summary{"complete", 7, 150, 13, 8, 13, 8, 0}, got); diff != "" {
		t.Errorf("simulate summary mismatch (-want +got):\n%s", diff)
	}
}

// The default run's scaling actions are those the real controller made in
// the golden scenario seed-rolling-10-25-25.
func TestSimulateDefaultMatchesGoldenTrajectory(t *testing.T) {
	type scale struct {
		Type     string
		New      bool
		From, To int32
	}
	files, err := filepath.Glob("../../testdata/golden/scenarios/seed-rolling-10-25-25/step-*.plan.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden steps: %v", err)
	}
	sort.Strings(files)
	var want []scale
	newName := ""
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Actions []struct {
				Type       string `json:"type"`
				ReplicaSet string `json:"replicaSet"`
				From, To   int32
			} `json:"actions"`
		}
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		for _, a := range p.Actions {
			if a.Type == "CreateReplicaSet" {
				newName = a.ReplicaSet
			}
			if a.Type == "CreateReplicaSet" || a.Type == "ScaleReplicaSet" {
				want = append(want, scale{a.Type, a.ReplicaSet == newName, a.From, a.To})
			}
		}
	}
	out := simulateJSON(t, "")
	var got []scale
	for _, st := range out.Steps {
		for _, a := range st.Actions {
			if a.Type == "CreateReplicaSet" {
				newName = a.ReplicaSet
			}
			if a.Type == "CreateReplicaSet" || a.Type == "ScaleReplicaSet" {
				got = append(got, scale{a.Type, a.ReplicaSet == newName, *a.From, *a.To})
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("simulate actions mismatch with the golden trajectory (-want +got):\n%s", diff)
	}
}

func TestSimulateFlags(t *testing.T) {
	mid := manifestPath("web-mid-rollout.yaml")
	t.Run("replicas and strategy", func(t *testing.T) {
		out := simulateJSON(t, "", "--replicas", "20", "--max-surge", "1", "--max-unavailable", "0")
		s := out.Summary
		if s.Outcome != "complete" || s.Ceiling != 21 || s.Floor != 20 || s.PeakPods != 21 || s.MinAvailable != 20 {
			t.Errorf("summary = %+v, want complete, ceiling 21, floor 20, peak 21, min available 20", s)
		}
		if got := sizes(out)[0]; got != [2]int32{1, 20} {
			t.Errorf("first sizes = %v, want new 1, old 20", got)
		}
	})
	t.Run("never ready", func(t *testing.T) {
		out := simulateJSON(t, "", "--never-ready", "nginx:1.9.3")
		if s := out.Summary; s.Outcome != "progress deadline exceeded" || !strings.Contains(s.Detail, "never become ready") ||
			s.DeadlineAt != s.Duration || s.DeadlineAt < 600 || s.CompleteAfter != 0 {
			t.Errorf("summary = %+v, want the progress deadline exceeded by pods that never become ready, at its duration, and no completion after", s)
		}
	})
	t.Run("quota", func(t *testing.T) {
		out := simulateJSON(t, "", "--quota-pods", "10", "--max-surge", "1", "--max-unavailable", "0")
		if s := out.Summary; s.Outcome == "complete" || s.FailedCreates == 0 || !strings.Contains(s.Detail, "blocked by quota") {
			t.Errorf("summary = %+v, want a rollout blocked by the quota", s)
		}
	})
	t.Run("hpa mid-rollout", func(t *testing.T) {
		out := simulateJSON(t, "", "--hpa", "45s=20")
		seq := sizes(out)
		if last := seq[len(seq)-1]; last != [2]int32{20, 0} || out.Summary.Outcome != "complete" {
			t.Errorf("sizes = %v, want to end at new 20, old 0, complete", seq)
		}
	})
	t.Run("terminating column", func(t *testing.T) {
		r := runCLI(t, "", "simulate", "--terminating", "20s")
		r.wantCode(t, nil, exitOK)
		if !strings.Contains(r.stdout, "AVAILABLE  TERMINATING\n") {
			t.Errorf("table has no TERMINATING column:\n%s", r.stdout)
		}
	})
	t.Run("jitter is seeded", func(t *testing.T) {
		args := []string{"simulate", "--ready-after", "20s", "--ready-jitter", "40s", "--seed", "7", "--interval", "0"}
		a, b := runCLI(t, "", args...), runCLI(t, "", args...)
		a.wantCode(t, args, exitOK)
		if a.stdout != b.stdout {
			t.Errorf("two runs with --seed 7 differ")
		}
	})
	t.Run("image of a named container", func(t *testing.T) {
		out := simulateJSON(t, "", "--image", "nginx=nginx:2.0")
		if !strings.HasSuffix(out.Title, "then image nginx=nginx:2.0") || out.Summary.Outcome != "complete" {
			t.Errorf("title %q, summary %+v", out.Title, out.Summary)
		}
	})
	t.Run("mid-rollout from a file", func(t *testing.T) {
		out := simulateJSON(t, "", "-f", mid)
		want := [][2]int32{{5, 3}, {10, 3}, {10, 0}}
		if diff := cmp.Diff(want, sizes(out)); diff != "" {
			t.Errorf("sizes mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("mid-rollout from stdin, scaled up", func(t *testing.T) {
		raw, err := os.ReadFile(mid)
		if err != nil {
			t.Fatal(err)
		}
		out := simulateJSON(t, string(raw), "-f", "-", "--replicas", "20")
		// A scaling event mid-rollout: proportional scaling first.
		if got := sizes(out)[0]; got[0]+got[1] <= 13 {
			t.Errorf("first sizes = %v, want the two ReplicaSets scaled up together", got)
		}
	})
	t.Run("recreate", func(t *testing.T) {
		out := simulateJSON(t, "", "-f", manifestPath("recreate.yaml"), "--image", "registry.example.com/reports:5.3")
		want := [][2]int32{{0, 0}, {3, 0}}
		if diff := cmp.Diff(want, sizes(out)); diff != "" {
			t.Errorf("sizes mismatch (-want +got):\n%s", diff)
		}
		if s := out.Summary; s.Floor != 0 || s.MinAvailable != 0 || s.Outcome != "complete" {
			t.Errorf("summary = %+v, want floor 0, min available 0, complete", s)
		}
	})
}

func TestSimulateErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no such container", []string{"simulate", "--image", "web=nginx:2"}, `--image web=nginx:2: Deployment "nginx-deployment" has no container "web" (it has nginx)`},
		{"invalid strategy by flags", []string{"simulate", "--max-surge", "0", "--max-unavailable", "0"}, "may not be 0 when `maxSurge` is 0"},
		{"range", []string{"simulate", "--replicas", "1..3"}, "simulate takes one count"},
		{"strategy flags on Recreate", []string{"simulate", "-f", manifestPath("recreate.yaml"), "--max-surge", "1"}, "need a RollingUpdate strategy"},
		{"several Deployments", []string{"simulate", "-f", manifestPath("three-deployments.yaml")}, "choose one with --deployment NAME"},
		{"bad output", []string{"simulate", "-o", "png"}, `-o "png": want text, json, yaml or svg`},
		{"negative duration", []string{"simulate", "--ready-after", "-1s"}, "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, "", tt.args...)
			r.wantCode(t, tt.args, exitBadInput)
			if !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
				t.Errorf("run(%q): stdout %q, stderr %q; want stderr to contain %q", tt.args, r.stdout, r.stderr, tt.want)
			}
		})
	}
}

// TestSimulateFloorAndCeilingFollowHPA is issue 11's defect 5 in the
// command: --hpa 40s=4 gave a false "below floor: 3m", and --hpa 40s=20
// "peak 25 (ceiling 13)".
func TestSimulateFloorAndCeilingFollowHPA(t *testing.T) {
	down := simulateJSON(t, "", "--hpa", "40s=4").Summary
	if down.BelowFloor != 0 {
		t.Errorf("--hpa 40s=4: %vs below the floor, want none", down.BelowFloor)
	}
	up := simulateJSON(t, "", "--hpa", "40s=20").Summary
	if up.PeakPods != 25 || up.Ceiling != 25 {
		t.Errorf("--hpa 40s=20: peak %d against a ceiling of %d, want 25 and 25", up.PeakPods, up.Ceiling)
	}
	r := runCLI(t, "", "simulate", "--hpa", "40s=20")
	if !strings.Contains(r.stdout, "peak pods:     25 (ceiling 25)\n") {
		t.Errorf("summary:\n%s", r.stdout)
	}
}

// TestMessagesReadAsSentences is issue 11's defect 12: the outcome read
// "...progressing.; stuck: ...", and undo said "sim: deployment "p" is
// paused".
func TestMessagesReadAsSentences(t *testing.T) {
	r := runCLI(t, "", "simulate", "--never-ready", "nginx:1.9.3")
	if !strings.Contains(r.stdout, "has timed out progressing; stuck: new pods never become ready") || strings.Contains(r.stdout, ".;") {
		t.Errorf("outcome line:\n%s", r.stdout)
	}
	data, err := os.ReadFile(manifestPath("web-mid-rollout.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	paused := strings.Replace(string(data), "    replicas: 10\n", "    replicas: 10\n    paused: true\n", 1)
	if paused == string(data) {
		t.Fatal("no spec.replicas line to pause after")
	}
	r = runCLI(t, paused, "undo")
	r.wantCode(t, nil, exitBadInput)
	want := "rolloutctl undo: <stdin>: Deployment web is paused, and kubectl refuses to roll back a paused Deployment: resume it first (kubectl rollout resume)\n"
	if r.stderr != want {
		t.Errorf("undo of a paused Deployment: %q, want %q", r.stderr, want)
	}
}

// TestSimulateUpToDeadline: simulate -o json gives, for a run that goes
// on past its progress deadline, the figures up to the deadline
// (summary.upToDeadline), where its peak is lower and earlier than the
// whole run's: 3 replicas, maxSurge 1, maxUnavailable 0, a deadline of
// 10s, pods ready after 11s and terminating for 12s peak at 5 pods at
// +11s, where the deadline is exceeded, and at 6 past it (the controllers
// model, the only one that goes on past the deadline). A run that does
// not exceed its deadline leaves the field out.
func TestSimulateUpToDeadline(t *testing.T) {
	const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  progressDeadlineSeconds: 10
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`
	s := simulateJSON(t, manifest, "--model", "controllers", "-f", "-", "--image", "web:2.0", "--ready-after", "11s", "--terminating", "12s").Summary
	if s.Outcome != "progress deadline exceeded" || s.DeadlineAt != 11 || s.PeakPods != 6 || s.PeakPodsAt <= 11 {
		t.Fatalf("summary = %+v, want the deadline exceeded at +11s and the whole run's peak of 6 past it", s)
	}
	// Up to the deadline the peak is the first new pod's, created at
	// +1ms (after the first sync's refused second status write); the
	// next comes as the first is ready, at +11.001s, past the deadline.
	if u := s.UpToDeadline; u == nil || u.PeakPods != 4 || u.PeakPodsAt != 0.001 || u.PeakPodsHigh < u.PeakPods || u.MinAvailable != 3 || u.Ceiling != 4 || u.Floor != 3 {
		t.Errorf("upToDeadline = %+v, want a peak of 4 pods at +0.001s, 3 available at the fewest, ceiling 4, floor 3", u)
	}
	if s := simulateJSON(t, "", "--model", "controllers").Summary; s.Outcome != "complete" || s.UpToDeadline != nil {
		t.Errorf("summary = %+v, want complete and no upToDeadline", s)
	}
}

// TestSimulateExitsThreeAtItsLimit: a run that stops at --max-work before
// its rollout comes to an outcome is no answer, and simulate and undo say
// so as check does: exit 3, the reports written all the same and a line
// on stderr saying why. A run that reached its own outcome exits 0, even
// a failed one (the progress deadline exceeded, a paused Deployment) and
// one whose run past the deadline then stopped at the limit.
func TestSimulateExitsThreeAtItsLimit(t *testing.T) {
	deadline := strings.Replace(oneByOne(3), `"replicas": 3,`, `"replicas": 3, "progressDeadlineSeconds": 60,`, 1)
	tests := []struct {
		name        string
		stdin       string
		args        []string
		want        int
		wantOutcome string // the text summary's outcome line starts so
	}{
		{"the seed example at --max-work 5", "", []string{"simulate", "--max-work", "5"}, exitLimit, "limit reached"},
		{"the seed example at --max-work 5, -o json", "", []string{"simulate", "--max-work", "5", "-o", "json"}, exitLimit, ""},
		{"the seed example at --max-work 5, -o svg", "", []string{"simulate", "--max-work", "5", "-o", "svg"}, exitLimit, ""},
		{"a sync every 30s at --max-work 2", "", []string{"simulate", "--model", "interval", "--max-work", "2"}, exitLimit, "limit reached"},
		{"undo at --max-work 2", "", []string{"undo", "-f", manifestPath("web-mid-rollout.yaml"), "--max-work", "2"}, exitLimit, "limit reached"},
		{"the seed example complete", "", []string{"simulate"}, exitOK, "complete"},
		{"undo complete", "", []string{"undo", "-f", manifestPath("web-mid-rollout.yaml")}, exitOK, "complete"},
		{"deadline exceeded", deadline, []string{"simulate", "--image", "app:2", "--ready-after", "5m"}, exitOK, "progress deadline exceeded"},
		{"deadline exceeded, then the limit", deadline, []string{"simulate", "--image", "app:2", "--ready-after", "5m", "--max-work", "30"}, exitOK, "progress deadline exceeded"},
		{"paused", strings.Replace(oneByOne(3), `"replicas": 3,`, `"replicas": 3, "paused": true,`, 1), []string{"simulate", "--image", "app:2"}, exitOK, "paused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdin io.Reader // a terminal: the seed example or -f
			if tt.stdin != "" {
				stdin = strings.NewReader(tt.stdin)
			}
			r := runDefault(t, stdin, tt.args...)
			r.wantCode(t, tt.args, tt.want)
			if r.stdout == "" {
				t.Errorf("run(%q) wrote no report", tt.args)
			}
			if tt.wantOutcome != "" && !regexp.MustCompile(`(?m)^outcome: +`+regexp.QuoteMeta(tt.wantOutcome)).MatchString(r.stdout) {
				t.Errorf("run(%q): no outcome line starting %q:\n%s", tt.args, tt.wantOutcome, r.stdout)
			}
			said := strings.Contains(r.stderr, ": no outcome (exit 3): the simulation stopped at its limit before the rollout ended")
			if said != (tt.want == exitLimit) {
				t.Errorf("run(%q) exits %d; stderr says why: %v, want %v:\n%s", tt.args, r.code, said, tt.want == exitLimit, r.stderr)
			}
			if said && !strings.Contains(r.stderr, "(--max-work)") {
				t.Errorf("run(%q): stderr does not name the limit:\n%s", tt.args, r.stderr)
			}
		})
	}
}
