package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"github.com/rolloutmath/rolloutmath/internal/jsonscan"
	yaml "go.yaml.in/yaml/v3"
)

// FieldLine returns the line of Source where the field at path is
// written, and true; or, when the document does not write that field (it
// has a default, or it is missing), the line of the closest enclosing
// field it does write, and false. path is written as the API server's
// error messages write it: field names joined by dots, list indexes and
// map keys in brackets ("spec.template.spec.containers[0].image",
// "spec.hard[requests.cpu]"); a map key may also follow a dot when it
// holds none ("metadata.labels.app"). The empty path is the object
// itself, at Line.
//
// The lines come from the input as written: JSON is scanned where it
// lies; a YAML document is parsed into nodes the first time one of its
// fields is asked for (go.yaml.in/yaml/v3, which keeps each node's line),
// and the nodes are kept for the other objects of the same document, so
// that reading costs nothing for the objects no one asks about.
func (d Document) FieldLine(path string) (line int, exact bool) {
	segs := parsePath(path)
	if d.yaml != nil {
		return d.yaml.fieldLine(d, segs)
	}
	if d.asWritten {
		return jsonFieldLine(d.written(), d.Line, segs)
	}
	return d.Line, len(segs) == 0
}

// A segment is one step of a field path: a name or map key, or a list
// index (then index >= 0; a bracketed number may also be a map key).
type segment struct {
	key   string
	index int
}

// parsePath splits a field path in the API's notation into segments.
func parsePath(path string) []segment {
	var out []segment
	for len(path) > 0 {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				end = len(path)
			}
			key := path[1:end]
			s := segment{key: key, index: -1}
			if n, err := strconv.Atoi(key); err == nil && n >= 0 {
				s.index = n
			}
			out = append(out, s)
			path = path[min(end+1, len(path)):]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			out = append(out, segment{key: path[:end], index: -1})
			path = path[end:]
		}
	}
	return out
}

// jsonFieldLine finds the segments in obj, a JSON object as written that
// starts at line. A field is at the line of its key, a list element at
// its own.
func jsonFieldLine(obj []byte, line int, segs []segment) (int, bool) {
	cur, at, mark := obj, 0, 0 // the value reached, its offset in obj, the offset of its key
	lineOf := func(off int) int { return line + bytes.Count(obj[:off], []byte("\n")) }
	for _, s := range segs {
		found := false
		switch {
		case len(cur) > 0 && cur[0] == '{':
			base := at
			jsonscan.EachMember(cur, func(key []byte, keyAt, start, end int) {
				if string(key) == s.key { // the last of duplicate keys counts
					found = true
					mark, at, cur = base+keyAt, base+start, cur[start:end]
				}
			})
		case len(cur) > 0 && cur[0] == '[' && s.index >= 0:
			base, i := at, 0
			jsonscan.Elements(cur, func(off int, v []byte) {
				if i == s.index {
					found = true
					mark, at, cur = base+off, base+off, v
				}
				i++
			})
		}
		if !found {
			return lineOf(mark), false
		}
	}
	return lineOf(mark), true
}

// yamlSource is the text of one YAML document, parsed into nodes when a
// field's line is first asked for, and shared by the objects of that
// document (a List's items).
type yamlSource struct {
	text   []byte
	packed *packedText // holds the text instead, when packed (see Packer)
	line   int         // the line of text's first line in the input

	once sync.Once
	root *yaml.Node // nil if the text does not parse
}

// source returns the text, unpacked if it is packed.
func (y *yamlSource) source() []byte {
	if y.packed != nil {
		return y.packed.text()
	}
	return y.text
}

func (y *yamlSource) fieldLine(d Document, segs []segment) (int, bool) {
	if d.Item < 0 {
		// The lines are read again at each call, not kept: a document is
		// asked for few fields, and its lines would hold more memory than
		// its text.
		// The lines on the stack, for a document of up to 256: a check
		// asks two or three fields of each of its Deployments.
		var buf [256]docLine
		if lines, ok := appendYAMLLines(buf[:0], y.source()); ok {
			if line, exact, ok := fastFieldLine(lines, segs); ok {
				return y.line + line, exact
			}
		}
	}
	return y.nodeFieldLine(d, segs)
}

// nodeFieldLine is fieldLine through yaml.v3's nodes, which read any
// YAML.
func (y *yamlSource) nodeFieldLine(d Document, segs []segment) (int, bool) {
	y.once.Do(func() {
		var doc yaml.Node
		if yaml.Unmarshal(y.source(), &doc) == nil && doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
			y.root = doc.Content[0]
		}
	})
	n := y.root
	if n != nil && d.Item >= 0 {
		n, _ = yamlChild(n, segment{key: "items", index: -1})
		n, _ = yamlChild(n, segment{index: d.Item})
	}
	if n == nil {
		return d.Line, len(segs) == 0
	}
	line := n.Line
	for _, s := range segs {
		c, at := yamlChild(n, s)
		if c == nil {
			return y.line + line - 1, false
		}
		n, line = c, at
	}
	return y.line + line - 1, true
}

// yamlChild returns the value of the mapping key s.key (the last one,
// when the key is given twice, as it counts) and the key's line, or the
// element s.index of a sequence and its line; nil when there is none.
// Aliases and merge keys ("<<") are followed.
func yamlChild(n *yaml.Node, s segment) (*yaml.Node, int) {
	if n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil {
		return nil, 0
	}
	switch n.Kind {
	case yaml.MappingNode:
		var v *yaml.Node
		line := 0
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Value == s.key && k.Tag != "!!merge" {
				v, line = n.Content[i+1], k.Line
			}
		}
		if v != nil {
			return v, line
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Tag != "!!merge" {
				continue
			}
			merged := []*yaml.Node{n.Content[i+1]}
			if m := n.Content[i+1]; m.Kind == yaml.SequenceNode {
				merged = m.Content
			}
			for _, m := range merged {
				if c, at := yamlChild(m, s); c != nil {
					return c, at
				}
			}
		}
	case yaml.SequenceNode:
		if s.index >= 0 && s.index < len(n.Content) {
			return n.Content[s.index], n.Content[s.index].Line
		}
	}
	return nil, 0
}
