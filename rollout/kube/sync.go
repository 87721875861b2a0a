package kube

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Syncer runs syncs of Deployments through a clientset. Its zero value is
// not usable: Client is required.
type Syncer struct {
	// Client is the clientset the sync reads and writes through.
	Client kubernetes.Interface
	// Recorder records the plan's events on the Deployment; nil drops
	// them.
	Recorder record.EventRecorder
	// Options are passed to rollout.Plan.
	Options rollout.Options
}

// Result is what one sync did and asks for.
type Result struct {
	// Actions are the plan's actions carried out, in order; when the sync
	// failed on a call, that call is the last.
	Actions []rollout.Action
	// RecheckAt, when not zero, is when to sync again to judge the
	// progress deadline (at or before now: at once).
	RecheckAt time.Time
}

// Sync runs one sync of the Deployment namespace/name at now: it reads the
// Deployment and every ReplicaSet and Pod of its namespace, plans with
// rollout.Plan, and carries out the plan in order, recording each event
// once its call succeeded. A Deployment that does not exist is no work and
// no error.
//
// Sync stops at the first call that fails and returns its error; when Plan
// fails, Sync first carries out the actions Plan returned with the error
// (after a hash collision, the status write that raises collisionCount)
// and then returns Plan's error. Either way the caller retries later with
// backoff. A second write of the same object in one plan is built
// from the object the first write returned, so it does not conflict.
func (s Syncer) Sync(ctx context.Context, namespace, name string, now time.Time) (Result, error) {
	var res Result
	apps := s.Client.AppsV1()
	d, err := apps.Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	rsList, err := apps.ReplicaSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return res, err
	}
	podList, err := s.Client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return res, err
	}
	current := make(map[string]*appsv1.ReplicaSet, len(rsList.Items))
	sets := make([]*appsv1.ReplicaSet, len(rsList.Items))
	for i := range rsList.Items {
		sets[i] = &rsList.Items[i]
		current[sets[i].Name] = sets[i]
	}
	pods := make([]*corev1.Pod, len(podList.Items))
	for i := range podList.Items {
		pods[i] = &podList.Items[i]
	}
	state, err := NewState(d, sets, pods, now)
	if err != nil {
		return res, err
	}
	state.Options = s.Options
	actions, planErr := rollout.Plan(state)
	for _, a := range actions {
		switch a.Type {
		case rollout.RecheckProgress:
			res.RecheckAt = a.At
			continue
		case rollout.RecordEvent:
		default:
			res.Actions = append(res.Actions, a)
			if d, err = s.call(ctx, a, d, current); err != nil {
				return res, fmt.Errorf("kube: %s %s: %w", a.Type, a.ReplicaSet, err)
			}
		}
		if s.Recorder != nil && !a.Event.IsZero() {
			s.Recorder.Event(d, a.Event.Type, a.Event.Reason, a.Event.Message)
		}
	}
	return res, planErr
}

// call carries out one API call of a plan for Deployment d, whose
// ReplicaSets current holds by name. It returns the Deployment as the
// server returned it after a Deployment write, or d, and keeps current up
// to date.
func (s Syncer) call(ctx context.Context, a rollout.Action, d *appsv1.Deployment, current map[string]*appsv1.ReplicaSet) (*appsv1.Deployment, error) {
	sets := s.Client.AppsV1().ReplicaSets(d.Namespace)
	deployments := s.Client.AppsV1().Deployments(d.Namespace)
	switch a.Type {
	case rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet:
		rs := current[a.ReplicaSet]
		if rs == nil {
			return d, fmt.Errorf("no ReplicaSet of that name")
		}
		patch, err := OwnerPatch(a, d, rs)
		if err == nil {
			current[rs.Name], err = sets.Patch(ctx, rs.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{})
		}
		return d, err
	case rollout.CreateReplicaSet:
		rs, err := ReplicaSetFor(a, nil)
		if err == nil {
			rs, err = sets.Create(ctx, rs, metav1.CreateOptions{})
		}
		return d, remember(current, rs, err)
	case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
		rs, err := ReplicaSetFor(a, current[a.ReplicaSet])
		if err == nil {
			rs, err = sets.Update(ctx, rs, metav1.UpdateOptions{})
		}
		return d, remember(current, rs, err)
	case rollout.DeleteReplicaSet:
		delete(current, a.ReplicaSet)
		return d, sets.Delete(ctx, a.ReplicaSet, metav1.DeleteOptions{})
	case rollout.UpdateDeployment:
		next, err := DeploymentFor(a, d)
		if err == nil {
			next, err = deployments.Update(ctx, next, metav1.UpdateOptions{})
		}
		return newer(next, d, err)
	case rollout.UpdateDeploymentStatus:
		next, err := DeploymentFor(a, d)
		if err == nil {
			next, err = deployments.UpdateStatus(ctx, next, metav1.UpdateOptions{})
		}
		return newer(next, d, err)
	}
	return d, fmt.Errorf("unknown action type")
}

// remember keeps the ReplicaSet a successful write returned, for later
// writes of the same plan.
func remember(current map[string]*appsv1.ReplicaSet, rs *appsv1.ReplicaSet, err error) error {
	if err == nil {
		current[rs.Name] = rs
	}
	return err
}

// newer returns the Deployment a successful write returned, or else d.
func newer(next, d *appsv1.Deployment, err error) (*appsv1.Deployment, error) {
	if err != nil {
		return d, err
	}
	return next, nil
}
