package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// TestREADMEShowsDefaultSimulation keeps the README's first screen true:
// the output it shows for `go run ./examples/rolloutctl simulate` is what
// the command prints by default.
func TestREADMEShowsDefaultSimulation(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	r := runDefault(t, nil, "simulate")
	r.wantCode(t, []string{"simulate"}, exitOK)
	want := strings.TrimRight(r.stdout, "\n")
	if !strings.Contains(string(readme), "```\n"+want+"\n```") {
		t.Errorf("README.md does not show the output of `rolloutctl simulate`; paste it again:\n%s", want)
	}
}

// TestManualShowsPlacement keeps the manual's placement example true: the
// output it shows is what check prints for the example's manifests.
func TestManualShowsPlacement(t *testing.T) {
	manual, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "-f", "testdata/placement/web.yaml", "-f", "testdata/placement/db.yaml", "-f", "testdata/placement/nodes.yaml"}
	r := runDefault(t, nil, args...)
	r.wantCode(t, args, exitViolation)
	want := "$ rolloutctl " + strings.Join(args, " ") + "\n" + strings.TrimRight(r.stdout, "\n") + "\n```"
	if !strings.Contains(string(manual), want) {
		t.Errorf("README.md does not show the output of rolloutctl %s; paste it again:\n%s", strings.Join(args, " "), r.stdout)
	}
}

// TestManualShowsUpToDeadline keeps the manual's example of a rollout
// that outlasts its progress deadline true: the summary it shows is what
// simulate prints, and its peak pods and min available lines say the
// figures up to the deadline after the whole run's.
func TestManualShowsUpToDeadline(t *testing.T) {
	manual, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"simulate", "-f", "testdata/deadline/late.yaml", "--image", "app=late:2", "--ready-after", "20s"}
	r := runDefault(t, nil, args...)
	r.wantCode(t, args, exitOK)
	_, summary, ok := strings.Cut(r.stdout, "\noutcome:")
	if !ok {
		t.Fatalf("rolloutctl %s prints no summary:\n%s", strings.Join(args, " "), r.stdout)
	}
	summary = "outcome:" + strings.TrimRight(summary, "\n")
	for _, line := range []string{"peak pods:", "min available:"} {
		if !strings.Contains(summary, "\n"+line) || !strings.Contains(summary[strings.Index(summary, "\n"+line):], "; up to the progress deadline: ") {
			t.Errorf("the %s line does not say the figure up to the progress deadline:\n%s", line, summary)
		}
	}
	want := "$ rolloutctl " + strings.Join(args, " ") + "\n...\n" + summary + "\n```"
	if !strings.Contains(string(manual), want) {
		t.Errorf("README.md does not show the summary of rolloutctl %s; paste it again:\n%s", strings.Join(args, " "), summary)
	}
}

// TestManualNamesSimulateJSONFields holds the manual to every field
// simulate -o json prints: of a run past its progress deadline (its
// upToDeadline) and of one stopped at --max-work (its projection), each
// key quoted in README.md.
func TestManualNamesSimulateJSONFields(t *testing.T) {
	manual, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	huge := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "huge"}, "spec": {"replicas": 2147483647,
		"selector": {"matchLabels": {"app": "huge"}},
		"template": {"metadata": {"labels": {"app": "huge"}}, "spec": {"containers": [{"name": "app", "image": "huge:1"}]}}}}`
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"past the progress deadline", "", []string{"simulate", "-f", "testdata/deadline/late.yaml", "--image", "app=late:2", "--ready-after", "20s", "-o", "json"}, exitOK, "upToDeadline"},
		{"stopped at --max-work", huge, []string{"simulate", "--image", "app=huge:2", "-o", "json"}, exitLimit, "projection"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var in io.Reader
			if tt.stdin != "" {
				in = strings.NewReader(tt.stdin)
			}
			r := runDefault(t, in, tt.args...)
			r.wantCode(t, tt.args, tt.code)
			var doc any
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("-o json prints no JSON: %v\n%s", err, r.stdout)
			}
			keys := map[string]bool{}
			var walk func(any)
			walk = func(v any) {
				switch v := v.(type) {
				case map[string]any:
					for k, e := range v {
						keys[k] = true
						walk(e)
					}
				case []any:
					for _, e := range v {
						walk(e)
					}
				}
			}
			walk(doc)
			if !keys[tt.want] {
				t.Fatalf("the run prints no %q: the case does not test what it is named after", tt.want)
			}
			for k := range keys {
				if !strings.Contains(string(manual), `"`+k+`"`) {
					t.Errorf("README.md does not name the JSON field %q that simulate -o json prints", k)
				}
			}
		})
	}
}
