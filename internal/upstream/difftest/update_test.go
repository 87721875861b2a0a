package difftest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

const webManifest = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","annotations":{"team":"a"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.9","resources":{"requests":{"cpu":"1"}}}]}}}}`

// storedWeb is webManifest as created and stamped.
func storedWeb(t *testing.T) *appsv1.Deployment {
	out, stored := RealCreateDeployment([]byte(webManifest))
	if out.Refused() {
		t.Fatal(out.Problems, out.Decode)
	}
	Stamp(stored)
	return stored
}

// TestUpdateCases compares kubectl replace of named edits.
func TestUpdateCases(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string
		refused        bool
	}{
		{"same manifest: generation unchanged", "", "", false},
		{"image bump", `"nginx:1.9"`, `"nginx:1.10"`, false},
		{"cpu written 1000m: no change", `"cpu":"1"`, `"cpu":"1000m"`, false},
		{"annotation changed: generation bumped", `"team":"a"`, `"team":"b"`, false},
		{"selector changed: immutable", `"matchLabels":{"app":"web"}`, `"matchLabels":{"app":"web","tier":"x"}`, true},
		{"replicas changed", `"replicas":3`, `"replicas":5`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := storedWeb(t)
			var m map[string]any
			json.Unmarshal([]byte(strings.Replace(webManifest, tc.from, tc.to, 1)), &m)
			if strings.Contains(tc.name, "selector") {
				m["spec"].(map[string]any)["template"].(map[string]any)["metadata"].(map[string]any)["labels"].(map[string]any)["tier"] = "x"
			}
			m["metadata"].(map[string]any)["resourceVersion"] = old.ResourceVersion
			data, _ := json.Marshal(m)
			real, _ := RealUpdateDeployment(old, data)
			ours := OursUpdateDeployment(old, data)
			if real.Refused() != tc.refused {
				t.Fatalf("real refused %v (%v %s), want %v", real.Refused(), real.Problems, real.Decode, tc.refused)
			}
			if !slices.Equal(real.Problems, ours.Problems) || (real.Decode == "") != (ours.Decode == "") {
				t.Fatalf("problems: real %v %q, ours %v %q", real.Problems, real.Decode, ours.Problems, ours.Decode)
			}
			if !real.Refused() && !bytes.Equal(real.Stored, ours.Stored) {
				t.Fatalf("stored differ:\nreal %s\nours %s", real.Stored, ours.Stored)
			}
		})
	}
}
