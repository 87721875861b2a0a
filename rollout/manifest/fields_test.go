package manifest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

const fieldsYAML = `# a quota, then a Deployment
apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
spec:
  hard:
    requests.cpu: "24"
    pods: 40
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: "front"}
spec:
  replicas: 10
  strategy:
    rollingUpdate:
      maxSurge: 25%
  template:
    spec:
      containers:
      - name: app
        image: app:1
        resources:
          requests:
            cpu: 500m
      - name: sidecar
        image: proxy:2
`

// TestFieldLine: each field is found at the line of its key, each list
// element at its own line; a field the document leaves out is at the
// closest enclosing field it writes, reported as not exact.
func TestFieldLine(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(fieldsYAML))
	if err != nil || len(docs) != 2 {
		t.Fatalf("Parse() = %d documents, %v", len(docs), err)
	}
	quota, dep := docs[0], docs[1]
	tests := []struct {
		doc   manifest.Document
		path  string
		line  int
		exact bool
	}{
		{quota, "", 2, true},
		{quota, "spec.hard[requests.cpu]", 8, true},
		{quota, "spec.hard.pods", 9, true},
		{quota, "spec.hard[pods]", 9, true},
		{quota, "spec.hard[limits.cpu]", 7, false},
		{quota, "status.used[pods]", 2, false},
		{dep, "spec.strategy.rollingUpdate.maxSurge", 20, true},
		{dep, "spec.strategy.rollingUpdate.maxUnavailable", 19, false},
		{dep, "spec.replicas", 17, true},
		{dep, "metadata.labels.tier", 15, true},
		{dep, "spec.template.spec.containers[0]", 24, true},
		{dep, "spec.template.spec.containers[1].image", 30, true},
		{dep, "spec.template.spec.containers[0].resources.requests.cpu", 28, true},
		{dep, "spec.template.spec.containers[0].resources.limits.cpu", 26, false},
		{dep, "spec.template.spec.containers[2].image", 23, false},
	}
	for _, tt := range tests {
		line, exact := tt.doc.FieldLine(tt.path)
		if line != tt.line || exact != tt.exact {
			t.Errorf("%s FieldLine(%q) = %d, %v; want %d, %v", tt.doc.Kind, tt.path, line, exact, tt.line, tt.exact)
		}
	}
}

// TestFieldLineLists: the items of a List, in JSON as kubectl prints it
// and in YAML, each with its own lines.
func TestFieldLineLists(t *testing.T) {
	item := func(name string) string {
		return fmt.Sprintf(`{
      "kind": "Deployment",
      "metadata": {"name": %q},
      "spec": {
        "replicas": 3
      }
    }`, name)
	}
	jsonList := "{\n  \"kind\": \"List\",\n  \"items\": [\n    " + item("a") + ",\n    " + item("b") + "\n  ]\n}\n"
	yamlList := "kind: List\nitems:\n- kind: Deployment\n  metadata: {name: a}\n  spec:\n    replicas: 3\n" +
		"- kind: Deployment\n  metadata:\n    name: b\n  spec:\n    replicas: 4\n"
	for _, tt := range []struct {
		name, input string
		want        []int // per item: the line of metadata.name, of spec.replicas
	}{
		{"json", jsonList, []int{6, 8, 13, 15}},
		{"yaml", yamlList, []int{4, 6, 9, 11}},
		{"json stream", item("a") + "\n" + item("b"), []int{3, 5, 10, 12}},
	} {
		docs, err := manifest.Parse("list", []byte(tt.input))
		if err != nil || len(docs) != 2 {
			t.Fatalf("%s: Parse() = %d documents, %v", tt.name, len(docs), err)
		}
		var got []int
		for _, d := range docs {
			for _, p := range []string{"metadata.name", "spec.replicas"} {
				line, exact := d.FieldLine(p)
				if !exact {
					t.Errorf("%s: %s FieldLine(%q) not exact", tt.name, d, p)
				}
				got = append(got, line)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: lines %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFieldLineYAMLFeatures: anchors, aliases and merge keys, a key given
// twice (the last counts, as kubectl takes it) and comments before the
// object.
func TestFieldLineYAMLFeatures(t *testing.T) {
	input := strings.Join([]string{
		"# comment", // 1
		"kind: Deployment",
		"x-base: &base",
		"  replicas: 2",
		"  paused: false", // 5
		"spec:",
		"  <<: *base",
		"  replicas: 3",
		"  replicas: 4",
		"  minReadySeconds: 5", // 10
	}, "\n")
	docs, err := manifest.Parse("d.yaml", []byte(input))
	if len(docs) != 1 {
		t.Fatalf("Parse() = %d documents, %v", len(docs), err)
	}
	for path, want := range map[string]int{"spec.replicas": 9, "spec.paused": 5, "spec.minReadySeconds": 10, "kind": 2} {
		if line, exact := docs[0].FieldLine(path); line != want || !exact {
			t.Errorf("FieldLine(%q) = %d, %v; want %d, true", path, line, exact, want)
		}
	}
}
