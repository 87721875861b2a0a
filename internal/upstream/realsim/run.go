package realsim

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/replicaset"
)

// A Measurement is what one run of a Case saw, in virtual time from the
// template change.
type Measurement struct {
	// Completed reports whether the Deployment's status became complete
	// as `kubectl rollout status` judges it (the new generation observed,
	// every replica updated, no old replica left, every updated replica
	// available), and Complete when it first did.
	Completed bool
	Complete  time.Duration
	// DeadlineExceeded reports that the Progressing condition turned
	// False with ProgressDeadlineExceeded after the change, where
	// `kubectl rollout status` fails, whether or not the rollout
	// completes later (Completed then says when).
	DeadlineExceeded bool
	// LastChange is the last write to a Deployment, ReplicaSet or pod
	// (events aside): after Complete when old pods were still
	// terminating.
	LastChange time.Duration
	// PeakPods is the most pods that existed at once from the change on,
	// terminating ones included.
	PeakPods int32
	// MinAvailable is the fewest available pods from the change on: not
	// terminating, with Ready True for MinReadySeconds by the condition's
	// stored lastTransitionTime, as the controllers count them.
	MinAvailable int32
	// Refused counts pod creations the quota refused after the change.
	Refused int
	// Conflicts counts the updates the server refused after the change
	// because the object had been written since the writer read it (409
	// Conflict), by resource and subresource: "replicasets/status" (the
	// ReplicaSet controller's status write, retried once after a GET),
	// "replicasets" (the Deployment controller's scale), "deployments/status".
	Conflicts map[string]int
	// Writes counts the writes (events aside) after the change, and
	// Events the events the controllers wrote or patched, over the whole
	// run.
	Writes, Events int
	// HandledErrors counts the errors the controllers handed to
	// utilruntime.HandleError over the whole run (failed syncs: conflicts,
	// refused creations).
	HandledErrors int
	// Timeline, when the Case asks for it, has one Sample per change of
	// the pods or a ReplicaSet from the change on, in order.
	Timeline []Sample
	// Requests, when the Case asks for it, is the request log: every
	// request of the two controllers' clients and every write of the
	// kubelet emulator from the change on, in the order the server served
	// them.
	Requests []Request
}

// A Sample is one moment of a run: the pods (all of them, the terminating
// ones, and the ready ones that are not terminating), NewPods of them with
// NewImage (terminating ones included), and the ReplicaSets' spec.replicas
// and status.replicas, the new ReplicaSet's (the template with NewImage)
// apart from the old ones' sum.
type Sample struct {
	At                       time.Duration
	Pods, Terminating, Ready int32
	NewPods                  int32
	NewSpec, NewStatus       int32
	OldSpec, OldStatus       int32
}

// errorHandlers is held while a run replaces utilruntime.ErrorHandlers, a
// package variable of apimachinery: runs take turns.
var errorHandlers sync.Mutex

// Run runs c: the real v1.36.3 Deployment and ReplicaSet controllers, with
// kube-controller-manager's settings (one rate-limited client each,
// Workers workers each, BurstReplicas), over shared informers of an
// in-memory API server, with a kubelet emulator, inside a testing/synctest
// bubble so that their timers, requeues and rate limits run in virtual
// time. It first creates the Deployment and waits until its rollout is
// complete and nothing has been written for 10 s, then changes the image
// and measures until the rollout is complete, nothing is left for the
// kubelet to do and nothing has been written for 10 s (or until MaxTime
// has passed).
//
// Run must be called from a test's goroutine, not inside a bubble; runs
// are taken one at a time. It returns an error (a *CaseError) for a Case
// that cannot be run, before starting anything; an error for a request the in-memory server does not implement and for
// a first rollout that does not complete; the Measurement of a rollout
// that does not complete in MaxTime is not an error (Completed is false).
func Run(t *testing.T, c Case) (Measurement, error) {
	if err := c.check(); err != nil {
		return Measurement{}, err
	}
	errorHandlers.Lock()
	defer errorHandlers.Unlock()
	saved := utilruntime.ErrorHandlers
	defer func() { utilruntime.ErrorHandlers = saved }()

	var m Measurement
	var runErr error
	synctest.Test(t, func(t *testing.T) {
		m, runErr = run(c)
	})
	return m, runErr
}

// bubbleBackoff is apimachinery's rudimentary error backoff (a handled
// error sleeps so that errors come at most one per millisecond), on the
// bubble's clock: apimachinery's own was seeded with the wall clock when
// the package was initialized, years after the bubble's epoch.
type bubbleBackoff struct {
	mu    sync.Mutex
	last  time.Time
	count int
}

func (b *bubbleBackoff) handle(context.Context, error, string, ...any) {
	now := time.Now()
	b.mu.Lock()
	d := now.Sub(b.last)
	b.last = now
	b.count++
	b.mu.Unlock()
	// The first error finds last zero, decades back: no sleep.
	if d < time.Millisecond {
		time.Sleep(time.Millisecond - d)
	}
}

// run is Run inside the bubble.
func run(c Case) (Measurement, error) {
	backoff := &bubbleBackoff{}
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{backoff.handle}

	srv := newServer()
	srv.maxPods = int(c.MaxPods)
	o := newObserver(c, srv)
	srv.observe = o.observe

	qps, burst := c.QPS, c.Burst
	if qps == 0 {
		qps = DefaultQPS
	}
	if burst == 0 {
		burst = DefaultBurst
	}
	var requests, waits atomic.Int64
	// who names a controller's client ("" for the informers').
	clientset := func(who string) *fake.Clientset {
		cs := fake.NewClientset()
		cs.PrependReactor("*", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
			if who == "" {
				return srv.react(a)
			}
			requests.Add(1)
			return o.serve(who, a)
		})
		cs.PrependWatchReactor("*", srv.reactWatch)
		return cs
	}
	controllerClient := func(who string) limited {
		c := limited{Interface: clientset(who), waits: &waits}
		if qps > 0 {
			c.bucket = flowcontrol.NewTokenBucketRateLimiter(qps, burst)
		}
		return c
	}

	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	factory := informers.NewSharedInformerFactory(clientset(""), 0)
	dInf, rsInf, podInf := factory.Apps().V1().Deployments(), factory.Apps().V1().ReplicaSets(), factory.Core().V1().Pods()
	dc, err := deployment.NewDeploymentController(ctx, dInf, rsInf, podInf, controllerClient("deployment"))
	if err != nil {
		cancel()
		return Measurement{}, err
	}
	rsc := replicaset.NewReplicaSetController(ctx, rsInf, podInf, controllerClient("replicaset"), BurstReplicas)
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	wg.Go(func() { dc.Run(ctx, Workers) })
	wg.Go(func() { rsc.Run(ctx, Workers) })
	factory.WaitForCacheSync(ctx.Done())

	m, err := drive(c, srv, o)
	backoff.mu.Lock()
	m.HandledErrors = backoff.count
	backoff.mu.Unlock()

	cancel()
	wg.Wait()
	factory.Shutdown()
	o.stopKubelet()
	// Events still waiting for their client's token are written as the
	// virtual clock runs on; then every goroutine of the bubble is gone.
	time.Sleep(10 * time.Minute)
	synctest.Wait()
	if err == nil && requests.Load() != waits.Load() {
		err = fmt.Errorf("realsim: the controllers made %d requests, %d of them through their rate limiters", requests.Load(), waits.Load())
	}
	if err == nil && len(srv.unsupported) > 0 {
		err = fmt.Errorf("realsim: the in-memory server does not implement %q", slices.Compact(slices.Sorted(slices.Values(srv.unsupported))))
	}
	return m, err
}

// settle is how long nothing must be written for a rollout to be over.
const settle = 10 * time.Second

// poll is how often drive looks at the observer.
const poll = 250 * time.Millisecond

// drive creates the Deployment, waits for its first rollout, changes the
// image and waits for the second.
func drive(c Case, srv *server, o *observer) (Measurement, error) {
	if _, err := srv.create(deployments, namespace, c.deployment()); err != nil {
		return Measurement{}, err
	}
	if !o.waitDone(MaxDuration) {
		return Measurement{}, fmt.Errorf("realsim: case %q: the first rollout did not complete in %v: %s", c.Name, MaxDuration, srv.describe())
	}
	o.start()
	cur, err := srv.get(deployments, namespace, name)
	if err != nil {
		return Measurement{}, err
	}
	d := cur.(*appsv1.Deployment)
	d.Spec.Template.Spec.Containers[0].Image = NewImage
	if _, err := srv.update(deployments, "", namespace, d); err != nil {
		return Measurement{}, err
	}
	limit := c.MaxTime
	if limit == 0 {
		limit = DefaultMaxTime
	}
	o.waitDone(limit)
	return o.measurement(), nil
}

// observer watches the server's writes (with its lock held) to measure a
// run, and plays the kubelet.
type observer struct {
	c   Case
	srv *server

	mu        sync.Mutex // guards what the kubelet's timers and drive read
	started   bool
	t0        time.Time
	last      time.Time // the last write, events aside
	complete  bool
	m         Measurement
	refused   int            // the server's count of refusals at the change
	conflicts map[string]int // the server's count of conflicts at the change
	timers    map[string]*time.Timer
	stopped   bool
	reqs      requestLog
}

func newObserver(c Case, srv *server) *observer {
	return &observer{c: c, srv: srv, timers: map[string]*time.Timer{}, last: time.Now()}
}

// start marks the change: measuring begins with the pods as they are.
func (o *observer) start() {
	o.srv.mu.Lock()
	defer o.srv.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	o.started, o.t0, o.complete = true, time.Now(), false
	o.m.PeakPods = int32(len(o.srv.objs[pods]))
	o.m.MinAvailable = o.available()
	o.refused = o.srv.refused
	o.conflicts = maps.Clone(o.srv.conflicts)
	o.sample()
}

// waitDone waits until the rollout is complete, the kubelet has nothing
// left to do and nothing has been written for settle, or until limit has
// passed; it reports whether the rollout completed.
func (o *observer) waitDone(limit time.Duration) bool {
	end := time.Now().Add(limit)
	for {
		time.Sleep(poll)
		o.mu.Lock()
		done := o.complete && len(o.timers) == 0 && time.Since(o.last) >= settle
		complete := o.complete
		o.mu.Unlock()
		if done {
			return true
		}
		if !time.Now().Before(end) {
			return complete
		}
	}
}

func (o *observer) measurement() Measurement {
	o.srv.mu.Lock()
	defer o.srv.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	m := o.m
	m.Refused = o.srv.refused - o.refused
	for k, n := range o.srv.conflicts {
		if d := n - o.conflicts[k]; d > 0 {
			if m.Conflicts == nil {
				m.Conflicts = map[string]int{}
			}
			m.Conflicts[k] = d
		}
	}
	m.Timeline = slices.Clone(m.Timeline)
	m.Requests = slices.Clone(m.Requests)
	return m
}

// observe is the server's hook, called with the server's lock held.
func (o *observer) observe(res string, typ watch.EventType, old, obj runtime.Object) {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := time.Now()
	if res == events {
		o.m.Events++
		return
	}
	o.last = now
	if o.started {
		o.m.Writes++
		o.m.LastChange = now.Sub(o.t0)
	}
	switch res {
	case deployments:
		d := obj.(*appsv1.Deployment)
		if typ != watch.Deleted && rolledOut(d) && !o.complete {
			o.complete = true
			if o.started {
				o.m.Completed, o.m.Complete = true, now.Sub(o.t0)
			}
		}
		if o.started && timedOut(d) {
			o.m.DeadlineExceeded = true
		}
	case pods:
		o.pod(typ, old, obj.(*corev1.Pod))
	case replicaSets:
		if o.started {
			o.sample()
		}
	}
}

// rolledOut is `kubectl rollout status`'s verdict of success.
func rolledOut(d *appsv1.Deployment) bool {
	s := d.Status
	return d.Generation <= s.ObservedGeneration && !timedOut(d) &&
		(d.Spec.Replicas == nil || s.UpdatedReplicas >= *d.Spec.Replicas) &&
		s.Replicas <= s.UpdatedReplicas && s.AvailableReplicas >= s.UpdatedReplicas
}

func timedOut(d *appsv1.Deployment) bool {
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing {
			return c.Reason == "ProgressDeadlineExceeded"
		}
	}
	return false
}

// pod measures a pod write and schedules the kubelet's next step.
func (o *observer) pod(typ watch.EventType, old runtime.Object, p *corev1.Pod) {
	k := key(p.Namespace, p.Name)
	switch {
	case typ == watch.Added:
		if o.started {
			o.m.PeakPods = max(o.m.PeakPods, int32(len(o.srv.objs[pods])))
		}
		o.later(k, 0, o.bind)
	case typ == watch.Deleted:
		if t := o.timers[k]; t != nil {
			t.Stop()
			delete(o.timers, k)
		}
	case p.DeletionTimestamp != nil && old.(*corev1.Pod).DeletionTimestamp == nil:
		o.later(k, o.c.Terminating, o.remove)
	}
	if o.started && (typ == watch.Deleted || p.DeletionTimestamp != nil) {
		o.m.MinAvailable = min(o.m.MinAvailable, o.available())
	}
	if o.started && (typ != watch.Modified || p.DeletionTimestamp != nil && old.(*corev1.Pod).DeletionTimestamp == nil || ready(p) != ready(old.(*corev1.Pod))) {
		o.sample()
	}
}

// later runs f(k) after d, once: a new step of the kubelet for a pod
// replaces the one pending.
func (o *observer) later(k string, d time.Duration, f func(string)) {
	if o.stopped {
		return
	}
	if t := o.timers[k]; t != nil {
		t.Stop()
	}
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		o.mu.Lock()
		if o.timers[k] != t {
			o.mu.Unlock()
			return
		}
		delete(o.timers, k)
		o.mu.Unlock()
		f(k)
	})
	o.timers[k] = t
}

// remove is the kubelet's final deletion of a terminated pod.
func (o *observer) remove(k string) {
	o.kubelet("remove", k, func() bool {
		o.srv.mu.Lock()
		_, ok := o.srv.objs[pods][k]
		o.srv.mu.Unlock()
		o.srv.remove(pods, k)
		return ok
	})
}

// bind is the scheduler and the kubelet starting a pod: the pod is bound
// and Running; it is ready at once if ReadyAfter is 0, otherwise the
// kubelet makes it ready ReadyAfter after its creation.
func (o *observer) bind(k string) {
	bound := false
	o.kubelet("bind", k, func() bool { o.bindStep(k, &bound); return bound })
	if !bound || o.c.ReadyAfter == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	// The pod was created at most a moment ago (bind runs at once), so
	// ReadyAfter from now is ReadyAfter from its creation.
	o.later(k, o.c.ReadyAfter, o.ready)
}

// bindStep writes the binding and the Running status of pod k, and sets
// bound if it did.
func (o *observer) bindStep(k string, bound *bool) {
	o.srv.edit(pods, k, func(obj runtime.Object) bool {
		p := obj.(*corev1.Pod)
		if p.DeletionTimestamp != nil {
			return false
		}
		now := metav1.NewTime(time.Now())
		p.Spec.NodeName = "node-1"
		p.Status.Phase = corev1.PodRunning
		p.Status.StartTime = &now
		*bound = true
		st := corev1.ConditionFalse
		if o.c.ReadyAfter == 0 {
			st = corev1.ConditionTrue
		}
		p.Status.Conditions = []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: st, LastTransitionTime: now},
			{Type: corev1.PodReady, Status: st, LastTransitionTime: now},
		}
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{
			Name: "app", Image: p.Spec.Containers[0].Image, Ready: st == corev1.ConditionTrue, Started: ptrTrue(),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
		}}
		return true
	})
}

func ptrTrue() *bool { b := true; return &b }

// ready is the kubelet's readiness probe succeeding.
func (o *observer) ready(k string) {
	o.kubelet("ready", k, func() bool { return o.readyStep(k) })
}

// readyStep writes pod k's Ready condition, and reports whether it did.
func (o *observer) readyStep(k string) bool {
	wrote := false
	o.srv.edit(pods, k, func(obj runtime.Object) bool {
		p := obj.(*corev1.Pod)
		if p.DeletionTimestamp != nil {
			return false
		}
		wrote = true
		now := metav1.NewTime(time.Now())
		for i := range p.Status.Conditions {
			c := &p.Status.Conditions[i]
			if c.Type == corev1.ContainersReady || c.Type == corev1.PodReady {
				c.Status, c.LastTransitionTime = corev1.ConditionTrue, now
			}
		}
		for i := range p.Status.ContainerStatuses {
			p.Status.ContainerStatuses[i].Ready = true
		}
		return true
	})
	return wrote
}

func (o *observer) stopKubelet() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopped = true
	for k, t := range o.timers {
		t.Stop()
		delete(o.timers, k)
	}
}

// ready reports whether p's Ready condition is True.
func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// available counts the available pods, with the server's lock held.
func (o *observer) available() int32 {
	now := time.Now()
	minReady := time.Duration(o.c.MinReadySeconds) * time.Second
	var n int32
	for _, obj := range o.srv.objs[pods] {
		p := obj.(*corev1.Pod)
		if p.DeletionTimestamp != nil {
			continue
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue && !c.LastTransitionTime.Add(minReady).After(now) {
				n++
			}
		}
	}
	return n
}

// sample appends the pods of the moment to the timeline, if asked for.
func (o *observer) sample() {
	if !o.c.Timeline {
		return
	}
	var s Sample
	s.At = time.Since(o.t0)
	for _, obj := range o.srv.objs[pods] {
		p := obj.(*corev1.Pod)
		s.Pods++
		if p.Spec.Containers[0].Image == NewImage {
			s.NewPods++
		}
		if p.DeletionTimestamp != nil {
			s.Terminating++
		} else if ready(p) {
			s.Ready++
		}
	}
	for _, obj := range o.srv.objs[replicaSets] {
		rs := obj.(*appsv1.ReplicaSet)
		spec := int32(1)
		if rs.Spec.Replicas != nil {
			spec = *rs.Spec.Replicas
		}
		if rs.Spec.Template.Spec.Containers[0].Image == NewImage {
			s.NewSpec += spec
			s.NewStatus += rs.Status.Replicas
		} else {
			s.OldSpec += spec
			s.OldStatus += rs.Status.Replicas
		}
	}
	o.m.Timeline = append(o.m.Timeline, s)
}
