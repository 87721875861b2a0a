package kube_test

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/kube"
)

// cluster plays the parts of a cluster that the fake clientset does not:
// the API server gives a new ReplicaSet its UID and creation time, and the
// ReplicaSet controller and kubelet make every pod available at once.
func cluster(ctx context.Context, client kubernetes.Interface, now time.Time) error {
	sets, err := client.AppsV1().ReplicaSets("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for i := range sets.Items {
		rs := &sets.Items[i]
		if rs.UID == "" {
			rs.UID = types.UID("uid-" + rs.Name)
			rs.CreationTimestamp = metav1.NewTime(now)
		}
		n := *rs.Spec.Replicas
		rs.Status = appsv1.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n, ObservedGeneration: rs.Generation}
		if _, err := client.AppsV1().ReplicaSets("default").Update(ctx, rs, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// A controller loop over a clientset (here a fake one): one Sync per event
// until a sync has nothing to do, first to roll out a new Deployment, then
// a new image. A real controller calls Sync from its work queue, retries a
// failed sync with backoff, and requeues at Result.RecheckAt.
func Example() {
	ctx := context.Background()
	replicas := int32(4)
	labels := map[string]string{"app": "web"}
	client := fake.NewClientset(&appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid", Generation: 1},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:v1"}}},
			},
		},
	})
	syncer := kube.Syncer{Client: client}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	settle := func() {
		for {
			now = now.Add(10 * time.Second)
			res, err := syncer.Sync(ctx, "default", "web", now)
			if err != nil {
				fmt.Println("sync failed:", err)
				return
			}
			if len(res.Actions) == 0 {
				return
			}
			for _, a := range res.Actions {
				if a.Type != rollout.UpdateDeploymentStatus {
					fmt.Printf("%s %s %d -> %d\n", a.Type, a.ReplicaSet, a.From, a.To)
				}
			}
			if err := cluster(ctx, client, now); err != nil {
				fmt.Println(err)
				return
			}
		}
	}
	settle()

	fmt.Println("-- image app:v2")
	d, err := client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	d.Spec.Template.Spec.Containers[0].Image = "app:v2"
	d.Generation++ // the API server would do this
	if _, err := client.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	settle()
	d, err = client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("revision %s: %d of %d updated and available\n",
		d.Annotations[rollout.RevisionAnnotation], d.Status.AvailableReplicas, *d.Spec.Replicas)
	// Output:
	// CreateReplicaSet web-6fcbd97455 0 -> 4
	// -- image app:v2
	// CreateReplicaSet web-779464cf86 0 -> 1
	// ScaleReplicaSet web-6fcbd97455 4 -> 3
	// ScaleReplicaSet web-779464cf86 1 -> 2
	// ScaleReplicaSet web-6fcbd97455 3 -> 1
	// ScaleReplicaSet web-779464cf86 2 -> 4
	// ScaleReplicaSet web-6fcbd97455 1 -> 0
	// revision 2: 4 of 4 updated and available
}
