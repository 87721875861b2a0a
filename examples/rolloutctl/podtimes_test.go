package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// probedManifest is a Deployment of 4 replicas rolled out one pod at a
// time (maxSurge 1, maxUnavailable 0) whose container passes its readiness
// probe first at 10s: the probe runs at 0s, 5s, 10s, ... and is skipped
// before initialDelaySeconds. Its preStop hook sleeps 5s, within the
// default grace period of 30s.
const probedManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: probed
spec:
  replicas: 4
  selector:
    matchLabels: {app: probed}
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  template:
    metadata:
      labels: {app: probed}
    spec:
      containers:
      - name: app
        image: app:1
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          initialDelaySeconds: 10
          periodSeconds: 5
        lifecycle:
          preStop:
            sleep: {seconds: 5}
`

// The words simulate prints for probedManifest's times.
const (
	probedReady       = "ready 10s from readinessProbe initialDelaySeconds 10, periodSeconds 5 (container app)"
	probedTerminating = "terminating 5s from preStop sleep 5s (container app), within terminationGracePeriodSeconds 30"
)

// firstReadyAt returns the offset of the first step at which a pod of the
// new ReplicaSet is ready, and false if none is.
func firstReadyAt(out simOut) (float64, bool) {
	for _, st := range out.Steps {
		for _, s := range st.Sets {
			if s.New && s.Ready > 0 {
				return st.Offset, true
			}
		}
	}
	return 0, false
}

// TestPodTimesFromTemplate (issue 23): without --ready-after and
// --terminating, simulate's pods become ready and terminate as the
// template says, and the header says where each time comes from: a pod
// is ready 10s after it is created, so a rollout of 4 pods one at a time
// takes 4 x 10s; a deleted pod lingers for its 5s preStop sleep.
func TestPodTimesFromTemplate(t *testing.T) {
	args := []string{"--model", "event", "--image", "app:2"}
	out := simulateJSON(t, probedManifest, args...)
	if diff := cmp.Diff([]string{probedReady, probedTerminating}, out.PodTimes); diff != "" {
		t.Errorf("podTimes mismatch (-want +got):\n%s", diff)
	}
	if want := "pod model: pods ready 10s after they are created, deleted pods terminate for 5s, "; !strings.HasPrefix(out.PodModel, want) {
		t.Errorf("podModel %q, want it to start %q", out.PodModel, want)
	}
	if at, ok := firstReadyAt(out); !ok || at != 10 {
		t.Errorf("the first new pod is ready at +%gs (found: %v), want +10s", at, ok)
	}
	if out.Summary.Outcome != "complete" || out.Summary.Duration != 40 {
		t.Errorf("summary %s in %gs, want complete in 40s (4 pods one at a time, each ready after 10s)", out.Summary.Outcome, out.Summary.Duration)
	}
	terminating := false
	for _, st := range out.Steps {
		for _, s := range st.Sets {
			terminating = terminating || !s.New && s.Terminating > 0
		}
	}
	if !terminating {
		t.Errorf("no old pod is ever terminating, want each to linger for its preStop sleep")
	}

	// The text output says the same in its header, under the default model too.
	r := runDefault(t, strings.NewReader(probedManifest), "simulate", "--image", "app:2")
	r.wantCode(t, []string{"simulate", "--image", "app:2"}, exitOK)
	wantHas(t, r.stdout, "\npod times: "+probedReady+"\npod times: "+probedTerminating+"\n")
	if !strings.Contains(r.stdout, "pod model: pods ready 10s after they are created") {
		t.Errorf("simulate's pod model does not say 10s:\n%s", r.stdout)
	}
}

// TestPodTimesFlagsOverrideTemplate: --ready-after and --terminating
// replace what the template says, each on its own: the header keeps a
// pod times line only for the time still read from the template, and the
// pods follow the flags.
func TestPodTimesFlagsOverrideTemplate(t *testing.T) {
	for _, tt := range []struct {
		name      string
		flags     []string
		model     string // the start of the pod model
		times     []string
		readyAt   float64
		completes float64
	}{
		{"ready-after", []string{"--ready-after", "3s"},
			"pod model: pods ready 3s after they are created, deleted pods terminate for 5s, ", []string{probedTerminating}, 3, 12},
		{"terminating", []string{"--terminating", "0s"},
			"pod model: pods ready 10s after they are created, deleted pods gone at once, ", []string{probedReady}, 10, 40},
		{"both", []string{"--ready-after", "0s", "--terminating", "2s"},
			"pod model: pods ready at once, deleted pods terminate for 2s, ", nil, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := simulateJSON(t, probedManifest, append([]string{"--model", "event", "--image", "app:2"}, tt.flags...)...)
			if !strings.HasPrefix(out.PodModel, tt.model) {
				t.Errorf("podModel %q, want it to start %q", out.PodModel, tt.model)
			}
			if diff := cmp.Diff(tt.times, out.PodTimes); diff != "" {
				t.Errorf("podTimes mismatch (-want +got):\n%s", diff)
			}
			if at, ok := firstReadyAt(out); !ok || at != tt.readyAt {
				t.Errorf("the first new pod is ready at +%gs (found: %v), want +%gs", at, ok, tt.readyAt)
			}
			if out.Summary.Duration != tt.completes {
				t.Errorf("complete in %gs, want %gs", out.Summary.Duration, tt.completes)
			}
		})
	}
	// With both flags the text output has no pod times line.
	args := []string{"simulate", "--image", "app:2", "--ready-after", "0s", "--terminating", "0s"}
	r := runCLI(t, probedManifest, args...)
	r.wantCode(t, args, exitOK)
	if strings.Contains(r.stdout, "pod times:") {
		t.Errorf("run(%q) prints a pod times line, though both times are the flags':\n%s", args, r.stdout)
	}
}

// TestCheckPodTimesFromTemplate: check too takes each Deployment's pod
// times from its template unless --ready-after sets the time to ready
// (check has no --terminating), and its pod model line says which. From
// the template, each new pod is ready 10s after it is created (4 pods one
// at a time: 40s) and each deleted old pod lingers 5s while the next new
// one is created (peak 4 + 1 surge + 1 terminating). Ready at once, all
// four new pods are created at once while the old ones still terminate
// (peak 8), and the status is complete at once.
func TestCheckPodTimesFromTemplate(t *testing.T) {
	for _, tt := range []struct {
		name  string
		flags []string
		model string
		ok    string
	}{
		{"template", nil,
			"pod model: pods ready as each template's probes say, deleted pods terminate as each template's preStop sleep and grace period say, no pod quota, a sync at each change",
			"OK   probed replicas=4: peak pods 6, min available 4, complete in 40s"},
		{"ready-after", []string{"--ready-after", "0s"},
			"pod model: pods ready at once, deleted pods terminate as each template's preStop sleep and grace period say, no pod quota, a sync at each change",
			"OK   probed replicas=4: peak pods 8, min available 4, complete in 0s"},
		{"terminating", []string{"--terminating", "0s"},
			"pod model: pods ready as each template's probes say, deleted pods gone at once, no pod quota, a sync at each change",
			"OK   probed replicas=4: peak pods 5, min available 4, complete in 40s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"check", "--model", "event"}, tt.flags...)
			r := runCLI(t, probedManifest, args...)
			r.wantCode(t, args, exitOK)
			want := "Kubernetes 1.37\n" + tt.model + "\n" + tt.ok + "\n"
			if diff := cmp.Diff(want, r.stdout); diff != "" {
				t.Errorf("run(%q) mismatch (-want +got):\n%s", args, diff)
			}
		})
	}
}

// TestManualCheckTerminating keeps the manual's words on check's pod
// times true: check takes --terminating (the manual said it had none),
// and its pod model line then says the time, as the manual quotes it.
func TestManualCheckTerminating(t *testing.T) {
	manual, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--terminating", "10s"}
	r := runDefault(t, strings.NewReader(probedManifest), args...)
	r.wantCode(t, args, exitOK)
	const said = "deleted pods terminate for 10s"
	if !strings.Contains(r.stdout, said) {
		t.Errorf("check --terminating 10s printed:\n%s\nwant %q in its pod model line", r.stdout, said)
	}
	if text := strings.Join(strings.Fields(string(manual)), " "); strings.Contains(text, "it has no `--terminating`") || !strings.Contains(text, "`--terminating` sets for all (\""+said+"\")") {
		t.Errorf("README.md's pod times section does not say that check takes --terminating, in its words %q", said)
	}
}
