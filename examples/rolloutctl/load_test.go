package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBadInput runs every command that reads -f on each bad file: exit 2,
// nothing on stdout, and a message naming the file and the problem.
func TestBadInput(t *testing.T) {
	tests := []struct {
		file string
		want []string // each in stderr, one line per problem
	}{
		{"bad/empty.yaml", []string{"bad/empty.yaml: empty file"}},
		{"bad/garbage.bin", []string{"bad/garbage.bin: binary data: not YAML or JSON"}},
		{"bad/not-kubernetes.yaml", []string{"bad/not-kubernetes.yaml: not a Kubernetes object: no kind (keys: services)"}},
		{"bad/bad-yaml.yaml", []string{"bad/bad-yaml.yaml:18: document 2: yaml: mapping values are not allowed"}},
		{"bad/bad-strategy.yaml", []string{`bad/bad-strategy.yaml: Deployment "web": spec.strategy.rollingUpdate.maxSurge: Invalid value: "25 %"`}},
		{"bad/invalid-fields.yaml", []string{
			`Deployment "api": spec.replicas: Invalid value: -2: must be greater than or equal to 0`,
			`Deployment "api": spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%`,
			`Deployment "api": spec.progressDeadlineSeconds: Invalid value: 20: must be greater than minReadySeconds`,
		}},
		{"surge-zero-unavailable-zero.yaml", []string{
			"surge-zero-unavailable-zero.yaml: Deployment \"frozen\": spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
		}},
		{"bad/missing.yaml", []string{"bad/missing.yaml: cannot read: no such file or directory"}},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"plan", "simulate", "bounds", "check", "undo"} {
			t.Run(cmd+" "+tt.file, func(t *testing.T) {
				args := []string{cmd, "-f", manifestPath(tt.file)}
				r := runCLI(t, "", args...)
				r.wantCode(t, args, exitBadInput)
				if r.stdout != "" {
					t.Errorf("run(%q) stdout = %q, want nothing", args, r.stdout)
				}
				lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
				if len(lines) != len(tt.want) {
					t.Errorf("run(%q) printed %d lines, want %d:\n%s", args, len(lines), len(tt.want), r.stderr)
				}
				for i, w := range tt.want {
					if i < len(lines) && (!strings.Contains(lines[i], w) || !strings.HasPrefix(lines[i], "rolloutctl "+cmd+": ")) {
						t.Errorf("run(%q) line %d = %q, want it to contain %q", args, i+1, lines[i], w)
					}
				}
			})
		}
	}
}

func TestParseManifestFormats(t *testing.T) {
	const dep = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":%q},
		"spec":{"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}}}}}`
	depJSON := func(name string) string { return strings.Replace(dep, "%q", `"`+name+`"`, 1) }
	tests := []struct {
		name  string
		input string
		want  []string // the Deployments' names
		where []string
	}{
		{"one JSON object", depJSON("a"), []string{"a"}, []string{"in"}},
		{"JSON List", `{"kind":"List","items":[` + depJSON("a") + `,` + depJSON("b") + `]}`, []string{"a", "b"}, []string{"in: items[0]", "in: items[1]"}},
		{"DeploymentList", `{"kind":"DeploymentList","items":[` + depJSON("a") + `]}`, []string{"a"}, []string{"in: items[0]"}},
		{"JSON stream", depJSON("a") + "\n" + depJSON("b"), []string{"a", "b"}, []string{"in:1: document 1", "in:2: document 2"}},
		{"YAML documents", "---\n# leading comment\n---\n" + depJSON("a") + "\n--- # next\n" + depJSON("b") + "\n---\n", []string{"a", "b"}, []string{"in:4: document 2", "in:7: document 3"}},
		{"other kinds skipped", "kind: Service\nmetadata: {name: s}\n---\n" + depJSON("a"), []string{"a"}, []string{"in:4: document 2"}},
		{"CRLF", strings.ReplaceAll("kind: Deployment\nmetadata:\n  name: a\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels: {app: a}\n---\n", "\n", "\r\n"), []string{"a"}, []string{"in"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := parseManifest("in", []byte(tt.input))
			if err != nil {
				t.Fatalf("parseManifest() error: %v", err)
			}
			var got []string
			for _, d := range m.objs.Deployments {
				got = append(got, d.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseManifest() Deployments mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.where, m.where); diff != "" {
				t.Errorf("parseManifest() where mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseManifestErrors(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string
	}{
		{"white space only", " \n\t\n", []string{"in: empty file: no Kubernetes objects"}},
		{"comments only", "# nothing\n---\n# here\n", []string{"in: no Deployment found (found 0 ReplicaSets, 0 Pods)"}},
		{"NUL byte", "kind: Deployment\x00", []string{"in: binary data: not YAML or JSON"}},
		{"bad JSON", "{\"kind\": \"Deployment\",\n \"metadata\": }", []string{"in:2: invalid JSON: invalid character '}' looking for beginning of value"}},
		{"YAML scalar", "just a sentence", []string{"in: not a Kubernetes object: a string"}},
		{"YAML list", "- a\n- b\n", []string{"in: not a Kubernetes object: a list"}},
		{"only a Service", "kind: Service\nmetadata: {name: s}\n", []string{"in: no Deployment found (found 0 ReplicaSets, 0 Pods, 1 Service)"}},
		{"bad field type", "kind: Deployment\nmetadata: {name: a}\nspec: {replicas: many}\n", []string{`in: Deployment "a": spec.replicas: Invalid value: "many": must be a number, not a string`}},
		{"item without kind", `{"kind":"List","items":[{"metadata":{}}]}`, []string{"in: items[0]: not a Kubernetes object: an object without a kind"}},
		{"every document's problem", "kind: Deployment\nmetadata: {name: a}\nspec: {replicas: x}\n---\nfoo: bar\n", []string{
			`in:1: document 1: Deployment "a": spec.replicas: Invalid value: "x": must be a number, not a string`,
			"in:5: document 2: not a Kubernetes object: no kind (keys: foo)",
		}},
		// Found by FuzzParseManifest: a kind with a line break broke the
		// one-line-per-problem rule.
		{"kind with a line break", "0: 0\nkind: 0000000000\n\n 0", []string{`in: no Deployment found (found 0 ReplicaSets, 0 Pods, 1 "0000000000\n0")`}},
		{"key with a line break", "\"a\\nb\": 1\n", []string{`in: not a Kubernetes object: no kind (keys: "a\nb")`}},
		{"negative ReplicaSet", "kind: ReplicaSet\nmetadata: {name: r}\nspec: {replicas: -1}\n---\nkind: Deployment\nmetadata: {name: a}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}}}\n",
			[]string{"in: replicaset r: spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseManifest("in", []byte(tt.input))
			if err == nil {
				t.Fatal("parseManifest() succeeded, want an error")
			}
			if diff := cmp.Diff(tt.want, strings.Split(err.Error(), "\n")); diff != "" {
				t.Errorf("parseManifest() error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPickDeployment(t *testing.T) {
	m, err := loadManifest(manifestPath("three-deployments.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"api", "shop/api"} {
		d, err := m.pick(name)
		if err != nil || d.Name != "api" {
			t.Errorf("pick(%q) = %q, %v; want api", name, d.Name, err)
		}
	}
	_, err = m.pick("")
	if err == nil || !strings.Contains(err.Error(), "holds 3 Deployments (shop/frontend, shop/api, shop/worker): choose one with --deployment NAME") {
		t.Errorf("pick(\"\") error = %v", err)
	}
	_, err = m.pick("web")
	if err == nil || !strings.Contains(err.Error(), `no Deployment "web" (it holds shop/frontend, shop/api, shop/worker)`) {
		t.Errorf("pick(\"web\") error = %v", err)
	}
}
