package strategicpatch

// A Precondition is mergepatch.PreconditionFunc: a check of a computed
// patch (decoded) that must hold, or the patch is refused with a
// [PreconditionFailedError]. kubectl apply passes none when it computes a
// strategic merge patch; for a JSON merge patch (kinds it has no Go type
// for) it passes RequireKeyUnchanged("apiVersion"),
// RequireKeyUnchanged("kind") and RequireMetadataKeyUnchanged("name").
type Precondition func(patch map[string]any) bool

// RequireKeyUnchanged is mergepatch.RequireKeyUnchanged: the patch must
// not set the top-level key.
func RequireKeyUnchanged(key string) Precondition {
	return func(patch map[string]any) bool {
		_, found := patch[key]
		return !found
	}
}

// RequireMetadataKeyUnchanged is mergepatch.RequireMetadataKeyUnchanged:
// the patch must not set metadata.<key>.
func RequireMetadataKeyUnchanged(key string) Precondition {
	return func(patch map[string]any) bool {
		metadata, ok := patch["metadata"].(map[string]any)
		if !ok {
			return true
		}
		_, found := metadata[key]
		return !found
	}
}

// decodeDocument reads one of CreateThreeWayMergePatch's documents: empty
// is an empty object.
func decodeDocument(data []byte) (map[string]any, error) {
	if len(data) == 0 {
		return map[string]any{}, nil
	}
	return decodeObject(data)
}

// CreateThreeWayMergePatch is upstream's strategicpatch.CreateThreeWayMergePatch,
// the patch kubectl apply sends: original is the last-applied
// configuration (empty when there is none), modified the new one (see
// [ModifiedConfiguration]), current the live object, s the schema of
// their type. The patch holds the changes and additions from current to
// modified, and the deletions from original to modified (fields only the
// last apply set and the manifest dropped): null for a field, $patch:
// delete for an element of a merged list, $deleteFromPrimitiveList for a
// scalar; with $setElementOrder lists for the merged lists it touches and
// $retainKeys for the retainKeys structs. Fields present only in the live
// object (defaults, other writers) are left alone.
//
// With overwrite false (kubectl apply --overwrite=false; the default is
// true), a patch that changes a field that also changed between original
// and current is refused with a [ConflictError]. Each precondition must
// hold for the patch. Documents are read and the patch is written as
// upstream's are (see the package documentation); the result is
// deterministic, and "{}" when there is nothing to change.
func CreateThreeWayMergePatch(original, modified, current []byte, s Schema, overwrite bool, preconditions ...Precondition) (patch []byte, err error) {
	defer recoverFailure(&err)
	originalMap, err := decodeDocument(original)
	if err != nil {
		return nil, err
	}
	modifiedMap, err := decodeDocument(modified)
	if err != nil {
		return nil, err
	}
	currentMap, err := decodeDocument(current)
	if err != nil {
		return nil, err
	}
	// The additions and changes from current to modified, applied as a
	// patch to the deletions from original to modified.
	delta, err := diffMaps(currentMap, modifiedMap, s, diffOptions{ignoreDeletions: true, setElementOrder: true})
	if err != nil {
		return nil, err
	}
	deletions, err := diffMaps(originalMap, modifiedMap, s, diffOptions{setElementOrder: true, ignoreChangesAndAdditions: true})
	if err != nil {
		return nil, err
	}
	patchMap, err := mergeMap(deletions, delta, s, mergeOptions{})
	if err != nil {
		return nil, err
	}
	for _, ok := range preconditions {
		if !ok(patchMap) {
			text, _ := marshal(patchMap)
			return nil, &PreconditionFailedError{Patch: string(text)}
		}
	}
	if !overwrite {
		changed, err := diffMaps(originalMap, currentMap, s, diffOptions{})
		if err != nil {
			return nil, err
		}
		conflict, err := mergingMapsHaveConflicts(patchMap, changed, s)
		if err != nil {
			return nil, err
		}
		if conflict {
			p, _ := marshal(patchMap)
			c, _ := marshal(changed)
			return nil, &ConflictError{Patch: string(p), Changed: string(c)}
		}
	}
	return marshal(patchMap)
}

// CreateTwoWayMergePatch is upstream's strategicpatch.CreateTwoWayMergePatch:
// the patch that turns original into modified (what kubectl edit, label,
// annotate and rollout restart send), with $setElementOrder lists.
func CreateTwoWayMergePatch(original, modified []byte, s Schema, preconditions ...Precondition) (patch []byte, err error) {
	defer recoverFailure(&err)
	originalMap, err := decodeDocument(original)
	if err != nil {
		return nil, err
	}
	modifiedMap, err := decodeDocument(modified)
	if err != nil {
		return nil, err
	}
	patchMap, err := diffMaps(originalMap, modifiedMap, s, diffOptions{setElementOrder: true})
	if err != nil {
		return nil, err
	}
	for _, ok := range preconditions {
		if !ok(patchMap) {
			text, _ := marshal(patchMap)
			return nil, &PreconditionFailedError{Patch: string(text)}
		}
	}
	return marshal(patchMap)
}

// StrategicMergePatch is upstream's strategicpatch.StrategicMergePatch
// (StrategicMergeMapPatch in the API server's patch handler): patch
// applied to original, both JSON objects, with every directive ($patch:
// replace, delete, merge; $retainKeys; $setElementOrder;
// $deleteFromPrimitiveList), lists merged by key where their field says
// so, and null deleting a field. Nulls that match nothing are dropped. A
// nil document is an empty object; an empty non-nil one is
// ErrBadJSONDoc, as upstream's.
//
// The API server applies the patch to the stored object converted to a
// map, which is what decoding the stored object's canonical JSON gives;
// then it decodes the result into the typed object and defaults it.
func StrategicMergePatch(original, patch []byte, s Schema) (result []byte, err error) {
	defer recoverFailure(&err)
	if original == nil {
		original = []byte("{}")
	}
	if patch == nil {
		patch = []byte("{}")
	}
	originalMap, err := decodeObject(original)
	if err != nil {
		return nil, err
	}
	patchMap, err := decodeObject(patch)
	if err != nil {
		return nil, err
	}
	merged, err := mergeMap(originalMap, patchMap, s, mergeOptions{mergeParallelList: true, ignoreUnmatchedNulls: true})
	if err != nil {
		return nil, err
	}
	return marshal(merged)
}
