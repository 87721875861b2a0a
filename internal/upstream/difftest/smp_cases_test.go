package difftest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// baseManifest is the Deployment the named cases start from.
const baseManifest = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "labels": {"app": "web"}},
  "spec": {
    "replicas": 3,
    "minReadySeconds": 5,
    "selector": {"matchLabels": {"app": "web"}},
    "template": {
      "metadata": {"labels": {"app": "web"}},
      "spec": {
        "containers": [
          {"name": "app", "image": "nginx:1.25",
           "ports": [{"containerPort": 80}],
           "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
           "resources": {"requests": {"cpu": "1", "memory": "128Mi"}},
           "volumeMounts": [{"name": "config", "mountPath": "/etc/web"}]},
          {"name": "sidecar", "image": "envoy:1.30"}
        ],
        "volumes": [{"name": "config", "configMap": {"name": "web-config"}}]
      }
    }
  }
}`

// doc is a decoded JSON document with path helpers; paths are dotted, list
// elements by index.
type doc map[string]any

func parseDoc(s string) doc {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err)
	}
	return m
}

func (d doc) clone() doc { return parseDoc(string(d.bytes())) }

func (d doc) bytes() []byte {
	b, err := json.Marshal(map[string]any(d))
	if err != nil {
		panic(err)
	}
	return b
}

// walk returns the container of the last path element and its key.
func (d doc) walk(path string) (any, string) {
	parts := strings.Split(path, ".")
	var cur any = map[string]any(d)
	for _, p := range parts[:len(parts)-1] {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[p]
			if !ok {
				next = map[string]any{}
				c[p] = next
			}
			cur = next
		case []any:
			i, _ := strconv.Atoi(p)
			cur = c[i]
		}
	}
	return cur, parts[len(parts)-1]
}

func (d doc) get(path string) any {
	c, k := d.walk(path)
	switch c := c.(type) {
	case map[string]any:
		return c[k]
	case []any:
		i, _ := strconv.Atoi(k)
		if i < len(c) {
			return c[i]
		}
	}
	return nil
}

func (d doc) set(path string, v any) doc {
	c, k := d.walk(path)
	switch c := c.(type) {
	case map[string]any:
		c[k] = v
	case []any:
		i, _ := strconv.Atoi(k)
		c[i] = v
	}
	return d
}

func (d doc) del(path string) doc {
	c, k := d.walk(path)
	if m, ok := c.(map[string]any); ok {
		delete(m, k)
	}
	return d
}

func (d doc) list(path string) []any { l, _ := d.get(path).([]any); return l }

// names lists the "name" members of a list's elements.
func (d doc) names(path string) string {
	var out []string
	for _, e := range d.list(path) {
		out = append(out, fmt.Sprint(e.(map[string]any)["name"]))
	}
	return strings.Join(out, ",")
}

const (
	tpl = "spec.template"
	app = "spec.template.spec.containers.0"
)

// liveAfter is the stored object after a kubectl apply of manifest that
// created it (or, with create false, after kubectl create: no last-applied
// annotation), edited by other writers with edit.
func liveAfter(t testing.TB, manifest doc, create bool, edit func(doc)) []byte {
	t.Helper()
	body := manifest.bytes()
	if create {
		var err error
		if body, err = realCreated(body, "default"); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := RealCreateDeployment(body)
	if out.Refused() {
		t.Fatalf("the live object is refused: %+v", out)
	}
	live := parseDoc(string(out.Stored))
	if edit != nil {
		edit(live)
	}
	return live.bytes()
}

// applyBoth runs kubectl apply on both sides, failing the test on any
// difference, and returns upstream's patch and result.
func applyBoth(t *testing.T, live, manifest []byte, overwrite bool) (patch, result doc, err error) {
	t.Helper()
	p, r, realErr, err := compareApply(live, manifest, overwrite)
	if err != nil {
		t.Fatal(err)
	}
	if realErr != nil {
		return nil, nil, realErr
	}
	return parseDoc(string(p)), parseDoc(string(r)), nil
}
