package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

func TestVersion(t *testing.T) {
	r := runCLI(t, "", "version")
	r.wantCode(t, []string{"version"}, exitOK)
	if !strings.HasPrefix(r.stdout, "rolloutctl ") || !strings.Contains(r.stdout, "models Kubernetes v1.35.4, v1.36.3 and v1.37.2") {
		t.Errorf("version: %q", r.stdout)
	}
}

// TestCompletion: each shell's script names every command and the flags
// of each, read from their help; bash's parses.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r := runCLI(t, "", "completion", shell)
		r.wantCode(t, []string{"completion", shell}, exitOK)
		for _, want := range []string{"history", "max-rollouts", "fail-on", "sarif junit github", "refresh-stale-annotations"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("completion %s does not offer %q", shell, want)
			}
		}
		if shell == "bash" {
			if bash, err := exec.LookPath("bash"); err == nil {
				cmd := exec.Command(bash, "-n")
				cmd.Stdin = strings.NewReader(r.stdout)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("bash -n: %v\n%s", err, out)
				}
			}
		}
	}
	r := runCLI(t, "", "completion", "tcsh")
	if r.code != exitBadInput || !strings.Contains(r.stderr, `"tcsh": want bash, zsh or fish`) {
		t.Errorf("completion tcsh: %d %q", r.code, r.stderr)
	}
}

// TestEveryCommandWritesTextJSONAndYAML: the YAML of every command is its
// JSON, and its text is not empty.
func TestEveryCommandWritesTextJSONAndYAML(t *testing.T) {
	web := manifestPath("web-mid-rollout.yaml")
	for _, args := range [][]string{
		{"plan", "-f", web, "--now", "2026-01-01T00:11:00Z"},
		{"simulate", "-f", web},
		{"bounds", "-f", web, "--replicas", "1..5"},
		{"check", "-f", web},
		{"undo", "-f", web},
		{"history", "-f", historyFile},
	} {
		text := runCLI(t, "", args...)
		j := runCLI(t, "", append(args, "-o", "json")...)
		y := runCLI(t, "", append(args, "-o", "yaml")...)
		if text.code != j.code || j.code != y.code || text.stdout == "" {
			t.Errorf("%q: exits %d, %d, %d; text %q", args, text.code, j.code, y.code, text.stdout)
			continue
		}
		fromYAML, err := yaml.YAMLToJSON([]byte(y.stdout))
		if err != nil {
			t.Errorf("%q -o yaml: %v\n%s", args, err, y.stdout)
			continue
		}
		var a, b any
		if err := json.Unmarshal([]byte(j.stdout), &a); err != nil {
			t.Fatalf("%q -o json: %v", args, err)
		}
		json.Unmarshal(fromYAML, &b)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%q: YAML is not the JSON (-json +yaml):\n%s", args, diff)
		}
	}
}

// TestTablesFoldAndSayWhyTheyWait: syncs that change nothing fold into
// one line, a sync that waits says why (the ceiling and floor of a
// rolling update; a Recreate waiting for old pods), and old ReplicaSets
// that stay at zero are left out.
func TestTablesFoldAndSayWhyTheyWait(t *testing.T) {
	slow := runCLI(t, "", "simulate", "-f", manifestPath("three-deployments.yaml"), "--deployment", "api", "--image", "api=api:2", "--ready-after", "3m")
	for _, want := range []string{
		"\n3..6    +1m..+2m30s    (no change, 4 syncs)\n",
		"waits: 5 pods are wanted, the ceiling (replicas + maxSurge) is 5, so the new ReplicaSet grows only as old pods go; 4 pods are available, the floor (replicas - maxUnavailable) is 4, so no old pod may go until more new pods are available\n",
		"pod model: pods ready 3m after they are created, deleted pods gone at once, no pod quota, a sync every 30s\n",
	} {
		if !strings.Contains(slow.stdout, want) {
			t.Errorf("simulate --ready-after 3m does not print %q:\n%s", want, slow.stdout)
		}
	}
	recreate := runCLI(t, "", "simulate", "-f", manifestPath("recreate.yaml"), "--image", "reports=x:2", "--terminating", "45s")
	if !strings.Contains(recreate.stdout, "waits: Recreate waits for the 3 old pods to go before it scales up the new ReplicaSet") {
		t.Errorf("Recreate does not say why it waits:\n%s", recreate.stdout)
	}
	old := runCLI(t, "", "simulate", "-f", historyFile, "--image", "api=api:1.3")
	for _, gone := range []string{"api-6c7b9d5f8c", "api-7f9c4b6d9d", "api-5d8f7c6b4a"} {
		if strings.Contains(old.stdout, gone) {
			t.Errorf("an old ReplicaSet at zero throughout, %s, is in the table:\n%s", gone, old.stdout)
		}
	}
}

// TestPlanNotesDoubleWrite: a sync that writes an object twice says
// that a real API server answers the second with a Conflict; it happens
// when an annotation added to a complete Deployment reaches its
// ReplicaSet.
func TestPlanNotesDoubleWrite(t *testing.T) {
	in, err := parseExample(defaultManifestName, defaultManifest, rollout.Latest)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := sim.FromDeployment(in.Objects().Deployments[0], now)
	s.Deployment.Annotations["team"] = "blue"
	s.Deployment.Generation++
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writePlanText(&b, s, actions, rollout.NewReport(now, actions, nil))
	if strings.Count(b.String(), "UpdateReplicaSet") != 2 || strings.Count(b.String(), "note: "+render.ConflictNote) != 1 {
		t.Errorf("plan of an annotation change:\n%s", b.String())
	}
}

// TestOptionsFlags: the fields of rollout.Options are flags of the
// commands that sync: --omit-terminating-replicas leaves
// status.terminatingReplicas out of the plan's status write.
func TestOptionsFlags(t *testing.T) {
	args := []string{"plan", "-f", manifestPath("web-mid-rollout.yaml"), "--now", "2026-01-01T00:11:00Z", "-o", "json"}
	with := runCLI(t, "", args...)
	without := runCLI(t, "", append(args, "--omit-terminating-replicas")...)
	if !strings.Contains(with.stdout, "terminatingReplicas") || strings.Contains(without.stdout, "terminatingReplicas") {
		t.Errorf("--omit-terminating-replicas does not drop status.terminatingReplicas:\n%s", without.stdout)
	}
	for _, c := range []string{"plan", "simulate", "check", "undo"} {
		r := runCLI(t, "", c, "-h")
		for _, f := range []string{"-omit-terminating-replicas", "-refresh-stale-annotations", "-skip-validation"} {
			if !strings.Contains(r.stdout, f) {
				t.Errorf("%s has no %s flag", c, f)
			}
		}
	}
}
