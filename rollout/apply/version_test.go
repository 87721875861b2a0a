package apply_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// TestVersionOutOfRange: Apply, Create and Replace refuse options whose
// Version names no supported minor; a 1.37 field is read for 1.37 only.
func TestVersionOutOfRange(t *testing.T) {
	manifest := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
		"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
		"spec":{"evictionResponders":[{"name":"drain","priority":1}],"containers":[{"name":"a","image":"a"}]}}}}`)
	bad := apply.Options{Version: rollout.Version(9)}
	if _, err := apply.Create(manifest, bad); !errors.Is(err, rollout.ErrVersion) {
		t.Errorf("Create() error = %v, want ErrVersion", err)
	}
	if _, err := apply.Apply(manifest, manifest, bad); !errors.Is(err, rollout.ErrVersion) {
		t.Errorf("Apply() error = %v, want ErrVersion", err)
	}
	if _, err := apply.Replace(manifest, manifest, bad); !errors.Is(err, rollout.ErrVersion) {
		t.Errorf("Replace() error = %v, want ErrVersion", err)
	}
	if _, err := apply.Create(manifest, apply.Options{Version: rollout.V1_37}); err != nil {
		t.Errorf("1.37: Create() error = %v", err)
	}
	if _, err := apply.Create(manifest, apply.Options{Version: rollout.V1_36}); err == nil {
		t.Error("1.36: Create() accepts evictionResponders")
	}
}

// TestEvictionRespondersMergeByName: Kubernetes 1.37's evictionResponders
// is a list merged by name (patchMergeKey "name"), as kubectl 1.37 merges
// it: a responder that another writer added to the live object stays
// when a manifest that never listed it is applied again. The field's gate
// (EvictionRequestAPI, alpha) is turned on: with it off, as v1.37 ships,
// the API server drops the field. Priorities below 1000 are reserved for
// Kubernetes' own responders.
func TestEvictionRespondersMergeByName(t *testing.T) {
	manifest := func(responders string) []byte {
		return []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
		"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
		"spec":{"evictionResponders":[` + responders + `],"containers":[{"name":"a","image":"a"}]}}}}`)
	}
	o := apply.Options{Version: rollout.V1_37, FeatureGates: rollout.FeatureGates{EvictionRequestAPI: rollout.GateOn}}
	created, err := apply.Create(manifest(`{"name":"example.com/drain","priority":1001}`), o)
	if err != nil {
		t.Fatal(err)
	}
	// Another writer adds a responder to the live object.
	live := bytes.Replace(created.Stored, []byte(`"evictionResponders":[`), []byte(`"evictionResponders":[{"name":"example.com/other","priority":1005},`), 1)
	live = bytes.Replace(live, []byte(`"metadata":{`), []byte(`"metadata":{"resourceVersion":"7",`), 1)
	if !bytes.Contains(live, []byte(`example.com/other`)) {
		t.Fatalf("the stored object has no evictionResponders: %s", created.Stored)
	}
	r, err := apply.Apply(live, manifest(`{"name":"example.com/drain","priority":1002}`), o)
	if err != nil {
		t.Fatal(err)
	}
	stored := string(r.Stored)
	for _, want := range []string{`{"name":"example.com/drain","priority":1002}`, `{"name":"example.com/other","priority":1005}`} {
		if !strings.Contains(stored, want) {
			t.Errorf("the stored object lacks %s: %s", want, stored)
		}
	}
}
