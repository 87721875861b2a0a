package realsim

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// The server's rules, each as the real API server applies it.
func TestServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer()
		d0 := Case{Name: "x", Replicas: 3}.deployment()
		d0.Status.Replicas = 7 // status is reset on create
		obj, err := s.create(deployments, namespace, d0)
		if err != nil {
			t.Fatal(err)
		}
		d := obj.(*appsv1.Deployment)
		if d.Generation != 1 || d.Status.Replicas != 0 || d.UID == "" || d.ResourceVersion == "" {
			t.Fatalf("created %+v %+v, want generation 1, status reset, a UID and a resourceVersion", d.ObjectMeta, d.Status)
		}
		if d.CreationTimestamp.Nanosecond() != 0 {
			t.Errorf("creationTimestamp %v not truncated to the second", d.CreationTimestamp)
		}
		if _, err := s.create(deployments, namespace, d0); !apierrors.IsAlreadyExists(err) {
			t.Errorf("second create: %v, want AlreadyExists", err)
		}

		// An update that changes nothing writes nothing.
		same, err := s.update(deployments, "", namespace, d)
		if err != nil || same.(*appsv1.Deployment).ResourceVersion != d.ResourceVersion {
			t.Errorf("no-op update: %v, resourceVersion %s, want %s", err, same.(*appsv1.Deployment).ResourceVersion, d.ResourceVersion)
		}

		// The main resource ignores status; a spec change bumps the
		// generation.
		u := d.DeepCopy()
		*u.Spec.Replicas = 5
		u.Status.Replicas = 9
		obj, err = s.update(deployments, "", namespace, u)
		if err != nil {
			t.Fatal(err)
		}
		u2 := obj.(*appsv1.Deployment)
		if u2.Generation != 2 || u2.Status.Replicas != 0 || u2.ResourceVersion == d.ResourceVersion {
			t.Errorf("spec update: generation %d status.replicas %d, want 2 and 0 and a new resourceVersion", u2.Generation, u2.Status.Replicas)
		}
		// An annotation change bumps a Deployment's generation too.
		a := u2.DeepCopy()
		a.Annotations = map[string]string{"k": "v"}
		obj, _ = s.update(deployments, "", namespace, a)
		if g := obj.(*appsv1.Deployment).Generation; g != 3 {
			t.Errorf("annotation update: generation %d, want 3", g)
		}

		// A stale resourceVersion is a conflict, and counted.
		if _, err := s.update(deployments, "", namespace, u); !apierrors.IsConflict(err) {
			t.Errorf("stale update: %v, want Conflict", err)
		}
		if n := s.conflicts["deployments/"]; n != 1 {
			t.Errorf("conflicts on deployments: %d, want 1", n)
		}

		// The status subresource ignores spec and keeps the generation.
		st, _ := s.get(deployments, namespace, name)
		sd := st.(*appsv1.Deployment)
		*sd.Spec.Replicas = 1
		sd.Status.ObservedGeneration = 3
		sd.Status.Conditions = []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, LastUpdateTime: metav1.NewTime(time.Now().Add(1500 * time.Millisecond))}}
		obj, err = s.update(deployments, "status", namespace, sd)
		if err != nil {
			t.Fatal(err)
		}
		sd2 := obj.(*appsv1.Deployment)
		if *sd2.Spec.Replicas != 5 || sd2.Generation != 3 || sd2.Status.ObservedGeneration != 3 {
			t.Errorf("status update: replicas %d generation %d observed %d, want 5, 3, 3", *sd2.Spec.Replicas, sd2.Generation, sd2.Status.ObservedGeneration)
		}
		if ns := sd2.Status.Conditions[0].LastUpdateTime.Nanosecond(); ns != 0 {
			t.Errorf("condition time keeps %d ns, want it truncated", ns)
		}
	})
}

// Pods: generateName, the quota's 403, graceful deletion.
func TestServerPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer()
		s.maxPods = 2
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "app-"}}
		var names []string
		for range 2 {
			obj, err := s.create(pods, namespace, pod)
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, obj.(*corev1.Pod).Name)
		}
		if names[0] == names[1] || len(names[0]) != len("app-")+5 {
			t.Errorf("generated names %q", names)
		}
		if _, err := s.create(pods, namespace, pod); !apierrors.IsForbidden(err) || s.refused != 1 {
			t.Errorf("create over quota: %v (refused %d), want Forbidden", err, s.refused)
		}

		// An unscheduled pod goes at once.
		if err := s.delete(pods, namespace, names[0], metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.get(pods, namespace, names[0]); !apierrors.IsNotFound(err) {
			t.Errorf("unscheduled pod after delete: %v, want NotFound", err)
		}
		// A scheduled one with a grace period is marked terminating.
		grace := int64(30)
		s.edit(pods, key(namespace, names[1]), func(o runtime.Object) bool {
			p := o.(*corev1.Pod)
			p.Spec.NodeName, p.Spec.TerminationGracePeriodSeconds = "n", &grace
			return true
		})
		if err := s.delete(pods, namespace, names[1], metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, err := s.get(pods, namespace, names[1])
		if err != nil {
			t.Fatal(err)
		}
		p := obj.(*corev1.Pod)
		if p.DeletionTimestamp == nil || *p.DeletionGracePeriodSeconds != 30 || !p.DeletionTimestamp.Time.Equal(time.Now().Add(30*time.Second).Truncate(time.Second)) {
			t.Errorf("terminating pod: deletionTimestamp %v grace %v", p.DeletionTimestamp, p.DeletionGracePeriodSeconds)
		}
	})
}

// A watch from a list's resourceVersion gets every later event, however
// many, in order; one from before the log gets 410 Gone.
func TestServerWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer()
		list, _ := s.list(pods, namespace)
		from := list.(*corev1.PodList).ResourceVersion
		const n = 500 // client-go's fake watch panics past 100
		for range n {
			if _, err := s.create(pods, namespace, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "p-"}}); err != nil {
				t.Fatal(err)
			}
		}
		w, err := s.watch(pods, namespace, from)
		if err != nil {
			t.Fatal(err)
		}
		last := 0
		for i := range n {
			e := <-w.ResultChan()
			p := e.Object.(*corev1.Pod)
			rv := 0
			for _, c := range p.ResourceVersion {
				rv = rv*10 + int(c-'0')
			}
			if e.Type != watch.Added || rv <= last {
				t.Fatalf("event %d: %s at resourceVersion %d after %d", i, e.Type, rv, last)
			}
			last = rv
		}
		w.Stop()
		s.trimmed[pods] = 5
		if _, err := s.watch(pods, namespace, "3"); !apierrors.IsResourceExpired(err) {
			t.Errorf("watch from before the log: %v, want 410", err)
		}
	})
}

// Bad cases are refused with an error naming the field, never run.
func TestCaseCheck(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     Case
		field string
	}{
		{"negative replicas", Case{Replicas: -1}, "Replicas"},
		{"too many replicas", Case{Replicas: MaxReplicas + 1}, "Replicas"},
		{"negative ready", Case{Replicas: 1, ReadyAfter: -1}, "ReadyAfter"},
		{"surge syntax", Case{Replicas: 1, MaxSurge: "+5%"}, "MaxSurge"},
		{"surge over 100%", Case{Replicas: 1, MaxSurge: "101%"}, "MaxSurge"},
		{"both zero", Case{Replicas: 1, MaxSurge: "0", MaxUnavailable: "0"}, "MaxUnavailable"},
		{"recreate with surge", Case{Replicas: 1, Recreate: true, MaxSurge: "1"}, "MaxSurge"},
		{"deadline not above minReady", Case{Replicas: 1, MinReadySeconds: 10, ProgressDeadlineSeconds: 10}, "ProgressDeadlineSeconds"},
		{"negative quota", Case{Replicas: 1, MaxPods: -1}, "MaxPods"},
		{"negative burst", Case{Replicas: 1, Burst: -1}, "Burst"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.check()
			var ce *CaseError
			if !errors.As(err, &ce) || ce.Field != tc.field {
				t.Errorf("check() = %v, want a CaseError on %s", err, tc.field)
			}
		})
	}
	// Run refuses a bad case before it starts anything.
	var ce *CaseError
	if _, err := Run(t, Case{Name: "bad", Replicas: -1, ReadyAfter: -time.Second}); !errors.As(err, &ce) {
		t.Errorf("Run of a bad case: %v, want a CaseError", err)
	}
	if err := (Case{Replicas: 10, MaxSurge: "1", MaxUnavailable: "0"}).check(); err != nil {
		t.Errorf("a good case: %v", err)
	}
}
