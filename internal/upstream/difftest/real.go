// Package difftest runs rolloutmath's API-server reproduction and the real
// Kubernetes code (v1.36.3) on the same inputs and compares what they
// store, what they refuse, and the pod-template-hash.
package difftest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"

	"github.com/rolloutmath/rolloutmath/internal/vectors"
)

// Problem is one refusal reason, reduced to what both sides must agree on:
// its type and its field path.
type Problem = vectors.Problem

// Outcome is what the API server does with one create request: the JSON
// it stores (when it accepts the object) or the problems it reports.
type Outcome struct {
	Stored   []byte // canonical: null members dropped, keys sorted
	Problems []Problem
	Decode   string // a decode error (malformed or mistyped input), if any
}

// Refused reports whether the object is not stored.
func (o Outcome) Refused() bool { return o.Decode != "" || len(o.Problems) > 0 }

var strictSerializer = kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, legacyscheme.Scheme, legacyscheme.Scheme,
	kjson.SerializerOptions{Strict: true})

// RealCreateDeployment runs a Deployment's JSON through the real create
// path: strict decoding into apps/v1, defaulting, conversion to the
// internal form, the registry strategy's PrepareForCreate and Validate,
// conversion back and a protobuf round trip, as storage does.
func RealCreateDeployment(data []byte) (Outcome, *appsv1.Deployment) {
	return realCreate[appsv1.Deployment, *appsv1.Deployment](data, "Deployment", &apps.Deployment{}, deployment.Strategy)
}

// RealCreateDeploymentMessages is RealCreateDeployment that also returns
// the refusals as the API server reports them, sorted: those of
// rest.BeforeCreate, which runs the strategy's validation, then the common
// metadata checks when that passes, and from v1.37 declarative validation.
func RealCreateDeploymentMessages(data []byte) (Outcome, *appsv1.Deployment, []string) {
	out, d := realCreate[appsv1.Deployment, *appsv1.Deployment](data, "Deployment", &apps.Deployment{}, deployment.Strategy)
	if d == nil {
		return out, d, nil
	}
	msgs := beforeCreateMessages(data)
	slices.Sort(msgs)
	return out, d, msgs
}

// beforeCreateMessages runs a Deployment's JSON, which decodes, through
// rest.BeforeCreate, with what the server fills in before (the request's
// namespace and RequestInfo, a uid and a creation time), and returns the
// messages of its refusal ("field: body"), or the error of another failure.
func beforeCreateMessages(data []byte) []string {
	obj := &appsv1.Deployment{}
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	if _, _, err := strictSerializer.Decode(data, &gvk, obj); err != nil {
		return []string{"decode: " + err.Error()}
	}
	if obj.Namespace == "" {
		obj.Namespace = "default"
	}
	obj.ResourceVersion = ""
	legacyscheme.Scheme.Default(obj)
	internal := &apps.Deployment{}
	if err := legacyscheme.Scheme.Convert(obj, internal, nil); err != nil {
		return []string{"convert: " + err.Error()}
	}
	rest.FillObjectMetaSystemFields(&internal.ObjectMeta)
	ctx := genericapirequest.WithNamespace(context.Background(), obj.Namespace)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: "apps", APIVersion: "v1",
		Namespace: obj.Namespace, Resource: "deployments",
	})
	err := rest.BeforeCreate(deployment.Strategy, ctx, internal)
	if err == nil {
		return nil
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return []string{"internal: " + err.Error()}
	}
	var msgs []string
	for _, c := range status.Status().Details.Causes {
		msgs = append(msgs, c.Field+": "+c.Message)
	}
	return msgs
}

// RealCreateReplicaSet is RealCreateDeployment for a ReplicaSet.
func RealCreateReplicaSet(data []byte) (Outcome, *appsv1.ReplicaSet) {
	return realCreate[appsv1.ReplicaSet, *appsv1.ReplicaSet](data, "ReplicaSet", &apps.ReplicaSet{}, replicaset.Strategy)
}

// createStrategy is what the create path needs of a registry strategy.
type createStrategy interface {
	PrepareForCreate(ctx context.Context, obj runtime.Object)
	Validate(ctx context.Context, obj runtime.Object) field.ErrorList
}

// apiObject is an apps/v1 object the create path takes: T's pointer, with
// its metadata, its kind and its protobuf form.
type apiObject[T any] interface {
	protoMessage[T]
	runtime.Object
	metav1.Object
}

// realCreate is the create path for an apps/v1 kind: data decoded into a
// new T, internal the empty internal form it converts to.
func realCreate[T any, P apiObject[T]](data []byte, kind string, internal runtime.Object, strategy createStrategy) (Outcome, P) {
	var out Outcome
	obj := P(new(T))
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: kind}
	_, _, err := strictSerializer.Decode(data, &gvk, obj)
	if err != nil {
		if !runtime.IsStrictDecodingError(err) {
			out.Decode = err.Error()
			return out, nil
		}
		for _, e := range err.(interface{ Errors() []error }).Errors() {
			out.Problems = append(out.Problems, strictProblem(e.Error()))
		}
		sortProblems(out.Problems)
		return out, nil
	}
	if obj.GetNamespace() == "" {
		obj.SetNamespace("default")
	}
	obj.SetResourceVersion("") // kubectl clears it before it creates
	legacyscheme.Scheme.Default(obj)
	if err := legacyscheme.Scheme.Convert(obj, internal, nil); err != nil {
		out.Decode = err.Error()
		return out, nil
	}
	ctx := genericapirequest.WithNamespace(context.Background(), obj.GetNamespace())
	strategy.PrepareForCreate(ctx, internal)
	for _, e := range strategy.Validate(ctx, internal) {
		out.Problems = append(out.Problems, Problem{Type: string(e.Type.String()), Field: e.Field})
	}
	back := P(new(T))
	if err := legacyscheme.Scheme.Convert(internal, back, nil); err != nil {
		panic(err)
	}
	stored := roundTripProto[T, P](back)
	stored.GetObjectKind().SetGroupVersionKind(gvk)
	b, err := json.Marshal(stored)
	if err != nil {
		panic(err)
	}
	out.Stored = Canonical(b)
	sortProblems(out.Problems)
	return out, stored
}

// protoMessage is what the generated protobuf code of k8s.io/api gives.
type protoMessage[T any] interface {
	*T
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// roundTripProto marshals and unmarshals v as the API server's storage
// does (etcd holds protobuf).
func roundTripProto[T any, P protoMessage[T]](v P) P {
	b, err := v.Marshal()
	if err != nil {
		panic(err)
	}
	out := P(new(T))
	if err := out.Unmarshal(b); err != nil {
		panic(err)
	}
	return out
}

// strictProblem turns a strict decoding message (unknown field "a.b",
// duplicate field "a.b") into a Problem.
func strictProblem(msg string) Problem {
	for _, kind := range []string{"unknown field", "duplicate field"} {
		if i := strings.Index(msg, kind+" \""); i >= 0 {
			quoted := msg[i+len(kind)+1:]
			f, err := strconv.Unquote(quoted) // the path is written with %q
			if err != nil {
				f = strings.Trim(quoted, "\"")
			}
			return Problem{Type: kind, Field: f}
		}
	}
	return Problem{Type: "strict", Field: msg}
}

func sortProblems(ps []Problem) {
	slices.SortFunc(ps, func(a, b Problem) int {
		return strings.Compare(a.Field+"\x00"+a.Type, b.Field+"\x00"+b.Type)
	})
}

// Canonical returns JSON with null members removed and object keys sorted,
// so that two encodings of one value compare byte for byte.
func Canonical(b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(fmt.Sprintf("canonical: %v in %s", err, b))
	}
	out, err := json.Marshal(dropNulls(v))
	if err != nil {
		panic(err)
	}
	return out
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			v[k] = dropNulls(e)
		}
	case []any:
		for i := range v {
			v[i] = dropNulls(v[i])
		}
	}
	return v
}

// ErrorsAsProblems reduces upstream field errors to Problems.
func ErrorsAsProblems(errs field.ErrorList) []Problem {
	var ps []Problem
	for _, e := range errs {
		ps = append(ps, Problem{Type: e.Type.String(), Field: e.Field})
	}
	sortProblems(ps)
	return ps
}

var _ = errors.New
