package rollout_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// compactInput is a Deployment and a ReplicaSet whose templates use most
// of what a pod spec holds: init and sidecar containers, probes,
// resources, volumes, environment, a preStop hook.
const compactInput = `{"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "apps/v1", "kind": "Deployment",
 "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
 "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
  "template": {"metadata": {"labels": {"app": "web"}, "annotations": {"a": "b"}},
   "spec": {
    "initContainers": [{"name": "proxy", "image": "proxy:1", "restartPolicy": "Always",
     "startupProbe": {"tcpSocket": {"port": 15000}, "periodSeconds": 2}}],
    "containers": [{"name": "app", "image": "web:1.2",
     "ports": [{"name": "http", "containerPort": 8080}],
     "env": [{"name": "MODE", "value": "prod"}, {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
     "resources": {"requests": {"cpu": "0.5", "memory": "1Gi"}, "limits": {"memory": "2Gi"}},
     "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080}, "initialDelaySeconds": 5},
     "lifecycle": {"preStop": {"sleep": {"seconds": 10}}},
     "volumeMounts": [{"name": "cache", "mountPath": "/cache"}]}],
    "volumes": [{"name": "cache", "emptyDir": {"sizeLimit": "1Gi"}}],
    "nodeSelector": {"disk": "ssd"}, "terminationGracePeriodSeconds": 45}}}},
{"apiVersion": "apps/v1", "kind": "ReplicaSet",
 "metadata": {"name": "web-1", "namespace": "shop"},
 "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
  "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "web:1.1"}]}}}}
]}`

// TestDecodeCompactIsTheSameObjects holds DecodeOptions.Compact's promise:
// the objects decoded are the same as without it, their pod specs equal
// in every form (JSON, Equal, the pod-template-hash of every minor, the
// containers), also when read from several goroutines and after the
// garbage collector has dropped the value decoded for a first read.
func TestDecodeCompactIsTheSameObjects(t *testing.T) {
	t.Run("alone", func(t *testing.T) { testCompact(t, nil) })
	// Through a table, the specs are packed against the first.
	t.Run("through a StringTable", func(t *testing.T) { testCompact(t, &rollout.StringTable{}) })
}

func testCompact(t *testing.T, strs *rollout.StringTable) {
	plain, err := rollout.DecodeOptions{Validate: true}.Decode([]byte(compactInput))
	if err != nil {
		t.Fatal(err)
	}
	compact, err := rollout.DecodeOptions{Validate: true, Compact: true, Strings: strs}.Decode([]byte(compactInput))
	if err != nil {
		t.Fatal(err)
	}
	if len(compact.Deployments) != 1 || len(compact.ReplicaSets) != 1 {
		t.Fatalf("Compact decoded %d Deployments and %d ReplicaSets, want 1 and 1", len(compact.Deployments), len(compact.ReplicaSets))
	}
	same := func(what string, want, got rollout.PodSpec) {
		t.Helper()
		if string(want.JSON()) != string(got.JSON()) {
			t.Errorf("%s: JSON\n%s\nwant\n%s", what, got.JSON(), want.JSON())
		}
		if !want.Equal(got) || !got.Equal(want) || want.IsZero() != got.IsZero() {
			t.Errorf("%s: the compact spec is not Equal to the plain one", what)
		}
		if !slices.Equal(want.Images(), got.Images()) {
			t.Errorf("%s: Images() = %v, want %v", what, got.Images(), want.Images())
		}
		if !got.Same(got) || got.Same(want) {
			t.Errorf("%s: a compact spec is Same as itself only", what)
		}
	}
	for round := range 2 {
		same("Deployment", plain.Deployments[0].Spec.Template.Spec, compact.Deployments[0].Spec.Template.Spec)
		same("ReplicaSet", plain.ReplicaSets[0].Spec.Template.Spec, compact.ReplicaSets[0].Spec.Template.Spec)
		for _, v := range []rollout.Version{rollout.V1_35, rollout.V1_36, rollout.V1_37} {
			if want, got := rollout.PodTemplateHashFor(plain.Deployments[0], v), rollout.PodTemplateHashFor(compact.Deployments[0], v); got != want {
				t.Errorf("round %d: PodTemplateHashFor(%v) = %s, want %s", round, v, got, want)
			}
		}
		want, _ := json.Marshal(plain.Deployments[0])
		got, _ := json.Marshal(compact.Deployments[0])
		if string(got) != string(want) {
			t.Errorf("round %d: the compact Deployment marshals to\n%s\nwant\n%s", round, got, want)
		}
		runtime.GC() // the value decoded for the first round may go
	}

	// Several goroutines reading one compact spec at once get one answer.
	d := compact.Deployments[0]
	want := rollout.PodTemplateHashFor(plain.Deployments[0], rollout.Latest)
	var wg sync.WaitGroup
	hashes := make([]string, 8)
	for i := range hashes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hashes[i] = rollout.PodTemplateHashFor(d, rollout.Latest)
		}()
	}
	wg.Wait()
	for i, h := range hashes {
		if h != want {
			t.Errorf("goroutine %d: hash %s, want %s", i, h, want)
		}
	}

	// A change of a compact spec is a plain spec again, as for any spec.
	changed, err := d.Spec.Template.Spec.WithImage("app", "web:2")
	if err != nil {
		t.Fatal(err)
	}
	if got := changed.Images()[1].Image; got != "web:2" {
		t.Errorf("WithImage on a compact spec: image %q, want web:2", got)
	}
	if got := d.Spec.Template.Spec.Images()[1].Image; got != "web:1.2" {
		t.Errorf("WithImage changed the compact spec it copied: image %q", got)
	}
}

// Loading many Deployments to read each once or twice, a program decodes
// them through one StringTable with Compact: their pod specs are held as
// packed JSON and decoded again when read, and are the same specs.
func ExampleDecodeOptions_compact() {
	strs := &rollout.StringTable{}
	compact := rollout.DecodeOptions{Compact: true, Strings: strs}
	objs, err := compact.Decode([]byte(compactInput))
	if err != nil {
		fmt.Println(err)
		return
	}
	plain, _ := rollout.DecodeOptions{}.Decode([]byte(compactInput))
	d := objs.Deployments[0]
	fmt.Println(d.Spec.Template.Spec.Images()[1].Image, d.Spec.Template.Spec.Equal(plain.Deployments[0].Spec.Template.Spec))
	fmt.Println(rollout.PodTemplateHash(d) == rollout.PodTemplateHash(plain.Deployments[0]))
	// Output:
	// web:1.2 true
	// true
}
