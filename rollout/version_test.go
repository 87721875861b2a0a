package rollout_test

import (
	"errors"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestVersionOutOfRange: a Version converted from a number that names no
// supported minor is refused by Plan and Decode with ErrVersion, and
// hashes as the newest minor, as PodTemplateHashFor documents.
func TestVersionOutOfRange(t *testing.T) {
	bad := rollout.Version(9)
	objs, err := rollout.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
		"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"a","image":"a"}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := objs.Deployments[0]
	s := objs.State(d, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s.Options.Version = bad
	if acts, err := rollout.Plan(s); !errors.Is(err, rollout.ErrVersion) || acts != nil {
		t.Errorf("Plan() = %v, %v; want no actions and ErrVersion", acts, err)
	}
	if _, err := (rollout.DecodeOptions{Version: bad}).Decode([]byte(`{}`)); !errors.Is(err, rollout.ErrVersion) {
		t.Errorf("Decode() error = %v, want ErrVersion", err)
	}
	if got, want := rollout.PodTemplateHashFor(d, bad), rollout.PodTemplateHashFor(d, rollout.V1_37); got != want {
		t.Errorf("PodTemplateHashFor(Version(9)) = %s, want the newest minor's %s", got, want)
	}
	for _, v := range append(rollout.SupportedVersions(), rollout.Latest) {
		s.Options.Version = v
		if _, err := rollout.Plan(s); err != nil {
			t.Errorf("%s: Plan() error %v", v, err)
		}
	}
}

// TestPodTemplateHashForProperties: for random Deployments, each minor
// gives another hash, the zero Version is the newest minor's, and the hash
// of one minor depends on nothing but the template and the collision
// count (the same for a copy with another name and status).
func TestPodTemplateHashForProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := gen.Deployment().Draw(t, "deployment")
		seen := map[string]rollout.Version{}
		for _, v := range rollout.SupportedVersions() {
			h := rollout.PodTemplateHashFor(d, v)
			if prev, ok := seen[h]; ok {
				t.Fatalf("%s and %s both hash to %s", prev, v, h)
			}
			seen[h] = v
			other := d.DeepCopy()
			other.Name, other.Status.Replicas = "other", d.Status.Replicas+1
			if again := rollout.PodTemplateHashFor(other, v); again != h {
				t.Fatalf("%s: %s, then %s for the same template", v, h, again)
			}
		}
		if got, want := rollout.PodTemplateHash(d), rollout.PodTemplateHashFor(d, rollout.V1_37); got != want {
			t.Fatalf("PodTemplateHash = %s, the newest minor's is %s", got, want)
		}
	})
}
