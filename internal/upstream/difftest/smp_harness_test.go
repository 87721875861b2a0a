package difftest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

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

// agree compares two outcomes: both errors for the same class of reason,
// or the same document. Patches compare as values; with exact set, the
// bytes must match too. When a document has several faults, which one
// upstream reports depends on Go's map order; again re-runs upstream, and
// our error passes if upstream reports its class in one of 50 runs.
func agree(what string, real []byte, realErr error, ours []byte, ourErr error, exact bool, again func() error) error {
	switch {
	case realErr != nil && ourErr != nil:
		r, o := realClass(realErr), ourClass(ourErr)
		for i := 0; r != o && again != nil && i < 50; i++ {
			if err := again(); err != nil {
				r = realClass(err)
			}
		}
		if r != o {
			return fmt.Errorf("%s: both fail, for other reasons:\nupstream (%s) %v\nours     (%s) %v", what, realClass(realErr), realErr, o, ourErr)
		}
		return nil
	case realErr != nil:
		return fmt.Errorf("%s: upstream fails (%v), ours gives %s", what, realErr, ours)
	case ourErr != nil:
		return fmt.Errorf("%s: ours fails (%v), upstream gives %s", what, ourErr, real)
	case !sameValue(real, ours):
		return fmt.Errorf("%s differs:\nupstream %s\nours     %s", what, real, ours)
	case exact && !bytes.Equal(real, ours):
		return fmt.Errorf("%s: same value, other bytes:\nupstream %s\nours     %s", what, real, ours)
	}
	return nil
}

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
	var real, ours threeWayOutcome
	real.Patch, real.PatchErr = realThreeWay(original, modified, current, overwrite)
	ours.Patch, ours.PatchErr = smp.CreateThreeWayMergePatch(original, modified, current, ourSchema, overwrite)
	again := func() error {
		_, err := realThreeWay(original, modified, current, overwrite)
		return err
	}
	if err := agree("patch", real.Patch, real.PatchErr, ours.Patch, ours.PatchErr, false, again); err != nil {
		return real, err
	}
	if real.PatchErr != nil {
		return real, nil
	}
	real.Result, real.ResultErr = realMerge(current, real.Patch)
	ours.Result, ours.ResultErr = smp.StrategicMergePatch(current, ours.Patch, ourSchema)
	return real, agree("patched object", real.Result, real.ResultErr, ours.Result, ours.ResultErr, true, func() error {
		_, err := realMerge(current, real.Patch)
		return err
	})
}

// compareMerge runs StrategicMergePatch on both sides.
func compareMerge(original, patch []byte) ([]byte, error) {
	real, realErr := realMerge(original, patch)
	ours, ourErr := smp.StrategicMergePatch(original, patch, ourSchema)
	return real, agree("patched object", real, realErr, ours, ourErr, true, func() error {
		_, err := realMerge(original, patch)
		return err
	})
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
