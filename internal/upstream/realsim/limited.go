package realsim

import (
	"context"
	"sync/atomic"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	appsclient "k8s.io/client-go/kubernetes/typed/apps/v1"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/util/flowcontrol"
)

// limited is a controller's client: every request it makes waits for a
// token of its own bucket first, as client-go's REST client does. The
// fake clientset underneath holds a lock while its reactors run, so the
// wait must come before it: a goroutine waiting for that lock is not
// durably blocked, and a bubble where one waits for a token while the
// others wait for the lock never advances its clock.
//
// Only the requests the two controllers make are wrapped; waits counts
// them, and the clientset's reactor counts every request, so that a run
// can tell if one went round the bucket.
type limited struct {
	kubernetes.Interface
	bucket flowcontrol.RateLimiter // nil: no limit
	waits  *atomic.Int64
}

func (c limited) wait(ctx context.Context) error {
	c.waits.Add(1)
	if c.bucket == nil {
		return nil
	}
	return c.bucket.Wait(ctx)
}

// AppsV1 is the limited client's apps/v1 group.
func (c limited) AppsV1() appsclient.AppsV1Interface {
	return limitedApps{c.Interface.AppsV1(), c}
}

// CoreV1 is the limited client's core/v1 group.
func (c limited) CoreV1() coreclient.CoreV1Interface {
	return limitedCore{c.Interface.CoreV1(), c}
}

type limitedApps struct {
	appsclient.AppsV1Interface
	c limited
}

func (a limitedApps) ReplicaSets(ns string) appsclient.ReplicaSetInterface {
	return limitedReplicaSets{a.AppsV1Interface.ReplicaSets(ns), a.c}
}

func (a limitedApps) Deployments(ns string) appsclient.DeploymentInterface {
	return limitedDeployments{a.AppsV1Interface.Deployments(ns), a.c}
}

type limitedCore struct {
	coreclient.CoreV1Interface
	c limited
}

func (a limitedCore) Pods(ns string) coreclient.PodInterface {
	return limitedPods{a.CoreV1Interface.Pods(ns), a.c}
}

func (a limitedCore) Events(ns string) coreclient.EventInterface {
	return limitedEvents{a.CoreV1Interface.Events(ns), a.c}
}

type limitedReplicaSets struct {
	appsclient.ReplicaSetInterface
	c limited
}

func (r limitedReplicaSets) Get(ctx context.Context, name string, o metav1.GetOptions) (*appsv1.ReplicaSet, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.ReplicaSetInterface.Get(ctx, name, o)
}

func (r limitedReplicaSets) Create(ctx context.Context, x *appsv1.ReplicaSet, o metav1.CreateOptions) (*appsv1.ReplicaSet, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.ReplicaSetInterface.Create(ctx, x, o)
}

func (r limitedReplicaSets) Update(ctx context.Context, x *appsv1.ReplicaSet, o metav1.UpdateOptions) (*appsv1.ReplicaSet, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.ReplicaSetInterface.Update(ctx, x, o)
}

func (r limitedReplicaSets) UpdateStatus(ctx context.Context, x *appsv1.ReplicaSet, o metav1.UpdateOptions) (*appsv1.ReplicaSet, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.ReplicaSetInterface.UpdateStatus(ctx, x, o)
}

func (r limitedReplicaSets) Delete(ctx context.Context, name string, o metav1.DeleteOptions) error {
	if err := r.c.wait(ctx); err != nil {
		return err
	}
	return r.ReplicaSetInterface.Delete(ctx, name, o)
}

func (r limitedReplicaSets) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, o metav1.PatchOptions, sub ...string) (*appsv1.ReplicaSet, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.ReplicaSetInterface.Patch(ctx, name, pt, data, o, sub...)
}

type limitedDeployments struct {
	appsclient.DeploymentInterface
	c limited
}

func (r limitedDeployments) Get(ctx context.Context, name string, o metav1.GetOptions) (*appsv1.Deployment, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.DeploymentInterface.Get(ctx, name, o)
}

func (r limitedDeployments) Update(ctx context.Context, x *appsv1.Deployment, o metav1.UpdateOptions) (*appsv1.Deployment, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.DeploymentInterface.Update(ctx, x, o)
}

func (r limitedDeployments) UpdateStatus(ctx context.Context, x *appsv1.Deployment, o metav1.UpdateOptions) (*appsv1.Deployment, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.DeploymentInterface.UpdateStatus(ctx, x, o)
}

func (r limitedDeployments) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, o metav1.PatchOptions, sub ...string) (*appsv1.Deployment, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.DeploymentInterface.Patch(ctx, name, pt, data, o, sub...)
}

type limitedPods struct {
	coreclient.PodInterface
	c limited
}

func (r limitedPods) Get(ctx context.Context, name string, o metav1.GetOptions) (*corev1.Pod, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.PodInterface.Get(ctx, name, o)
}

func (r limitedPods) Create(ctx context.Context, x *corev1.Pod, o metav1.CreateOptions) (*corev1.Pod, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.PodInterface.Create(ctx, x, o)
}

func (r limitedPods) Delete(ctx context.Context, name string, o metav1.DeleteOptions) error {
	if err := r.c.wait(ctx); err != nil {
		return err
	}
	return r.PodInterface.Delete(ctx, name, o)
}

func (r limitedPods) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, o metav1.PatchOptions, sub ...string) (*corev1.Pod, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.PodInterface.Patch(ctx, name, pt, data, o, sub...)
}

type limitedEvents struct {
	coreclient.EventInterface
	c limited
}

// client-go's event sink calls the methods without a context, which wait
// on a background one; they and the ones with a context wait alike.

func (r limitedEvents) CreateWithEventNamespace(e *corev1.Event) (*corev1.Event, error) {
	return r.CreateWithEventNamespaceWithContext(context.Background(), e)
}

func (r limitedEvents) UpdateWithEventNamespace(e *corev1.Event) (*corev1.Event, error) {
	return r.UpdateWithEventNamespaceWithContext(context.Background(), e)
}

func (r limitedEvents) PatchWithEventNamespace(e *corev1.Event, data []byte) (*corev1.Event, error) {
	return r.PatchWithEventNamespaceWithContext(context.Background(), e, data)
}

func (r limitedEvents) CreateWithEventNamespaceWithContext(ctx context.Context, e *corev1.Event) (*corev1.Event, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.EventInterface.CreateWithEventNamespaceWithContext(ctx, e)
}

func (r limitedEvents) UpdateWithEventNamespaceWithContext(ctx context.Context, e *corev1.Event) (*corev1.Event, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.EventInterface.UpdateWithEventNamespaceWithContext(ctx, e)
}

func (r limitedEvents) PatchWithEventNamespaceWithContext(ctx context.Context, e *corev1.Event, data []byte) (*corev1.Event, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.EventInterface.PatchWithEventNamespaceWithContext(ctx, e, data)
}

// The Deployment controller lists ReplicaSets through its client when a
// pod of a Recreate Deployment is deleted (deletePod).

func (r limitedReplicaSets) List(ctx context.Context, o metav1.ListOptions) (*appsv1.ReplicaSetList, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.ReplicaSetInterface.List(ctx, o)
}

func (r limitedPods) List(ctx context.Context, o metav1.ListOptions) (*corev1.PodList, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.PodInterface.List(ctx, o)
}

func (r limitedDeployments) List(ctx context.Context, o metav1.ListOptions) (*appsv1.DeploymentList, error) {
	if err := r.c.wait(ctx); err != nil {
		return nil, err
	}
	return r.DeploymentInterface.List(ctx, o)
}
