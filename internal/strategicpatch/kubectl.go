package strategicpatch

import "slices"

// LastAppliedAnnotation is the annotation in which kubectl apply keeps the
// configuration it last applied (core/v1 LastAppliedConfigAnnotation).
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// ModifiedConfiguration is the "modified" document of kubectl apply: the
// manifest as kubectl holds it (its resource builder's map, with
// metadata.namespace set to namespace when the manifest has none), with
// the last-applied annotation set to the manifest's own JSON without that
// annotation, as kubectl's util.GetModifiedConfiguration(obj, true,
// unstructured.UnstructuredJSONScheme) writes it. Byte for byte: keys
// sorted, HTML characters escaped, a newline at the end of the annotation
// value and of the document; metadata.annotations is written even when
// the manifest has none ("annotations":{}); a null annotation value
// becomes ""; annotations that are not all strings are dropped.
//
// namespace is the namespace kubectl falls back to (the context's, or
// --namespace); pass "" to leave metadata.namespace as it is (kubectl
// does so for cluster-scoped kinds). manifest is JSON, as kubectl's
// builder makes it from YAML (sigs.k8s.io/yaml).
func ModifiedConfiguration(manifest []byte, namespace string) ([]byte, error) {
	obj, err := manifestObject(manifest, namespace)
	if err != nil {
		return nil, err
	}
	return modifiedConfiguration(obj, true)
}

// OriginalConfiguration is the "original" document of kubectl apply:
// kubectl's util.GetOriginalConfiguration, the live object's last-applied
// annotation, or nil when it has none.
func OriginalConfiguration(live []byte) ([]byte, error) {
	obj, err := decodeObject(live)
	if err != nil {
		return nil, err
	}
	value, ok := annotations(obj)[LastAppliedAnnotation]
	if !ok {
		return nil, nil
	}
	return []byte(value), nil
}

// CreatedObject is the object kubectl apply creates when no live object
// exists: the manifest (with namespace as in [ModifiedConfiguration]) with
// the last-applied annotation set to the same value an update would set,
// and null fields removed (kubectl's pruneNullsFromMap; nulls inside
// lists stay).
func CreatedObject(manifest []byte, namespace string) ([]byte, error) {
	obj, err := manifestObject(manifest, namespace)
	if err != nil {
		return nil, err
	}
	// kubectl computes the modified configuration first, which leaves the
	// annotation at its previous value ("" when there was none), then
	// util.CreateApplyAnnotation sets it.
	if _, err := modifiedConfiguration(obj, true); err != nil {
		return nil, err
	}
	value, err := modifiedConfiguration(obj, false)
	if err != nil {
		return nil, err
	}
	a := annotations(obj)
	if a == nil {
		a = map[string]string{}
	}
	a[LastAppliedAnnotation] = string(value)
	setAnnotations(obj, a)
	discardNullValuesFromPatch(obj) // kubectl's pruneNullsFromMap does the same
	return marshal(obj)
}

// Applied is what kubectl apply does to a live object.
type Applied struct {
	// Patch is the strategic merge patch kubectl computes; "{}" when it
	// sends none.
	Patch []byte
	// Object is the object the API server's patch handler makes, before
	// it decodes and defaults it: the live object patched, or the live
	// object unchanged when the patch is "{}".
	Object []byte
}

// Apply is kubectl apply (client-side, the default) of a manifest onto
// the live object it names, as kubectl's Patcher.Patch and the API
// server's patch handler do it: original from the live object's
// last-applied annotation, modified from the manifest, the three-way
// patch (with overwrite as --overwrite, true by default) and, unless it
// is "{}", the patch applied to the live object. live must be the object
// as the API server stores it (its canonical JSON).
func Apply(live, manifest []byte, namespace string, s Schema, overwrite bool) (Applied, error) {
	modified, err := ModifiedConfiguration(manifest, namespace)
	if err != nil {
		return Applied{}, err
	}
	original, err := OriginalConfiguration(live)
	if err != nil {
		return Applied{}, err
	}
	patch, err := CreateThreeWayMergePatch(original, modified, live, s, overwrite)
	if err != nil {
		return Applied{}, err
	}
	if string(patch) == "{}" {
		return Applied{Patch: patch, Object: slices.Clone(live)}, nil
	}
	object, err := StrategicMergePatch(live, patch, s)
	if err != nil {
		return Applied{}, err
	}
	return Applied{Patch: patch, Object: object}, nil
}

// manifestObject decodes a manifest and gives it kubectl's default
// namespace (the resource builder's SetNamespace visitor).
func manifestObject(manifest []byte, namespace string) (map[string]any, error) {
	obj, err := decodeObject(manifest)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, ErrBadJSONDoc
	}
	if ns, _ := metadata(obj)["namespace"].(string); ns == "" && namespace != "" {
		setMetadataField(obj, "namespace", namespace)
	}
	return obj, nil
}

// modifiedConfiguration is kubectl's util.GetModifiedConfiguration on an
// unstructured object, including what it leaves in obj: the annotations
// rewritten, the last-applied one set to its previous value ("" when it
// had none).
func modifiedConfiguration(obj map[string]any, annotate bool) ([]byte, error) {
	a := annotations(obj)
	if a == nil {
		a = map[string]string{}
	}
	previous := a[LastAppliedAnnotation]
	delete(a, LastAppliedAnnotation)
	setAnnotations(obj, a)
	modified, err := encode(obj)
	if err != nil {
		return nil, err
	}
	if annotate {
		a[LastAppliedAnnotation] = string(modified)
		setAnnotations(obj, a)
		if modified, err = encode(obj); err != nil {
			return nil, err
		}
	}
	a[LastAppliedAnnotation] = previous
	setAnnotations(obj, a)
	return modified, nil
}

// encode is unstructured.UnstructuredJSONScheme's encoding of an object:
// encoding/json's Encoder, which ends the document with a newline.
func encode(obj map[string]any) ([]byte, error) {
	b, err := marshal(obj)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// metadata is obj's metadata object, or nil.
func metadata(obj map[string]any) map[string]any {
	m, _ := obj["metadata"].(map[string]any)
	return m
}

// annotations is Unstructured.GetAnnotations: nil when absent, null or
// not an object of strings; null values read as "".
func annotations(obj map[string]any) map[string]string {
	raw, ok := metadata(obj)["annotations"].(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		switch t := v.(type) {
		case string:
			out[k] = t
		case nil:
			out[k] = ""
		default:
			return nil
		}
	}
	return out
}

// setAnnotations is Unstructured.SetAnnotations with a non-nil map.
func setAnnotations(obj map[string]any, a map[string]string) {
	m := make(map[string]any, len(a))
	for k, v := range a {
		m[k] = v
	}
	setMetadataField(obj, "annotations", m)
}

// setMetadataField sets metadata.<key>, creating metadata when absent and
// doing nothing when it is not an object, as unstructured's setters do.
func setMetadataField(obj map[string]any, key string, value any) {
	raw, found := obj["metadata"]
	if !found {
		raw = map[string]any{}
		obj["metadata"] = raw
	}
	if m, ok := raw.(map[string]any); ok {
		m[key] = value
	}
}
