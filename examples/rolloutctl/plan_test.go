package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// The mid-rollout manifest is the real controller's state at step 2 of the
// seed scenario, so plan must print that step's recorded plan.
func TestPlanMatchesGolden(t *testing.T) {
	args := []string{"plan", "-f", manifestPath("web-mid-rollout.yaml"), "--now", "2026-01-01T00:11:00Z", "-o", "json"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	want, err := os.ReadFile("../../testdata/golden/scenarios/seed-rolling-10-25-25/step-02.plan.json")
	if err != nil {
		t.Fatal(err)
	}
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(r.stdout), &g); err != nil {
		t.Fatalf("plan -o json printed invalid JSON: %v\n%s", err, r.stdout)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("plan -o json mismatch (-want +got):\n%s", diff)
	}
}

func TestPlanText(t *testing.T) {
	const mid = `Kubernetes 1.37
ScaleReplicaSet web-68b649bd8b 8 -> 3: Normal ScalingReplicaSet Scaled down replica set web-68b649bd8b from 8 to 3
  why: old ReplicaSet -5: available 13 - minAvailable 8 (replicas 10 - maxUnavailable 2) allows -5 in all
UpdateDeploymentStatus
  why: status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated
events:
  Normal ScalingReplicaSet Scaled down replica set web-68b649bd8b from 8 to 3
`
	raw, err := os.ReadFile(manifestPath("web-mid-rollout.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string // the whole output, or
		has   []string
	}{
		{name: "file", args: []string{"plan", "-f", manifestPath("web-mid-rollout.yaml"), "--now", "2026-01-01T00:11:00Z"}, want: mid},
		{name: "stdin", args: []string{"plan", "-f", "-", "--now", "2026-01-01T00:11:00Z"}, stdin: string(raw), want: mid},
		{name: "stdin by default", args: []string{"plan", "--now", "2026-01-01T00:11:00Z"}, stdin: string(raw), want: mid},
		{name: "one of several", args: []string{"plan", "-f", manifestPath("three-deployments.yaml"), "--deployment", "api", "--now", "2026-01-01T00:00:00Z"},
			has: []string{"CreateReplicaSet api-", " 0 -> 4: Normal ScalingReplicaSet", "  why: ", "events:\n  Normal ScalingReplicaSet Scaled up replica set api-"}},
		{name: "complete: a re-check", args: []string{"plan", "-f", manifestPath("web-mid-rollout.yaml"), "--now", "2026-01-01T00:11:00Z", "--deployment", "default/web"},
			has: []string{"ScaleReplicaSet web-68b649bd8b 8 -> 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.stdin, tt.args...)
			r.wantCode(t, tt.args, exitOK)
			if tt.want != "" {
				if diff := cmp.Diff(tt.want, r.stdout); diff != "" {
					t.Errorf("run(%q) mismatch (-want +got):\n%s", tt.args, diff)
				}
			}
			for _, h := range tt.has {
				if !strings.Contains(r.stdout, h) {
					t.Errorf("run(%q) output lacks %q:\n%s", tt.args, h, r.stdout)
				}
			}
		})
	}
}

// A sync that fails is an answer, not bad input: exit 0, the error in the
// output.
func TestPlanSyncError(t *testing.T) {
	// The new ReplicaSet's name is taken by a ReplicaSet with another
	// template: a hash collision, which fails the sync.
	data, err := os.ReadFile(manifestPath("recreate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := parseExample("recreate.yaml", data, rollout.Latest)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"plan", "-f", manifestPath("recreate.yaml"), "--now", "2026-01-01T00:00:00Z", "-o", "json"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	var rep struct {
		Actions []struct {
			ReplicaSet string `json:"replicaSet"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Actions) == 0 {
		t.Fatalf("plan -o json: %v\n%s", err, r.stdout)
	}
	name := rep.Actions[0].ReplicaSet
	collide := `{"kind":"List","items":[` + mustJSON(t, m.Objects().Deployments[0]) + `,
	{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"` + name + `","namespace":"default","uid":"u1",
	"labels":{"app":"other"}},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"other"}},
	"template":{"metadata":{"labels":{"app":"other"}},"spec":{"containers":[{"name":"c","image":"other"}]}}}}]}`
	args = []string{"plan", "-f", "-", "--now", "2026-01-01T00:00:00Z"}
	r = runCLI(t, collide, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "\nerror: ") {
		t.Errorf("run(%q) output has no error line:\n%s", args, r.stdout)
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A ReplicaSet another Deployment owns is passed along, and the sync
// leaves it alone.
func TestPlanForeignReplicaSet(t *testing.T) {
	raw, err := os.ReadFile(manifestPath("web-mid-rollout.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	other := `
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: other, namespace: default, uid: other-uid}
spec:
  replicas: 2
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: c, image: busybox}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: other-5d8f7b9c6
  namespace: default
  uid: other-rs-uid
  labels: {app: other, pod-template-hash: 5d8f7b9c6}
  annotations: {deployment.kubernetes.io/revision: "4"}
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: other, uid: other-uid, controller: true}
spec:
  replicas: 7
  selector: {matchLabels: {app: other, pod-template-hash: 5d8f7b9c6}}
  template:
    metadata: {labels: {app: other, pod-template-hash: 5d8f7b9c6}}
    spec: {containers: [{name: c, image: busybox:old}]}
status: {replicas: 7}
`
	args := []string{"plan", "-f", "-", "--deployment", "web", "--now", "2026-01-01T00:11:00Z"}
	r := runCLI(t, string(raw)+other, args...)
	r.wantCode(t, args, exitOK)
	if strings.Contains(r.stdout, "other-5d8f7b9c6") || !strings.HasPrefix(r.stdout, "Kubernetes 1.37\nScaleReplicaSet web-68b649bd8b 8 -> 3") {
		t.Errorf("plan for web:\n%s", r.stdout)
	}
	args = []string{"check", "-f", "-"}
	r = runCLI(t, string(raw)+other, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "OK   web replicas=10") || !strings.Contains(r.stdout, "OK   other replicas=2") {
		t.Errorf("check:\n%s", r.stdout)
	}
}

// Every command on every manifest: a clean exit, never a crash, and output
// on exactly one of stdout and stderr, but for check on bad input, which
// writes its report (with the problems as findings) and the problems on
// stderr.
func TestAllManifests(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(manifests, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := filepath.Glob(filepath.Join(manifests, "bad", "*"))
	for _, f := range append(files, bad...) {
		for _, cmd := range [][]string{
			{"plan", "--now", "2026-01-01T00:11:00Z"}, {"plan", "-o", "json", "--now", "2026-01-01T00:11:00Z"},
			{"simulate"}, {"simulate", "-o", "json"}, {"simulate", "-o", "svg"},
			{"bounds"}, {"check"}, {"check", "-o", "json"}, {"undo"},
		} {
			args := append(append([]string{}, cmd...), "-f", f)
			r := runCLI(t, "", args...)
			switch {
			case r.code == exitBadInput && r.stdout == "" && r.stderr != "":
			case r.code == exitBadInput && cmd[0] == "check" && r.stdout != "" && r.stderr != "":
			case r.code != exitBadInput && r.stdout != "":
			default:
				t.Errorf("run(%q) = %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
			}
		}
	}
}
