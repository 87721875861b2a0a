package kube_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/kube"
	"github.com/rolloutmath/rolloutmath/surge"
)

var surgeCmp = cmp.Comparer(func(a, b surge.Value) bool { return a == b })

// fromTyped converts any of the typed objects of a golden state.
func fromTyped(t *testing.T, obj runtime.Object) any {
	t.Helper()
	var (
		v   any
		err error
	)
	switch o := obj.(type) {
	case *appsv1.Deployment:
		v, err = kube.FromDeployment(o)
	case *appsv1.ReplicaSet:
		v, err = kube.FromReplicaSet(o)
	case *corev1.Pod:
		v, err = kube.FromPod(o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// toTyped converts a rollout value back.
func toTyped(t *testing.T, v any) runtime.Object {
	t.Helper()
	var (
		obj runtime.Object
		err error
	)
	switch v := v.(type) {
	case rollout.Deployment:
		obj, err = kube.ToDeployment(v)
	case rollout.ReplicaSet:
		obj, err = kube.ToReplicaSet(v)
	case rollout.Pod:
		obj, err = kube.ToPod(v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// TestConvertGolden converts every object of the golden scenarios, as a
// clientset returns them (no apiVersion or kind), into rollout's types and
// back: the conversion is what rollout.Decode makes of the object, and the
// typed object comes back with every field it had, unchanged (decoding may
// add the API server's defaults where the object lacks them).
func TestConvertGolden(t *testing.T) {
	cases, err := golden.Scenarios(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			decoded, err := rollout.Decode(c.State)
			if err != nil {
				t.Fatal(err)
			}
			want := []any{}
			for _, d := range decoded.Deployments {
				want = append(want, d)
			}
			for _, rs := range decoded.ReplicaSets {
				want = append(want, rs)
			}
			for _, p := range decoded.Pods {
				want = append(want, p)
			}
			_, typed := typedObjects(t, c.State)
			got := []any{}
			for _, obj := range typed {
				kept := obj
				if p, ok := obj.(*corev1.Pod); ok { // a rollout.Pod keeps the metadata and phase
					kept = &corev1.Pod{TypeMeta: p.TypeMeta, ObjectMeta: p.ObjectMeta, Status: corev1.PodStatus{Phase: p.Status.Phase}}
				}
				before, err := json.Marshal(kept)
				if err != nil {
					t.Fatal(err)
				}
				obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{}) // as a clientset returns it
				v := fromTyped(t, obj)
				got = append(got, v)
				back, err := json.Marshal(toTyped(t, v))
				if err != nil {
					t.Fatal(err)
				}
				if path, ok := within(jsonValue(t, before), jsonValue(t, back), ""); !ok {
					t.Errorf("To(From(obj)) lost or changed %s of %s", path, before)
				}
				if again := fromTyped(t, toTyped(t, v)); !cmp.Equal(v, again, surgeCmp) {
					t.Errorf("From(To(From(obj))) differs from From(obj):\n%s", cmp.Diff(v, again, surgeCmp))
				}
			}
			if diff := cmp.Diff(kinds(want), kinds(got)); diff != "" {
				t.Fatalf("objects by kind (-Decode +From):\n%s", diff)
			}
			if diff := cmp.Diff(sortByKind(want), sortByKind(got), surgeCmp); diff != "" {
				t.Errorf("From() differs from Decode() (-Decode +From):\n%s", diff)
			}
		})
	}
}

// TestConvertWithoutTypeMeta: an object built in Go, without apiVersion
// and kind, converts, and gets the API server's defaults as decoding does.
func TestConvertWithoutTypeMeta(t *testing.T) {
	replicas := int32(3)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1.29"}}},
			},
		},
	}
	before := d.DeepCopy()
	got, err := kube.FromDeployment(d)
	if err != nil {
		t.Fatalf("FromDeployment() error: %v", err)
	}
	if diff := cmp.Diff(before, d); diff != "" {
		t.Errorf("FromDeployment() modified its argument (-before +after):\n%s", diff)
	}
	if got.Name != "web" || got.Spec.Replicas != 3 || got.Spec.Strategy.Type != rollout.RollingUpdateStrategy ||
		got.Spec.RevisionHistoryLimit != rollout.Int32(10) || got.Spec.ProgressDeadlineSeconds != rollout.Int32(600) {
		t.Errorf("FromDeployment() = %+v, want web, 3 replicas and the API server's defaults", got.Spec)
	}
	if err := rollout.Validate(got); err != nil {
		t.Errorf("Validate(FromDeployment()) = %v", err)
	}
	back, err := kube.ToDeployment(got)
	if err != nil {
		t.Fatal(err)
	}
	if back.APIVersion != "apps/v1" || back.Kind != "Deployment" || back.Spec.Template.Spec.Containers[0].ImagePullPolicy != corev1.PullIfNotPresent {
		t.Errorf("ToDeployment() = %s %s, container %+v; want apps/v1 Deployment with the defaulted container", back.APIVersion, back.Kind, back.Spec.Template.Spec.Containers[0])
	}
}

// TestConvertRoundTrip: a Deployment, ReplicaSet or Pod as decoding gives
// it comes back unchanged from ToX and FromX, for generated states.
func TestConvertRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := gen.State().Draw(t, "state")
		b, err := json.Marshal(map[string]any{"kind": "List", "items": append(append([]any{s.Deployment}, anys(s.ReplicaSets)...), anys(s.Pods)...)})
		if err != nil {
			t.Fatal(err)
		}
		objs, err := rollout.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range objs.Deployments {
			typed, err := kube.ToDeployment(d)
			if err != nil {
				t.Fatal(err)
			}
			got, err := kube.FromDeployment(typed)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(d, got, surgeCmp); diff != "" {
				t.Fatalf("FromDeployment(ToDeployment(d)) mismatch (-d +got):\n%s", diff)
			}
		}
		for _, rs := range objs.ReplicaSets {
			typed, err := kube.ToReplicaSet(rs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := kube.FromReplicaSet(typed)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rs, got); diff != "" {
				t.Fatalf("FromReplicaSet(ToReplicaSet(rs)) mismatch (-rs +got):\n%s", diff)
			}
		}
		for _, p := range objs.Pods {
			typed, err := kube.ToPod(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := kube.FromPod(typed)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(p, got); diff != "" {
				t.Fatalf("FromPod(ToPod(p)) mismatch (-p +got):\n%s", diff)
			}
		}
	})
}

func anys[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// within reports whether every member of a is in b with the same value,
// and otherwise the path of the first that is not.
func within(a, b any, path string) (string, bool) {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range a {
			if p, ok := within(v, bm[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(bl) != len(a) {
			return path, false
		}
		for i := range a {
			if p, ok := within(a[i], bl[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	return path, cmp.Equal(a, b)
}

// jsonValue decodes JSON into generic values, for comparison.
func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func kinds(objs []any) map[string]int {
	out := map[string]int{}
	for _, o := range objs {
		switch o.(type) {
		case rollout.Deployment:
			out["Deployment"]++
		case rollout.ReplicaSet:
			out["ReplicaSet"]++
		case rollout.Pod:
			out["Pod"]++
		}
	}
	return out
}

// sortByKind orders objects as Decode lists them: Deployments, then
// ReplicaSets, then Pods, each in their order.
func sortByKind(objs []any) []any {
	var out []any
	for _, want := range []func(any) bool{
		func(o any) bool { _, ok := o.(rollout.Deployment); return ok },
		func(o any) bool { _, ok := o.(rollout.ReplicaSet); return ok },
		func(o any) bool { _, ok := o.(rollout.Pod); return ok },
	} {
		for _, o := range objs {
			if want(o) {
				out = append(out, o)
			}
		}
	}
	return out
}
