package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/workers"

	"sigs.k8s.io/yaml"
)

// Parse splits data, read from source, into documents. Data whose first
// character (after white space and a byte order mark) is '{' is a stream
// of JSON values; anything else is YAML, documents separated by "---"
// lines. A document that is a List (kind "List" or a kind ending in
// "List", or no kind but items) gives a Document for each item. Every
// document must be an object with a kind, or a List; YAML documents
// holding only comments are skipped. Parse returns the documents it could
// read and every problem, each an *Error, joined. The documents' JSON may
// share memory with data.
func Parse(source string, data []byte) ([]Document, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if at := binaryAt(data, false); at >= 0 {
		return nil, &Error{Source: source, Item: -1, Err: fmt.Errorf("%w (byte %d)", ErrBinary, at)}
	}
	return parseText(source, data)
}

// parseText is Parse of data known to be text (binaryAt finds nothing in
// it), without a byte order mark.
func parseText(source string, data []byte) ([]Document, error) {
	var (
		raw  []rawDoc
		errs []error
	)
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		raw, errs = splitJSON(source, data)
	} else {
		raw, errs = splitYAML(source, data)
	}
	// Each document's objects (itself, or a List's items), several
	// documents at once.
	split := make([][]candidate, len(raw))
	parallel(len(raw), len(data), func(i int) { split[i] = raw[i].candidates(source) })
	cands := slices.Concat(split...)
	// Check the JSON as written, several values at once.
	parallel(len(cands), len(data), func(i int) { cands[i].check() })
	var docs []Document
	var problems []error
	for _, c := range cands {
		if c.err != nil {
			problems = append(problems, c.err)
		} else {
			docs = append(docs, c.doc)
		}
	}
	return docs, errors.Join(append(problems, errs...)...)
}

// splitYAML splits data at "---" lines and converts each document that is
// not blank to JSON, several at once. Documents are numbered from 1 in
// file order, blank ones included, so that the numbers match what an
// editor shows.
func splitYAML(source string, data []byte) ([]rawDoc, []error) {
	type part struct {
		text        []byte
		line, index int
		object      int // the line where the object starts, after comments
	}
	var parts []part
	n, first, start := 1, 1, 0
	line := 1
	for off := 0; off <= len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(data)-off, len(data)+1
		}
		if isSeparator(data[off : off+end]) {
			if off > 0 {
				parts = append(parts, part{data[start:off], first, n, 0})
				n++
			}
			start, first = min(next, len(data)), line+1
		}
		off = next
		line++
	}
	parts = append(parts, part{data[start:], first, n, 0})
	blank := make([]bool, len(parts))
	solo := -1 // the only document that is not blank, if there is one
	for i, p := range parts {
		blank[i] = isBlankYAML(p.text)
		if !blank[i] {
			if solo == -1 {
				solo = i
			} else {
				solo = -2
			}
		}
	}
	if solo >= 0 {
		parts[solo].index = 0 // a single document needs no number
	}
	for i := range parts {
		if !blank[i] {
			parts[i].object = parts[i].line + leadingComments(parts[i].text)
		}
	}

	docs := make([]rawDoc, len(parts))
	errs := make([][]error, len(parts))
	convert := func(i int) {
		p := parts[i]
		if blank[i] {
			return
		}
		if j, ok := fastYAMLToJSON(p.text); ok {
			docs[i] = rawDoc{json: j, line: p.object, index: p.index, yaml: &yamlSource{text: p.text, line: p.line}}
			return
		}
		j, err := yaml.YAMLToJSONStrict(p.text)
		var warnings []string
		if dups, ok := duplicateKeys(err); ok {
			// As kubectl and the API server take it: the last value.
			j, err = yaml.YAMLToJSON(p.text)
			for _, d := range dups {
				warnings = append(warnings, fmt.Sprintf("%s:%d: %s given twice: the last one counts", source, p.line+d.line-1, d.key))
			}
		}
		if err != nil {
			errs[i] = yamlErrors(source, p.line, p.index, err)
			return
		}
		docs[i] = rawDoc{json: j, line: p.object, index: p.index, warnings: warnings, yaml: &yamlSource{text: p.text, line: p.line}}
	}
	parallel(len(parts), len(data), convert)
	var out []rawDoc
	var all []error
	for i := range parts {
		all = append(all, errs[i]...)
		if docs[i].json != nil {
			out = append(out, docs[i])
		}
	}
	return out, all
}

// parallel calls f(0), ..., f(n-1) on up to GOMAXPROCS goroutines when
// there is enough to do, size being the bytes in all.
func parallel(n, size int, f func(int)) {
	w := runtime.GOMAXPROCS(0)
	if size < 64<<10 {
		w = 1
	}
	workers.Each(n, w, f)
}

// isSeparator reports whether a line is a document marker: "---", alone
// or followed by white space.
func isSeparator(line []byte) bool {
	line = bytes.TrimRight(line, "\r")
	return bytes.HasPrefix(line, []byte("---")) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t')
}

// leadingComments counts the blank and comment lines at the start of
// text.
func leadingComments(text []byte) int {
	n := 0
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		if l := bytes.TrimSpace(line); len(l) > 0 && l[0] != '#' {
			break
		}
		n, text = n+1, rest
	}
	return n
}

// isBlankYAML reports whether text holds only blank lines, comments and
// document end markers.
func isBlankYAML(text []byte) bool {
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' && string(line) != "..." {
			return false
		}
	}
	return true
}

var (
	// yamlLine is the line in a YAML parser's message.
	yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	// yamlKey is a mapping key that is a Go map or slice in the message.
	yamlKey = regexp.MustCompile(`^yaml: invalid map key: (map\[|\[\])`)
	// yamlNullKey is a key that JSON cannot hold.
	yamlNullKey = regexp.MustCompile(`^unsupported map key of type: .*, key: (.*), value: `)
)

// yamlDuplicate is a key given twice, in the strict parser's message.
var yamlDuplicate = regexp.MustCompile(`^line (\d+): (key ".*") already set in map$`)

// duplicate is a key given twice, at a line of its document.
type duplicate struct {
	line int
	key  string
}

// duplicateKeys returns the keys given twice when they are all a strict
// conversion error is about.
func duplicateKeys(err error) ([]duplicate, bool) {
	if err == nil {
		return nil, false
	}
	rest, ok := strings.CutPrefix(err.Error(), "yaml: unmarshal errors:\n")
	if !ok {
		return nil, false
	}
	var out []duplicate
	for _, l := range strings.Split(rest, "\n") {
		g := yamlDuplicate.FindStringSubmatch(strings.TrimSpace(l))
		if g == nil {
			return nil, false
		}
		n, _ := strconv.Atoi(g[1])
		out = append(out, duplicate{n, g[2]})
	}
	return out, true
}

// yamlErrors turns a conversion error of the document that starts at
// line into problems, one per line of the message, at their lines and in
// words that do not show Go types.
func yamlErrors(source string, line, index int, err error) []error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	var msgs []string
	if rest, ok := strings.CutPrefix(msg, "yaml: unmarshal errors:\n"); ok {
		for _, l := range strings.Split(rest, "\n") {
			msgs = append(msgs, strings.TrimSpace(l))
		}
	} else {
		msgs = []string{msg}
	}
	var out []error
	for _, m := range msgs {
		at := line
		if g := yamlLine.FindStringSubmatch(m); g != nil {
			off, _ := strconv.Atoi(g[1])
			at, m = line+off-1, g[2]
		} else {
			m = strings.TrimPrefix(m, "yaml: ")
		}
		switch {
		case yamlKey.MatchString(msg):
			kind := "sequence"
			if strings.HasPrefix(yamlKey.FindStringSubmatch(msg)[1], "map") {
				kind = "mapping"
			}
			m = fmt.Sprintf("a key is a %s; keys must be strings", kind)
		case yamlNullKey.MatchString(msg):
			m = fmt.Sprintf("a key is %s; keys must be strings", yamlNullKey.FindStringSubmatch(msg)[1])
		}
		out = append(out, &Error{Source: source, Line: at, Index: index, Item: -1, Err: errors.New("yaml: " + m)})
	}
	return out
}
