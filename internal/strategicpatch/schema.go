package strategicpatch

import (
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Schema is the patch metadata of one Go type of the API: what upstream's
// PatchMetaFromStruct holds (a reflect.Type), read from the generated
// table [schema.Structs] instead of from struct tags. The zero Schema is
// not usable; build one with [ForStruct].
type Schema struct {
	kind     schema.Kind // the type's own kind
	elemKind schema.Kind // behind a pointer, or of a list's or map's elements
	elem     int         // the index in schema.Structs of the struct behind kind or elemKind, or -1
}

// PatchMeta is what a field's patchStrategy and patchMergeKey struct tags
// say, as upstream's PatchMeta: the strategies ("merge", "retainKeys",
// "replace", or none) and the key that identifies a list's elements.
type PatchMeta struct {
	Strategies []string
	MergeKey   string
}

// ForStruct returns the Schema of the struct type schema.Structs[index],
// as upstream's NewPatchMetaFromStruct does for a value of that type. For
// a Deployment: ForStruct(schema.StructIndex("Deployment")).
func ForStruct(index int) (Schema, error) {
	if index < 0 || index >= len(schema.Structs) {
		return Schema{}, fmt.Errorf("strategicpatch: no struct type at index %d of the schema (it has %d)", index, len(schema.Structs))
	}
	return Schema{kind: schema.KindStruct, elemKind: schema.KindStruct, elem: index}, nil
}

// fieldSchema is the Schema of a field's type.
func fieldSchema(f schema.FieldInfo) Schema {
	return Schema{kind: f.Kind, elemKind: f.ElemKind, elem: f.Elem}
}

// inner is the Schema of the type behind a pointer, or of a list's
// elements.
func (s Schema) inner() Schema {
	return Schema{kind: s.elemKind, elemKind: s.elemKind, elem: s.elem}
}

// opaque reports whether a kind is one of the API's special value types
// (Quantity, IntOrString, Time, FieldsV1): Go structs upstream, whose JSON
// form is a string, a number or a free-form object.
func opaque(k schema.Kind) bool {
	switch k {
	case schema.KindQuantity, schema.KindIntOrString, schema.KindTime, schema.KindFieldsV1:
		return true
	}
	return false
}

// goKind names a kind as reflect.Kind.String does, for error messages.
func goKind(k schema.Kind) string {
	switch k {
	case schema.KindString:
		return "string"
	case schema.KindBool:
		return "bool"
	case schema.KindInt32:
		return "int32"
	case schema.KindInt64:
		return "int64"
	case schema.KindPtr:
		return "ptr"
	case schema.KindSlice:
		return "slice"
	case schema.KindMap:
		return "map"
	}
	return "struct"
}

// opaqueName is the Go type name of a special value type.
func opaqueName(k schema.Kind) string {
	switch k {
	case schema.KindQuantity:
		return "Quantity"
	case schema.KindIntOrString:
		return "IntOrString"
	case schema.KindTime:
		return "Time"
	}
	return "FieldsV1"
}

// Name is the kind of the type, as upstream's PatchMetaFromStruct.Name.
func (s Schema) Name() string { return goKind(s.kind) }

// LookupStruct returns the Schema and the patch metadata of the member of
// s whose JSON name is key: upstream's LookupPatchMetadataForStruct (and
// the forked encoding/json lookup under it). A pointer is followed once.
// The match is exact, or else the first member, in Go order, whose name
// equals key under Unicode case folding, as encoding/json matches.
func (s Schema) LookupStruct(key string) (Schema, PatchMeta, error) {
	t := s
	if t.kind == schema.KindPtr {
		t = t.inner()
	}
	if opaque(t.kind) {
		// Upstream finds the Go fields of these structs (IntOrString's
		// type, intVal, strVal; Quantity's Format); no JSON form of the
		// API writes them, so they are treated as absent.
		return Schema{}, PatchMeta{}, fmt.Errorf("unable to find api field in struct %s for the json field %q", opaqueName(t.kind), key)
	}
	if t.kind != schema.KindStruct || t.elem < 0 {
		return Schema{}, PatchMeta{}, fmt.Errorf("merging an object in json but data type is not struct, instead is: %s", goKind(t.kind))
	}
	info := &schema.Structs[t.elem]
	f, ok := member(info, key)
	if !ok {
		return Schema{}, PatchMeta{}, fmt.Errorf("unable to find api field in struct %s for the json field %q", info.Name, key)
	}
	return fieldSchema(f), PatchMeta{Strategies: strings.Split(f.PatchStrategy, ","), MergeKey: f.PatchMergeKey}, nil
}

// LookupSlice returns the Schema of the elements of the list member key
// of s, and the member's patch metadata: upstream's
// LookupPatchMetadataForSlice. A pointer member stands for the type it
// points to.
func (s Schema) LookupSlice(key string) (Schema, PatchMeta, error) {
	sub, meta, err := s.LookupStruct(key)
	if err != nil {
		return Schema{}, PatchMeta{}, err
	}
	switch sub.kind {
	case schema.KindSlice, schema.KindPtr:
		return sub.inner(), meta, nil
	}
	return Schema{}, PatchMeta{}, fmt.Errorf("expected slice or array type, but got: %s", goKind(s.kind))
}

// member finds the field of info, or of its inline members, named key:
// exactly, or else the first whose name folds to key.
func member(info *schema.StructInfo, key string) (schema.FieldInfo, bool) {
	var folded schema.FieldInfo
	found := false
	var walk func(info *schema.StructInfo) bool
	walk = func(info *schema.StructInfo) bool {
		for _, f := range info.Fields {
			if f.JSON == "" && f.Elem >= 0 {
				if walk(&schema.Structs[f.Elem]) {
					return true
				}
				continue
			}
			if f.JSON == key {
				folded, found = f, true
				return true
			}
			if !found && strings.EqualFold(f.JSON, key) {
				folded, found = f, true
			}
		}
		return false
	}
	walk(info)
	return folded, found
}

// extractRetainKeysPatchStrategy splits a field's strategies into whether
// retainKeys is one of them and the other one: upstream's function of the
// same name.
func extractRetainKeysPatchStrategy(strategies []string) (bool, string, error) {
	switch len(strategies) {
	case 0:
		return false, "", nil
	case 1:
		if strategies[0] == retainKeysStrategy {
			return true, "", nil
		}
		return false, strategies[0], nil
	case 2:
		switch {
		case strategies[0] == retainKeysStrategy:
			return true, strategies[1], nil
		case strategies[1] == retainKeysStrategy:
			return true, strategies[0], nil
		}
	}
	return false, "", fmt.Errorf("unexpected patch strategy: %v", strategies)
}
