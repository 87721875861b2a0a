package upstream

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	controller "k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"k8s.io/utils/ptr"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Side-by-side benchmarks: each runs upstream's function (sub-benchmark
// impl=upstream) and ours (impl=rolloutmath) on the same objects, so one
// run gives the ratio on one machine. The objects are built as apps/v1
// values, defaulted as the API server defaults them, and decoded into
// rolloutmath's types from their JSON.

// benchTemplate is a realistic pod template for image: an app container
// with ports, environment and resources, and two sidecars (1.7 KB of pod
// spec once defaulted).
func benchTemplate(image string) corev1.PodTemplateSpec {
	container := func(name, image string, env int) corev1.Container {
		var vars []corev1.EnvVar
		for i := range env {
			vars = append(vars, corev1.EnvVar{Name: fmt.Sprintf("%s_VAR_%d", name, i), Value: fmt.Sprint(i * 1000)})
		}
		return corev1.Container{
			Name: name, Image: image, ImagePullPolicy: corev1.PullIfNotPresent, Env: vars,
			Ports: []corev1.ContainerPort{{ContainerPort: 8080, Name: "http", Protocol: corev1.ProtocolTCP}},
			Resources: corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")},
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
			},
		}
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"example.com/owner": "team-payments"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			container("app", image, 8), container("log-shipper", "fluent-bit:2.2", 3), container("proxy", "envoy:1.29", 4),
		}},
	}
}

// pair is one state in both representations.
type pair struct {
	d    *apps.Deployment
	sets []*apps.ReplicaSet
	our  rollout.State
	ours []*rollout.ReplicaSet // pointers into our.ReplicaSets, in the same order as sets
}

// newPair is a RollingUpdate Deployment of 10 replicas (25%/25%) in
// mid-rollout over n ReplicaSets (n >= 3), oldest first: the last one is
// new at 3, the two before it are old at 6 and 2, the rest are empty.
// Every ReplicaSet carries current replica annotations and has all its
// replicas available.
func newPair(tb testing.TB, n int) pair {
	epoch := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &apps.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web", Generation: 2},
		Spec: apps.DeploymentSpec{
			Replicas: ptr.To[int32](10),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: benchTemplate("app:new"),
			Strategy: apps.DeploymentStrategy{Type: apps.RollingUpdateDeploymentStrategyType, RollingUpdate: &apps.RollingUpdateDeployment{
				MaxSurge: ptr.To(intstr.FromString("25%")), MaxUnavailable: ptr.To(intstr.FromString("25%")),
			}},
		},
		Status: apps.DeploymentStatus{ObservedGeneration: 2, Replicas: 11, UpdatedReplicas: 3, ReadyReplicas: 11, AvailableReplicas: 11},
	}
	appsdefaults.SetObjectDefaults_Deployment(d)
	p := pair{d: d}
	items := []any{d}
	for i := range n {
		tmpl, size := benchTemplate(fmt.Sprintf("app:%d", i)), int32(0)
		switch i {
		case n - 1:
			tmpl, size = benchTemplate("app:new"), 3
		case n - 2:
			size = 6
		case n - 3:
			size = 2
		}
		h := fmt.Sprintf("h%08d", i)
		tmpl.Labels = map[string]string{"app": "web", "pod-template-hash": h}
		rs := &apps.ReplicaSet{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: metav1.ObjectMeta{
				Name: "web-" + h, Namespace: "default", UID: types.UID("uid-" + h), Generation: 1,
				CreationTimestamp: metav1.NewTime(epoch.Add(time.Duration(i) * time.Minute)),
				Labels:            map[string]string{"app": "web", "pod-template-hash": h},
				Annotations: map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(i + 1),
					"deployment.kubernetes.io/desired-replicas": "10", "deployment.kubernetes.io/max-replicas": "13"},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, apps.SchemeGroupVersion.WithKind("Deployment"))},
			},
			Spec: apps.ReplicaSetSpec{Replicas: ptr.To(size), Selector: &metav1.LabelSelector{MatchLabels: tmpl.Labels}, Template: tmpl},
			Status: apps.ReplicaSetStatus{Replicas: size, FullyLabeledReplicas: size, ReadyReplicas: size, AvailableReplicas: size,
				ObservedGeneration: 1},
		}
		appsdefaults.SetObjectDefaults_ReplicaSet(rs)
		p.sets = append(p.sets, rs)
		items = append(items, rs)
	}
	list, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		tb.Fatal(err)
	}
	objs, err := rollout.Decode(list)
	if err != nil {
		tb.Fatalf("decoding the apps/v1 objects: %v", err)
	}
	p.our = objs.State(objs.Deployments[0], epoch.Add(time.Hour))
	p.our.Options.Version = rollout.V1_36 // beside k8s.io/kubernetes v1.36.3
	byName := map[string]*rollout.ReplicaSet{}
	for i := range p.our.ReplicaSets {
		byName[p.our.ReplicaSets[i].Name] = &p.our.ReplicaSets[i]
	}
	for _, rs := range p.sets {
		p.ours = append(p.ours, byName[rs.Name])
	}
	return p
}

// sideBySide runs upstream's and our function as two sub-benchmarks.
func sideBySide(b *testing.B, upstream, ours func()) {
	b.Run("impl=upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			upstream()
		}
	})
	b.Run("impl=rolloutmath", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ours()
		}
	})
}

func BenchmarkNewRSNewReplicas(b *testing.B) {
	p := newPair(b, 3)
	sideBySide(b,
		func() { _, _ = deploymentutil.NewRSNewReplicas(p.d, p.sets, p.sets[2]) },
		func() { _, _ = rollout.NewRSNewReplicas(&p.our.Deployment, p.ours, p.ours[2]) })
}

func BenchmarkMaxSurge(b *testing.B) {
	p := newPair(b, 3)
	sideBySide(b,
		func() { deploymentutil.MaxSurge(*p.d) },
		func() { rollout.MaxSurge(p.our.Deployment) })
}

func BenchmarkMaxUnavailable(b *testing.B) {
	p := newPair(b, 3)
	sideBySide(b,
		func() { deploymentutil.MaxUnavailable(*p.d) },
		func() { rollout.MaxUnavailable(p.our.Deployment) })
}

func BenchmarkResolveFenceposts(b *testing.B) {
	ms, mu := intstr.FromString("25%"), intstr.FromString("25%")
	sideBySide(b,
		func() { _, _, _ = deploymentutil.ResolveFenceposts(&ms, &mu, 10) },
		func() { rollout.ResolveFenceposts(surge.Percent(25), surge.Percent(25), 10) })
}

func BenchmarkFindNewReplicaSet(b *testing.B) {
	for _, n := range []int{10, 1000} {
		p := newPair(b, n)
		b.Run(fmt.Sprintf("sets=%d", n), func(b *testing.B) {
			sideBySide(b,
				func() { deploymentutil.FindNewReplicaSet(p.d, p.sets) },
				func() { rollout.FindNewReplicaSet(p.our.Deployment, p.our.ReplicaSets) })
		})
	}
}

func BenchmarkFindOldReplicaSets(b *testing.B) {
	p := newPair(b, 10)
	sideBySide(b,
		func() { deploymentutil.FindOldReplicaSets(p.d, p.sets) },
		func() { rollout.FindOldReplicaSets(p.our.Deployment, p.our.ReplicaSets) })
}

func BenchmarkEqualIgnoreHash(b *testing.B) {
	p := newPair(b, 3)
	sideBySide(b,
		func() { deploymentutil.EqualIgnoreHash(&p.d.Spec.Template, &p.sets[2].Spec.Template) },
		func() { rollout.EqualIgnoreHash(p.our.Deployment.Spec.Template, p.ours[2].Spec.Template) })
}

func BenchmarkGetReplicaSetProportion(b *testing.B) {
	p := newPair(b, 3)
	// Scaled from 10 to 20 replicas mid-rollout: each ReplicaSet's share.
	d := p.d.DeepCopy()
	d.Spec.Replicas = ptr.To[int32](20)
	od := p.our.Deployment
	od.Spec.Replicas = 20
	logger := klog.Background()
	sideBySide(b,
		func() { deploymentutil.GetReplicaSetProportion(logger, p.sets[1], *d, 14, 0) },
		func() { rollout.GetReplicaSetProportion(p.ours[1], od, 14, 0) })
}

func BenchmarkIsSaturated(b *testing.B) {
	p := newPair(b, 3)
	sideBySide(b,
		func() { deploymentutil.IsSaturated(p.d, p.sets[2]) },
		func() { rollout.IsSaturated(&p.our.Deployment, p.ours[2]) })
}

func BenchmarkFilterActiveReplicaSets(b *testing.B) {
	p := newPair(b, 10)
	sideBySide(b,
		func() { controller.FilterActiveReplicaSets(p.sets) },
		func() { rollout.FilterActiveReplicaSets(p.ours) })
}

func BenchmarkGetAvailableReplicaCountForReplicaSets(b *testing.B) {
	p := newPair(b, 10)
	sideBySide(b,
		func() { deploymentutil.GetAvailableReplicaCountForReplicaSets(p.sets) },
		func() { rollout.GetAvailableReplicaCountForReplicaSets(p.ours) })
}

func BenchmarkDeploymentComplete(b *testing.B) {
	p := newPair(b, 3)
	sideBySide(b,
		func() { deploymentutil.DeploymentComplete(p.d, &p.d.Status) },
		func() { rollout.DeploymentComplete(p.our.Deployment, p.our.Deployment.Status) })
}

// TestBenchPairsAgree checks that the benchmarks compare like with like:
// on the benchmarks' objects, upstream's functions and ours give the same
// answers.
func TestBenchPairsAgree(t *testing.T) {
	p := newPair(t, 10)
	type answers struct {
		NewRSNewReplicas, MaxSurge, MaxUnavailable int32
		NewRS                                      string
		Old                                        []string
		Active                                     int
		Available                                  int64
		Saturated, Complete, EqualTemplates        bool
	}
	up := func() answers {
		n, err := deploymentutil.NewRSNewReplicas(p.d, p.sets, p.sets[len(p.sets)-1])
		if err != nil {
			t.Fatal(err)
		}
		_, old := deploymentutil.FindOldReplicaSets(p.d, append([]*apps.ReplicaSet(nil), p.sets...))
		var names []string
		for _, rs := range old {
			names = append(names, rs.Name)
		}
		last := p.sets[len(p.sets)-1]
		return answers{n, deploymentutil.MaxSurge(*p.d), deploymentutil.MaxUnavailable(*p.d),
			deploymentutil.FindNewReplicaSet(p.d, append([]*apps.ReplicaSet(nil), p.sets...)).Name, names,
			len(controller.FilterActiveReplicaSets(p.sets)), int64(deploymentutil.GetAvailableReplicaCountForReplicaSets(p.sets)),
			deploymentutil.IsSaturated(p.d, last), deploymentutil.DeploymentComplete(p.d, &p.d.Status),
			deploymentutil.EqualIgnoreHash(&p.d.Spec.Template, &last.Spec.Template)}
	}()
	ours := func() answers {
		last := p.ours[len(p.ours)-1]
		n, err := rollout.NewRSNewReplicas(&p.our.Deployment, p.ours, last)
		if err != nil {
			t.Fatal(err)
		}
		_, old := rollout.FindOldReplicaSets(p.our.Deployment, p.our.ReplicaSets)
		var names []string
		for _, rs := range old {
			names = append(names, rs.Name)
		}
		newRS, _ := rollout.FindNewReplicaSet(p.our.Deployment, p.our.ReplicaSets)
		d := p.our.Deployment
		return answers{n, rollout.MaxSurge(d), rollout.MaxUnavailable(d), newRS.Name, names,
			len(rollout.FilterActiveReplicaSets(p.ours)), rollout.GetAvailableReplicaCountForReplicaSets(p.ours),
			rollout.IsSaturated(&d, last), rollout.DeploymentComplete(d, d.Status),
			rollout.EqualIgnoreHash(d.Spec.Template, last.Spec.Template)}
	}()
	if fmt.Sprint(up) != fmt.Sprint(ours) {
		t.Errorf("on the benchmarks' objects:\nupstream    %+v\nrolloutmath %+v", up, ours)
	}
	for i := range 3 {
		d := p.d.DeepCopy()
		d.Spec.Replicas = ptr.To[int32](20)
		od := p.our.Deployment
		od.Spec.Replicas = 20
		rs := p.sets[len(p.sets)-3+i]
		want := deploymentutil.GetReplicaSetProportion(klog.Background(), rs, *d, 14, 0)
		if got := rollout.GetReplicaSetProportion(p.ours[len(p.ours)-3+i], od, 14, 0); got != want {
			t.Errorf("GetReplicaSetProportion(%s) = %d, upstream %d", rs.Name, got, want)
		}
	}
}
