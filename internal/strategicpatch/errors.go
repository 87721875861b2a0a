package strategicpatch

import (
	"errors"
	"fmt"
)

// The errors of k8s.io/apimachinery/pkg/util/mergepatch that the API
// server answers with 400 Bad Request (all but ErrNoListOfLists, a 422);
// any other error of StrategicMergePatch is a 500 there.
var (
	ErrBadJSONDoc                           = errors.New("invalid JSON document")
	ErrNoListOfLists                        = errors.New("lists of lists are not supported")
	ErrBadPatchFormatForPrimitiveList       = errors.New("invalid patch format of primitive list")
	ErrBadPatchFormatForRetainKeys          = errors.New("invalid patch format of retainKeys")
	ErrBadPatchFormatForSetElementOrderList = errors.New("invalid patch format of setElementOrder list")
)

// ConflictError is mergepatch.ErrConflict: CreateThreeWayMergePatch,
// asked not to overwrite, found that the patch changes a field that
// changed differently between the last-applied configuration and the live
// object. Patch and Changed are the two as JSON (upstream shows them as
// YAML).
type ConflictError struct {
	Patch   string
	Changed string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("patch:\n%s\nconflicts with changes made from original to current:\n%s\n", e.Patch, e.Changed)
}

// PreconditionFailedError is mergepatch.ErrPreconditionFailed: a
// [Precondition] refused the patch.
type PreconditionFailedError struct {
	Patch string // the patch, as JSON
}

func (e *PreconditionFailedError) Error() string {
	return "precondition failed for: " + e.Patch
}

// errBadArgType is mergepatch.ErrBadArgType: a value of the wrong JSON
// type where an object or an array was needed.
func errBadArgType(expected string, actual any) error {
	return fmt.Errorf("expected a %s, but received a %s", expected, typeName(actual))
}

// errNoMergeKey is mergepatch.ErrNoMergeKey.
func errNoMergeKey(m map[string]any, key string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", m, key)
}

// errBadPatchType is mergepatch.ErrBadPatchType: an unknown $patch value.
func errBadPatchType(t any, m map[string]any) error {
	return fmt.Errorf("unknown patch type: %v in map: %v", t, m)
}

const (
	mapType   = "map[string]interface {}"
	sliceType = "[]interface {}"
)
