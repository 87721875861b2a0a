package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// nginxManifest is a minimal Deployment with no ReplicaSet yet: plan
// creates one, named by the controller-manager's minor.
const nginxManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx
`

// TestKubernetesVersionFlags: --kubernetes-version chooses the minor
// (the newest by default), whose controller names the ReplicaSet (the
// names are the real controllers', see rollout's ExamplePodTemplateHashFor)
// and which the output's first line names; --controller-version sets the
// controller-manager's minor apart, and the names follow it.
func TestKubernetesVersionFlags(t *testing.T) {
	for _, tt := range []struct {
		name   string
		flags  []string
		header string
		rs     string
	}{
		{"default", nil, "Kubernetes 1.37", "nginx-69b9cdbbdd"},
		{"1.35", []string{"--kubernetes-version", "1.35"}, "Kubernetes 1.35", "nginx-56c45fd5ff"},
		{"1.36", []string{"--kubernetes-version", "v1.36.3"}, "Kubernetes 1.36", "nginx-7f8fbb96d"},
		{"1.37", []string{"--kubernetes-version", "1.37"}, "Kubernetes 1.37", "nginx-69b9cdbbdd"},
		{"skew", []string{"--kubernetes-version", "1.37", "--controller-version", "1.36"}, "Kubernetes 1.37 API server, 1.36 controller-manager", "nginx-7f8fbb96d"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"plan", "--now", "2026-01-01T00:00:00Z"}, tt.flags...)
			r := runCLI(t, nginxManifest, args...)
			r.wantCode(t, args, exitOK)
			if first, _, _ := strings.Cut(r.stdout, "\n"); first != tt.header {
				t.Errorf("first line %q, want %q", first, tt.header)
			}
			wantHas(t, r.stdout, "CreateReplicaSet "+tt.rs+" ")
		})
	}
}

// TestKubernetesVersionFields: a field of 1.37's API is accepted for 1.37
// and refused for 1.36 as an unknown field, named by its path (issue 24).
func TestKubernetesVersionFields(t *testing.T) {
	manifest := strings.Replace(nginxManifest, "      containers:\n", "      evictionResponders:\n      - name: drain\n        priority: 10\n      containers:\n", 1)
	args := []string{"plan", "--now", "2026-01-01T00:00:00Z", "--kubernetes-version", "1.37"}
	r := runCLI(t, manifest, args...)
	r.wantCode(t, args, exitOK)
	args = []string{"plan", "--now", "2026-01-01T00:00:00Z", "--kubernetes-version", "1.36"}
	r = runCLI(t, manifest, args...)
	r.wantCode(t, args, exitBadInput)
	wantHas(t, r.stderr, "spec.template.spec.evictionResponders", "unknown field")
}

// TestKubernetesVersionRefused: a minor that is not supported is a usage
// error naming the supported ones.
func TestKubernetesVersionRefused(t *testing.T) {
	for _, flag := range []string{"--kubernetes-version", "--controller-version"} {
		args := []string{"plan", flag, "1.34"}
		r := runCLI(t, nginxManifest, args...)
		r.wantCode(t, args, exitBadInput)
		wantHas(t, r.stderr, `"1.34"`, "1.35, 1.36, 1.37")
	}
}

// TestCheckNamesKubernetesMinors: check's text report starts with the
// minors it models and its JSON report has them as "kubernetes"; with
// skew, the API server's and the controller-manager's apart.
func TestCheckNamesKubernetesMinors(t *testing.T) {
	for _, tt := range []struct {
		flags []string
		want  string
	}{
		{nil, "Kubernetes 1.37"},
		{[]string{"--kubernetes-version", "1.35"}, "Kubernetes 1.35"},
		{[]string{"--kubernetes-version", "1.36"}, "Kubernetes 1.36"},
		{[]string{"--kubernetes-version", "1.37", "--controller-version", "1.36"}, "Kubernetes 1.37 API server, 1.36 controller-manager"},
	} {
		args := append([]string{"check", "-f", manifestPath("recreate.yaml")}, tt.flags...)
		r := runCLI(t, "", args...)
		r.wantCode(t, args, exitOK)
		if first, _, _ := strings.Cut(r.stdout, "\n"); first != tt.want {
			t.Errorf("run(%q) first line %q, want %q", args, first, tt.want)
		}
		args = append(args, "-o", "json")
		r = runCLI(t, "", args...)
		r.wantCode(t, args, exitOK)
		var out check.Report
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Kubernetes != tt.want {
			t.Errorf("run(%q): %v, kubernetes %q, want %q", args, err, out.Kubernetes, tt.want)
		}
	}
}

// TestControllerVersionNamesReplicaSets: during an upgrade (API server
// 1.37, controller-manager 1.36) the ReplicaSets a rollout creates are
// named as 1.36's controller names them, in simulate and in check's
// findings; the header names both minors.
func TestControllerVersionNamesReplicaSets(t *testing.T) {
	skew := []string{"--kubernetes-version", "1.37", "--controller-version", "1.36"}
	newSet := func(out simOut) string {
		for _, st := range out.Steps {
			for _, a := range st.Actions {
				if a.Type == "CreateReplicaSet" {
					return a.ReplicaSet
				}
			}
		}
		t.Fatalf("no ReplicaSet created:\n%+v", out.Steps)
		return ""
	}
	v136 := simulateJSON(t, "", "--kubernetes-version", "1.36")
	v137 := simulateJSON(t, "", "--kubernetes-version", "1.37")
	skewed := simulateJSON(t, "", skew...)
	if newSet(skewed) != newSet(v136) || newSet(v136) == newSet(v137) {
		t.Errorf("new ReplicaSet: %s with skew, %s on 1.36, %s on 1.37; want skew's 1.36's, and 1.36's apart from 1.37's",
			newSet(skewed), newSet(v136), newSet(v137))
	}
	if skewed.Kubernetes != "Kubernetes 1.37 API server, 1.36 controller-manager" || v136.Kubernetes != "Kubernetes 1.36" {
		t.Errorf("kubernetes %q with skew and %q on 1.36", skewed.Kubernetes, v136.Kubernetes)
	}

	// check names the new ReplicaSet in a progress deadline finding.
	timedOut := regexp.MustCompile(`ReplicaSet "([^"]+)" has timed out progressing`)
	rsOf := func(flags ...string) string {
		args := append([]string{"check", "-f", manifestPath("recreate.yaml"), "--never-ready", "new"}, flags...)
		r := runCLI(t, "", args...)
		r.wantCode(t, args, exitViolation)
		m := timedOut.FindStringSubmatch(r.stdout)
		if m == nil {
			t.Fatalf("run(%q) names no ReplicaSet that timed out:\n%s", args, r.stdout)
		}
		return m[1]
	}
	if a, b, c := rsOf(skew...), rsOf("--kubernetes-version", "1.36"), rsOf(); a != b || b == c {
		t.Errorf("check's new ReplicaSet: %s with skew, %s on 1.36, %s by default; want skew's 1.36's, and 1.36's apart from 1.37's", a, b, c)
	}
}
