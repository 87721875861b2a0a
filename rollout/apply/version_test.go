package apply_test

import (
	"errors"
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
