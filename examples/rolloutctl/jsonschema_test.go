package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// A minimal JSON Schema (draft-04) validator: the keywords that the SARIF
// 2.1.0 schema (testdata/sarif-schema-2.1.0.json, from OASIS) uses, and
// no other. A schema with a keyword it does not know is an error, so that
// no constraint is skipped silently. The project allows no third-party
// validator.

// schemaKeywords are the keywords the validator applies; annotations are
// those it reads past.
var (
	schemaKeywords = []string{"type", "properties", "additionalProperties", "required", "enum", "items", "$ref",
		"minItems", "minimum", "maximum", "uniqueItems", "pattern", "anyOf", "oneOf", "format"}
	schemaAnnotations = []string{"description", "default", "title", "$schema", "id", "definitions"}
)

// jsonSchema validates documents against a schema document.
type jsonSchema struct {
	root map[string]any
}

// decodeJSON decodes JSON with numbers kept exact.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func newJSONSchema(b []byte) (*jsonSchema, error) {
	v, err := decodeJSON(b)
	if err != nil {
		return nil, err
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema is not an object")
	}
	return &jsonSchema{root: root}, nil
}

// validate returns every violation of the schema in doc, each with its
// JSON path.
func (s *jsonSchema) validate(doc any) []string {
	var errs []string
	s.check(s.root, doc, "$", &errs)
	return errs
}

func (s *jsonSchema) check(sch map[string]any, v any, path string, errs *[]string) {
	fail := func(format string, args ...any) { *errs = append(*errs, path+": "+fmt.Sprintf(format, args...)) }
	for k := range sch {
		if !slices.Contains(schemaKeywords, k) && !slices.Contains(schemaAnnotations, k) {
			fail("schema keyword %q is not supported by this validator", k)
		}
	}
	if ref, ok := sch["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/definitions/")
		def, _ := s.root["definitions"].(map[string]any)[name].(map[string]any)
		if !found || def == nil {
			fail("unresolved $ref %q", ref)
			return
		}
		s.check(def, v, path, errs)
	}
	if t, ok := sch["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		if !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
			fail("%s, want %s", typeOf(v), strings.Join(types, " or "))
			return
		}
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return equalJSON(e, v) }) {
		fail("%v is not one of %v", v, enum)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alts, ok := sch[key].([]any)
		if !ok {
			continue
		}
		n := 0
		for _, alt := range alts {
			var sub []string
			s.check(alt.(map[string]any), v, path, &sub)
			if len(sub) == 0 {
				n++
			}
		}
		if n == 0 || key == "oneOf" && n > 1 {
			fail("matches %d of the %s alternatives", n, key)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		s.checkObject(sch, v, path, errs)
	case []any:
		if min, ok := sch["minItems"].(json.Number); ok && int64(len(v)) < mustInt(min) {
			fail("%d items, want at least %s", len(v), min)
		}
		if unique, _ := sch["uniqueItems"].(bool); unique {
			for i := range v {
				for j := range i {
					if equalJSON(v[i], v[j]) {
						fail("items %d and %d are equal", j, i)
					}
				}
			}
		}
		if items, ok := sch["items"].(map[string]any); ok {
			for i, x := range v {
				s.check(items, x, fmt.Sprintf("%s[%d]", path, i), errs)
			}
		}
	case json.Number:
		n, _ := new(big.Rat).SetString(v.String())
		if min, ok := sch["minimum"].(json.Number); ok {
			if m, _ := new(big.Rat).SetString(min.String()); n.Cmp(m) < 0 {
				fail("%s is below the minimum %s", v, min)
			}
		}
		if max, ok := sch["maximum"].(json.Number); ok {
			if m, _ := new(big.Rat).SetString(max.String()); n.Cmp(m) > 0 {
				fail("%s is above the maximum %s", v, max)
			}
		}
	case string:
		if p, ok := sch["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			fail("%q does not match %s", v, p)
		}
		if f, ok := sch["format"].(string); ok {
			if msg := formatProblem(f, v); msg != "" {
				fail("%q is not a %s: %s", v, f, msg)
			}
		}
	}
}

func (s *jsonSchema) checkObject(sch map[string]any, v map[string]any, path string, errs *[]string) {
	props, _ := sch["properties"].(map[string]any)
	if req, ok := sch["required"].([]any); ok {
		for _, r := range req {
			if _, ok := v[r.(string)]; !ok {
				*errs = append(*errs, fmt.Sprintf("%s: required property %q missing", path, r))
			}
		}
	}
	for k, x := range v {
		if p, ok := props[k].(map[string]any); ok {
			s.check(p, x, path+"."+k, errs)
			continue
		}
		switch add := sch["additionalProperties"].(type) {
		case bool:
			if !add {
				*errs = append(*errs, fmt.Sprintf("%s: property %q is not allowed", path, k))
			}
		case map[string]any:
			s.check(add, x, path+"."+k, errs)
		}
	}
}

// hasType reports whether v is of the JSON schema type t.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	case json.Number:
		_, err := v.Int64()
		return t == "number" || t == "integer" && err == nil
	}
	return false
}

func typeOf(v any) string {
	for _, t := range []string{"null", "boolean", "string", "array", "object", "integer", "number"} {
		if hasType(v, t) {
			return t
		}
	}
	return fmt.Sprintf("%T", v)
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func mustInt(n json.Number) int64 {
	i, _ := n.Int64()
	return i
}

// formatProblem checks the formats the SARIF schema uses.
func formatProblem(format, v string) string {
	switch format {
	case "uri":
		u, err := url.Parse(v)
		if err != nil {
			return err.Error()
		}
		if !u.IsAbs() {
			return "not absolute"
		}
	case "uri-reference":
		if strings.ContainsAny(v, " \\<>\"{}|^`") {
			return "has characters a URI may not hold"
		}
		if _, err := url.Parse(v); err != nil {
			return err.Error()
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			return err.Error()
		}
	default:
		return "format not supported by this validator"
	}
	return ""
}
