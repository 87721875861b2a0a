// Package schema is rolloutmath's picture of the Kubernetes API types that
// a rollout involves: apps/v1 Deployment and ReplicaSet, core/v1 Pod, and
// the policy objects a rollout is checked against (ResourceQuota,
// LimitRange, policy/v1 PodDisruptionBudget, autoscaling/v2
// HorizontalPodAutoscaler), with every type they reach.
//
// The types, their strict JSON decoders, their canonical encoders, their
// go-spew renderings and the table [Structs] are generated from k8s.io/api
// v0.35.4, v0.36.3 and v0.37.2 (Kubernetes 1.35, 1.36 and 1.37) by
// internal/upstream/cmd/schemagen; a test there fails when they are stale.
// Each generated struct has the union of the fields that upstream's has in
// those minors, each minor's in its order and with the same JSON names,
// so that everything that depends on the Go layout (the pod-template-hash
// above all) can be reproduced from it. Named string types are plain
// strings here; the rendering for the hash writes upstream's type names.
//
// # Minors
//
// Every [StructInfo] and [FieldInfo] records in Minors the minors that
// have it (a [Minors] bit set). One decoder, encoder and renderer serve
// every minor: [DecodeOptions.Version] chooses the minor read, and a
// member that the minor does not have is an unknown field, named as any
// other; the renderings for the hash (SpewPodTemplateSpec, SpewText) take
// the minor and write its fields alone. The encoder and the stored form
// need no minor: a value decoded for a minor holds only its fields.
//
// The renderings test the minor field by field (a bit set per field, in
// the generated code) rather than being generated once per minor: the
// fields that differ are a few dozen of some 1,500, so one copy with a
// test on each of them keeps the generated code about as large as for one
// minor, where three copies would triple the largest file. Measured in
// valgrind instruction counts (GOGC=off, the 1.7 KB template of the
// side-by-side benchmarks), against the code for 1.36 alone:
// decoding 35,651 instructions against 35,661, hashing 11,814 against
// 11,747 (+0.6%); the generated files are 38,951 lines against 37,479.
//
// The hand-written parts are the API's special value types ([Quantity],
// [IntOrString], [Time], [FieldsV1]), the JSON reader and writer the
// generated code calls, and the entry points in this file.
package schema

import (
	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// Minors is a set of Kubernetes minors: bit v stands for the
// kubeversion.Version v. The generated code names the sets that types and
// fields have (AllMinors is every minor the schema models).
type Minors uint8

// MinorsOf returns the set holding v alone, Latest resolved to the newest
// minor; it is empty for a Version that is not Valid.
func MinorsOf(v kubeversion.Version) Minors {
	if !v.Valid() {
		return 0
	}
	return 1 << v.Resolve()
}

// Has reports whether v (Latest resolved to the newest minor) is in ms.
func (ms Minors) Has(v kubeversion.Version) bool { return ms&MinorsOf(v) != 0 }

// Kind is the shape of a field's value.
type Kind uint8

// The kinds of values.
const (
	KindString Kind = iota
	KindBool
	KindInt32
	KindInt64
	KindStruct
	KindPtr
	KindSlice
	KindMap
	KindQuantity
	KindIntOrString
	KindTime
	KindFieldsV1
)

// StructInfo describes an API struct type.
type StructInfo struct {
	Name     string // the name here, upstream's
	Upstream string // package path and name
	Spew     string // as go-spew prints the type
	Minors   Minors // the minors that have the type
	Fields   []FieldInfo
}

// FieldInfo describes a field, in Go order.
type FieldInfo struct {
	Go        string // the Go name; the type's for an embedded field
	JSON      string // the JSON name; "" when the field's members are inline
	Kind      Kind
	ElemKind  Kind // the kind behind a pointer, or of a list's or map's elements; Kind otherwise
	Elem      int  // the index in Structs of the struct type behind Kind or ElemKind, or -1
	OmitEmpty bool
	Embedded  bool
	Minors    Minors // the minors that have the field
	// Gates are the feature gates that guard the field (its +featureGate
	// markers), each in the minors whose marker names it.
	Gates []Gate

	// Strategic merge patch: the field's patchStrategy and patchMergeKey
	// struct tags.
	PatchStrategy string
	PatchMergeKey string
	// Server-side apply: the x-kubernetes-list-type, list-map-keys,
	// map-type and struct-type of the OpenAPI definition.
	ListType    string
	ListMapKeys []string
	MapType     string
	StructType  string
}

// Gate is a feature gate that guards a field in some minors.
type Gate struct {
	Name   string
	Minors Minors
}

// GatesIn returns the feature gates that guard the field in Kubernetes v
// (Latest is the newest minor), in the order of its markers; none for a
// field that v does not have.
func (f FieldInfo) GatesIn(v kubeversion.Version) []string {
	var out []string
	for _, g := range f.Gates {
		if g.Minors.Has(v) && f.Minors.Has(v) {
			out = append(out, g.Name)
		}
	}
	return out
}

// namesIn returns the JSON names of the type's members that the minors ms
// have, inline fields' included.
func (s *StructInfo) namesIn(ms Minors) []string {
	var out []string
	for _, f := range s.Fields {
		if f.Minors&ms == 0 {
			continue
		}
		if f.JSON == "" && f.Elem >= 0 {
			out = append(out, Structs[f.Elem].namesIn(ms)...)
			continue
		}
		out = append(out, f.JSON)
	}
	return out
}

// Member returns the field of s, or of one of its inline fields, whose
// JSON name is name.
func (s *StructInfo) Member(name string) (FieldInfo, bool) {
	for _, f := range s.Fields {
		if f.JSON == "" && f.Elem >= 0 {
			if m, ok := Structs[f.Elem].Member(name); ok {
				return m, true
			}
			continue
		}
		if f.JSON == name {
			return f, true
		}
	}
	return FieldInfo{}, false
}

// A Result is what decoding found besides the value: the errors that make
// the input unacceptable, and warnings for what lenient decoding dropped.
type Result struct {
	Errs     field.ErrorList
	Warnings []string
	// Malformed is true when the input is not well-formed JSON, exactly
	// when json.Valid reports false: the decoder reads every byte of it,
	// and one of Errs says where it stopped.
	Malformed bool
}

func (d *decoder) result() Result {
	return Result{Errs: d.errs, Warnings: d.warnings, Malformed: d.broken}
}

// DecodeDeployment reads an apps/v1 Deployment. path is where the object
// sits in its input ("" for the top level), for error messages.
func DecodeDeployment(data []byte, opts DecodeOptions) (*Deployment, Result) {
	d := newDecoder(data, opts)
	x := new(Deployment)
	d.decodeDeployment(x)
	d.finish()
	return x, d.result()
}

// DecodeReplicaSet reads an apps/v1 ReplicaSet.
func DecodeReplicaSet(data []byte, opts DecodeOptions) (*ReplicaSet, Result) {
	d := newDecoder(data, opts)
	x := new(ReplicaSet)
	d.decodeReplicaSet(x)
	d.finish()
	return x, d.result()
}

// DecodePod reads a core/v1 Pod.
func DecodePod(data []byte, opts DecodeOptions) (*Pod, Result) {
	d := newDecoder(data, opts)
	x := new(Pod)
	d.decodePod(x)
	d.finish()
	return x, d.result()
}

// DecodePodTemplateSpec reads a core/v1 PodTemplateSpec.
func DecodePodTemplateSpec(data []byte, opts DecodeOptions) (*PodTemplateSpec, Result) {
	d := newDecoder(data, opts)
	x := new(PodTemplateSpec)
	d.decodePodTemplateSpec(x)
	d.finish()
	return x, d.result()
}

// DecodePodSpec reads a core/v1 PodSpec.
func DecodePodSpec(data []byte, opts DecodeOptions) (*PodSpec, Result) {
	d := newDecoder(data, opts)
	x := new(PodSpec)
	d.decodePodSpec(x)
	d.finish()
	return x, d.result()
}

// Form chooses how quantities are written by the Append functions.
type Form bool

// The forms of the canonical encoding.
const (
	// Stored writes quantities as the API server stores them.
	Stored Form = false
	// Comparison writes quantities by value, so that bytes are equal
	// exactly when upstream's Semantic equality finds the values equal.
	Comparison Form = true
)

// AppendDeployment appends the canonical JSON of x.
func AppendDeployment(buf []byte, x *Deployment, f Form) []byte {
	e := encoder{buf: buf, cmp: bool(f)}
	e.encodeDeployment(x)
	return e.buf
}

// AppendReplicaSet appends the canonical JSON of x.
func AppendReplicaSet(buf []byte, x *ReplicaSet, f Form) []byte {
	e := encoder{buf: buf, cmp: bool(f)}
	e.encodeReplicaSet(x)
	return e.buf
}

// AppendPodTemplateSpec appends the canonical JSON of x.
func AppendPodTemplateSpec(buf []byte, x *PodTemplateSpec, f Form) []byte {
	e := encoder{buf: buf, cmp: bool(f)}
	e.encodePodTemplateSpec(x)
	return e.buf
}

// AppendPodSpec appends the canonical JSON of x.
func AppendPodSpec(buf []byte, x *PodSpec, f Form) []byte {
	e := encoder{buf: buf, cmp: bool(f)}
	e.encodePodSpec(x)
	return e.buf
}

// AppendObjectMeta appends the canonical JSON of x.
func AppendObjectMeta(buf []byte, x *ObjectMeta, f Form) []byte {
	e := encoder{buf: buf, cmp: bool(f)}
	e.encodeObjectMeta(x)
	return e.buf
}

// SpewPodTemplateSpec returns the FNV-1a state after h has read upstream's
// rendering of x for the pod-template-hash in Kubernetes v:
// fmt.Sprintf("%v", dump.ForHash(x)), x that minor's v1.PodTemplateSpec
// value, whose every field is written, nil ones included. The fields of x
// that v does not have are left out. A Version that is not Valid is
// rendered as the newest minor.
func SpewPodTemplateSpec(h hash.FNV32a, x *PodTemplateSpec, v kubeversion.Version) hash.FNV32a {
	return segmentTables(v).spewPodTemplateSpec(h, x)
}

// SpewText appends upstream's rendering of x for the pod-template-hash in
// Kubernetes v to buf, as text: what SpewPodTemplateSpec hashes.
func SpewText(buf []byte, x *PodTemplateSpec, v kubeversion.Version) []byte {
	w := spewer{text: &buf, minor: readMinor(v)}
	w.spewPodTemplateSpec(x)
	return buf
}

// StoredDeployment brings x to the form a stored object reads back in:
// empty lists and maps nil, quantities canonical (see [Quantity.Canonical]).
func StoredDeployment(x *Deployment) { x.stored() }

// StoredReplicaSet is [StoredDeployment] for a ReplicaSet.
func StoredReplicaSet(x *ReplicaSet) { x.stored() }

// StoredPod is [StoredDeployment] for a Pod.
func StoredPod(x *Pod) { x.stored() }

// StoredPodTemplateSpec is [StoredDeployment] for a pod template.
func StoredPodTemplateSpec(x *PodTemplateSpec) { x.stored() }

// SpewQuantityText returns upstream's hash rendering of a
// resource.Quantity value, as dump.ForHash(q) prints it (for tests).
func SpewQuantityText(q *Quantity) string {
	var buf []byte
	w := spewer{text: &buf}
	w.raw("(resource.Quantity)")
	w.quantity(q)
	return string(buf)
}
