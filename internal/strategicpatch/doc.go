// Package strategicpatch is kubectl apply's client-side merge and the API
// server's strategic merge patch, as k8s.io/apimachinery v0.36.3's
// pkg/util/strategicpatch computes and applies them and as kubectl
// v0.36.3 (pkg/cmd/apply, pkg/util) and the API server's patch handler
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go) use them. It depends
// on the standard library and the generated schema only.
//
// kubectl apply, when the object exists, computes a three-way patch from
// the last-applied configuration (the live object's
// kubectl.kubernetes.io/last-applied-configuration annotation), the new
// manifest (with that annotation set to itself) and the live object, and
// sends it unless it is "{}"; the API server applies it to the stored
// object, then decodes and defaults the result. [Apply] does both steps;
// [ModifiedConfiguration], [OriginalConfiguration],
// [CreateThreeWayMergePatch] and [StrategicMergePatch] are the parts.
// [CreatedObject] is what kubectl apply creates when there is no live
// object.
//
// # Fidelity
//
// The behaviour is upstream's, quirks included: list elements merge by
// their merge key alone (two ports with one containerPort are one port,
// kubernetes#39188); the Deployment strategy and the volume sources carry
// $retainKeys, so switching to Recreate clears rollingUpdate
// (kubernetes#24198); a field the last apply did not set is never
// deleted; an unchanged list of finalizers that is not sorted still gets
// a $setElementOrder list, and one reordered into sorted order keeps its
// old order (upstream compares the new list with the old one sorted in
// place); with overwrite false a patch that sorts a
// list in place while checking for conflicts returns it sorted; lists
// are changed in place where upstream changes them in place, which shows
// in the order of merged lists when the live list has repeats.
//
// Documents are held as upstream holds them (map[string]any, []any,
// string, bool, nil; int64 for a number written without '.' that fits,
// float64 otherwise) and written with encoding/json as upstream writes
// them, so outputs are byte-identical with upstream's: sorted keys, the
// same escapes, the same number forms. Numbers are therefore exact for
// integers and as exact as float64 for the others, as upstream's.
//
// Where upstream iterates a Go map and the order could matter, keys are
// visited in sorted order, so results are deterministic: for valid
// documents upstream's results do not depend on the order either; for a
// document with several faults upstream reports one of them at random
// and this package one of the same. Where upstream panics (comparing JSON
// objects as merge key values, a list whose first element is null) this
// package returns an error; the API server answers those requests with
// 500.
//
// Patch metadata comes from the generated table of the API types
// ([schema.Structs]): the patchStrategy and patchMergeKey struct tags, as
// upstream's PatchMetaFromStruct reads them (kubectl itself prefers the
// OpenAPI v3 document, whose extensions carry the same values for
// apps/v1). Member names match exactly, or else case-insensitively, as
// encoding/json matches them. Quantity, IntOrString, Time and FieldsV1
// are leaves: upstream would find their Go fields (IntOrString's intVal,
// ...) when a document writes one of them as an object, which no valid
// document does.
//
// # Mapping
//
//	this package                      upstream
//	Schema, ForStruct                 strategicpatch.PatchMetaFromStruct, NewPatchMetaFromStruct
//	Schema.LookupStruct, LookupSlice  LookupPatchMetadataForStruct, ...ForSlice (and forked encoding/json)
//	PatchMeta                         strategicpatch.PatchMeta
//	CreateThreeWayMergePatch          strategicpatch.CreateThreeWayMergePatch
//	CreateTwoWayMergePatch            strategicpatch.CreateTwoWayMergePatch
//	StrategicMergePatch               strategicpatch.StrategicMergePatch, StrategicMergeMapPatch
//	Precondition, RequireKeyUnchanged mergepatch.PreconditionFunc, RequireKeyUnchanged, ...
//	ConflictError                     mergepatch.ErrConflict
//	PreconditionFailedError           mergepatch.ErrPreconditionFailed
//	ErrBadJSONDoc, ErrNoListOfLists,  mergepatch.ErrBadJSONDoc, ... (the errors the API server
//	  ErrBadPatchFormatFor...           answers with 400 or 422)
//	ModifiedConfiguration             kubectl util.GetModifiedConfiguration(obj, true, UnstructuredJSONScheme),
//	                                    after the resource builder's SetNamespace
//	OriginalConfiguration             kubectl util.GetOriginalConfiguration
//	CreatedObject                     kubectl apply's create path: CreateApplyAnnotation, pruneNullsFromMap
//	Apply                             kubectl apply's Patcher.Patch (patchSimple) and the API server's
//	                                    smpPatcher.applyPatchToCurrentObject, up to decoding
//	diffMaps, handleMapDiff, ...      the unexported functions of the same names (diff.go, lists.go)
//	mergeMap, mergeSlice, ...         the same (merge.go); $setElementOrder handling in order.go
//	mergingMapsHaveConflicts          strategicpatch.MergingMapsHaveConflicts (conflicts.go)
//
// kubectl passes no preconditions for a strategic merge patch (it passes
// apiVersion, kind and metadata.name unchanged for JSON merge patches of
// kinds it has no Go type for).
package strategicpatch
