// Package schemagen builds rolloutmath's picture of the Kubernetes API types
// from the real ones and writes the generated files of the main module's
// internal/schema package.
//
// # One model across minors
//
// Each supported minor's model is built by reflection from that minor's
// k8s.io/api (and the OpenAPI definitions of k8s.io/kubernetes of the same
// patch, for list types): [Upstream], run under the minor's module file
// (go.mod is 1.36, go.v135.mod 1.35, go.v137.mod 1.37), writes it as JSON
// to testdata/models ([Model.Dump]; cmd/schemagen -dump). [Merge] then
// makes one model of all of them: the union of their types and fields,
// each recording in Minors the minors that have it, in an order that,
// filtered to one minor's fields, is that minor's order. The generated
// code is one set of structs, decoders, encoders and renderings for every
// minor: the decoder refuses a member that the minor it reads does not
// have as an unknown field, and the rendering for the pod-template-hash
// writes only the minor's fields (see the schema package).
//
// The merge refuses what one model cannot say: a field whose type, JSON
// name or options change between minors, a field that moves, and a change
// of merge metadata (patch strategy, list type and keys) that
// metadataChanges does not list.
//
// # Adding a minor
//
//  1. Add it to internal/kubeversion (its constant and patch).
//  2. Write its module file: copy go.mod to go.v1N.mod, replace every
//     v0.36.x by v0.N.p and k8s.io/kubernetes v1.36.x by v1.N.p, set
//     k8s.io/kube-openapi to the version k8s.io/kubernetes v1.N.p
//     requires, and run go mod tidy -modfile=go.v1N.mod.
//  3. go run -modfile=go.v1N.mod ./cmd/schemagen -dump, then
//     go run ./cmd/schemagen. If the merge fails, the error names the
//     field: a changed type needs a rule here (none has been needed for
//     1.35 to 1.37), a metadata change an entry in metadataChanges.
//  4. go run -modfile=go.v1N.mod ./cmd/hashvectors for the hash vectors
//     of the new minor, which package schema's tests replay.
//  5. The rules that differ in other packages (gates and their defaults,
//     validation, dropping, the controller): see internal/apiserver.
//
// A minor is removed by deleting its model and its module file and
// running the generator.
//
// Kubernetes 1.38 (in beta as this is written) requires Go 1.27: its
// module file's go directive says so, and every command under it runs
// with GOTOOLCHAIN=go1.27.3 (which the module proxy serves) until the
// project's Go is 1.27. A set of minors is a uint8 with a bit per
// kubeversion.Version, so the schema holds minors up to the seventh after
// Latest; past that, Minors needs a wider type.
package schemagen

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// Kind is the shape of a value in the schema.
type Kind int

// The kinds. KQuantity, KIntOrString, KTime and KFieldsV1 are the API's
// special types, written by hand in the schema package.
const (
	KString Kind = iota
	KBool
	KInt32
	KInt64
	KStruct
	KPtr
	KSlice
	KMap
	KQuantity
	KIntOrString
	KTime
	KFieldsV1
)

var kindNames = [...]string{"String", "Bool", "Int32", "Int64", "Struct", "Ptr", "Slice", "Map", "Quantity", "IntOrString", "Time", "FieldsV1"}

func (k Kind) String() string { return kindNames[k] }

// Type is the type of a field or of a collection's element.
type Type struct {
	Kind   Kind
	Spew   string  // the type as go-spew prints it: reflect's Type.String()
	Elem   *Type   // KPtr, KSlice, KMap
	Struct *Struct // KStruct
}

// GoType is the type as the schema package declares it.
func (t *Type) GoType() string {
	switch t.Kind {
	case KString:
		return "string"
	case KBool:
		return "bool"
	case KInt32:
		return "int32"
	case KInt64:
		return "int64"
	case KStruct:
		return t.Struct.Name
	case KPtr:
		return "*" + t.Elem.GoType()
	case KSlice:
		return "[]" + t.Elem.GoType()
	case KMap:
		if t.IsResourceList() {
			return "ResourceList"
		}
		return "map[string]" + t.Elem.GoType()
	default:
		return t.Kind.String()
	}
}

// IsResourceList reports whether t is a map of quantities: upstream's
// v1.ResourceList (or, once, a map[v1.ResourceName]resource.Quantity),
// which the schema package holds as a sorted list of entries, its
// hand-written ResourceList, rather than as a map.
func (t *Type) IsResourceList() bool { return t.Kind == KMap && t.Elem.Kind == KQuantity }

// Struct is an API struct type.
type Struct struct {
	Name     string // the name in the schema package, upstream's
	Upstream string // package path and name, as k8s.io/api/core/v1.Container
	Spew     string // as go-spew prints it, as v1.Container
	Model    string // the OpenAPI model name, as io.k8s.api.core.v1.Container
	Fields   []*Field
	Minors   Minors // the minors that have the type (merged models only)
}

// Field is a field of a KStruct, in Go order.
type Field struct {
	Go        string // the Go name; the type's name for an embedded field
	JSON      string // the JSON name; "" for an inline field
	OmitEmpty bool
	Embedded  bool // a Go embedded field (inline or not)
	Type      *Type

	// Strategic-merge metadata from the struct tags, which kubectl and the
	// API server read for client-side apply.
	PatchStrategy string
	PatchMergeKey string
	// Server-side apply metadata from the OpenAPI definitions.
	ListType    string
	ListMapKeys []string
	MapType     string
	StructType  string

	// Gates are the feature gates that the field's +featureGate markers
	// name; in a merged model, each with the minors whose marker names it.
	Gates []Gate

	// Minors are the minors that have the field (merged models only).
	Minors Minors
}

// Gate is a feature gate that guards a field, in Minors (merged models
// only).
type Gate struct {
	Name   string
	Minors Minors
}

// Inline reports whether the field's JSON members are its parent's.
func (f *Field) Inline() bool { return f.JSON == "" }

// Model is every struct type reachable from the roots, in the order first
// reached (depth first, fields in Go order).
type Model struct {
	Roots   []*Struct
	Structs []*Struct
	// Minors and APIs are, in a merged model, the minors it holds and the
	// k8s.io/api versions they come from, oldest first; both are empty in
	// the model of one minor.
	Minors  Minors
	APIs    []string
	byType  map[reflect.Type]*Struct
	openapi map[string]common.OpenAPIDefinition
	markers map[string]map[string][]string // by package directory, "Type.Field": the gates
}

// special maps the API's hand-written value types to their kinds.
var special = map[string]Kind{
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   KQuantity,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": KIntOrString,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       KTime,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":   KFieldsV1,
}

// Build walks the roots' types. defs are the OpenAPI definitions, keyed by
// model name.
func Build(defs map[string]common.OpenAPIDefinition, roots ...reflect.Type) (*Model, error) {
	m := &Model{byType: map[reflect.Type]*Struct{}, openapi: defs, markers: map[string]map[string][]string{}}
	names := map[string]string{}
	for _, r := range roots {
		s, err := m.structOf(r)
		if err != nil {
			return nil, err
		}
		m.Roots = append(m.Roots, s)
	}
	for _, s := range m.Structs {
		if prev, ok := names[s.Name]; ok {
			return nil, fmt.Errorf("schemagen: %s and %s have the same name", prev, s.Upstream)
		}
		names[s.Name] = s.Upstream
	}
	return m, nil
}

func (m *Model) structOf(t reflect.Type) (*Struct, error) {
	if s, ok := m.byType[t]; ok {
		return s, nil
	}
	s := &Struct{Name: t.Name(), Upstream: t.PkgPath() + "." + t.Name(), Spew: t.String()}
	if mn, ok := reflect.New(t).Elem().Interface().(interface{ OpenAPIModelName() string }); ok {
		s.Model = mn.OpenAPIModelName()
	}
	m.byType[t] = s
	m.Structs = append(m.Structs, s)
	var props map[string]spec.Schema
	if def, ok := m.openapi[s.Model]; ok {
		props = def.Schema.Properties
	}
	gates, err := m.gates(t)
	if err != nil {
		return nil, err
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			return nil, fmt.Errorf("schemagen: %s.%s is unexported", s.Upstream, sf.Name)
		}
		tag := sf.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			return nil, fmt.Errorf("schemagen: %s.%s is not serialized", s.Upstream, sf.Name)
		}
		f := &Field{
			Go:            sf.Name,
			JSON:          name,
			OmitEmpty:     slices.Contains(strings.Split(opts, ","), "omitempty"),
			Embedded:      sf.Anonymous,
			PatchStrategy: sf.Tag.Get("patchStrategy"),
			PatchMergeKey: sf.Tag.Get("patchMergeKey"),
		}
		for _, g := range gates[t.Name()+"."+sf.Name] {
			f.Gates = append(f.Gates, Gate{Name: g})
		}
		// An embedded field without a JSON name is inline: k8s.io/api up
		// to v0.36 tags such fields ",inline", v0.37 leaves the name empty
		// (encoding/json inlines both).
		if name == "" && !sf.Anonymous {
			return nil, fmt.Errorf("schemagen: %s.%s has no JSON name", s.Upstream, sf.Name)
		}
		if p, ok := props[name]; ok && name != "" {
			f.ListType = ext(p, "x-kubernetes-list-type")
			f.MapType = ext(p, "x-kubernetes-map-type")
			f.StructType = ext(p, "x-kubernetes-struct-type")
			if keys, ok := p.Extensions["x-kubernetes-list-map-keys"].([]any); ok {
				for _, k := range keys {
					f.ListMapKeys = append(f.ListMapKeys, fmt.Sprint(k))
				}
			}
		}
		ft, err := m.typeOf(sf.Type)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", s.Upstream, sf.Name, err)
		}
		f.Type = ft
		s.Fields = append(s.Fields, f)
	}
	return s, nil
}

func ext(p spec.Schema, key string) string {
	v, _ := p.Extensions[key].(string)
	return v
}

func (m *Model) typeOf(t reflect.Type) (*Type, error) {
	ty := &Type{Spew: t.String()}
	if k, ok := special[t.PkgPath()+"."+t.Name()]; ok {
		ty.Kind = k
		return ty, nil
	}
	var err error
	switch t.Kind() {
	case reflect.String:
		ty.Kind = KString
	case reflect.Bool:
		ty.Kind = KBool
	case reflect.Int32:
		ty.Kind = KInt32
	case reflect.Int64:
		ty.Kind = KInt64
	case reflect.Struct:
		ty.Kind = KStruct
		ty.Struct, err = m.structOf(t)
	case reflect.Pointer:
		ty.Kind = KPtr
		ty.Elem, err = m.typeOf(t.Elem())
		if err == nil && (ty.Elem.Kind == KPtr || ty.Elem.Kind == KSlice || ty.Elem.Kind == KMap) {
			err = fmt.Errorf("pointer to %s is not supported", ty.Elem.Kind)
		}
	case reflect.Slice:
		ty.Kind = KSlice
		ty.Elem, err = m.typeOf(t.Elem())
		if err == nil && ty.Elem.Kind == KPtr {
			err = fmt.Errorf("slice of pointers is not supported")
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key %s is not a string", t.Key())
		}
		ty.Kind = KMap
		ty.Elem, err = m.typeOf(t.Elem())
		if err == nil && (ty.Elem.Kind == KPtr || ty.Elem.Kind == KSlice || ty.Elem.Kind == KMap) {
			err = fmt.Errorf("map of %s is not supported", ty.Elem.Kind)
		}
	default:
		return nil, fmt.Errorf("type %s (%s) is not supported", t, t.Kind())
	}
	return ty, err
}

// jsonFields returns the JSON members of s: its fields with inline ones
// replaced by their members, each with the Go selector that reaches it from
// s and the minors that have it (those of every field on the way), sorted
// by JSON name.
func (s *Struct) jsonFields() []member {
	var out []member
	var walk func(st *Struct, sel string, ms Minors)
	walk = func(st *Struct, sel string, ms Minors) {
		for _, f := range st.Fields {
			if f.Inline() {
				walk(f.Type.Struct, sel+f.Go+".", ms&f.Minors)
				continue
			}
			out = append(out, member{Field: f, Sel: sel + f.Go, Minors: ms & f.Minors})
		}
	}
	walk(s, "", s.Minors)
	slices.SortFunc(out, func(a, b member) int { return strings.Compare(a.JSON, b.JSON) })
	return out
}

type member struct {
	*Field
	Sel    string // the Go selector from the outer struct, as ProbeHandler.HTTPGet
	Minors Minors // the minors that have the member: the field's and its parents'
}
