package strategicpatch

import (
	"fmt"
	"maps"
	"slices"
)

// The directives of a strategic merge patch.
const (
	directiveMarker  = "$patch"
	deleteDirective  = "delete"
	replaceDirective = "replace"
	mergeDirective   = "merge"

	retainKeysStrategy = "retainKeys"

	deleteFromPrimitiveListDirectivePrefix = "$deleteFromPrimitiveList"
	retainKeysDirective                    = "$" + retainKeysStrategy
	setElementOrderDirectivePrefix         = "$setElementOrder"
)

// diffOptions is upstream's DiffOptions: which parts of the difference a
// diff keeps.
type diffOptions struct {
	setElementOrder           bool // write $setElementOrder lists
	ignoreChangesAndAdditions bool
	ignoreDeletions           bool
	buildRetainKeysDirective  bool // write $retainKeys (the field's strategy says so)
}

// diffMaps is upstream's diffMaps: the patch that turns original into
// modified, recursively. A key only in modified is added; a key only in
// original is set to null; maps are diffed by their field's strategy,
// lists by theirs (merged lists by key, others replaced whole); a struct
// whose strategy has retainKeys gets the $retainKeys list of the keys it
// keeps. Keys are visited in sorted order; upstream's order is Go's map
// order, which only decides which of several errors is reported.
func diffMaps(original, modified map[string]any, s Schema, o diffOptions) (map[string]any, error) {
	patch := map[string]any{}
	retainKeys := make([]any, 0, len(modified))
	for _, key := range slices.Sorted(maps.Keys(modified)) {
		modifiedValue := modified[key]
		if o.buildRetainKeysDirective && modifiedValue != nil {
			retainKeys = append(retainKeys, key)
		}
		originalValue, ok := original[key]
		if !ok {
			if !o.ignoreChangesAndAdditions {
				patch[key] = modifiedValue
			}
			continue
		}
		if key == directiveMarker {
			// Upstream's handleDirectiveMarker.
			o, ok1 := originalValue.(string)
			m, ok2 := modifiedValue.(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("invalid value for special key: %s", directiveMarker)
			}
			if m != o {
				patch[directiveMarker] = modifiedValue
			}
			continue
		}
		if kindOf(originalValue) != kindOf(modifiedValue) {
			if !o.ignoreChangesAndAdditions {
				patch[key] = modifiedValue
			}
			continue
		}
		var err error
		switch ov := originalValue.(type) {
		case map[string]any:
			err = handleMapDiff(key, ov, modifiedValue.(map[string]any), patch, s, o)
		case []any:
			err = handleSliceDiff(key, ov, modifiedValue.([]any), patch, s, o)
		default:
			replacePatchFieldIfNotEqual(key, originalValue, modifiedValue, patch, o)
		}
		if err != nil {
			return nil, err
		}
	}
	if !o.ignoreDeletions {
		for key := range original {
			if _, found := modified[key]; !found {
				patch[key] = nil
			}
		}
	}
	if len(retainKeys) > 0 && (len(patch) > 0 || hasAdditionalNewField(original, modified)) {
		patch[retainKeysDirective] = sortScalars(retainKeys)
	}
	return patch, nil
}

// handleMapDiff is upstream's handleMapDiff: the diff of a struct or map
// field, whole when its strategy is replace. A field the schema does not
// know is an error unless both sides are equal.
func handleMapDiff(key string, original, modified, patch map[string]any, s Schema, o diffOptions) error {
	sub, meta, err := s.LookupStruct(key)
	if err != nil {
		if deepEqual(original, modified) {
			return nil
		}
		return err
	}
	retainKeys, strategy, err := extractRetainKeysPatchStrategy(meta.Strategies)
	if err != nil {
		return err
	}
	o.buildRetainKeysDirective = retainKeys
	if strategy == replaceDirective {
		if !o.ignoreChangesAndAdditions {
			patch[key] = modified
		}
		return nil
	}
	value, err := diffMaps(original, modified, sub, o)
	if err != nil {
		return err
	}
	if len(value) > 0 {
		patch[key] = value
	}
	return nil
}

// handleSliceDiff is upstream's handleSliceDiff: a list with the merge
// strategy is diffed element by element (with its parallel
// $deleteFromPrimitiveList and $setElementOrder lists); any other list is
// replaced whole when it changed.
func handleSliceDiff(key string, original, modified []any, patch map[string]any, s Schema, o diffOptions) error {
	sub, meta, err := s.LookupSlice(key)
	if err != nil {
		if deepEqual(original, modified) {
			return nil
		}
		return err
	}
	retainKeys, strategy, err := extractRetainKeysPatchStrategy(meta.Strategies)
	if err != nil {
		return err
	}
	if strategy != mergeDirective {
		replacePatchFieldIfNotEqual(key, original, modified, patch, o)
		return nil
	}
	o.buildRetainKeysDirective = retainKeys
	add, del, order, err := diffLists(original, modified, sub, meta.MergeKey, o)
	if err != nil {
		return err
	}
	if len(add) > 0 {
		patch[key] = add
	}
	if len(del) > 0 {
		patch[deleteFromPrimitiveListDirectivePrefix+"/"+key] = del
	}
	if len(order) > 0 {
		patch[setElementOrderDirectivePrefix+"/"+key] = order
	}
	return nil
}

// replacePatchFieldIfNotEqual sets key to modified in the patch when the
// values differ and changes are kept.
func replacePatchFieldIfNotEqual(key string, original, modified any, patch map[string]any, o diffOptions) {
	if o.ignoreChangesAndAdditions || deepEqual(original, modified) {
		return
	}
	patch[key] = modified
}

// hasAdditionalNewField reports whether original has a non-null key that
// modified lacks.
func hasAdditionalNewField(original, modified map[string]any) bool {
	for k, v := range original {
		if v == nil {
			continue
		}
		if _, found := modified[k]; !found {
			return true
		}
	}
	return false
}
