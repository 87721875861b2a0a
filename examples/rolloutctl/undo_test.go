package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUndoText(t *testing.T) {
	args := []string{"undo", "-f", manifestPath("web-mid-rollout.yaml")}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	head := `undo web
  target:       ReplicaSet web-68b649bd8b, revision 1
  images:       nginx:1.9 (now nginx:1.9.3)
  new revision: 3 (ReplicaSet web-68b649bd8b takes it; revision 1 is gone from the list)
  history:      1

web: roll back to revision 1 (web-68b649bd8b)
Kubernetes 1.37
replicas 10, maxSurge 25% (3), maxUnavailable 25% (2)
`
	if !strings.HasPrefix(r.stdout, head) {
		t.Errorf("undo output starts:\n%s\nwant:\n%s", r.stdout, head)
	}
	for _, want := range []string{
		"ScaleReplicaSet web-65588c57d8 5 -> 0",
		"ScaleReplicaSet web-68b649bd8b 8 -> 10",
		"outcome:       complete: 10 of 10 replicas updated and available",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("undo output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestUndoNoOp(t *testing.T) {
	args := []string{"undo", "-f", manifestPath("web-mid-rollout.yaml"), "--to-revision", "2"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	want := `undo web
  target:       ReplicaSet web-65588c57d8, revision 2
  images:       nginx:1.9.3 (now nginx:1.9.3)
  no-op:        revision 2 has the Deployment's template already; the controller only clears the request
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("undo mismatch (-want +got):\n%s", diff)
	}
}

func TestUndoJSON(t *testing.T) {
	args := []string{"undo", "-o", "json", "-f", manifestPath("web-mid-rollout.yaml"), "--to-revision", "1"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	var out struct {
		undoJSON
		Rollback *simOut `json:"rollback"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run(%q): %v", args, err)
	}
	got := []any{out.Deployment, out.Target, out.Revision, out.NoOp, out.NewRevision, out.History, out.Images}
	want := []any{"web", "web-68b649bd8b", int64(1), false, int64(3), "1", []string{"nginx:1.9"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("undo -o json mismatch (-want +got):\n%s", diff)
	}
	if out.Rollback == nil || out.Rollback.Summary.Outcome != "complete" {
		t.Fatalf("undo -o json: no completed rollback: %+v", out.Rollback)
	}
	// Rolling back: the restored ReplicaSet is the new one, the other goes.
	if diff := cmp.Diff([][2]int32{{8, 0}, {10, 0}}, sizes(*out.Rollback)); diff != "" {
		t.Errorf("rollback sizes (new, old) mismatch (-want +got):\n%s", diff)
	}
}

func TestUndoErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no such revision", []string{"-f", manifestPath("web-mid-rollout.yaml"), "--to-revision", "7"},
			"web-mid-rollout.yaml: Deployment web: Unable to find the revision to rollback to. (revisions: 1, 2)"},
		{"no history", []string{"-f", manifestPath("recreate.yaml")},
			"recreate.yaml: Deployment reports: Unable to find last revision. (revisions: none)"},
		{"negative revision", []string{"-f", manifestPath("recreate.yaml"), "--to-revision", "-1"}, "must not be negative"},
		{"several", []string{"-f", manifestPath("three-deployments.yaml")}, "choose one with --deployment NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"undo"}, tt.args...)
			r := runCLI(t, "", args...)
			r.wantCode(t, args, exitBadInput)
			if !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
				t.Errorf("run(%q): stdout %q, stderr %q; want stderr to contain %q", args, r.stdout, r.stderr, tt.want)
			}
		})
	}
}
