package realsim

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/watch"
	k8stesting "k8s.io/client-go/testing"
)

// The resources the server stores.
const (
	pods        = "pods"
	replicaSets = "replicasets"
	deployments = "deployments"
	events      = "events"
)

// watchLogSize is how many past events of a resource a watch can start
// from; an older resourceVersion gets 410 Gone, and the reflector lists
// again, as with etcd's compaction.
const watchLogSize = 20_000

// server is a small in-memory API server for the four resources the two
// controllers touch. It does what the real one does where the controllers
// can tell: one resourceVersion counter written into every object, 409 on
// a stale resourceVersion, updates that change nothing write nothing, the
// registry strategies' generation and subresource rules, status reset on
// create, generateName, UIDs, creationTimestamp, every timestamp stored
// truncated to the second, graceful pod deletion and watches whose queues
// never fill. It keeps no clock of its own: now is the caller's time.Now,
// which inside a synctest bubble is virtual.
//
// Every stored object is immutable: a write stores a new copy, and readers
// get copies.
type server struct {
	mu    sync.Mutex
	rv    uint64
	uids  uint64
	names uint64
	objs  map[string]map[string]runtime.Object
	log   map[string][]logged
	// trimmed is, per resource, the resourceVersion of the newest event
	// dropped from the log: a watch from before it is too old.
	trimmed  map[string]uint64
	watchers map[string]map[*watcher]struct{}

	// maxPods refuses pod creations beyond it, as the ResourceQuota
	// admission plugin does (0: no quota).
	maxPods int
	// refused counts the pod creations the quota refused.
	refused int
	// conflicts counts the updates refused for a stale resourceVersion,
	// by resource and subresource ("replicasets/status").
	conflicts map[string]int
	// observe, if set, is called with the lock held after every write,
	// with the stored object (nil old on create). It must not call the
	// server.
	observe func(resource string, typ watch.EventType, old, obj runtime.Object)
	// unsupported counts requests the server does not implement; a run
	// with any fails.
	unsupported []string
}

type logged struct {
	rv  uint64
	typ watch.EventType
	obj runtime.Object
}

func newServer() *server {
	s := &server{
		objs:    map[string]map[string]runtime.Object{},
		log:     map[string][]logged{},
		trimmed: map[string]uint64{},
		// The first write is resourceVersion 2: a list of nothing says
		// "1", never "0", which a watch would read as "from any point".
		rv:       1,
		watchers: map[string]map[*watcher]struct{}{},
	}
	for _, r := range []string{pods, replicaSets, deployments, events} {
		s.objs[r] = map[string]runtime.Object{}
		s.watchers[r] = map[*watcher]struct{}{}
	}
	return s
}

func groupResource(resource string) schema.GroupResource {
	if resource == replicaSets || resource == deployments {
		return schema.GroupResource{Group: "apps", Resource: resource}
	}
	return schema.GroupResource{Resource: resource}
}

func key(ns, name string) string { return ns + "/" + name }

// react serves one request of a fake clientset.
func (s *server) react(a k8stesting.Action) (bool, runtime.Object, error) {
	res := a.GetResource().Resource
	if _, ok := s.objs[res]; !ok {
		return true, nil, s.refuse(fmt.Sprintf("%s %s", a.GetVerb(), res))
	}
	switch a.GetVerb() {
	case "create":
		if a.GetSubresource() != "" {
			return true, nil, s.refuse("create " + res + "/" + a.GetSubresource())
		}
		obj, err := s.create(res, a.GetNamespace(), a.(k8stesting.CreateAction).GetObject())
		return true, obj, err
	case "update":
		obj, err := s.update(res, a.GetSubresource(), a.GetNamespace(), a.(k8stesting.UpdateAction).GetObject())
		return true, obj, err
	case "delete":
		d := a.(k8stesting.DeleteAction)
		return true, nil, s.delete(res, a.GetNamespace(), d.GetName(), d.GetDeleteOptions())
	case "get":
		obj, err := s.get(res, a.GetNamespace(), a.(k8stesting.GetAction).GetName())
		return true, obj, err
	case "list":
		obj, err := s.list(res, a.GetNamespace())
		return true, obj, err
	case "patch":
		p := a.(k8stesting.PatchAction)
		obj, err := s.patch(res, a.GetSubresource(), a.GetNamespace(), p.GetName(), p.GetPatchType(), p.GetPatch())
		return true, obj, err
	}
	return true, nil, s.refuse(a.GetVerb() + " " + res)
}

func (s *server) refuse(what string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unsupported = append(s.unsupported, what)
	return apierrors.NewMethodNotSupported(schema.GroupResource{Resource: what}, "request")
}

// reactWatch serves a watch of a fake clientset.
func (s *server) reactWatch(a k8stesting.Action) (bool, watch.Interface, error) {
	res := a.GetResource().Resource
	if _, ok := s.objs[res]; !ok {
		return true, nil, s.refuse("watch " + res)
	}
	from := a.(k8stesting.WatchAction).GetWatchRestrictions().ResourceVersion
	w, err := s.watch(res, a.GetNamespace(), from)
	return true, w, err
}

func (s *server) nextRV() string {
	s.rv++
	return fmt.Sprint(s.rv)
}

// nameAlphabet is the one the API server draws generated names from.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// generatedSuffix spells n in five letters of nameAlphabet, so that names
// are unique and deterministic.
func generatedSuffix(n uint64) string {
	var b [5]byte
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = nameAlphabet[n%uint64(len(nameAlphabet))]
		n /= uint64(len(nameAlphabet))
	}
	return string(b[:])
}

func (s *server) create(res, ns string, in runtime.Object) (runtime.Object, error) {
	obj := in.DeepCopyObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if ns == "" {
		ns = m.GetNamespace()
	}
	m.SetNamespace(ns)
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.GetName() == "" {
		if m.GetGenerateName() == "" {
			return nil, apierrors.NewBadRequest("name or generateName is required")
		}
		s.names++
		m.SetName(m.GetGenerateName() + generatedSuffix(s.names))
	}
	k := key(ns, m.GetName())
	if _, ok := s.objs[res][k]; ok {
		return nil, apierrors.NewAlreadyExists(groupResource(res), m.GetName())
	}
	if res == pods && s.maxPods > 0 && len(s.objs[pods]) >= s.maxPods {
		s.refused++
		return nil, apierrors.NewForbidden(groupResource(res), m.GetName(), fmt.Errorf(
			"exceeded quota: pods, requested: pods=1, used: pods=%d, limited: pods=%d", len(s.objs[pods]), s.maxPods))
	}
	s.uids++
	m.SetUID(types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", s.uids)))
	m.SetCreationTimestamp(metav1.NewTime(time.Now()))
	m.SetDeletionTimestamp(nil)
	m.SetDeletionGracePeriodSeconds(nil)
	switch o := obj.(type) {
	case *appsv1.Deployment:
		o.Generation = 1
		o.Status = appsv1.DeploymentStatus{}
	case *appsv1.ReplicaSet:
		o.Generation = 1
		o.Status = appsv1.ReplicaSetStatus{}
	case *corev1.Pod:
		o.Generation = 1
		o.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: corev1.PodQOSBestEffort}
	}
	truncateTimes(obj)
	m.SetResourceVersion(s.nextRV())
	s.store(res, k, watch.Added, nil, obj)
	return obj.DeepCopyObject(), nil
}

// store writes obj (which the caller gives up) and tells the watchers,
// with the lock held.
func (s *server) store(res, k string, typ watch.EventType, old, obj runtime.Object) {
	if typ == watch.Deleted {
		delete(s.objs[res], k)
	} else {
		s.objs[res][k] = obj
	}
	l := append(s.log[res], logged{s.rv, typ, obj})
	if len(l) > watchLogSize {
		cut := len(l) - watchLogSize/2
		s.trimmed[res] = l[cut-1].rv
		l = append(l[:0:0], l[cut:]...)
	}
	s.log[res] = l
	for w := range s.watchers[res] {
		w.send(typ, obj)
	}
	if s.observe != nil {
		s.observe(res, typ, old, obj)
	}
}

// update writes a whole object (subresource "") or its status
// ("status"), as the registry's update and status strategies allow.
func (s *server) update(res, sub, ns string, in runtime.Object) (runtime.Object, error) {
	obj := in.DeepCopyObject()
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if ns == "" {
		ns = m.GetNamespace()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.updateLocked(res, sub, key(ns, m.GetName()), obj)
}

func (s *server) updateLocked(res, sub, k string, obj runtime.Object) (runtime.Object, error) {
	if sub != "" && sub != "status" {
		s.unsupported = append(s.unsupported, "update "+res+"/"+sub)
		return nil, apierrors.NewMethodNotSupported(groupResource(res), "update "+sub)
	}
	cur, ok := s.objs[res][k]
	m, _ := meta.Accessor(obj)
	if !ok {
		return nil, apierrors.NewNotFound(groupResource(res), m.GetName())
	}
	cm, _ := meta.Accessor(cur)
	if rv := m.GetResourceVersion(); rv != "" && rv != cm.GetResourceVersion() {
		if s.conflicts == nil {
			s.conflicts = map[string]int{}
		}
		s.conflicts[res+"/"+sub]++
		return nil, apierrors.NewConflict(groupResource(res), m.GetName(), fmt.Errorf(
			"the object has been modified; please apply your changes to the latest version and try again"))
	}
	m.SetNamespace(cm.GetNamespace())
	m.SetUID(cm.GetUID())
	m.SetCreationTimestamp(cm.GetCreationTimestamp())
	m.SetDeletionTimestamp(cm.GetDeletionTimestamp())
	m.SetDeletionGracePeriodSeconds(cm.GetDeletionGracePeriodSeconds())
	m.SetGeneration(cm.GetGeneration())
	m.SetResourceVersion(cm.GetResourceVersion())
	switch o := obj.(type) {
	case *appsv1.Deployment:
		c := cur.(*appsv1.Deployment)
		if sub == "status" {
			o.Spec = c.Spec
			o.Labels = c.Labels
		} else {
			o.Status = c.Status
			if !equality.Semantic.DeepEqual(o.Spec, c.Spec) || !equality.Semantic.DeepEqual(o.Annotations, c.Annotations) {
				o.Generation = c.Generation + 1
			}
		}
	case *appsv1.ReplicaSet:
		c := cur.(*appsv1.ReplicaSet)
		if sub == "status" {
			o.Spec = c.Spec
		} else {
			o.Status = c.Status
			if !equality.Semantic.DeepEqual(o.Spec, c.Spec) {
				o.Generation = c.Generation + 1
			}
		}
	case *corev1.Pod:
		c := cur.(*corev1.Pod)
		if sub == "status" {
			o.Spec = c.Spec
		} else {
			o.Status = c.Status
		}
	}
	truncateTimes(obj)
	if equality.Semantic.DeepEqual(obj, cur) {
		return cur.DeepCopyObject(), nil
	}
	m.SetResourceVersion(s.nextRV())
	s.store(res, k, watch.Modified, cur, obj)
	return obj.DeepCopyObject(), nil
}

// edit applies change to a copy of the stored object and writes it as
// the system would (a binding, the kubelet's status), with no strategy;
// nothing is written if change reports false or the object is gone.
func (s *server) edit(res, k string, change func(runtime.Object) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.objs[res][k]
	if !ok {
		return
	}
	obj := cur.DeepCopyObject()
	if !change(obj) {
		return
	}
	truncateTimes(obj)
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(s.nextRV())
	s.store(res, k, watch.Modified, cur, obj)
}

// remove deletes the stored object at once (the kubelet's final
// deletion of a terminated pod).
func (s *server) remove(res, k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLocked(res, k)
}

func (s *server) removeLocked(res, k string) {
	cur, ok := s.objs[res][k]
	if !ok {
		return
	}
	obj := cur.DeepCopyObject()
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(s.nextRV())
	s.store(res, k, watch.Deleted, cur, obj)
}

// delete deletes an object; a scheduled pod with a grace period is marked
// terminating (deletionTimestamp now + grace) and stays until removed.
func (s *server) delete(res, ns, name string, opts metav1.DeleteOptions) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(ns, name)
	cur, ok := s.objs[res][k]
	if !ok {
		return apierrors.NewNotFound(groupResource(res), name)
	}
	cm, _ := meta.Accessor(cur)
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != cm.GetUID() || p.ResourceVersion != nil && *p.ResourceVersion != cm.GetResourceVersion() {
			return apierrors.NewConflict(groupResource(res), name, fmt.Errorf("precondition failed"))
		}
	}
	pod, isPod := cur.(*corev1.Pod)
	if !isPod {
		s.removeLocked(res, k)
		return nil
	}
	grace := int64(corev1.DefaultTerminationGracePeriodSeconds)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		grace = 0
	}
	if grace <= 0 {
		s.removeLocked(res, k)
		return nil
	}
	if pod.DeletionTimestamp != nil {
		return nil // already terminating; a longer grace period changes nothing
	}
	p := pod.DeepCopy()
	ts := metav1.NewTime(time.Now().Add(time.Duration(grace) * time.Second))
	p.DeletionTimestamp = &ts
	p.DeletionGracePeriodSeconds = &grace
	truncateTimes(p)
	p.ResourceVersion = s.nextRV()
	s.store(res, k, watch.Modified, cur, p)
	return nil
}

func (s *server) get(res, ns, name string) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.objs[res][key(ns, name)]
	if !ok {
		return nil, apierrors.NewNotFound(groupResource(res), name)
	}
	return cur.DeepCopyObject(), nil
}

func (s *server) list(res, ns string) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lm := metav1.ListMeta{ResourceVersion: fmt.Sprint(s.rv)}
	// In key order, as etcd lists.
	var items []runtime.Object
	for _, k := range slices.Sorted(maps.Keys(s.objs[res])) {
		if ns == "" || strings.HasPrefix(k, ns+"/") {
			items = append(items, s.objs[res][k])
		}
	}
	switch res {
	case pods:
		l := &corev1.PodList{ListMeta: lm}
		for _, o := range items {
			l.Items = append(l.Items, *o.(*corev1.Pod).DeepCopy())
		}
		return l, nil
	case replicaSets:
		l := &appsv1.ReplicaSetList{ListMeta: lm}
		for _, o := range items {
			l.Items = append(l.Items, *o.(*appsv1.ReplicaSet).DeepCopy())
		}
		return l, nil
	case deployments:
		l := &appsv1.DeploymentList{ListMeta: lm}
		for _, o := range items {
			l.Items = append(l.Items, *o.(*appsv1.Deployment).DeepCopy())
		}
		return l, nil
	}
	l := &corev1.EventList{ListMeta: lm}
	for _, o := range items {
		l.Items = append(l.Items, *o.(*corev1.Event).DeepCopy())
	}
	return l, nil
}

// patch applies a strategic merge patch to the stored object and writes
// it as an update.
func (s *server) patch(res, sub, ns, name string, pt types.PatchType, data []byte) (runtime.Object, error) {
	if pt != types.StrategicMergePatchType {
		return nil, s.refuse(fmt.Sprintf("patch %s (%s)", res, pt))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(ns, name)
	cur, ok := s.objs[res][k]
	if !ok {
		return nil, apierrors.NewNotFound(groupResource(res), name)
	}
	orig, err := json.Marshal(cur)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	obj := cur.DeepCopyObject()
	patched, err := strategicpatch.StrategicMergePatch(orig, data, obj)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj = cur.DeepCopyObject()
	if err := json.Unmarshal(patched, obj); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion("")
	return s.updateLocked(res, sub, k, obj)
}

// truncateTimes drops the sub-second part of every timestamp the
// controllers read, as storing an object does (metav1.Time is written
// with a resolution of one second).
func truncateTimes(obj runtime.Object) {
	tr := func(t *metav1.Time) {
		if t != nil {
			t.Time = t.Time.Truncate(time.Second)
		}
	}
	m, _ := meta.Accessor(obj)
	ct := m.GetCreationTimestamp()
	tr(&ct)
	m.SetCreationTimestamp(ct)
	if dt := m.GetDeletionTimestamp(); dt != nil {
		d := *dt
		tr(&d)
		m.SetDeletionTimestamp(&d)
	}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		for i := range o.Status.Conditions {
			tr(&o.Status.Conditions[i].LastUpdateTime)
			tr(&o.Status.Conditions[i].LastTransitionTime)
		}
	case *appsv1.ReplicaSet:
		for i := range o.Status.Conditions {
			tr(&o.Status.Conditions[i].LastTransitionTime)
		}
	case *corev1.Pod:
		tr(o.Status.StartTime)
		for i := range o.Status.Conditions {
			tr(&o.Status.Conditions[i].LastTransitionTime)
			tr(&o.Status.Conditions[i].LastProbeTime)
		}
		for i := range o.Status.ContainerStatuses {
			if r := o.Status.ContainerStatuses[i].State.Running; r != nil {
				tr(&r.StartedAt)
			}
		}
	case *corev1.Event:
		tr(&o.FirstTimestamp)
		tr(&o.LastTimestamp)
	}
}

// describe sums up the Deployments, ReplicaSets and pods, for an error.
func (s *server) describe() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(s.objs[deployments])) {
		d := s.objs[deployments][k].(*appsv1.Deployment)
		fmt.Fprintf(&b, "deployment %s generation %d status %+v; ", k, d.Generation, d.Status)
	}
	for _, k := range slices.Sorted(maps.Keys(s.objs[replicaSets])) {
		r := s.objs[replicaSets][k].(*appsv1.ReplicaSet)
		fmt.Fprintf(&b, "replicaset %s spec.replicas %d status %+v; ", k, *r.Spec.Replicas, r.Status)
	}
	fmt.Fprintf(&b, "%d pods, resourceVersion %d", len(s.objs[pods]), s.rv)
	return b.String()
}
