package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzParseManifest checks that no input makes parseManifest panic, that
// every failure is an *inputError of non-empty lines naming the input, and
// that the Deployments it reads survive a round trip through JSON.
func FuzzParseManifest(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(manifests, "*.yaml"))
	bad, _ := filepath.Glob(filepath.Join(manifests, "bad", "*"))
	for _, file := range append(files, bad...) {
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
		m, err := parseManifest("in", data)
		if err != nil {
			var ie *inputError
			if !errors.As(err, &ie) || len(ie.problems) == 0 {
				t.Fatalf("parseManifest() error %T %v, want an *inputError", err, err)
			}
			for _, p := range ie.problems {
				if !strings.HasPrefix(p, "in") || strings.Contains(p, "\n") {
					t.Fatalf("problem %q does not name the input on one line", p)
				}
			}
			return
		}
		if len(m.objs.Deployments) == 0 || len(m.where) != len(m.objs.Deployments) {
			t.Fatalf("parseManifest() = %d Deployments, %d locations", len(m.objs.Deployments), len(m.where))
		}
		list := map[string]any{"kind": "List", "items": m.objs.Deployments}
		b, err := json.Marshal(list)
		if err != nil {
			t.Fatalf("encoding the Deployments: %v", err)
		}
		again, err := parseManifest("again", b)
		if err != nil {
			t.Fatalf("parseManifest(its own Deployments) error: %v\n%s", err, b)
		}
		if !slices.Equal(again.names(), m.names()) {
			t.Fatalf("round trip names %v, want %v", again.names(), m.names())
		}
	})
}
