package rollout

import (
	"bytes"
	"maps"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// PodTemplate is a pod template (core/v1 PodTemplateSpec): its labels and
// annotations, the rest of its metadata, and its spec. Decoding applies the
// API server's defaults and stores it as the server does.
type PodTemplate struct {
	Labels      map[string]string
	Annotations map[string]string
	// Meta is the template's metadata other than its labels and
	// annotations (a name, a namespace, finalizers...), which the API
	// server keeps and the controller compares and hashes. Most templates
	// have none, the zero TemplateMeta.
	Meta TemplateMeta
	Spec PodSpec
}

// TemplateMeta is the part of a pod template's metadata other than its
// labels and annotations. It is immutable; the zero TemplateMeta is none.
type TemplateMeta struct {
	m   *schema.ObjectMeta // labels and annotations nil; never modified
	key []byte             // the comparison form of m; nil for none
}

// newTemplateMeta wraps a template's metadata, without its labels and
// annotations; it takes ownership of m.
func newTemplateMeta(m *schema.ObjectMeta) TemplateMeta {
	m.Labels, m.Annotations = nil, nil
	key := schema.AppendObjectMeta(nil, m, schema.Comparison)
	if string(key) == "{}" {
		return TemplateMeta{}
	}
	kept := *m // not m, which may lie inside a larger object
	return TemplateMeta{m: &kept, key: key}
}

// IsZero reports whether there is no such metadata.
func (m TemplateMeta) IsZero() bool { return m.key == nil }

// Equal reports whether m and o are the same metadata.
func (m TemplateMeta) Equal(o TemplateMeta) bool { return bytes.Equal(m.key, o.key) }

// Same reports whether m and o are copies of one metadata value: the same
// decoding made both. Metadata that are the same are equal in every form
// (Equal, String and the pod-template-hash); metadata that are not the
// same may still be equal. The zero TemplateMeta is the same as itself
// only.
func (m TemplateMeta) Same(o TemplateMeta) bool { return m.m == o.m }

// String returns the metadata as JSON, {} for none.
func (m TemplateMeta) String() string {
	if m.m == nil {
		return "{}"
	}
	return string(schema.AppendObjectMeta(nil, m.m, schema.Stored))
}

// schema returns the full template metadata: m with these labels and
// annotations (nil when empty, as a stored object has them).
func (m TemplateMeta) schema(labels, annotations map[string]string) schema.ObjectMeta {
	var out schema.ObjectMeta
	if m.m != nil {
		out = *m.m
	}
	if len(labels) > 0 {
		out.Labels = labels
	}
	if len(annotations) > 0 {
		out.Annotations = annotations
	}
	return out
}

// templateFromSchema converts a stored-form template; it takes ownership of
// t.
func templateFromSchema(t *schema.PodTemplateSpec) PodTemplate {
	labels, annotations := t.Labels, t.Annotations
	// The template keeps a copy of the spec, not a pointer into t: t lies
	// inside a decoded Deployment or ReplicaSet, whose other fields
	// (metadata, status...) would stay in memory with the template.
	spec := new(schema.PodSpec)
	*spec = t.Spec
	return PodTemplate{
		Labels:      nilIfEmpty(labels),
		Annotations: nilIfEmpty(annotations),
		Meta:        newTemplateMeta(&t.ObjectMeta),
		Spec:        newPodSpec(spec),
	}
}

// schemaTemplate returns t as the schema's type; it shares t's contents,
// which the caller must not modify.
func (t PodTemplate) schemaTemplate() schema.PodTemplateSpec {
	return schema.PodTemplateSpec{ObjectMeta: t.Meta.schema(t.Labels, t.Annotations), Spec: *t.Spec.spec()}
}

// MarshalJSON encodes t as a core/v1 PodTemplateSpec, as the API server
// stores it.
func (t PodTemplate) MarshalJSON() ([]byte, error) {
	s := t.schemaTemplate()
	return schema.AppendPodTemplateSpec(nil, &s, schema.Stored), nil
}

// UnmarshalJSON decodes a core/v1 PodTemplateSpec strictly (see
// [ParsePodSpec]) and applies the API server's defaults to it.
func (t *PodTemplate) UnmarshalJSON(b []byte) error {
	v, res := schema.DecodePodTemplateSpec(b, schema.DecodeOptions{})
	if err := fieldErrors(res.Errs); err != nil {
		return err
	}
	apiserver.DefaultPodTemplateSpec(v, apiserver.FeatureGates{})
	*t = templateFromSchema(v)
	return nil
}

// DeepCopy returns a copy of t that shares no maps with it (its spec and
// metadata are immutable, and shared).
func (t PodTemplate) DeepCopy() PodTemplate { return t.clone() }

func (t PodTemplate) clone() PodTemplate {
	t.Labels = maps.Clone(t.Labels)
	t.Annotations = maps.Clone(t.Annotations)
	return t
}

// EqualIgnoreHash reports whether two pod templates are equal once the
// pod-template-hash label is ignored, as upstream's EqualIgnoreHash decides
// (R-EQ-1): labels and annotations as maps (nil equals empty), the rest of
// the metadata and the spec by upstream's semantic equality (quantities by
// value).
func EqualIgnoreHash(a, b PodTemplate) bool {
	// The specs first: templates that differ mostly differ there.
	return a.Spec.Equal(b.Spec) &&
		labelsEqualIgnoringHash(a.Labels, b.Labels) &&
		maps.Equal(a.Annotations, b.Annotations) &&
		a.Meta.Equal(b.Meta)
}

// labelsEqualIgnoringHash compares a and b as if neither had the
// pod-template-hash label.
func labelsEqualIgnoringHash(a, b map[string]string) bool {
	n := 0
	for k, v := range a {
		if k == PodTemplateHashLabel {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
		n++
	}
	nb := len(b)
	if _, ok := b[PodTemplateHashLabel]; ok {
		nb--
	}
	return n == nb
}

// templateHash is upstream's controller.ComputeHash of t: FNV-1a over the
// go-spew rendering of the v1 PodTemplateSpec (as the controller holds it,
// read from the API server), then the collision count, when it is set, as
// four little-endian bytes and four zero bytes; rendered by [hash.Encode].
// The rendering is that of Kubernetes v's types, whose every field is
// written, so that every minor gives another hash.
func templateHash(t PodTemplate, collisionCount OptionalInt32, v Version) string {
	s := t.schemaTemplate()
	h := schema.SpewPodTemplateSpec(hash.NewFNV32a(), &s, v)
	if collisionCount.Valid {
		h = h.WriteCollisionCount(collisionCount.Value)
	}
	return hash.Encode(uint32(h))
}
