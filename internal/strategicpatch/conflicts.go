package strategicpatch

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// mergingMapsHaveConflicts is upstream's MergingMapsHaveConflicts: whether
// two patches set some field to different values. Lists that merge are
// compared element by element by merge key; other lists must have the
// same length and equal elements, scalars compared as sorted sets (sorted
// in place, as upstream sorts them, which reorders them in the patch it
// then returns). A directive key (such as $setElementOrder/containers)
// present in both is an error, for want of schema.
func mergingMapsHaveConflicts(left, right map[string]any, s Schema) (bool, error) {
	return fieldsHaveConflicts(left, right, s, "", "")
}

func fieldsHaveConflicts(left, right any, s Schema, strategy, mergeKey string) (bool, error) {
	switch l := left.(type) {
	case map[string]any:
		r, ok := right.(map[string]any)
		if !ok {
			return true, nil
		}
		lm, okL := l[directiveMarker]
		rm, okR := r[directiveMarker]
		if okL || okR {
			if okL != okR || !same(lm, rm) {
				return true, nil
			}
		}
		if strategy == replaceDirective {
			return false, nil
		}
		return mapsHaveConflicts(l, r, s)
	case []any:
		r, ok := right.([]any)
		if !ok {
			return true, nil
		}
		return slicesHaveConflicts(l, r, s, strategy, mergeKey)
	case string, float64, bool, int64, nil:
		return !deepEqual(left, right), nil
	}
	return true, fmt.Errorf("unknown type: %s", typeName(left))
}

// mapsHaveConflicts visits the members of left that right also has: the
// fields first, then the directives, each in sorted order (upstream's
// order is Go's map order), so that a conflict is reported as such rather
// than as the failure to look up a directive both patches hold.
func mapsHaveConflicts(left, right map[string]any, s Schema) (bool, error) {
	var fields, directives []string
	for _, k := range slices.Sorted(maps.Keys(left)) {
		if strings.HasPrefix(k, "$") {
			directives = append(directives, k)
		} else {
			fields = append(fields, k)
		}
	}
	for _, key := range append(fields, directives...) {
		if key == directiveMarker || key == retainKeysDirective {
			continue
		}
		rv, ok := right[key]
		if !ok {
			continue
		}
		lv := left[key]
		var sub Schema
		var meta PatchMeta
		var strategy string
		var err error
		switch lv.(type) {
		case []any:
			sub, meta, err = s.LookupSlice(key)
		case map[string]any:
			sub, meta, err = s.LookupStruct(key)
		}
		if err == nil {
			_, strategy, err = extractRetainKeysPatchStrategy(meta.Strategies)
		}
		if err != nil {
			return true, err
		}
		if conflict, err := fieldsHaveConflicts(lv, rv, sub, strategy, meta.MergeKey); conflict {
			return true, err
		}
	}
	return false, nil
}

func slicesHaveConflicts(left, right []any, s Schema, strategy, mergeKey string) (bool, error) {
	k, err := sliceElementType(left, right)
	if err != nil {
		return true, err
	}
	if strategy == mergeDirective {
		if k != kindMap {
			return false, nil
		}
		lm, err := sliceOfMapsToMapOfMaps(left, mergeKey)
		if err != nil {
			return true, err
		}
		rm, err := sliceOfMapsToMapOfMaps(right, mergeKey)
		if err != nil {
			return true, err
		}
		for _, key := range slices.Sorted(maps.Keys(lm)) {
			if rv, ok := rm[key]; ok {
				if conflict, err := fieldsHaveConflicts(lm[key], rv, s, "", ""); conflict {
					return true, err
				}
			}
		}
		return false, nil
	}
	if len(left) != len(right) {
		return true, nil
	}
	if k != kindMap {
		left = deduplicateAndSortScalars(left)
		right = deduplicateAndSortScalars(right)
	}
	for i := range left {
		if i >= len(right) {
			// Upstream indexes past the end of the shorter deduplicated
			// list.
			panic(failure{fmt.Errorf("lists %v and %v differ in length once deduplicated", left, right)})
		}
		if conflict, err := fieldsHaveConflicts(left[i], right[i], s, "", ""); conflict {
			return true, err
		}
	}
	return false, nil
}

// sliceOfMapsToMapOfMaps indexes objects by the %s text of their merge key
// value; a later element with the same text wins.
func sliceOfMapsToMapOfMaps(list []any, mergeKey string) (map[string]any, error) {
	out := make(map[string]any, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("invalid element type in merging list:%v", list)
		}
		value, ok := m[mergeKey]
		if !ok {
			return nil, fmt.Errorf("cannot find merge key `%s` in merging list element:%v", mergeKey, m)
		}
		out[fmt.Sprintf("%s", value)] = m
	}
	return out, nil
}
