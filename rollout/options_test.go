package rollout_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// staleState is vectors E-E: a complete rollout of 3 replicas whose
// ReplicaSet carries desired-replicas "2", then a new image.
func staleState(t *testing.T) rollout.State {
	t.Helper()
	const manifest = `{"kind": "List", "items": [
	{"kind": "Deployment", "metadata": {"name": "web", "namespace": "default", "uid": "dep-uid", "generation": 2,
	  "annotations": {"deployment.kubernetes.io/revision": "1"}},
	 "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
	  "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "img:v2"}]}}},
	 "status": {"observedGeneration": 1, "replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3}},
	{"kind": "ReplicaSet", "metadata": {"name": "web-v1", "namespace": "default", "uid": "rs-uid", "generation": 1,
	  "creationTimestamp": "2026-01-01T00:00:00Z",
	  "labels": {"app": "web", "pod-template-hash": "v1"},
	  "annotations": {"deployment.kubernetes.io/revision": "1", "deployment.kubernetes.io/desired-replicas": "2", "deployment.kubernetes.io/max-replicas": "4"},
	  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "dep-uid", "controller": true}]},
	 "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "v1"}},
	  "template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "v1"}}, "spec": {"containers": [{"name": "c", "image": "img:v1"}]}}},
	 "status": {"replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "observedGeneration": 1}}]}`
	objs, err := rollout.Decode([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	return objs.State(objs.Deployments[0], time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC))
}

func apiCalls(actions []rollout.Action) []string {
	var out []string
	for _, a := range actions {
		if a.IsAPICall() {
			out = append(out, string(a.Type)+" "+a.ReplicaSet)
		}
	}
	return out
}

// TestRefreshStaleAnnotations checks upstream's stale desired-replicas
// deadlock (Q-1, vectors E-E) and the option that fixes it.
func TestRefreshStaleAnnotations(t *testing.T) {
	s := staleState(t)
	got, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	// Upstream: a scaling event that changes nothing but the status; the
	// new template never gets a ReplicaSet.
	if diff := cmp.Diff([]string{"UpdateDeploymentStatus "}, apiCalls(got)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}

	s.Options.RefreshStaleAnnotations = true
	got, err = rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"UpdateReplicaSet web-v1", "UpdateDeploymentStatus "}, apiCalls(got)); diff != "" {
		t.Errorf("Plan() with RefreshStaleAnnotations mismatch (-want +got):\n%s", diff)
	}
	if a := got[0].Annotations[rollout.DesiredReplicasAnnotation]; a != "3" {
		t.Errorf("desired-replicas after the fix = %q, want 3", a)
	}
	next, err := rollout.Plan(rollout.Apply(s, got))
	if err != nil {
		t.Fatal(err)
	}
	if calls := apiCalls(next); len(calls) == 0 || calls[0][:len("CreateReplicaSet")] != "CreateReplicaSet" {
		t.Errorf("the sync after the fix makes %v, want the new ReplicaSet created first", calls)
	}
}
