package rollout_test

import (
	"fmt"
	"reflect"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// exNginx returns the Kubernetes documentation's example: nginx-deployment
// with 10 replicas, maxSurge and maxUnavailable 25%, fully rolled out with
// nginx:1.9 (its ReplicaSet nginx-deployment-1564180365), and the image just
// changed to nginx:1.9.3.
func exNginx() rollout.State {
	labels := map[string]string{"app": "nginx"}
	spec := func(image string) rollout.PodSpec {
		return rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"name":"nginx"}]}`, image))
	}
	d := rollout.Deployment{
		ObjectMeta: rollout.ObjectMeta{
			Name: "nginx-deployment", Namespace: "default", UID: "d-uid", Generation: 2,
			Annotations: map[string]string{rollout.RevisionAnnotation: "1"},
		},
		Spec: rollout.DeploymentSpec{
			Replicas:                10,
			Selector:                rollout.LabelSelector{MatchLabels: labels},
			Template:                rollout.PodTemplate{Labels: labels, Spec: spec("nginx:1.9.3")},
			Strategy:                rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()},
			RevisionHistoryLimit:    rollout.Int32(10),
			ProgressDeadlineSeconds: rollout.Int32(600),
		},
		Status: rollout.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
	}
	withHash := map[string]string{"app": "nginx", rollout.PodTemplateHashLabel: "1564180365"}
	old := rollout.ReplicaSet{
		ObjectMeta: rollout.ObjectMeta{
			Name: "nginx-deployment-1564180365", Namespace: "default", UID: "rs-uid", Generation: 1,
			Labels: withHash,
			Annotations: map[string]string{
				rollout.RevisionAnnotation: "1", rollout.DesiredReplicasAnnotation: "10", rollout.MaxReplicasAnnotation: "13",
			},
			OwnerReferences: []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true}},
		},
		Spec: rollout.ReplicaSetSpec{
			Replicas: 10,
			Selector: rollout.LabelSelector{MatchLabels: withHash},
			Template: rollout.PodTemplate{Labels: withHash, Spec: spec("nginx:1.9")},
		},
		Status: rollout.ReplicaSetStatus{Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, ObservedGeneration: 1},
	}
	return rollout.State{
		Deployment:  d,
		ReplicaSets: []rollout.ReplicaSet{old},
		Now:         time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
	}
}

// The first sync after the image change creates the new ReplicaSet at
// maxSurge (3 pods above 10) and scales the old one down by maxUnavailable
// (10 - 2 = 8 must stay available).
func ExamplePlan() {
	actions, err := rollout.Plan(exNginx())
	if err != nil {
		fmt.Println(err)
	}
	for _, a := range actions {
		fmt.Println(a)
	}
	// Output:
	// CreateReplicaSet nginx-deployment-845999d97f 0 -> 3: Normal ScalingReplicaSet Scaled up replica set nginx-deployment-845999d97f from 0 to 3
	// UpdateDeploymentStatus
	// ScaleReplicaSet nginx-deployment-1564180365 10 -> 8: Normal ScalingReplicaSet Scaled down replica set nginx-deployment-1564180365 from 10 to 8
	// UpdateDeploymentStatus
}

// PlanShared gives Plan's actions without copying for each what it
// writes: here the old ReplicaSet's scale holds that ReplicaSet's own
// annotations map, unchanged, where Plan's holds a copy. A caller of
// PlanShared only reads the actions.
func ExamplePlanShared() {
	s := exNginx()
	actions, _ := rollout.PlanShared(s)
	for _, a := range actions {
		if a.Type == rollout.ScaleReplicaSet && a.ReplicaSet == s.ReplicaSets[0].Name {
			fmt.Println(a)
			fmt.Println("holds the state's map:", reflect.ValueOf(a.Annotations).Pointer() == reflect.ValueOf(s.ReplicaSets[0].Annotations).Pointer())
		}
	}
	// Output:
	// ScaleReplicaSet nginx-deployment-1564180365 10 -> 8: Normal ScalingReplicaSet Scaled down replica set nginx-deployment-1564180365 from 10 to 8
	// holds the state's map: true
}

// Apply carries out a sync's actions as the API server would: the new
// ReplicaSet exists, the old one is smaller.
func ExampleApply() {
	s := exNginx()
	actions, _ := rollout.Plan(s)
	s = rollout.Apply(s, actions)
	for _, rs := range s.ReplicaSets {
		fmt.Println(rs.Name, rs.Spec.Replicas, rs.Annotations[rollout.RevisionAnnotation])
	}
	fmt.Println("deployment revision", s.Deployment.Annotations[rollout.RevisionAnnotation])
	// Output:
	// nginx-deployment-1564180365 8 1
	// nginx-deployment-845999d97f 3 2
	// deployment revision 2
}

// The new ReplicaSet of a 10-replica Deployment with 25% maxSurge may grow
// to 3 while the old one still has 10: replicas + maxSurge = 13 in all.
func ExampleNewRSNewReplicas() {
	s := exNginx()
	newRS := &rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "new"}}
	old := &s.ReplicaSets[0]
	n, err := rollout.NewRSNewReplicas(&s.Deployment, []*rollout.ReplicaSet{old, newRS}, newRS)
	fmt.Println(n, err)
	// Output:
	// 3 <nil>
}

// MaxSurge rounds 25% of 10 up, MaxUnavailable rounds it down.
func ExampleMaxSurge() {
	d := rollout.Deployment{Spec: rollout.DeploymentSpec{
		Replicas: 10,
		Strategy: rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.RollingUpdate{
			MaxSurge: surge.Percent(25), MaxUnavailable: surge.Percent(25),
		}},
	}}
	fmt.Println("maxSurge", rollout.MaxSurge(d))
	fmt.Println("maxUnavailable", rollout.MaxUnavailable(d))
	fmt.Println("minAvailable", rollout.MinAvailable(d))
	// Output:
	// maxSurge 3
	// maxUnavailable 2
	// minAvailable 8
}

// FindNewReplicaSet compares templates without the pod-template-hash label.
func ExampleFindNewReplicaSet() {
	s := exNginx()
	rs, ok := rollout.FindNewReplicaSet(s.Deployment, s.ReplicaSets)
	fmt.Printf("%q %v\n", rs.Name, ok)

	s.Deployment.Spec.Template = s.ReplicaSets[0].Spec.Template // back to nginx:1.9
	rs, ok = rollout.FindNewReplicaSet(s.Deployment, s.ReplicaSets)
	fmt.Printf("%q %v\n", rs.Name, ok)
	// Output:
	// "" false
	// "nginx-deployment-1564180365" true
}

// Validate reports what the API server would refuse, in its words.
func ExampleValidate() {
	d := exNginx().Deployment
	d.Spec.Strategy.Type = "BlueGreen"
	fmt.Println(rollout.Validate(d))

	d.Spec.Strategy.Type = rollout.RollingUpdateStrategy
	d.Spec.Strategy.RollingUpdate = rollout.RollingUpdate{MaxSurge: surge.Count(0), MaxUnavailable: surge.Percent(0)}
	fmt.Println(rollout.Validate(d))
	// Output:
	// spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0
}

// Decode applies the API server's defaults to what a manifest leaves out.
func ExampleDecode() {
	objs, err := rollout.Decode([]byte(`{
	  "apiVersion": "apps/v1", "kind": "Deployment",
	  "metadata": {"name": "web"},
	  "spec": {
	    "selector": {"matchLabels": {"app": "web"}},
	    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "img:v1"}]}}
	  }
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	d := objs.Deployments[0]
	ru := d.Spec.Strategy.RollingUpdate
	fmt.Println(d.Namespace, d.Name, d.Spec.Replicas, d.Spec.Strategy.Type, ru.MaxSurge, ru.MaxUnavailable)
	fmt.Println("revisionHistoryLimit", d.Spec.RevisionHistoryLimit.Value, "progressDeadlineSeconds", d.Spec.ProgressDeadlineSeconds.Value)
	fmt.Println(d.Spec.Template.Spec)
	// Output:
	// default web 1 RollingUpdate 25% 25%
	// revisionHistoryLimit 10 progressDeadlineSeconds 600
	// {"containers":[{"image":"img:v1","imagePullPolicy":"IfNotPresent","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}
}
