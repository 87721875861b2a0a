package main

import (
	"bytes"
	"encoding/json"
	"strconv"

	yamlv2 "go.yaml.in/yaml/v2"
)

// toYAML is v's JSON converted to YAML as kubectl -o yaml converts it
// (sigs.k8s.io/yaml's JSONToYAML), a third faster. JSONToYAML reads the
// JSON with the YAML decoder, to tell integers from other numbers, and
// writes the value it gets with the YAML encoder (go.yaml.in/yaml/v2);
// toYAML reads it with encoding/json instead, taking each number as the
// YAML decoder takes its text (jsonAsYAML), and hands the value to the
// same encoder. The bytes are JSONToYAML's wherever those read back as
// the JSON; where they do not, as the YAML decoder refuses a control
// character (DEL) or reads a raw NEL (U+0085) as a line break in the
// JSON text, toYAML's still do, the character escaped
// (TestToYAMLAsJSONToYAML).
func toYAML(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var tree any
	if err := d.Decode(&tree); err != nil {
		return nil, err
	}
	return yamlv2.Marshal(jsonAsYAML(tree))
}

// jsonAsYAML replaces, in a value encoding/json decoded with UseNumber,
// each number by what the YAML decoder makes of its text: an int where it
// is an integer that fits one, a uint64 where it fits that, else a
// float64 (encoding/json writes integers in base 10 only, so parsing in
// base 10 is the decoder's base 0). It changes the maps and slices of v
// in place and returns v.
func jsonAsYAML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonAsYAML(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsonAsYAML(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		if u, err := strconv.ParseUint(string(x), 10, 64); err == nil {
			return u
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return string(x)
	}
	return v
}
