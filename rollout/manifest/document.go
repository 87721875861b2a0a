package manifest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// A Document is one Kubernetes object of an input, as JSON, and where it
// is: Line is where the object starts, and FieldLine finds the line of
// any of its fields.
type Document struct {
	// Source names the input: a file name as given or found in a
	// directory, or [Stdin].
	Source string
	// Line is the line of Source where the object starts, from 1. An item
	// of a List in YAML has the line of its document.
	Line int
	// Index is the number of the YAML document or JSON value in Source,
	// from 1, counting empty YAML documents, so that it matches what an
	// editor shows. It is 0 when Source holds a single document.
	Index int
	// Item is the object's index in the items of its List, or -1 when the
	// document is the object itself.
	Item int
	// Kind is the object's kind, "" when it has none.
	Kind string
	// JSON is the object. It may share memory with the input. It is nil
	// in a lean document (see [Document.Lean]), whose Object converts
	// its YAML again.
	JSON []byte
	// Warnings are what was read but not kept: a key given twice in a
	// YAML mapping, of which the last counts, as with kubectl. Each names
	// its line.
	Warnings []string

	// asWritten: JSON is the input as written, so its lines are the
	// input's; yaml is the YAML document that holds the object, when it
	// was YAML.
	asWritten bool
	yaml      *yamlSource
	// packed holds the JSON as written of a packed document, whose JSON
	// is then nil (see Packer).
	packed *packedText
}

// Stdin is the Source of documents read from standard input.
const Stdin = "<stdin>"

// String locates d as "deploy.yaml:12: document 2: items[0]", leaving out
// what is not known or not needed.
func (d Document) String() string {
	return location(d.Source, d.Line, d.Index, d.Item)
}

// location formats a place in an input; line 0, index 0 and item -1 are
// left out.
func location(source string, line, index, item int) string {
	var b strings.Builder
	b.WriteString(source)
	if line > 0 {
		fmt.Fprintf(&b, ":%d", line)
	}
	if index > 0 {
		fmt.Fprintf(&b, ": document %d", index)
	}
	if item >= 0 {
		fmt.Fprintf(&b, ": items[%d]", item)
	}
	return b.String()
}

// Lean returns d without its JSON when d was converted from YAML, and d
// as it is otherwise (JSON as written is the text its lines are read
// from). A lean document keeps its place, kind, warnings and YAML text:
// String and FieldLine give what they give for d, and Object and Decode
// convert the YAML again, to the same JSON. Lean is for keeping the place
// of many objects after decoding them: the JSON of a converted document
// is memory of its own, about as large as its YAML, which the input
// holds anyway.
func (d Document) Lean() Document {
	if d.yaml != nil {
		d.JSON = nil
	}
	return d
}

// Object returns the object as JSON: d.JSON, or for a lean document (see
// [Document.Lean]) its YAML converted again. The error is the conversion's,
// which a document Parse returned does not meet.
func (d Document) Object() ([]byte, error) {
	if d.JSON == nil && d.packed != nil {
		return d.packed.text(), nil
	}
	if d.JSON != nil || d.yaml == nil {
		return d.JSON, nil
	}
	// As YAML, as it was read: a document such as {"kind": ...} is YAML
	// here, whatever its first character.
	raw, errs := splitYAML(d.Source, d.yaml.source())
	for _, r := range raw {
		for _, c := range r.candidates(d.Source) {
			if c.err == nil && c.doc.Item == d.Item {
				return c.doc.JSON, nil
			}
		}
	}
	err := errors.Join(errs...)
	if err == nil {
		err = errors.New("the YAML holds no such object")
	}
	return nil, d.errorf("converting the YAML again: %w", err)
}

// Decode decodes d as the API server takes it: strictly, with its
// defaults, refusing what its validation refuses on create
// (rollout.DecodeOptions{Validate: true}); a Deployment, ReplicaSet or Pod,
// another kind gives no objects. An error is an *Error, one line per
// problem, each at the line of the field it is about (FieldLine) or else at
// d. DecodeWith decodes with other options.
func (d Document) Decode() (rollout.Objects, error) {
	return d.DecodeWith(rollout.DecodeOptions{Validate: true})
}

// DecodeWith is Decode with the options o.
func (d Document) DecodeWith(o rollout.DecodeOptions) (rollout.Objects, error) {
	data, err := d.Object()
	if err != nil {
		return rollout.Objects{}, err
	}
	objs, err := o.Decode(data)
	if err == nil {
		return objs, nil
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return rollout.Objects{}, d.fieldError(err)
	}
	var errs []error
	for _, e := range joined.Unwrap() {
		errs = append(errs, d.fieldError(e))
	}
	return rollout.Objects{}, errors.Join(errs...)
}

// fieldError places a problem with a field (a *rollout.FieldError) at the
// line of that field, and any other at d.
func (d Document) fieldError(err error) *Error {
	e := d.errorf("%w", err)
	var fe *rollout.FieldError
	if errors.As(err, &fe) {
		e.Line, _ = d.FieldLine(fe.Field)
	}
	return e
}

func (d Document) errorf(format string, args ...any) *Error {
	return &Error{Source: d.Source, Line: d.Line, Index: d.Index, Item: d.Item, Err: fmt.Errorf(format, args...)}
}

// An Error is a problem at a place in an input. Read and Parse return
// every problem they find, joined (errors.Join), one *Error each.
type Error struct {
	Source string
	Line   int // 0 when not known
	Index  int // the document, 0 when not known or the only one
	Item   int // the List item, -1 when none
	Err    error
}

// Error formats e as "source:line: document N: items[i]: problem", on one
// line: line breaks in the problem are escaped.
func (e *Error) Error() string {
	msg := strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(e.Err.Error())
	return location(e.Source, e.Line, e.Index, e.Item) + ": " + msg
}

// Unwrap returns the problem.
func (e *Error) Unwrap() error { return e.Err }
