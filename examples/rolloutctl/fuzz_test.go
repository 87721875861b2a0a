package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// FuzzLoad checks that no input makes the loader panic, that every
// failure is an *inputError of lines naming the input, and that the
// Deployments it reads survive a round trip through JSON.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(manifests, "*.yaml"))
	bad, _ := filepath.Glob(filepath.Join(manifests, "bad", "*"))
	policy, _ := filepath.Glob(filepath.Join("testdata", "policy", "*.yaml")) // every policy kind
	for _, file := range slices.Concat(files, bad, policy) {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Add(defaultManifest)
	for _, s := range []string{"", "---", "{}", "[]", "null", "kind: List\nitems: 3", "kind: Deployment", "{\"kind\":\"List\",\"items\":[{}]}",
		"kind: Deployment\nspec:\n  strategy:\n    rollingUpdate:\n      maxSurge: \"25 %\"", "--- \n---\n#\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := parseExample("in", data, rollout.Latest)
		if err != nil {
			var ie *inputError
			if errors.As(err, &ie) {
				for _, p := range ie.problems {
					if !strings.HasPrefix(p, "in") || strings.Contains(p, "\n") {
						t.Fatalf("problem %q does not name the input on one line", p)
					}
				}
			} else if !strings.HasPrefix(err.Error(), "in") {
				t.Fatalf("error %v does not name the input", err)
			}
			return
		}
		if len(in.Documents()) != len(in.Objects().Deployments) {
			t.Fatalf("%d Deployments, %d locations", len(in.Objects().Deployments), len(in.Documents()))
		}
		if len(in.Objects().Deployments) == 0 {
			return
		}
		b, err := json.Marshal(map[string]any{"kind": "List", "items": in.Objects().Deployments})
		if err != nil {
			t.Fatalf("encoding the Deployments: %v", err)
		}
		again, err := parseExample("again", b, rollout.Latest)
		if err != nil {
			t.Fatalf("loading its own Deployments: %v\n%s", err, b)
		}
		if !slices.Equal(deploymentNames(again.Objects().Deployments), deploymentNames(in.Objects().Deployments)) {
			t.Fatalf("round trip names %v, want %v", deploymentNames(again.Objects().Deployments), deploymentNames(in.Objects().Deployments))
		}
	})
}

// deploymentNames names Deployments as the command's messages do.
func deploymentNames(deps []rollout.Deployment) []string {
	var out []string
	for _, d := range deps {
		out = append(out, check.Qualified(d))
	}
	return out
}
