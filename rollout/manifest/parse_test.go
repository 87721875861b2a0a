package manifest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

const dep = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"NAME"},
	"spec":{"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}}}}}`

func depJSON(name string) string { return strings.Replace(dep, "NAME", name, 1) }

// where lists the documents as their String and kind.
func where(docs []manifest.Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.String()+" "+d.Kind)
	}
	return out
}

func TestParseFormats(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"one JSON object", depJSON("a"), []string{"in:1 Deployment"}},
		{"JSON List, items on their lines", "{\"kind\":\"List\",\"items\":[\n" + depJSON("a") + ",\n" + depJSON("b") + "]}",
			[]string{"in:2: items[0] Deployment", "in:4: items[1] Deployment"}},
		{"DeploymentList", `{"kind":"DeploymentList","items":[` + depJSON("a") + `]}`, []string{"in:1: items[0] Deployment"}},
		{"List without kind", `{"items":[` + depJSON("a") + `]}`, []string{"in:1: items[0] Deployment"}},
		{"JSON stream", depJSON("a") + "\n" + depJSON("b"), []string{"in:1: document 1 Deployment", "in:3: document 2 Deployment"}},
		{"YAML documents", "---\n# leading comment\n---\n" + depJSON("a") + "\n--- # next\n" + depJSON("b") + "\n---\n",
			[]string{"in:4: document 2 Deployment", "in:7: document 3 Deployment"}},
		{"YAML List", "kind: List\nitems:\n- kind: Service\n- kind: Deployment\n", []string{"in:1: items[0] Service", "in:1: items[1] Deployment"}},
		{"other kinds kept", "kind: Service\nmetadata: {name: s}\n---\n" + depJSON("a"), []string{"in:1: document 1 Service", "in:4: document 2 Deployment"}},
		{"CRLF", "kind: Deployment\r\nmetadata:\r\n  name: a\r\n---\r\nkind: Pod\r\n", []string{"in:1: document 1 Deployment", "in:5: document 2 Pod"}},
		{"byte order mark", "\ufeff" + depJSON("a"), []string{"in:1 Deployment"}},
		{"white space before JSON", "\n\n  " + depJSON("a"), []string{"in:3 Deployment"}},
		{"document end markers", "kind: Pod\n...\n---\n...\n", []string{"in:1 Pod"}},
		{"comments only", "# nothing\n---\n# here\n", nil},
		// Found by FuzzParse: a List without items.
		{"YAML List without items", "kind: List", nil},
		{"JSON List without items", `{"kind": "List", "metadata": {}}`, nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := manifest.Parse("in", []byte(tt.input))
			if err != nil {
				t.Fatalf("Parse() error: %v", err)
			}
			if diff := cmp.Diff(tt.want, where(docs)); diff != "" {
				t.Errorf("Parse() documents mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string
	}{
		{"NUL byte", "kind: Deployment\x00", []string{"in: binary data: not YAML or JSON (byte 16)"}},
		{"not UTF-8", "kind: \xff\xfe", []string{"in: binary data: not YAML or JSON (byte 6)"}},
		{"bad JSON", "{\"kind\": \"Deployment\",\n \"metadata\": }", []string{"in:2: invalid JSON: invalid character '}' looking for beginning of value"}},
		{"bad JSON in a stream", depJSON("a") + "\n{\"kind\": tru}", []string{"in:3: document 2: invalid JSON: invalid character '}' in literal true (expecting 'e')"}},
		{"unterminated JSON", `{"kind": "Deployment"`, []string{"in:1: invalid JSON: unexpected end of JSON input"}},
		{"YAML scalar", "just a sentence", []string{"in:1: not a Kubernetes object: a string"}},
		{"YAML list", "- a\n- b\n", []string{"in:1: not a Kubernetes object: a list"}},
		{"no kind", "foo: bar\nbaz: 1\n", []string{"in:1: not a Kubernetes object: no kind (keys: baz, foo)"}},
		{"item without kind", `{"kind":"List","items":[{"metadata":{}}, 3]}`, []string{
			"in:1: items[0]: not a Kubernetes object: no kind (keys: metadata)",
			"in:1: items[1]: not a Kubernetes object: a number"}},
		{"items not a list", "kind: List\nitems: 3\n", []string{"in:1: List: items is not a list"}},
		// The YAML parser names the last line it could read (5), not the
		// line it could not (6).
		{"bad YAML", "kind: Pod\n---\nkind: Deployment\nmetadata:\n  name: a\n spec: {}\n", []string{"in:5: document 2: yaml: did not find expected key"}},
		{"bad YAML on its line", "kind: Pod\n---\nkind: Deployment\nmetadata:\n  labels: app: x\n", []string{"in:5: document 2: yaml: mapping values are not allowed in this context"}},
		{"every document's problem", "- x\n---\nfoo: bar\n", []string{"in:1: document 1: not a Kubernetes object: a list", "in:3: document 2: not a Kubernetes object: no kind (keys: foo)"}},
		// Issue 11, defect 12: Go types in messages.
		{"mapping as a key", "kind: Pod\n{a: b}: c\n", []string{"in:1: yaml: a key is a mapping; keys must be strings"}},
		{"sequence as a key", "kind: Pod\n[1]: c\n", []string{"in:1: yaml: a key is a sequence; keys must be strings"}},
		{"null key", "kind: Pod\nnull: c\n", []string{"in:1: yaml: a key is <nil>; keys must be strings"}},
		{"line breaks in a key", "\"a\\nb\": 1\n", []string{`in:1: not a Kubernetes object: no kind (keys: "a\nb")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := manifest.Parse("in", []byte(tt.input))
			if err == nil {
				t.Fatal("Parse() succeeded, want an error")
			}
			if diff := cmp.Diff(tt.want, strings.Split(err.Error(), "\n")); diff != "" {
				t.Errorf("Parse() error mismatch (-want +got):\n%s", diff)
			}
			var me *manifest.Error
			if !errors.As(err, &me) || me.Source != "in" {
				t.Errorf("Parse() error %T, want *manifest.Error values", err)
			}
		})
	}
}

// TestDecodeNamesTheDocument: a document that rollout.Decode refuses is
// named with the problem, at the line of the field it is about.
func TestDecodeNamesTheDocument(t *testing.T) {
	docs, err := manifest.Parse("in", []byte("kind: Pod\n---\nkind: Deployment\nmetadata: {name: a}\nspec: {replicas: many}\n"))
	if err != nil || len(docs) != 2 {
		t.Fatalf("Parse() = %v, %v", docs, err)
	}
	_, err = docs[1].Decode()
	if err == nil || !strings.HasPrefix(err.Error(), `in:5: document 2: Deployment "a": `) || !strings.Contains(err.Error(), "spec.replicas") {
		t.Errorf("Decode() error = %v", err)
	}
	objs, err := docs[0].Decode()
	if err != nil || len(objs.Pods) != 1 {
		t.Errorf("Decode() of the Pod = %+v, %v", objs, err)
	}
}

// TestParseYAMLLines: an object starts after the comments above it, and
// an error's line counts them.
func TestParseYAMLLines(t *testing.T) {
	in := "# one\n\n# two\nkind: Pod\n---\n# three\nkind: Deployment\nmetadata:\n  labels: a: b\n"
	docs, err := manifest.Parse("in", []byte(in))
	if diff := cmp.Diff([]string{"in:4: document 1 Pod"}, where(docs)); diff != "" {
		t.Errorf("Parse() documents (-want +got):\n%s", diff)
	}
	if err == nil || err.Error() != "in:9: document 2: yaml: mapping values are not allowed in this context" {
		t.Errorf("Parse() error = %v", err)
	}
}

// TestDuplicateKeysCountOnceWithAWarning: a key given twice in a YAML
// mapping counts with its last value, as kubectl sends it and the API
// server stores it, and the document says so.
func TestDuplicateKeysCountOnceWithAWarning(t *testing.T) {
	docs, err := manifest.Parse("in", []byte("kind: Pod\n---\nkind: Deployment\nspec:\n  replicas: 2\n  replicas: 3\n"))
	if err != nil || len(docs) != 2 {
		t.Fatalf("Parse() = %v, %v", docs, err)
	}
	if got := string(docs[1].JSON); got != `{"kind":"Deployment","spec":{"replicas":3}}` {
		t.Errorf("JSON = %s, want the last replicas", got)
	}
	if diff := cmp.Diff([]string{`in:6: key "replicas" given twice: the last one counts`}, docs[1].Warnings); diff != "" || docs[0].Warnings != nil {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
