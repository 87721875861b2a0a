package strategicpatch

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// mergeOptions is upstream's MergeOptions. Applying a patch (the API
// server) merges parallel lists and drops nulls that match nothing;
// combining two patches (CreateThreeWayMergePatch) keeps both.
type mergeOptions struct {
	mergeParallelList    bool
	ignoreUnmatchedNulls bool
}

// mergeMap is upstream's mergeMap: patch merged into original, which it
// changes in place (so does the patch). A $patch directive on the object
// decides alone; then $retainKeys clears the keys it does not list; then
// the $setElementOrder lists; then each key: null deletes, a value of
// another type replaces, objects and lists merge by their field's
// strategy. Keys are visited in sorted order; upstream's map order only
// matters for patches that both add and delete the same scalar of a list,
// which no computed patch does.
func mergeMap(original, patch map[string]any, s Schema, mo mergeOptions) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		return handleDirectiveInMergeMap(v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeysDirective(original, patch, mo); err != nil {
		return nil, err
	}
	if err := mergePatchIntoOriginal(original, patch, s, mo); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		patchV := patch[k]
		isDeleteList := false
		if strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) {
			if !mo.mergeParallelList {
				original[k] = patchV
				continue
			}
			field, err := extractKey(k, deleteFromPrimitiveListDirectivePrefix)
			if err != nil {
				return nil, err
			}
			k, isDeleteList = field, true
		}
		if patchV == nil {
			delete(original, k)
			if mo.ignoreUnmatchedNulls {
				continue
			}
		}
		originalV, ok := original[k]
		if !ok || kindOf(originalV) != kindOf(patchV) {
			// Absent, or of another type: the patch's value, unless it is
			// a deletion list.
			if !isDeleteList {
				if mo.ignoreUnmatchedNulls {
					discardNullValuesFromPatch(patchV)
				}
				if v, keep := removeDirectives(patchV); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		var err error
		switch kindOf(originalV) {
		case kindMap:
			sub, meta, err2 := s.LookupStruct(k)
			if err2 != nil {
				return nil, err2
			}
			_, strategy, err2 := extractRetainKeysPatchStrategy(meta.Strategies)
			if err2 != nil {
				return nil, err2
			}
			original[k], err = mergeMapHandler(originalV, patchV, sub, strategy, mo)
		case kindSlice:
			sub, meta, err2 := s.LookupSlice(k)
			if err2 != nil {
				return nil, err2
			}
			_, strategy, err2 := extractRetainKeysPatchStrategy(meta.Strategies)
			if err2 != nil {
				return nil, err2
			}
			original[k], err = mergeSliceHandler(originalV, patchV, sub, strategy, meta.MergeKey, isDeleteList, mo)
		default:
			if v, keep := removeDirectives(patchV); keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// handleDirectiveInMergeMap applies an object's $patch: replace gives the
// patch without the directive, delete an empty object.
func handleDirectiveInMergeMap(directive any, patch map[string]any) (map[string]any, error) {
	switch directive {
	case replaceDirective:
		delete(patch, directiveMarker)
		return patch, nil
	case deleteDirective:
		return map[string]any{}, nil
	}
	return nil, errBadPatchType(directive, patch)
}

// applyRetainKeysDirective is upstream's applyRetainKeysDirective. When
// applying a patch, every key of the patch (nulls and parallel lists
// aside) must be in the $retainKeys list, and the keys of original that
// are not in it are cleared. When combining patches, the list is carried
// into original, where an existing one must be equal.
func applyRetainKeysDirective(original, patch map[string]any, mo mergeOptions) error {
	retainKeys, found := patch[retainKeysDirective]
	if !found {
		return nil
	}
	delete(patch, retainKeysDirective)
	if !mo.mergeParallelList {
		if inOriginal, found := original[retainKeysDirective]; found {
			if !deepEqual(inOriginal, retainKeys) {
				return fmt.Errorf("%v and %v are not deep equal: this may happen when calculating the 3-way diff patch", inOriginal, retainKeys)
			}
		} else {
			original[retainKeysDirective] = retainKeys
		}
		return nil
	}
	list, ok := retainKeys.([]any)
	if !ok {
		return ErrBadPatchFormatForRetainKeys
	}
	keep := map[any]struct{}{}
	for _, v := range list {
		keep[hashable(v)] = struct{}{}
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) ||
			strings.HasPrefix(k, setElementOrderDirectivePrefix) {
			continue
		}
		if _, found := keep[k]; !found {
			return ErrBadPatchFormatForRetainKeys
		}
	}
	for k := range original {
		if _, found := keep[k]; !found {
			delete(original, k)
		}
	}
	return nil
}

// removeDirectives drops, in place, every object holding a $patch
// directive from v; keep is false when v itself is one.
func removeDirectives(v any) (out any, keep bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, found := t[directiveMarker]; found {
			return nil, false
		}
		for k, x := range t {
			if nx, keep := removeDirectives(x); keep {
				t[k] = nx
			} else {
				delete(t, k)
			}
		}
		return t, true
	case []any:
		var res []any
		if t != nil {
			res = []any{}
		}
		for _, x := range t {
			if nx, keep := removeDirectives(x); keep {
				res = append(res, nx)
			}
		}
		return res, true
	}
	return v, true
}

// discardNullValuesFromPatch deletes, in place, every null member of the
// objects under v (upstream's function of that name, and kubectl apply's
// pruneNullsFromMap).
func discardNullValuesFromPatch(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if x == nil {
				delete(t, k)
			} else {
				discardNullValuesFromPatch(x)
			}
		}
	case []any:
		for _, x := range t {
			discardNullValuesFromPatch(x)
		}
	}
}

// mergeMapHandler merges two objects, or takes the patch's whole when the
// field's strategy is replace.
func mergeMapHandler(original, patch any, s Schema, strategy string, mo mergeOptions) (map[string]any, error) {
	o, ok := original.(map[string]any)
	if !ok {
		return nil, errBadArgType(mapType, original)
	}
	p, ok := patch.(map[string]any)
	if !ok {
		return nil, errBadArgType(mapType, patch)
	}
	if strategy == replaceDirective {
		return p, nil
	}
	return mergeMap(o, p, s, mo)
}

// mergeSliceHandler merges two lists when the field's strategy is merge
// (or the patch's list is a deletion list), or takes the patch's list.
func mergeSliceHandler(original, patch any, s Schema, strategy, mergeKey string, isDeleteList bool, mo mergeOptions) ([]any, error) {
	o, ok := original.([]any)
	if !ok {
		return nil, errBadArgType(sliceType, original)
	}
	p, ok := patch.([]any)
	if !ok {
		return nil, errBadArgType(sliceType, patch)
	}
	if strategy == mergeDirective || isDeleteList {
		return mergeSlice(o, p, s, mergeKey, mo, isDeleteList)
	}
	return p, nil
}

// mergeSlice is upstream's mergeSlice. Scalars: the union without
// repeats, or, for a deletion list, the live list without them. Objects:
// $patch directives first (delete removes every element with the merge
// key value; replace makes the patch's other elements the list), then
// each patch element merged into the live element with its merge key
// value or appended. Then the order: the patch's elements in the patch's
// order, the live-only ones interleaved where they were.
func mergeSlice(original, patch []any, s Schema, mergeKey string, mo mergeOptions, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	k, err := sliceElementType(original, patch)
	if err != nil {
		return nil, err
	}
	var merged []any
	if k != kindMap {
		if mo.mergeParallelList && isDeleteList {
			return deleteFromSlice(original, patch), nil
		}
		// Upstream appends to the live list's backing array.
		merged = deduplicateScalars(append(original, patch...))
	} else {
		if mergeKey == "" {
			return nil, fmt.Errorf("cannot merge lists without merge key for %s", s.Name())
		}
		if original, patch, err = mergeSliceWithSpecialElements(original, patch, mergeKey); err != nil {
			return nil, err
		}
		if merged, err = mergeSliceWithoutSpecialElements(original, patch, mergeKey, s, mo); err != nil {
			return nil, err
		}
	}
	var patchItems, serverOnly []any
	if mergeKey == "" {
		patchItems, serverOnly = partitionPrimitivesByPresentInList(merged, patch)
	} else if patchItems, serverOnly, err = partitionMapsByPresentInList(merged, patch, mergeKey); err != nil {
		return nil, err
	}
	return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, k)
}

// mergeSliceWithSpecialElements applies the $patch elements of a list
// patch and returns the live list and the patch's other elements (with
// replace: the patch's other elements and nothing left to merge).
func mergeSliceWithSpecialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	rest := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any)
		directive, ok := m[directiveMarker]
		if !ok {
			rest = append(rest, v)
			continue
		}
		switch directive {
		case deleteDirective:
			value, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			var err error
			if original, err = deleteMatchingEntries(original, mergeKey, value); err != nil {
				return nil, nil, err
			}
		case replaceDirective:
			replace = true
		case mergeDirective:
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, errBadPatchType(directive, m)
		}
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// deleteMatchingEntries removes every element with the merge key value,
// shifting the live list's backing array in place as upstream does.
func deleteMatchingEntries(original []any, mergeKey string, value any) ([]any, error) {
	for {
		_, i, found, err := findMapInSliceBasedOnKeyValue(original, mergeKey, value)
		if err != nil {
			return nil, err
		}
		if !found {
			return original, nil
		}
		original = append(original[:i], original[i+1:]...)
	}
}

// mergeSliceWithoutSpecialElements merges each patch element into the
// live element with the same merge key value, in place, or appends it.
func mergeSliceWithoutSpecialElements(original, patch []any, mergeKey string, s Schema, mo mergeOptions) ([]any, error) {
	for _, v := range patch {
		m := v.(map[string]any)
		value, ok := m[mergeKey]
		if !ok {
			return nil, errNoMergeKey(m, mergeKey)
		}
		live, i, found, err := findMapInSliceBasedOnKeyValue(original, mergeKey, value)
		if err != nil {
			return nil, err
		}
		if !found {
			original = append(original, v)
			continue
		}
		merged, err := mergeMap(live, m, s, mo)
		if err != nil {
			return nil, err
		}
		original[i] = merged
	}
	return original, nil
}

// deleteFromSlice is the live list of scalars without those of toDelete.
func deleteFromSlice(current, toDelete []any) []any {
	set := map[any]bool{}
	for _, v := range toDelete {
		set[hashable(v)] = true
	}
	out := make([]any, 0, len(current))
	for _, v := range current {
		if !set[hashable(v)] {
			out = append(out, v)
		}
	}
	return out
}

// findMapInSliceBasedOnKeyValue finds the first object of l whose key has
// the value; an element that is not an object is an error.
func findMapInSliceBasedOnKeyValue(l []any, key string, value any) (map[string]any, int, bool, error) {
	for i, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, 0, false, fmt.Errorf("value for key %v is not a map", i)
		}
		if x, ok := m[key]; ok && same(x, value) {
			return m, i, true, nil
		}
	}
	return nil, 0, false, nil
}
