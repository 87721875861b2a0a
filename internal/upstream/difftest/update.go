package difftest

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	rschema "github.com/rolloutmath/rolloutmath/internal/schema"
)

// Stamp gives a stored Deployment what the server assigns on create: a
// uid, a resourceVersion and a creation time.
func Stamp(d *appsv1.Deployment) {
	d.UID = types.UID("0b9c4c2e-2d42-4d2a-9d6c-0123456789ab")
	d.ResourceVersion = "1000"
	d.CreationTimestamp = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
}

// RealUpdateDeployment runs an update (kubectl replace) of old, a stored
// Deployment, with the JSON of a new object, through the real update path.
func RealUpdateDeployment(old *appsv1.Deployment, data []byte) (Outcome, *appsv1.Deployment) {
	return realUpdateDeployment(old, data, nil)
}

// RealUpdateDeploymentMessages is RealUpdateDeployment that also returns
// the refusals as upstream prints them, sorted.
func RealUpdateDeploymentMessages(old *appsv1.Deployment, data []byte) (Outcome, *appsv1.Deployment, []string) {
	var msgs []string
	out, d := realUpdateDeployment(old, data, &msgs)
	slices.Sort(msgs)
	return out, d, msgs
}

// realUpdateDeployment is RealUpdateDeployment; when msgs is not nil, the
// messages of the status causes ("field: body") are appended to it.
func realUpdateDeployment(old *appsv1.Deployment, data []byte, msgs *[]string) (Outcome, *appsv1.Deployment) {
	var out Outcome
	obj := &appsv1.Deployment{}
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	if _, _, err := strictSerializer.Decode(data, &gvk, obj); err != nil {
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
	if obj.Namespace == "" {
		obj.Namespace = old.Namespace
	}
	legacyscheme.Scheme.Default(obj)
	internal, oldInternal := &apps.Deployment{}, &apps.Deployment{}
	if err := legacyscheme.Scheme.Convert(obj, internal, nil); err != nil {
		out.Decode = err.Error()
		return out, nil
	}
	if err := legacyscheme.Scheme.Convert(old.DeepCopy(), oldInternal, nil); err != nil {
		panic(err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), obj.Namespace)
	// The request an update is (v1.37's BeforeUpdate runs declarative
	// validation, which reads it).
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "update", APIGroup: "apps", APIVersion: "v1",
		Namespace: obj.Namespace, Resource: "deployments", Name: obj.Name,
	})
	if err := rest.BeforeUpdate(deployment.Strategy, ctx, internal, oldInternal); err != nil {
		var status apierrors.APIStatus
		if se, ok := err.(apierrors.APIStatus); ok {
			status = se
		}
		if status == nil || status.Status().Details == nil {
			out.Decode = err.Error()
			return out, nil
		}
		for _, c := range status.Status().Details.Causes {
			out.Problems = append(out.Problems, Problem{Type: causeType(string(c.Type)), Field: c.Field})
			if msgs != nil {
				*msgs = append(*msgs, c.Field+": "+c.Message)
			}
		}
	}
	back := &appsv1.Deployment{}
	if err := legacyscheme.Scheme.Convert(internal, back, nil); err != nil {
		panic(err)
	}
	stored := roundTripProto(back)
	stored.APIVersion, stored.Kind = "apps/v1", "Deployment"
	b, err := json.Marshal(stored)
	if err != nil {
		panic(err)
	}
	out.Stored = Canonical(b)
	sortProblems(out.Problems)
	return out, stored
}

// causeType turns a status cause type (FieldValueInvalid) into the error
// type's text (Invalid value).
func causeType(t string) string {
	switch t {
	case "FieldValueInvalid":
		return "Invalid value"
	case "FieldValueRequired":
		return "Required value"
	case "FieldValueNotSupported":
		return "Unsupported value"
	case "FieldValueDuplicate":
		return "Duplicate value"
	case "FieldValueNotFound":
		return "Not found"
	case "FieldValueForbidden":
		return "Forbidden"
	case "FieldValueTooLong":
		return "Too long"
	case "FieldValueTooMany":
		return "Too many"
	}
	return t
}

// OursUpdateDeployment runs the same update through rolloutmath.
func OursUpdateDeployment(old *appsv1.Deployment, data []byte) Outcome {
	oldJSON, err := json.Marshal(old)
	if err != nil {
		panic(err)
	}
	o, res := rschema.DecodeDeployment(oldJSON, rschema.DecodeOptions{})
	if len(res.Errs) > 0 {
		panic(res.Errs)
	}
	if errs := apiserver.ReadDeployment(o, v136); len(errs) > 0 {
		panic(errs)
	}
	d, res := rschema.DecodeDeployment(data, rschema.DecodeOptions{})
	if out, bad := decodeOutcome(res); bad {
		return out
	}
	if d.Namespace == "" {
		d.Namespace = o.Namespace
	}
	errs := apiserver.UpdateDeployment(o, d, v136)
	return Outcome{Stored: Canonical(rschema.AppendDeployment(nil, d, rschema.Stored)), Problems: ourProblems(errs)}
}
