package rollout_test

import (
	"errors"
	"testing"
	"time"

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
