package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/jsonscan"
)

// A rawDoc is one document of an input, as JSON.
type rawDoc struct {
	json        []byte
	line, index int
	warnings    []string
	// asWritten is true when json is the input itself: its lines are the
	// input's, and it is checked before it is used. Otherwise it comes
	// from the YAML conversion, which writes valid JSON on one line, and
	// yaml is the document as written.
	asWritten bool
	yaml      *yamlSource
}

// splitJSON reads a stream of JSON values, by their brackets and strings;
// each is checked later (candidate.check).
func splitJSON(source string, data []byte) ([]rawDoc, []error) {
	var docs []rawDoc
	lines := newLineCounter(data)
	for off, n := jsonscan.SkipSpace(data, 0), 1; off < len(data); off, n = jsonscan.SkipSpace(data, off), n+1 {
		end, err := jsonscan.ValueEnd(data, off)
		if err != nil {
			at, msg := jsonError(data[off:end], err)
			if n == 1 {
				n = 0 // the first value: maybe the only one
			}
			return docs, []error{&Error{Source: source, Line: lines.at(off + at), Index: n, Item: -1, Err: errors.New(msg)}}
		}
		docs = append(docs, rawDoc{json: data[off:end], line: lines.at(off), index: n, asWritten: true})
		off = end
	}
	if len(docs) == 1 {
		docs[0].index = 0 // a single document needs no number
	}
	return docs, nil
}

// A candidate is an object of an input before its JSON is checked, or
// the problem that makes it none.
type candidate struct {
	doc     Document
	checked bool // doc.JSON is valid JSON
	err     error
}

// candidates returns the objects of a document: itself, or a List's items.
func (r rawDoc) candidates(source string) []candidate {
	out := r.split(source)
	if len(out) > 0 {
		out[0].doc.Warnings = r.warnings
	}
	return out
}

// split returns the objects of a document: itself, or a List's items.
func (r rawDoc) split(source string) []candidate {
	doc := Document{Source: source, Line: r.line, Index: r.index, Item: -1, JSON: r.json, asWritten: r.asWritten, yaml: r.yaml}
	fail := func(format string, args ...any) []candidate {
		return []candidate{{doc: doc, err: doc.errorf(format, args...)}}
	}
	invalid := func() []candidate { return []candidate{{doc: doc, err: syntaxError(doc, r.json)}} }
	if len(r.json) == 0 || r.json[0] != '{' {
		if r.asWritten && !json.Valid(r.json) {
			return invalid()
		}
		return fail("not a Kubernetes object: %s", describeJSON(r.json))
	}
	read := topLevel
	if !r.asWritten {
		read = convertedTopLevel
	}
	kind, items, itemsAt, ok := read(r.json)
	if !ok {
		return invalid()
	}
	isList := kind == "List" || strings.HasSuffix(kind, "List") || (kind == "" && items != nil)
	if !isList {
		doc.Kind = kind
		return []candidate{{doc: doc, checked: !r.asWritten}}
	}
	if items == nil { // an empty List
		if r.asWritten && !json.Valid(r.json) {
			return invalid()
		}
		return nil
	}
	if r.asWritten {
		// Everything but the items, which are checked one by one.
		skeleton := append(append(append([]byte(nil), r.json[:itemsAt]...), "[]"...), r.json[itemsAt+len(items):]...)
		if !json.Valid(skeleton) {
			return invalid()
		}
	}
	if items[0] != '[' {
		return fail("%s: items is not a list", display(kind))
	}
	var out []candidate
	lines := newLineCounter(r.json)
	i := 0
	ok = jsonscan.Elements(items, func(off int, item []byte) {
		d := Document{Source: source, Line: r.line, Index: r.index, Item: i, JSON: item, asWritten: r.asWritten, yaml: r.yaml}
		i++
		if r.asWritten {
			d.Line = r.line + lines.at(itemsAt+off) - 1
		}
		out = append(out, candidate{doc: d, checked: !r.asWritten})
	})
	if !ok {
		return invalid()
	}
	return out
}

// check checks the candidate's JSON, unless it is known to be valid, and
// that it is an object with a kind.
func (c *candidate) check() {
	if c.err != nil {
		return
	}
	d := &c.doc
	if !c.checked && !json.Valid(d.JSON) {
		c.err = syntaxError(*d, d.JSON)
		return
	}
	if d.JSON[0] != '{' {
		c.err = d.errorf("%w: %s", ErrNotObject, describeJSON(d.JSON))
		return
	}
	if d.Item >= 0 {
		d.Kind = kindOf(d.JSON)
	}
	if d.Kind == "" {
		c.err = d.errorf("%w: no kind (keys: %s)", ErrNotObject, keysOf(d.JSON))
	}
}

// syntaxError reports the syntax error in value, which starts at d's
// line, at its own line.
func syntaxError(d Document, value []byte) *Error {
	at, msg := jsonError(value, nil)
	e := d.errorf("%s", msg)
	e.Line = d.Line + bytes.Count(value[:min(at, len(value))], []byte("\n"))
	return e
}

// jsonError locates a syntax error in value: its offset and a message.
func jsonError(value []byte, scanErr error) (int, string) {
	var v any
	err := json.Unmarshal(value, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return max(int(se.Offset)-1, 0), "invalid JSON: " + se.Error()
	}
	if err == nil && scanErr != nil {
		err = scanErr
	}
	if err == nil {
		err = errors.New("not valid")
	}
	return len(value), "invalid JSON: " + err.Error()
}
