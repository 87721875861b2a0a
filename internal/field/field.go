// Package field describes problems with the fields of an API object, in the
// words the Kubernetes API server uses: "spec.replicas: Invalid value: -1:
// must be greater than or equal to 0". It mirrors upstream's
// k8s.io/apimachinery/pkg/util/validation/field, which validation and the
// strict decoder both report through.
package field

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Path is a field path such as spec.template.spec.containers[0].image. The
// zero Path is the object itself. A Path is immutable: Child and Index
// return new ones.
type Path struct {
	parent *Path
	name   string // a field name, or an entry's key
	index  int    // an element's index
	// An element of a list (Index) or an entry of a map (Key), rendered
	// only when the path is: [index] or [key].
	elem, entry bool
}

// NewPath returns the path of a top-level field and its children.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = p.Child(m)
	}
	return p
}

// Child returns the path of the field name under p. It is small enough to
// be inlined, so that a path that only leads to fields without problems
// need not be allocated on the heap.
func (p *Path) Child(name string, more ...string) *Path {
	c := &Path{parent: p, name: name}
	if len(more) > 0 {
		return c.descend(more)
	}
	return c
}

// descend returns the path of the last of names, each a field under the
// one before, the first under p.
func (p *Path) descend(names []string) *Path {
	for _, n := range names {
		p = &Path{parent: p, name: n}
	}
	return p
}

// Index returns the path of element i of the list at p.
func (p *Path) Index(i int) *Path {
	return &Path{parent: p, elem: true, index: i}
}

// Key returns the path of entry k of the map at p.
func (p *Path) Key(k string) *Path {
	return &Path{parent: p, entry: true, name: k}
}

// String renders the path: a.b[0].c.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var parts []*Path
	for q := p; q != nil; q = q.parent {
		parts = append(parts, q)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		q := parts[i]
		switch {
		case q.elem:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(q.index))
			b.WriteByte(']')
		case q.entry:
			b.WriteByte('[')
			b.WriteString(q.name)
			b.WriteByte(']')
		case q.name != "":
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(q.name)
		}
	}
	return b.String()
}

// Type is the kind of problem, as upstream prints it.
type Type string

// The types of problems.
const (
	Invalid      Type = "Invalid value"
	Required     Type = "Required value"
	Unsupported  Type = "Unsupported value"
	Duplicate    Type = "Duplicate value"
	NotFound     Type = "Not found"
	Forbidden    Type = "Forbidden"
	TooLong      Type = "Too long"
	TooMany      Type = "Too many"
	Unknown      Type = "unknown field" // strict decoding: a field the type does not have
	DuplicateKey Type = "duplicate field"
	Internal     Type = "Internal error"
)

// Error is one problem with one field. Value is the offending value as
// upstream prints it (a number, a quoted string, a Go literal); it is empty
// when the problem has no value.
type Error struct {
	Type   Type
	Field  string
	Value  string
	Detail string
}

// Error renders e as upstream does: "field: Type: value: detail", leaving
// out the parts e does not have.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	b.WriteString(": ")
	b.WriteString(string(e.Type))
	if e.Value != "" {
		b.WriteString(": ")
		b.WriteString(e.Value)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// ErrorList is a list of problems, in the order found.
type ErrorList []*Error

// Quote renders a string value as upstream prints one: in double quotes.
func Quote(s string) string { return strconv.Quote(s) }

// QuoteTyped renders a value of a named string type (an enum such as
// RestartPolicy) as upstream's field.Error prints one: a value that is not
// a plain string is rendered by encoding/json (ErrorBody), which escapes
// <, > and & as \u003c, \u003e and \u0026, writes \ufffd for invalid
// UTF-8 and leaves other non-ASCII runes unescaped, unlike Quote.
func QuoteTyped(s string) string {
	b, err := json.Marshal(s)
	if err != nil { // a string always marshals
		return Quote(s)
	}
	return string(b)
}

// InvalidValue returns an Invalid error for a value already rendered.
func InvalidValue(p *Path, value, detail string) *Error {
	return &Error{Type: Invalid, Field: p.String(), Value: value, Detail: detail}
}

// InvalidString returns an Invalid error for a string value.
func InvalidString(p *Path, value, detail string) *Error {
	return InvalidValue(p, Quote(value), detail)
}

// InvalidInt returns an Invalid error for a number.
func InvalidInt(p *Path, value int64, detail string) *Error {
	return InvalidValue(p, strconv.FormatInt(value, 10), detail)
}

// RequiredValue returns a Required error.
func RequiredValue(p *Path, detail string) *Error {
	return &Error{Type: Required, Field: p.String(), Detail: detail}
}

// NotSupported returns an Unsupported error listing the values allowed.
// The value is rendered by QuoteTyped: upstream's callers pass the field's
// named enum type, which field.Error.ErrorBody (k8s.io/apimachinery
// pkg/util/validation/field/errors.go) prints through encoding/json.
func NotSupported(p *Path, value string, allowed []string) *Error {
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = Quote(a)
	}
	detail := ""
	if len(allowed) > 0 {
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &Error{Type: Unsupported, Field: p.String(), Value: QuoteTyped(value), Detail: detail}
}

// DuplicateValue returns a Duplicate error.
func DuplicateValue(p *Path, value string) *Error {
	return &Error{Type: Duplicate, Field: p.String(), Value: value}
}

// NotFoundValue returns a NotFound error.
func NotFoundValue(p *Path, value string) *Error {
	return &Error{Type: NotFound, Field: p.String(), Value: value}
}

// ForbiddenField returns a Forbidden error.
func ForbiddenField(p *Path, detail string) *Error {
	return &Error{Type: Forbidden, Field: p.String(), Detail: detail}
}

// TooLongValue returns a TooLong error for a value longer than max.
func TooLongValue(p *Path, max int) *Error {
	return &Error{Type: TooLong, Field: p.String(), Detail: "may not be more than " + strconv.Itoa(max) + " bytes"}
}
