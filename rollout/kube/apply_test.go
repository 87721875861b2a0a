package kube_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/kube"
)

// webObjects is a Deployment "web" of 3 replicas on app:v2 and its old
// ReplicaSet on app:v1, all 3 pods available: the next sync creates the
// new ReplicaSet and scales the old one down.
func webObjects() (*appsv1.Deployment, *appsv1.ReplicaSet) {
	three := int32(3)
	labels := map[string]string{"app": "web"}
	template := func(image string, labels map[string]string) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
		}
	}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid", Generation: 2,
			Annotations: map[string]string{rollout.RevisionAnnotation: "1"}},
		Spec:   appsv1.DeploymentSpec{Replicas: &three, Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: template("app:v2", labels)},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3},
	}
	withHash := map[string]string{"app": "web", rollout.PodTemplateHashLabel: "v1"}
	old := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-v1", Namespace: "default", UID: "rs-uid", Generation: 1, ResourceVersion: "42",
			CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
			Labels:            withHash,
			Annotations: map[string]string{rollout.RevisionAnnotation: "1",
				rollout.DesiredReplicasAnnotation: "3", rollout.MaxReplicasAnnotation: "4"},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))},
			Finalizers:      []string{"example.com/keep"}},
		Spec:   appsv1.ReplicaSetSpec{Replicas: &three, Selector: &metav1.LabelSelector{MatchLabels: withHash}, Template: template("app:v1", withHash)},
		Status: appsv1.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 1},
	}
	return d, old
}

// TestReplicaSetFor: a scale keeps every field of the ReplicaSet it
// updates but the size, annotations and minReadySeconds; a create sends
// the planned ReplicaSet; anything else is an error.
func TestReplicaSetFor(t *testing.T) {
	_, old := webObjects()
	before := old.DeepCopy()
	a := rollout.Action{Type: rollout.ScaleReplicaSet, ReplicaSet: "web-v1", From: 3, To: 2, MinReadySeconds: 5,
		Annotations: map[string]string{rollout.RevisionAnnotation: "1", rollout.DesiredReplicasAnnotation: "3", rollout.MaxReplicasAnnotation: "5"}}
	got, err := kube.ReplicaSetFor(a, old)
	if err != nil {
		t.Fatalf("ReplicaSetFor() error: %v", err)
	}
	want := before.DeepCopy()
	want.Spec.Replicas = &a.To
	want.Spec.MinReadySeconds = 5
	want.Annotations = a.Annotations
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReplicaSetFor(scale) mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, old); diff != "" {
		t.Errorf("ReplicaSetFor() modified current (-before +after):\n%s", diff)
	}

	created := rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "web-new", Namespace: "default"}, Spec: rollout.ReplicaSetSpec{Replicas: 1}}
	rs, err := kube.ReplicaSetFor(rollout.Action{Type: rollout.CreateReplicaSet, ReplicaSet: "web-new", To: 1, Created: &created}, nil)
	if err != nil || rs.Name != "web-new" || *rs.Spec.Replicas != 1 {
		t.Errorf("ReplicaSetFor(create) = %v, %v; want web-new of 1", rs, err)
	}

	for _, tt := range []struct {
		name    string
		a       rollout.Action
		current *appsv1.ReplicaSet
	}{
		{"not a ReplicaSet write", rollout.Action{Type: rollout.UpdateDeploymentStatus}, old},
		{"no current ReplicaSet", a, nil},
		{"another ReplicaSet", rollout.Action{Type: rollout.ScaleReplicaSet, ReplicaSet: "web-v9"}, old},
	} {
		if _, err := kube.ReplicaSetFor(tt.a, tt.current); err == nil {
			t.Errorf("%s: ReplicaSetFor() = nil error", tt.name)
		}
	}
}

// TestDeploymentFor: a status write changes only the status and the
// annotations; a rollback's write only the template and the annotations.
func TestDeploymentFor(t *testing.T) {
	d, old := webObjects()
	d.ResourceVersion = "7"
	before := d.DeepCopy()
	status := rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, CollisionCount: rollout.Int32(1)}
	got, err := kube.DeploymentFor(rollout.Action{Type: rollout.UpdateDeploymentStatus, Status: &status,
		Annotations: map[string]string{rollout.RevisionAnnotation: "2"}}, d)
	if err != nil {
		t.Fatalf("DeploymentFor(status) error: %v", err)
	}
	one := int32(1)
	want := before.DeepCopy()
	want.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, CollisionCount: &one}
	want.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DeploymentFor(status) mismatch (-want +got):\n%s", diff)
	}

	oldRS, err := kube.FromReplicaSet(old)
	if err != nil {
		t.Fatal(err)
	}
	got, err = kube.DeploymentFor(rollout.Action{Type: rollout.UpdateDeployment, Template: &oldRS.Spec.Template, Annotations: nil}, d)
	if err != nil {
		t.Fatalf("DeploymentFor(rollback) error: %v", err)
	}
	if img := got.Spec.Template.Spec.Containers[0].Image; img != "app:v1" || got.Annotations != nil || !cmp.Equal(got.Status, before.Status) || got.ResourceVersion != "7" {
		t.Errorf("DeploymentFor(rollback) = image %s, annotations %v, status %+v, resourceVersion %s; want app:v1, none, the status and resourceVersion kept",
			img, got.Annotations, got.Status, got.ResourceVersion)
	}
	if diff := cmp.Diff(before, d); diff != "" {
		t.Errorf("DeploymentFor() modified current (-before +after):\n%s", diff)
	}
	if _, err := kube.DeploymentFor(rollout.Action{Type: rollout.ScaleReplicaSet}, d); err == nil {
		t.Errorf("DeploymentFor(ScaleReplicaSet) = nil error")
	}
}

// TestWritesWithoutTheirObject: an action whose pointer field is nil where
// its type carries one (a hand-built action; Plan never returns one) is an
// error, not an empty object sent to the API server.
func TestWritesWithoutTheirObject(t *testing.T) {
	d, _ := webObjects()
	if rs, err := kube.ReplicaSetFor(rollout.Action{Type: rollout.CreateReplicaSet, ReplicaSet: "web-new"}, nil); err == nil {
		t.Errorf("ReplicaSetFor(CreateReplicaSet, Created nil) = %v, nil error", rs.Name)
	}
	for _, typ := range []rollout.ActionType{rollout.UpdateDeployment, rollout.UpdateDeploymentStatus} {
		if _, err := kube.DeploymentFor(rollout.Action{Type: typ}, d); err == nil {
			t.Errorf("DeploymentFor(%s with nil Template and Status) = nil error", typ)
		}
	}
}

// TestOwnerPatch: the patches are upstream's, byte for byte (R-ADOPT-2).
func TestOwnerPatch(t *testing.T) {
	d, rs := webObjects()
	for _, tt := range []struct {
		typ  rollout.ActionType
		want string
	}{
		{rollout.AdoptReplicaSet, `{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"dep-uid","controller":true,"blockOwnerDeletion":true}],"uid":"rs-uid"}}`},
		{rollout.ReleaseReplicaSet, `{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"dep-uid"}],"uid":"rs-uid"}}`},
	} {
		got, err := kube.OwnerPatch(rollout.Action{Type: tt.typ, ReplicaSet: rs.Name}, d, rs)
		if err != nil {
			t.Fatalf("OwnerPatch(%s) error: %v", tt.typ, err)
		}
		if string(got) != tt.want {
			t.Errorf("OwnerPatch(%s) = %s, want %s", tt.typ, got, tt.want)
		}
	}
	if _, err := kube.OwnerPatch(rollout.Action{Type: rollout.DeleteReplicaSet}, d, rs); err == nil {
		t.Errorf("OwnerPatch(DeleteReplicaSet) = nil error")
	}
}

// TestSyncStopsAtTheFirstFailedCall: when a call fails, Sync returns its
// error and makes no later call; the next sync plans again from what the
// server holds.
func TestSyncStopsAtTheFirstFailedCall(t *testing.T) {
	d, old := webObjects()
	client := fake.NewClientset(d, old)
	client.PrependReactor("create", "replicasets", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("quota exceeded")
	})
	client.ClearActions()
	now := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	syncer := kube.Syncer{Client: client}
	res, err := syncer.Sync(context.Background(), "default", "web", now)
	if err == nil || !strings.Contains(err.Error(), "CreateReplicaSet") || !strings.Contains(err.Error(), "quota exceeded") {
		t.Fatalf("Sync() error = %v, want the failed CreateReplicaSet", err)
	}
	if len(res.Actions) != 1 || res.Actions[0].Type != rollout.CreateReplicaSet {
		t.Errorf("Sync() carried out %v, want only the failed create", res.Actions)
	}
	for _, call := range client.Actions() {
		if v := call.GetVerb(); v != "get" && v != "list" && v != "create" {
			t.Errorf("Sync() went on after the failed call: %s %s", v, call.GetResource().Resource)
		}
	}

	// The quota is raised. The new ReplicaSet gets maxSurge (1 of 3); no old
	// pod may go until it is available (maxUnavailable 0 of 3).
	client.ReactionChain = client.ReactionChain[1:]
	if _, err := syncer.Sync(context.Background(), "default", "web", now.Add(time.Second)); err != nil {
		t.Fatalf("the next Sync() error: %v", err)
	}
	sets, err := client.AppsV1().ReplicaSets("default").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int32{}
	for _, rs := range sets.Items {
		sizes[rs.Spec.Template.Spec.Containers[0].Image] = *rs.Spec.Replicas
	}
	if diff := cmp.Diff(map[string]int32{"app:v1": 3, "app:v2": 1}, sizes); diff != "" {
		t.Errorf("sizes after the retry by image (-want +got):\n%s", diff)
	}
}

// TestSyncDeploymentGone: a Deployment that no longer exists is no work.
func TestSyncDeploymentGone(t *testing.T) {
	client := fake.NewClientset()
	res, err := kube.Syncer{Client: client}.Sync(context.Background(), "default", "web", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || len(res.Actions) != 0 {
		t.Errorf("Sync(gone) = %v, %v; want nothing", res, err)
	}
}
