package rollout

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/rolloutmath/rolloutmath/internal/jsonscan"
)

// typeMeta is what Decode reads first of every object, to choose its type:
// its kind, its name (for messages) and, for a List, its items. Its
// meaning is encoding/json's for this struct: readTypeMeta reads it so,
// and encoding/json explains what readTypeMeta cannot read.
type typeMeta struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

// readTypeMeta reads the typeMeta of the JSON object obj (obj[0] is '{')
// as json.Unmarshal does, without reading the rest: a member's name
// matches a field's regardless of case (as encoding/json folds it), the
// last member of a name counts, and null leaves a string as it is. Items
// share obj's memory, and items is where the list of the items that
// count is written (empty when there is none). When obj is valid JSON,
// readTypeMeta reports false exactly when json.Unmarshal into a typeMeta
// fails (FuzzReadTypeMeta). It judges the members it does not read by
// their brackets and strings only, so when it reports true, obj may still
// be malformed there: the caller checks the rest (see add).
func readTypeMeta(obj []byte) (tm typeMeta, items span, ok bool) {
	ok = true
	read := jsonscan.Members(obj, func(key []byte, start, end int) {
		v := obj[start:end]
		switch {
		case bytes.EqualFold(key, []byte("kind")):
			ok = ok && readString(v, &tm.Kind)
		case bytes.EqualFold(key, []byte("metadata")):
			ok = ok && readName(v, &tm.Metadata.Name)
		case bytes.EqualFold(key, []byte("items")):
			items, tm.Items = span{}, nil
			switch {
			case string(v) == "null":
			case v[0] == '[':
				items, tm.Items = span{start, end}, []json.RawMessage{}
				ok = ok && jsonscan.Elements(v, func(_ int, e []byte) { tm.Items = append(tm.Items, e) })
			default:
				ok = false
			}
		}
	})
	return tm, items, ok && read
}

// A span is where a value is written: data[start:end].
type span struct{ start, end int }

// emptied returns data with the list at s written as [] (data itself
// when s is empty).
func (s span) emptied(data []byte) []byte {
	if s.end == 0 {
		return data
	}
	out := make([]byte, 0, len(data)-(s.end-s.start)+2)
	return append(append(append(out, data[:s.start]...), "[]"...), data[s.end:]...)
}

// readName reads metadata.name from the metadata object v.
func readName(v []byte, name *string) bool {
	if string(v) == "null" {
		return true
	}
	if v[0] != '{' {
		return false
	}
	ok := true
	read := jsonscan.Members(v, func(key []byte, start, end int) {
		if bytes.EqualFold(key, []byte("name")) {
			ok = ok && readString(v[start:end], name)
		}
	})
	return ok && read
}

// readString reads the JSON string v into s, as encoding/json does: null
// leaves s as it is, any other kind of value is an error.
func readString(v []byte, s *string) bool {
	if string(v) == "null" {
		return true
	}
	if v[0] != '"' {
		return false
	}
	for _, c := range v[1 : len(v)-1] {
		if c < ' ' || c == '\\' || c >= 0x80 { // escapes, control characters, UTF-8 to check
			return json.Unmarshal(v, s) == nil
		}
	}
	*s = string(v[1 : len(v)-1])
	return true
}

// typeMetaError says why json.Unmarshal cannot read obj into a typeMeta:
// malformed JSON (a *json.SyntaxError) or a member of the wrong type.
func typeMetaError(obj []byte) error {
	var tm typeMeta
	if err := json.Unmarshal(obj, &tm); err != nil {
		return err
	}
	return errors.New("cannot read kind, metadata.name and items") // readTypeMeta and encoding/json disagree
}
