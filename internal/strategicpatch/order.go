package strategicpatch

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Element order: $setElementOrder lists, and how merged lists are put in
// order (design proposal "preserve order in strategic merge patch"): the
// order list first, then the order in the patch, then the order in the
// live list.

// mergePatchIntoOriginal is upstream's mergePatchIntoOriginal: for each
// $setElementOrder/<key> of the patch, merge the patch's list <key> into
// original's, then order the result: the elements named in the order list
// in its order, the others (live only) where they were relative to their
// neighbours. When not merging parallel lists (combining two patches),
// the order list is also carried into original. The directive and the
// list are removed from the patch.
func mergePatchIntoOriginal(original, patch map[string]any, s Schema, mo mergeOptions) error {
	for _, key := range slices.Sorted(maps.Keys(patch)) {
		patchV, present := patch[key]
		if !present || !strings.HasPrefix(key, setElementOrderDirectivePrefix) {
			continue
		}
		if !mo.mergeParallelList {
			if inOriginal, ok := original[key]; ok {
				if !deepEqual(inOriginal, patchV) {
					return ErrBadPatchFormatForSetElementOrderList
				}
			} else {
				original[key] = patchV
			}
		}
		delete(patch, key)

		order, ok := patchV.([]any)
		if !ok {
			return errBadArgType(sliceType, patchV)
		}
		field, err := extractKey(key, setElementOrderDirectivePrefix)
		if err != nil {
			return err
		}
		originalList, foundOriginal := original[field]
		patchList, foundPatch := patch[field]
		var originalValue, patchValue []any
		if foundOriginal {
			if originalValue, ok = originalList.([]any); !ok {
				return errBadArgType(sliceType, originalList)
			}
		}
		if foundPatch {
			if patchValue, ok = patchList.([]any); !ok {
				return errBadArgType(sliceType, patchList)
			}
		}
		sub, meta, err := s.LookupSlice(field)
		if err != nil {
			return err
		}
		_, strategy, err := extractRetainKeysPatchStrategy(meta.Strategies)
		if err != nil {
			return err
		}
		if err := validatePatchWithSetOrderList(patchValue, order, meta.MergeKey); err != nil {
			return err
		}

		var merged []any
		switch {
		case foundOriginal && !foundPatch:
			merged = originalValue
		case !foundOriginal && foundPatch:
			v, _ := removeDirectives(patchValue)
			merged = v.([]any)
		case foundOriginal && foundPatch:
			merged, err = mergeSliceHandler(originalList, patchList, sub, strategy, meta.MergeKey, false, mo)
			if err != nil {
				return err
			}
		default:
			continue
		}

		var patchItems, serverOnly []any
		if meta.MergeKey == "" {
			patchItems, serverOnly = partitionPrimitivesByPresentInList(merged, order)
		} else if patchItems, serverOnly, err = partitionMapsByPresentInList(merged, order, meta.MergeKey); err != nil {
			return err
		}
		k, err := sliceElementType(originalValue, patchValue)
		if err != nil {
			return err
		}
		all, err := normalizeElementOrder(patchItems, serverOnly, order, originalValue, meta.MergeKey, k)
		if err != nil {
			return err
		}
		original[field] = all
		delete(patch, field)
	}
	return nil
}

// extractKey returns the field name after a directive prefix and a slash.
func extractKey(s, prefix string) (string, error) {
	parts := strings.SplitN(s, "/", 2)
	if len(parts) <= 1 || parts[0] != prefix {
		switch prefix {
		case deleteFromPrimitiveListDirectivePrefix:
			return "", ErrBadPatchFormatForPrimitiveList
		case setElementOrderDirectivePrefix:
			return "", ErrBadPatchFormatForSetElementOrderList
		}
		return "", fmt.Errorf("fail to find unknown prefix %q in %s", prefix, s)
	}
	return parts[1], nil
}

// validatePatchWithSetOrderList checks that the patch list's elements
// (deletions aside) appear in the order list, in the same relative order.
func validatePatchWithSetOrderList(patchList, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	nonDelete := patchList
	if mergeKey != "" {
		var err error
		if nonDelete, _, err = extractToDeleteItems(patchList); err != nil {
			return err
		}
	}
	pi, oi := 0, 0
	for pi < len(nonDelete) && oi < len(order) {
		if containsDirectiveMarker(nonDelete[pi]) {
			pi++
			continue
		}
		equal, err := mergeKeyValueEqual(nonDelete[pi], order[oi], mergeKey)
		if err != nil {
			return err
		}
		if equal {
			pi++
		}
		oi++
	}
	if pi < len(nonDelete) && oi >= len(order) {
		return fmt.Errorf("the order in patch list:\n%v\n doesn't match %s list:\n%v", patchList, setElementOrderDirectivePrefix, order)
	}
	return nil
}

// containsDirectiveMarker reports whether item is an object with $patch.
func containsDirectiveMarker(item any) bool {
	m, ok := item.(map[string]any)
	if !ok {
		return false
	}
	_, found := m[directiveMarker]
	return found
}

// partitionPrimitivesByPresentInList splits scalars into those in by and
// the others.
func partitionPrimitivesByPresentInList(list, by []any) (in, out []any) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	set := map[any]bool{}
	for _, v := range by {
		set[hashable(v)] = true
	}
	for _, v := range list {
		if set[hashable(v)] {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out
}

// partitionMapsByPresentInList splits objects into those whose merge key
// value is in by and the others.
func partitionMapsByPresentInList(list, by []any, mergeKey string) (in, out []any, err error) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		_, value, err := elementAndKey(v, mergeKey)
		if err != nil {
			return nil, nil, err
		}
		_, _, found, err := findMapInSliceBasedOnKeyValue(by, mergeKey, value)
		if err != nil {
			return nil, nil, err
		}
		if found {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out, nil
}

// normalizeElementOrder is upstream's normalizeElementOrder: the patch's
// elements sorted by patchOrder, the live-only elements by serverOrder,
// then the two interleaved by mergeSortedSlice.
func normalizeElementOrder(patch, serverOnly, patchOrder, serverOrder []any, mergeKey string, k kind) ([]any, error) {
	patch, err := normalizeSliceOrder(patch, patchOrder, mergeKey, k)
	if err != nil {
		return nil, err
	}
	serverOnly, err = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, k)
	if err != nil {
		return nil, err
	}
	return mergeSortedSlice(serverOnly, patch, serverOrder, mergeKey, k), nil
}

// mergeSortedSlice is upstream's mergeSortedSlice: it interleaves left
// (live-only elements) into right (patch elements), keeping the order
// within each; at each step the left element goes first only when both
// are in serverOrder and it comes earlier there.
func mergeSortedSlice(left, right, serverOrder []any, mergeKey string, k kind) []any {
	out := make([]any, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) || j < len(right) {
		switch {
		case i >= len(left):
			out = append(out, right[j])
			j++
		case j >= len(right):
			out = append(out, left[i])
			i++
		default:
			li := index(serverOrder, left[i], mergeKey, k)
			ri := index(serverOrder, right[j], mergeKey, k)
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, left[i])
				i++
			} else {
				out = append(out, right[j])
				j++
			}
		}
	}
	return out
}

// index is the position in l of the element matching v (by merge key
// value for objects, by value for scalars), or -1.
func index(l []any, v any, mergeKey string, k kind) int {
	get := func(item any) any { return item }
	if k == kindMap {
		get = func(item any) any {
			m, _ := item.(map[string]any)
			return m[mergeKey]
		}
	}
	want := get(v)
	for i, item := range l {
		if same(want, get(item)) {
			return i
		}
	}
	return -1
}

// normalizeSliceOrder is upstream's normalizeSliceOrder: a stable sort of
// toSort by the positions of its elements in order, with upstream's
// comparison (an element missing from order counts as smaller than
// anything), and, for objects, the $patch: delete elements moved to the
// end.
func normalizeSliceOrder(toSort, order []any, mergeKey string, k kind) ([]any, error) {
	var toDelete []any
	if k == kindMap {
		if err := validateMergeKeyInLists(mergeKey, toSort, order); err != nil {
			return nil, err
		}
		var err error
		if toSort, toDelete, err = extractToDeleteItems(toSort); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(toSort, func(i, j int) bool {
		if ii := index(order, toSort[i], mergeKey, k); ii >= 0 {
			if ij := index(order, toSort[j], mergeKey, k); ij >= 0 {
				return ii < ij
			}
		}
		return true
	})
	return append(toSort, toDelete...), nil
}

// validateMergeKeyInLists checks that every element is an object with the
// merge key.
func validateMergeKeyInLists(mergeKey string, lists ...[]any) error {
	for _, l := range lists {
		for _, item := range l {
			if _, _, err := elementAndKey(item, mergeKey); err != nil {
				return err
			}
		}
	}
	return nil
}

// extractToDeleteItems splits objects into those without $patch: delete
// and those with it.
func extractToDeleteItems(l []any) (keep, toDelete []any, err error) {
	for _, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(mapType, v)
		}
		if d, found := m[directiveMarker]; found && d == deleteDirective {
			toDelete = append(toDelete, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, toDelete, nil
}
