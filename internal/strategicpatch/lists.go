package strategicpatch

import (
	"errors"
	"fmt"
	"slices"
	"sort"
)

// diffLists is upstream's diffLists for a list with the merge strategy:
// the additions and changes, the deletions (a parallel list, for lists of
// scalars; $patch: delete elements at the end of the first list, for
// lists of objects) and the $setElementOrder list. A list that was empty
// is added whole, without an order list.
func diffLists(original, modified []any, s Schema, mergeKey string, o diffOptions) (patchList, deleteList, setOrderList []any, err error) {
	if len(original) == 0 {
		if len(modified) == 0 || o.ignoreChangesAndAdditions {
			return nil, nil, nil, nil
		}
		return modified, nil, nil, nil
	}
	k, err := sliceElementType(original, modified)
	if err != nil {
		return nil, nil, nil, err
	}
	switch k {
	case kindMap:
		patchList, deleteList, err = diffListsOfMaps(original, modified, s, mergeKey, o)
		if err != nil {
			return nil, nil, nil, err
		}
		patchList, err = normalizeSliceOrder(patchList, modified, mergeKey, k)
		if err != nil {
			return nil, nil, nil, err
		}
		orderSame, err := isOrderSame(original, modified, mergeKey)
		if err != nil {
			return nil, nil, nil, err
		}
		patchList = append(patchList, deleteList...)
		deleteList = nil
		if o.setElementOrder &&
			((!o.ignoreChangesAndAdditions && (len(patchList) > 0 || !orderSame)) ||
				(!o.ignoreDeletions && len(patchList) > 0)) {
			setOrderList = make([]any, len(modified))
			for i, v := range modified {
				setOrderList[i] = map[string]any{mergeKey: v.(map[string]any)[mergeKey]}
			}
		}
	case kindSlice:
		return nil, nil, nil, ErrNoListOfLists
	default:
		patchList, deleteList = diffListsOfScalars(original, modified, o)
		patchList, err = normalizeSliceOrder(patchList, modified, mergeKey, k)
		// diffListsOfScalars sorted original in place: an unchanged list
		// that is not in order still gets a $setElementOrder list, as
		// upstream's does.
		if o.setElementOrder && ((!o.ignoreDeletions && len(deleteList) > 0) ||
			(!o.ignoreChangesAndAdditions && !deepEqual(original, modified))) {
			setOrderList = modified
		}
	}
	return patchList, deleteList, setOrderList, err
}

// isOrderSame reports whether two lists hold the same merge keys in the
// same order.
func isOrderSame(original, modified []any, mergeKey string) (bool, error) {
	if len(original) != len(modified) {
		return false, nil
	}
	for i, m := range modified {
		equal, err := mergeKeyValueEqual(original[i], m, mergeKey)
		if err != nil || !equal {
			return equal, err
		}
	}
	return true, nil
}

// diffListsOfScalars is upstream's diffListsOfScalars: the scalars added
// and the scalars removed, found by walking both lists sorted by their %v
// text. It sorts original in place, as upstream does.
func diffListsOfScalars(original, modified []any, o diffOptions) (add, del []any) {
	modifiedSorted := sortScalars(slices.Clone(modified))
	originalSorted := sortScalars(original)
	add, del = []any{}, []any{}
	i, j := 0, 0
	for i < len(originalSorted) || j < len(modifiedSorted) {
		inO, inM := i < len(originalSorted), j < len(modifiedSorted)
		var os, ms string
		if inO {
			os = str(originalSorted[i])
		}
		if inM {
			ms = str(modifiedSorted[j])
		}
		switch {
		case inO && inM && os == ms:
			i++
			j++
		case !inO || (inM && os > ms):
			if !o.ignoreChangesAndAdditions {
				add = append(add, modifiedSorted[j])
			}
			j++
		default:
			if !o.ignoreDeletions {
				del = append(del, originalSorted[i])
			}
			i++
		}
	}
	return add, deduplicateScalars(del)
}

// diffListsOfMaps is upstream's diffListsOfMaps: both lists sorted by the
// %v text of their merge key values and walked together; an element on
// both sides is diffed (and kept with its merge key when it changed), one
// only in modified is added whole, one only in original gets a
// {mergeKey: value, $patch: delete} element in the deletion list.
func diffListsOfMaps(original, modified []any, s Schema, mergeKey string, o diffOptions) (patch, deletions []any, err error) {
	patch = make([]any, 0, len(modified))
	deletions = make([]any, 0, len(original))
	originalSorted := sortMapsBasedOnField(slices.Clone(original), mergeKey)
	modifiedSorted := sortMapsBasedOnField(slices.Clone(modified), mergeKey)
	i, j := 0, 0
	for i < len(originalSorted) || j < len(modifiedSorted) {
		inO, inM := i < len(originalSorted), j < len(modifiedSorted)
		var oe, me map[string]any
		var ov, mv any
		var os, ms string
		if inO {
			if oe, ov, err = elementAndKey(originalSorted[i], mergeKey); err != nil {
				return nil, nil, err
			}
			os = str(ov)
		}
		if inM {
			if me, mv, err = elementAndKey(modifiedSorted[j], mergeKey); err != nil {
				return nil, nil, err
			}
			ms = str(mv)
		}
		switch {
		case inO && inM && os == ms:
			value, err := diffMaps(oe, me, s, o)
			if err != nil {
				return nil, nil, err
			}
			if len(value) > 0 {
				value[mergeKey] = mv
				patch = append(patch, value)
			}
			i++
			j++
		case !inO || (inM && os > ms):
			if !o.ignoreChangesAndAdditions {
				patch = append(patch, me)
			}
			j++
		default:
			if !o.ignoreDeletions {
				deletions = append(deletions, map[string]any{mergeKey: ov, directiveMarker: deleteDirective})
			}
			i++
		}
	}
	return patch, deletions, nil
}

// elementAndKey returns a list element as an object, with its merge key
// value.
func elementAndKey(v any, mergeKey string) (map[string]any, any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, errBadArgType(mapType, v)
	}
	value, ok := m[mergeKey]
	if !ok {
		return nil, nil, errNoMergeKey(m, mergeKey)
	}
	return m, value, nil
}

// mergeKeyValueEqual compares two elements by merge key, or as scalars
// when there is no merge key.
func mergeKeyValueEqual(left, right any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return same(left, right), nil
	}
	l, ok := left.(map[string]any)
	if !ok {
		return false, errBadArgType(mapType, left)
	}
	r, ok := right.(map[string]any)
	if !ok {
		return false, errBadArgType(mapType, right)
	}
	lv, ok := l[mergeKey]
	if !ok {
		return false, errNoMergeKey(l, mergeKey)
	}
	rv, ok := r[mergeKey]
	if !ok {
		return false, errNoMergeKey(r, mergeKey)
	}
	return same(lv, rv), nil
}

// sliceElementType is upstream's sliceElementType: the one type of all
// the lists' elements, which must not be a list.
func sliceElementType(lists ...[]any) (kind, error) {
	first := true
	var k kind
	for _, l := range lists {
		for _, v := range l {
			c := kindOf(v)
			if first {
				if c == kindNull {
					// Upstream calls a method on a nil reflect.Type.
					panic(failure{errors.New("a list whose first element is null cannot be merged")})
				}
				if c == kindSlice {
					return 0, ErrNoListOfLists
				}
				k, first = c, false
				continue
			}
			if c != k {
				return 0, fmt.Errorf("list element types are not identical: %v", fmt.Sprint(lists))
			}
		}
	}
	if first {
		return 0, errors.New("no elements in any of the given slices")
	}
	return k, nil
}

// byText sorts values by their %v text, with upstream's comparison (a
// non-strict "less or equal"), so that sort.Sort moves equal elements as
// upstream's sort does.
type byText struct {
	s   []any
	key func(any) any
}

func (b byText) Len() int           { return len(b.s) }
func (b byText) Less(i, j int) bool { return str(b.key(b.s[i])) <= str(b.key(b.s[j])) }
func (b byText) Swap(i, j int)      { b.s[i], b.s[j] = b.s[j], b.s[i] }

// sortScalars sorts s in place by %v text and returns it.
func sortScalars(s []any) []any {
	sort.Sort(byText{s: s, key: func(v any) any { return v }})
	return s
}

// sortMapsBasedOnField sorts objects in place by the %v text of their
// field f (absent is nil) and returns them.
func sortMapsBasedOnField(s []any, f string) []any {
	sort.Sort(byText{s: s, key: func(v any) any { return v.(map[string]any)[f] }})
	return s
}

// deduplicateScalars drops repeated scalars in place, as upstream does:
// each duplicate is overwritten by the last element, so the order
// changes.
func deduplicateScalars(s []any) []any {
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if same(s[i], s[j]) {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

// deduplicateAndSortScalars deduplicates s, then sorts it, in place.
func deduplicateAndSortScalars(s []any) []any {
	return sortScalars(deduplicateScalars(s))
}
