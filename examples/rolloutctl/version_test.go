package main

import (
	"strings"
	"testing"
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
