package difftest

import (
	"encoding/json"
	"math"
	"sort"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// collisionCounts are the collision counts every hash is compared at.
var collisionCounts = []*int32{nil, ptr(int32(0)), ptr(int32(1)), ptr(int32(math.MaxInt32))}

// compareHash compares upstream's ComputeHash of a stored Deployment's
// template with rollout.PodTemplateHash of the same Deployment decoded
// from its stored JSON, at every collision count.
func compareHash(t *testing.T, name string, stored *appsv1.Deployment) {
	t.Helper()
	data, err := json.Marshal(stored)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := rollout.DecodeOptions{Version: rollout.V1_36}.Decode(data)
	if err != nil {
		t.Fatalf("%s: decoding the stored Deployment: %v", name, err)
	}
	d := objs.Deployments[0]
	for _, cc := range collisionCounts {
		want := controller.ComputeHash(&stored.Spec.Template, cc)
		d.Status.CollisionCount = rollout.OptionalInt32{}
		if cc != nil {
			d.Status.CollisionCount = rollout.Int32(*cc)
		}
		if got := rollout.PodTemplateHashFor(d, rollout.V1_36); got != want {
			t.Errorf("%s (collision count %v): PodTemplateHash = %s, upstream's ComputeHash = %s", name, deref(cc), got, want)
		}
	}
}

func deref(p *int32) any {
	if p == nil {
		return "nil"
	}
	return *p
}

// TestHashSharedManifests compares the hash on every real manifest, as the
// API server stores it.
func TestHashSharedManifests(t *testing.T) {
	ms := sharedManifests(t)
	names := make([]string, 0, len(ms))
	for n := range ms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		_, stored := RealCreateDeployment(ms[n])
		if stored == nil {
			continue
		}
		compareHash(t, n, stored)
	}
}

// TestHashRandomTemplates compares the hash on random templates after the
// real create path (defaults, conversion, storage), whether or not
// validation accepts them: the hash does not depend on it.
func TestHashRandomTemplates(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	for seed := range n {
		d := randomDeployment(int64(seed))
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		_, stored := RealCreateDeployment(data)
		if stored == nil {
			continue
		}
		compareHash(t, "seed "+itoa(seed), stored)
		if t.Failed() {
			t.Fatalf("seed %d: %s", seed, data)
		}
	}
}
