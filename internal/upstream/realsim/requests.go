package realsim

import (
	"fmt"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
)

// A Request is one entry of a run's request log (Case.Requests): a
// request a controller's client made to the in-memory API server, or a
// write of the kubelet emulator, from the change on, in the order the
// server served them.
type Request struct {
	// At is the virtual time from the change.
	At time.Duration
	// Who made it: "deployment" or "replicaset" (the controllers'
	// clients, after their token bucket granted it), or "kubelet" (bind,
	// ready, remove: the emulator's writes, which take no token).
	Who string
	// Verb is the client's verb (create, update, delete, get, list,
	// patch) or the kubelet's step.
	Verb string
	// Resource is the resource, with its subresource after a slash
	// ("replicasets/status").
	Resource string
	// Name is the object's name (a created pod's generated one).
	Name string
	// Detail is what the request asked for, where it tells the rollout
	// apart: a ReplicaSet's image and spec.replicas ("new 500") on a
	// create or update, its status's replicas, ready and available on a
	// status write, the Deployment status's updated and available.
	Detail string
	// Err is the refusal's reason ("Conflict", "Forbidden", "NotFound"),
	// empty when the server served it.
	Err string
	// Pods and Available are the pods (terminating ones included) and the
	// available pods (as Measurement.MinAvailable counts them) just after
	// the server served it.
	Pods, Available int32
}

// requestLog serializes the logged writes of a run with Case.Requests, so
// that the log's order is the server's.
type requestLog struct {
	mu sync.Mutex
}

// serve serves a of the controller who through srv and logs it, when o
// logs requests; otherwise it only serves it.
func (o *observer) serve(who string, a k8stesting.Action) (bool, runtime.Object, error) {
	if !o.c.Requests {
		return o.srv.react(a)
	}
	o.reqs.mu.Lock()
	defer o.reqs.mu.Unlock()
	handled, obj, err := o.srv.react(a)
	r := Request{Who: who, Verb: a.GetVerb(), Resource: a.GetResource().Resource}
	if sub := a.GetSubresource(); sub != "" {
		r.Resource += "/" + sub
	}
	// Gets, deletes and patches name their object.
	if x, ok := a.(interface{ GetName() string }); ok {
		r.Name = x.GetName()
	}
	if obj != nil {
		if m, merr := meta.Accessor(obj); merr == nil && m.GetName() != "" {
			r.Name = m.GetName()
		}
		r.Detail = detail(obj, a.GetSubresource())
	} else if x, ok := a.(k8stesting.CreateAction); ok && r.Name == "" {
		if m, merr := meta.Accessor(x.GetObject()); merr == nil {
			r.Name = m.GetName() + m.GetGenerateName()
		}
	}
	if err != nil {
		r.Err = string(apierrors.ReasonForError(err))
	}
	o.logRequest(r)
	return handled, obj, err
}

// kubelet runs a step of the kubelet emulator on pod k and logs it as
// verb, when o logs requests and the step wrote.
func (o *observer) kubelet(verb, k string, step func() bool) {
	if !o.c.Requests {
		step()
		return
	}
	o.reqs.mu.Lock()
	defer o.reqs.mu.Unlock()
	if step() {
		_, name, _ := strings.Cut(k, "/")
		o.logRequest(Request{Who: "kubelet", Verb: verb, Resource: pods, Name: name})
	}
}

// logRequest appends r, timed and counted now, if the change has come.
func (o *observer) logRequest(r Request) {
	o.srv.mu.Lock()
	defer o.srv.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.started {
		return
	}
	r.At = time.Since(o.t0)
	r.Pods = int32(len(o.srv.objs[pods]))
	r.Available = o.available()
	o.m.Requests = append(o.m.Requests, r)
}

// detail is Request.Detail for a stored object.
func detail(obj runtime.Object, sub string) string {
	switch x := obj.(type) {
	case *appsv1.ReplicaSet:
		which := "old"
		if x.Spec.Template.Spec.Containers[0].Image == NewImage {
			which = "new"
		}
		if sub == "status" {
			s := x.Status
			return fmt.Sprintf("%s status replicas %d ready %d available %d", which, s.Replicas, s.ReadyReplicas, s.AvailableReplicas)
		}
		spec := int32(1)
		if x.Spec.Replicas != nil {
			spec = *x.Spec.Replicas
		}
		return fmt.Sprintf("%s %d", which, spec)
	case *appsv1.Deployment:
		if sub == "status" {
			s := x.Status
			return fmt.Sprintf("status replicas %d updated %d available %d", s.Replicas, s.UpdatedReplicas, s.AvailableReplicas)
		}
	}
	return ""
}
