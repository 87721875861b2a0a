package difftest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kubectlutil "k8s.io/kubectl/pkg/util"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	smp "github.com/rolloutmath/rolloutmath/internal/strategicpatch"
)

// realMeta is what kubectl builds when it computes the patch from the Go
// types (buildStrategicMergeFromBuiltins) and what the API server's patch
// handler uses.
var realMeta = func() strategicpatch.LookupPatchMeta {
	m, err := strategicpatch.NewPatchMetaFromStruct(appsv1.Deployment{})
	if err != nil {
		panic(err)
	}
	return m
}()

var ourSchema = func() smp.Schema {
	s, err := smp.ForStruct(schema.StructIndex("Deployment"))
	if err != nil {
		panic(err)
	}
	return s
}()

// catch turns a panic of the real code into an error: the API server
// recovers it and answers 500.
func catch(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("panic: %v", r)
	}
}

func realThreeWay(original, modified, current []byte, overwrite bool) (patch []byte, err error) {
	defer catch(&err)
	return strategicpatch.CreateThreeWayMergePatch(original, modified, current, realMeta, overwrite)
}

func realTwoWay(original, modified []byte) (patch []byte, err error) {
	defer catch(&err)
	return strategicpatch.CreateTwoWayMergePatch(original, modified, appsv1.Deployment{})
}

func realMerge(original, patch []byte) (out []byte, err error) {
	defer catch(&err)
	return strategicpatch.StrategicMergePatch(original, patch, appsv1.Deployment{})
}

// sameValue reports whether two JSON documents hold the same value (lists
// in order).
func sameValue(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// An outcome is what one call returned.
type outcome struct {
	out []byte
	err error
}

// differ describes how our outcome differs from upstream's, or returns
// nil: both errors for the same class of reason, or the same document
// (patches compare as values; with exact set, the bytes must match too).
func differ(what string, real, ours outcome, exact bool) error {
	switch {
	case real.err != nil && ours.err != nil:
		if r, o := realClass(real.err), ourClass(ours.err); r != o {
			return fmt.Errorf("%s: both fail, for other reasons:\nupstream (%s) %v\nours     (%s) %v", what, r, real.err, o, ours.err)
		}
		return nil
	case real.err != nil:
		return fmt.Errorf("%s: upstream fails (%v), ours gives %s", what, real.err, ours.out)
	case ours.err != nil:
		return fmt.Errorf("%s: ours fails (%v), upstream gives %s", what, ours.err, real.out)
	case !sameValue(real.out, ours.out):
		return fmt.Errorf("%s differs:\nupstream %s\nours     %s", what, real.out, ours.out)
	case exact && !bytes.Equal(real.out, ours.out):
		return fmt.Errorf("%s: same value, other bytes:\nupstream %s\nours     %s", what, real.out, ours.out)
	}
	return nil
}

// match runs upstream and compares its outcome with ours. When a
// document has several faults, upstream's outcome (which error, or
// whether one directive overwrites another) depends on Go's map order;
// so when they differ, upstream runs again, up to 50 times, and ours
// passes if upstream gives it once. It returns upstream's matching
// outcome, or its first one.
func match(what string, ours outcome, exact bool, run func() outcome) (outcome, error) {
	first := run()
	err := differ(what, first, ours, exact)
	for i := 0; err != nil && i < 50; i++ {
		if again := run(); differ(what, again, ours, exact) == nil {
			rerun.Add(1)
			return again, nil
		}
	}
	return first, err
}

// rerun counts the comparisons that needed upstream to run again.
var rerun atomic.Int64

// realSentinels and ourSentinels are the errors the API server tells
// apart (400 or 422 rather than 500), in the same order.
var (
	realSentinels = []error{mergepatch.ErrBadJSONDoc, mergepatch.ErrNoListOfLists, mergepatch.ErrBadPatchFormatForPrimitiveList,
		mergepatch.ErrBadPatchFormatForRetainKeys, mergepatch.ErrBadPatchFormatForSetElementOrderList}
	ourSentinels = []error{smp.ErrBadJSONDoc, smp.ErrNoListOfLists, smp.ErrBadPatchFormatForPrimitiveList,
		smp.ErrBadPatchFormatForRetainKeys, smp.ErrBadPatchFormatForSetElementOrderList}
)

// realClass and ourClass name why a call failed: a conflict, a
// precondition, one of the sentinel errors, or anything else.
func realClass(err error) string {
	switch {
	case mergepatch.IsConflict(err):
		return "conflict"
	case mergepatch.IsPreconditionFailed(err):
		return "precondition"
	}
	for i, s := range realSentinels {
		if err == s {
			return ourSentinels[i].Error()
		}
	}
	return "other"
}

func ourClass(err error) string {
	var c *smp.ConflictError
	var p *smp.PreconditionFailedError
	switch {
	case errors.As(err, &c):
		return "conflict"
	case errors.As(err, &p):
		return "precondition"
	}
	for _, s := range ourSentinels {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "other"
}

// threeWayOutcome is one run of CreateThreeWayMergePatch and, when it
// gives a patch, of StrategicMergePatch on current.
type threeWayOutcome struct {
	Patch, Result []byte
	PatchErr      error
	ResultErr     error
}

// compareThreeWay runs both sides on one triple and returns the first
// disagreement, with the real outcome.
func compareThreeWay(original, modified, current []byte, overwrite bool) (threeWayOutcome, error) {
	var ours threeWayOutcome
	ours.Patch, ours.PatchErr = smp.CreateThreeWayMergePatch(original, modified, current, ourSchema, overwrite)
	rp, err := match("patch", outcome{ours.Patch, ours.PatchErr}, false, func() outcome {
		p, err := realThreeWay(original, modified, current, overwrite)
		return outcome{p, err}
	})
	real := threeWayOutcome{Patch: rp.out, PatchErr: rp.err}
	if err != nil || real.PatchErr != nil {
		return real, err
	}
	ours.Result, ours.ResultErr = smp.StrategicMergePatch(current, ours.Patch, ourSchema)
	rr, err := match("patched object", outcome{ours.Result, ours.ResultErr}, true, func() outcome {
		r, err := realMerge(current, real.Patch)
		return outcome{r, err}
	})
	real.Result, real.ResultErr = rr.out, rr.err
	return real, err
}

// compareMerge runs StrategicMergePatch on both sides and returns the
// real result.
func compareMerge(original, patch []byte) ([]byte, error) {
	ours, ourErr := smp.StrategicMergePatch(original, patch, ourSchema)
	real, err := match("patched object", outcome{ours, ourErr}, true, func() outcome {
		r, err := realMerge(original, patch)
		return outcome{r, err}
	})
	return real.out, err
}

// compareApply runs kubectl apply on both sides (the patch and the
// patched object matched together) and returns upstream's patch and
// object.
func compareApply(live, manifest []byte, overwrite bool) (patch, object []byte, realErr, err error) {
	type pair struct{ Patch, Object json.RawMessage }
	pack := func(p, o []byte, err error) outcome {
		if err != nil {
			return outcome{err: err}
		}
		b, err := json.Marshal(pair{p, o})
		if err != nil {
			return outcome{err: err}
		}
		return outcome{out: b}
	}
	a, oerr := smp.Apply(live, manifest, "default", ourSchema, overwrite)
	real, err := match("apply", pack(a.Patch, a.Object, oerr), true, func() outcome {
		return pack(realApply(live, manifest, overwrite))
	})
	if real.err != nil {
		return nil, nil, real.err, err
	}
	var pr pair
	if jerr := json.Unmarshal(real.out, &pr); jerr != nil {
		return nil, nil, nil, jerr
	}
	return pr.Patch, pr.Object, nil, err
}

// realApply is kubectl apply against live with the real code.
func realApply(live, manifest []byte, overwrite bool) (patch, result []byte, err error) {
	modified, err := realModified(manifest, "default")
	if err != nil {
		return nil, nil, err
	}
	original, err := realOriginal(live)
	if err != nil {
		return nil, nil, err
	}
	if patch, err = realThreeWay(original, modified, live, overwrite); err != nil {
		return nil, nil, err
	}
	if string(patch) == "{}" {
		return patch, live, nil
	}
	result, err = realMerge(live, patch)
	return patch, result, err
}

// realModified is kubectl's modified configuration of a manifest: the
// resource builder's object (namespace defaulted) through
// util.GetModifiedConfiguration.
func realModified(manifest []byte, namespace string) ([]byte, error) {
	u, err := realManifestObject(manifest, namespace)
	if err != nil {
		return nil, err
	}
	return kubectlutil.GetModifiedConfiguration(u, true, unstructured.UnstructuredJSONScheme)
}

// realCreated is the object kubectl apply creates for a manifest.
func realCreated(manifest []byte, namespace string) ([]byte, error) {
	u, err := realManifestObject(manifest, namespace)
	if err != nil {
		return nil, err
	}
	if _, err := kubectlutil.GetModifiedConfiguration(u, true, unstructured.UnstructuredJSONScheme); err != nil {
		return nil, err
	}
	if err := kubectlutil.CreateApplyAnnotation(u, unstructured.UnstructuredJSONScheme); err != nil {
		return nil, err
	}
	pruneNullsLikeKubectl(u.Object)
	return json.Marshal(u.Object)
}

func realManifestObject(manifest []byte, namespace string) (*unstructured.Unstructured, error) {
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(manifest, nil, nil)
	if err != nil {
		return nil, err
	}
	u := obj.(*unstructured.Unstructured)
	if u.GetNamespace() == "" && namespace != "" {
		u.SetNamespace(namespace)
	}
	return u, nil
}

// realOriginal is kubectl's util.GetOriginalConfiguration of a live
// object.
func realOriginal(live []byte) ([]byte, error) {
	obj := &unstructured.Unstructured{}
	if err := runtime.DecodeInto(unstructured.UnstructuredJSONScheme, live, obj); err != nil {
		return nil, err
	}
	return kubectlutil.GetOriginalConfiguration(obj)
}

// pruneNullsLikeKubectl is kubectl apply's unexported pruneNullsFromMap:
// null members of objects go, nulls in lists stay.
func pruneNullsLikeKubectl(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if x == nil {
				delete(t, k)
			} else {
				pruneNullsLikeKubectl(x)
			}
		}
	case []any:
		for _, x := range t {
			pruneNullsLikeKubectl(x)
		}
	}
}
