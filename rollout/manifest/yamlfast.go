package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The YAML of manifests, as `kubectl get -o yaml` prints it and people
// write it, uses little of YAML: block mappings and sequences, plain and
// quoted scalars on one line, {} and [], comments. fastYAMLToJSON converts
// that subset straight to JSON, as sigs.k8s.io/yaml's YAMLToJSONStrict
// would (YAML 1.1 scalars as go.yaml.in/yaml/v2 resolves them, keys sorted
// as encoding/json sorts a map's, strings escaped as it escapes them), and
// gives up on anything else: the caller then converts the document with
// sigs.k8s.io/yaml. FuzzFastYAML and TestFastYAMLAgrees hold the two equal
// byte for byte wherever the fast path answers.

// A docLine is one line of a document that holds something: its
// indentation and its text without the indentation and the line break.
type docLine struct {
	num    int // the line in the document, from 0
	indent int
	text   []byte
}

// fastYAMLToJSON converts a YAML document to JSON, or reports false when
// it uses YAML beyond the subset above (or is not a mapping at its top).
func fastYAMLToJSON(doc []byte) ([]byte, bool) {
	lines, ok := yamlLines(doc)
	if !ok || len(lines) == 0 || lines[0].indent != 0 || isItem(lines[0].text) {
		return nil, false
	}
	c := fastConverter{lines: lines, out: make([]byte, 0, len(doc)+len(doc)/4)}
	next, ok := c.mapping(0, 0)
	if !ok || next != len(lines) {
		return nil, false
	}
	return c.out, true
}

// yamlLines splits doc into the lines that hold something, leaving out
// blank lines and comments; false for what the subset leaves out at the
// level of lines: tabs anywhere (yamlPrintable), directives and document
// markers.
func yamlLines(doc []byte) ([]docLine, bool) {
	return appendYAMLLines(nil, doc)
}

// appendYAMLLines is yamlLines appending to lines (which it may give back
// with other contents when it reports false).
func appendYAMLLines(lines []docLine, doc []byte) ([]docLine, bool) {
	if !yamlPrintable(doc) {
		return nil, false
	}
	// From here doc holds no tab, and a carriage return only before a
	// line feed: a line ends in spaces and at most one carriage return.
	lines = slices.Grow(lines, bytes.Count(doc, []byte("\n"))+1)
	for num := 0; len(doc) > 0; num++ {
		line := doc
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			line, doc = doc[:i], doc[i+1:]
		} else {
			doc = nil
		}
		end := len(line)
		for end > 0 && (line[end-1] == ' ' || line[end-1] == '\r') {
			end--
		}
		indent := 0
		for indent < end && line[indent] == ' ' {
			indent++
		}
		text := line[indent:end]
		switch {
		case len(text) == 0 || text[0] == '#':
			continue
		case text[0] == '%' || bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("...")):
			return nil, false
		}
		lines = append(lines, docLine{num, indent, text})
	}
	return lines, true
}

// yamlPrintable reports whether doc holds only line breaks and the
// printable characters a YAML reader takes, in UTF-8: no tab.
func yamlPrintable(doc []byte) bool {
	for i := 0; i < len(doc); {
		c := doc[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\r' || c == 0x7f {
				return false // a tab too: where YAML takes one is left to it
			}
			if c == '\r' && (i+1 == len(doc) || doc[i+1] != '\n') {
				return false // a line break of its own, which the lines here do not split at
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(doc[i:])
		if r == utf8.RuneError && n <= 1 || !(r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff) {
			return false
		}
		if r == 0x2028 || r == 0x2029 || r == 0xfeff {
			return false // line breaks for YAML 1.1 (as U+0085 is), and a byte order mark
		}
		i += n
	}
	return true
}

// isItem reports whether a line's text starts a sequence item.
func isItem(text []byte) bool {
	return text[0] == '-' && (len(text) == 1 || text[1] == ' ')
}

// fastConverter writes the JSON of a document's lines into out.
type fastConverter struct {
	lines []docLine
	out   []byte
	// spans is scratch space for sorting a mapping's members.
	spans []memberSpan
}

// A memberSpan is where a mapping's member is written in out, and its key
// as encoding/json sorts it.
type memberSpan struct {
	key        []byte
	start, end int
}

// mapping writes the block mapping whose keys are at indent from line i
// on, and returns the line after it.
func (c *fastConverter) mapping(i, indent int) (int, bool) {
	c.out = append(c.out, '{')
	base := len(c.spans)
	sorted := true // the keys so far are in increasing order
	for i < len(c.lines) && c.lines[i].indent == indent && !isItem(c.lines[i].text) {
		key, rest, ok := mappingKey(c.lines[i].text)
		if !ok {
			return 0, false
		}
		// A key after the last of increasing keys is none of them.
		if n := len(c.spans); !sorted || n > base && bytes.Compare(key, c.spans[n-1].key) <= 0 {
			sorted = false
			for _, s := range c.spans[base:] {
				if bytes.Equal(s.key, key) {
					return 0, false // a duplicate: the strict conversion's warnings
				}
			}
		}
		if len(c.spans) > base {
			c.out = append(c.out, ',')
		}
		start := len(c.out)
		c.out = appendJSONString(c.out, key)
		c.out = append(c.out, ':')
		i++
		if len(rest) > 0 {
			if !c.scalar(rest) {
				return 0, false
			}
		} else {
			var ok bool
			switch {
			case i < len(c.lines) && c.lines[i].indent > indent:
				i, ok = c.block(i, c.lines[i].indent)
			case i < len(c.lines) && c.lines[i].indent == indent && isItem(c.lines[i].text):
				i, ok = c.sequence(i, indent)
			default:
				c.out, ok = append(c.out, "null"...), true
			}
			if !ok {
				return 0, false
			}
		}
		c.spans = append(c.spans, memberSpan{key, start, len(c.out)})
	}
	if i < len(c.lines) && c.lines[i].indent > indent {
		return 0, false // a continuation line, or a mapping's bad indentation
	}
	if !sorted {
		c.sortMembers(base)
	}
	c.spans = c.spans[:base]
	c.out = append(c.out, '}')
	return i, true
}

// sortMembers orders the members written since spans[base] by key, as
// encoding/json orders a map's keys; mapping calls it when they are not
// in order already.
func (c *fastConverter) sortMembers(base int) {
	spans := c.spans[base:]
	from := spans[0].start
	written := slices.Clone(c.out[from:])
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, compareKeys)
	c.out = c.out[:from]
	for k, s := range sorted {
		if k > 0 {
			c.out = append(c.out, ',')
		}
		c.out = append(c.out, written[s.start-from:s.end-from]...)
	}
}

// compareKeys orders members by key, as encoding/json orders a map's.
func compareKeys(a, b memberSpan) int { return bytes.Compare(a.key, b.key) }

// block writes the mapping or sequence that starts at line i, at indent.
func (c *fastConverter) block(i, indent int) (int, bool) {
	if isItem(c.lines[i].text) {
		return c.sequence(i, indent)
	}
	if _, _, ok := mappingKey(c.lines[i].text); !ok {
		return 0, false // a multi-line scalar
	}
	return c.mapping(i, indent)
}

// sequence writes the block sequence whose items start at indent from
// line i on, and returns the line after it.
func (c *fastConverter) sequence(i, indent int) (int, bool) {
	c.out = append(c.out, '[')
	for n := 0; i < len(c.lines) && c.lines[i].indent == indent && isItem(c.lines[i].text); n++ {
		if n > 0 {
			c.out = append(c.out, ',')
		}
		text := c.lines[i].text[1:]
		col := indent + 1
		for len(text) > 0 && text[0] == ' ' {
			text, col = text[1:], col+1
		}
		var ok bool
		switch {
		case len(text) == 0:
			i++
			switch {
			case i < len(c.lines) && c.lines[i].indent > indent:
				i, ok = c.block(i, c.lines[i].indent)
			default:
				c.out, ok = append(c.out, "null"...), true
			}
		case isItem(text) || text[0] == '#':
			return 0, false // a nested sequence on one line, or a comment right after the dash
		default:
			if _, _, isKey := mappingKey(text); isKey {
				// A mapping whose first key is on the item's line: the
				// line is read again as if it started at the key.
				c.lines[i] = docLine{c.lines[i].num, col, text}
				i, ok = c.mapping(i, col)
			} else {
				ok = c.scalar(text)
				i++
				if ok && i < len(c.lines) && c.lines[i].indent > indent {
					return 0, false // a continuation line
				}
			}
		}
		if !ok {
			return 0, false
		}
	}
	if i < len(c.lines) && c.lines[i].indent > indent {
		return 0, false
	}
	c.out = append(c.out, ']')
	return i, true
}

// mappingKey splits a line's text into its key and the rest after the
// colon (without its comment and white space), if the line is a mapping
// entry the subset takes: a key that is a plain string or quoted on the
// line.
func mappingKey(text []byte) (key []byte, rest []byte, ok bool) {
	var after []byte
	switch text[0] {
	case '"', '\'':
		k, n, ok := quoted(text)
		if !ok || n >= len(text) || text[n] != ':' {
			return nil, nil, false
		}
		key, after = k, text[n+1:]
	default:
		end := -1
		for j := 0; j < len(text); j++ {
			if text[j] == '#' && j > 0 && text[j-1] == ' ' {
				return nil, nil, false
			}
			if text[j] == ':' && (j+1 == len(text) || text[j+1] == ' ') {
				end = j
				break
			}
		}
		if end <= 0 {
			return nil, nil, false
		}
		raw := text[:end]
		switch string(raw) {
		case "true", "false", "null":
			return nil, nil, false // a key that is not a string
		}
		if len(raw) != len(bytes.TrimRight(raw, " ")) || !plainString(raw) {
			return nil, nil, false
		}
		key, after = raw, text[end+1:]
	}
	if len(after) > 0 && after[0] != ' ' || len(text)-len(after) > 1000 {
		return nil, nil, false // YAML takes an implicit key of up to 1024 characters
	}
	after = bytes.TrimLeft(after, " ")
	if len(after) > 0 && after[0] == '#' {
		after = nil
	}
	return key, after, true
}

// scalar writes the JSON of a value on a line: a quoted or plain scalar,
// {} or [], with a trailing comment.
func (c *fastConverter) scalar(text []byte) bool {
	switch text[0] {
	case '"', '\'':
		s, n, ok := quoted(text)
		if !ok || !onlyComment(text[n:]) {
			return false
		}
		c.out = appendJSONString(c.out, s)
		return true
	case '{', '[':
		return c.flow(text)
	}
	if i := bytes.Index(text, []byte(" #")); i >= 0 {
		text = bytes.TrimRight(text[:i], " ")
	}
	if bytes.Contains(text, []byte(": ")) || text[len(text)-1] == ':' {
		return false // a mapping where a scalar is: an error
	}
	switch string(text) {
	case "true", "false", "null":
		c.out = append(c.out, text...)
		return true
	}
	if number(text) {
		return c.number(text)
	}
	if !plainString(text) {
		return false
	}
	c.out = appendJSONString(c.out, text)
	return true
}

// flow writes a flow mapping or sequence on one line whose entries are
// scalars: {app: web}, ["--port", 80], {}, [].
func (c *fastConverter) flow(text []byte) bool {
	open, closing := text[0], text[0]+2 // { and }, [ and ]
	var items [][]byte
	i := 1
	for {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i < len(text) && text[i] == closing && len(items) == 0 {
			break
		}
		start := i
		for i < len(text) && text[i] != ',' && text[i] != closing {
			switch text[i] {
			case '"', '\'':
				_, n, ok := quoted(text[i:])
				if !ok {
					return false
				}
				i += n
				continue
			case '[', ']', '{', '}', '#':
				return false
			}
			i++
		}
		if i >= len(text) {
			return false // the collection goes on past the line
		}
		item := bytes.TrimRight(text[start:i], " ")
		if len(item) == 0 {
			return false
		}
		items = append(items, item)
		if text[i] == closing {
			break
		}
		i++
	}
	if !onlyComment(text[i+1:]) {
		return false
	}
	if open == '[' {
		c.out = append(c.out, '[')
		for k, item := range items {
			if k > 0 {
				c.out = append(c.out, ',')
			}
			if !c.flowScalar(item) {
				return false
			}
		}
		c.out = append(c.out, ']')
		return true
	}
	c.out = append(c.out, '{')
	base := len(c.spans)
	for _, item := range items {
		key, rest, ok := mappingKey(item)
		if !ok || len(rest) == 0 {
			return false
		}
		for _, s := range c.spans[base:] {
			if bytes.Equal(s.key, key) {
				return false
			}
		}
		if len(c.spans) > base {
			c.out = append(c.out, ',')
		}
		start := len(c.out)
		c.out = appendJSONString(c.out, key)
		c.out = append(c.out, ':')
		if !c.flowScalar(rest) {
			return false
		}
		c.spans = append(c.spans, memberSpan{key, start, len(c.out)})
	}
	if !slices.IsSortedFunc(c.spans[base:], compareKeys) {
		c.sortMembers(base)
	}
	c.spans = c.spans[:base]
	c.out = append(c.out, '}')
	return true
}

// flowScalar writes a scalar inside a flow collection, where a plain one
// holds no ": ".
func (c *fastConverter) flowScalar(item []byte) bool {
	if item[0] != '"' && item[0] != '\'' && bytes.Contains(item, []byte(": ")) {
		return false
	}
	return c.scalar(item)
}

// onlyComment reports whether what follows a value is nothing or a
// comment.
func onlyComment(rest []byte) bool {
	if len(rest) == 0 {
		return true
	}
	if rest[0] != ' ' {
		return false
	}
	rest = bytes.TrimLeft(rest, " ")
	return len(rest) == 0 || rest[0] == '#'
}

// number reports whether a plain scalar that starts like a number is one
// for go.yaml.in/yaml/v2: an integer in any base Go's strconv reads with
// base 0, or a float.
func number(s []byte) bool {
	if s[0] != '-' && s[0] != '+' && s[0] != '.' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	for _, c := range s {
		// What strconv may read as a number: digits, signs, points,
		// underscores, base prefixes, hexadecimal digits, exponents, and
		// the letters of inf, infinity and nan. Anything else (100m,
		// 128Mi) is no number, and needs no parsing.
		if !('0' <= c && c <= '9' || strings.IndexByte("_+-.xXoObBaAcCdDeEfFpPiInNtTyY", c) >= 0) {
			return false
		}
	}
	plain := strings.ReplaceAll(string(s), "_", "") // as go.yaml.in/yaml/v2 reads it
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	_, err := strconv.ParseFloat(plain, 64)
	return err == nil
}

// number writes a number in the forms the subset takes: an integer in
// decimal without leading zeros that fits 18 digits, or a decimal
// fraction, as encoding/json writes the float64 it is.
func (c *fastConverter) number(s []byte) bool {
	digits := s
	if digits[0] == '-' {
		digits = digits[1:]
	}
	intPart, frac, isFrac := bytes.Cut(digits, []byte("."))
	if len(intPart) == 0 || len(intPart) > 18 || (intPart[0] == '0' && len(intPart) > 1) || !allDigits(intPart) {
		return false
	}
	if !isFrac {
		if string(s) == "-0" {
			return false
		}
		c.out = append(c.out, s...)
		return true
	}
	if len(frac) == 0 || !allDigits(frac) {
		return false
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return false
	}
	b, err := json.Marshal(f)
	if err != nil {
		return false
	}
	c.out = append(c.out, b...)
	return true
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// yaml11Word reports whether go.yaml.in/yaml/v2 resolves a plain scalar
// to a boolean or null although it is not true, false or null, or reads
// it as the merge key: the subset leaves those to it.
func yaml11Word(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF",
		"True", "TRUE", "False", "FALSE", "Null", "NULL", "~", "<<":
		return true
	}
	return false
}

// plainString reports whether a plain scalar is a string the subset
// takes: it starts with no indicator and nothing that may make it a
// number, and it is none of YAML 1.1's words. s is part of a line of
// yamlLines, so it is valid UTF-8 and holds no control character
// (yamlPrintable).
func plainString(s []byte) bool {
	if len(s) == 0 || yaml11Word(string(s)) {
		return false
	}
	switch s[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '.', '+', ' ':
		return false
	}
	if s[0] >= '0' && s[0] <= '9' && (number(s) || len(s) > 4 && s[4] == '-') {
		return false // a number, or what may be a timestamp
	}
	return true
}

// quoted reads the quoted scalar text starts with, on one line: its
// value and the length of its text. Double quotes take the escapes
// \" \\ \n \t \r and \uXXXX; in single quotes, two single quotes
// stand for one.
func quoted(text []byte) ([]byte, int, bool) {
	q := text[0]
	// Without escapes the value is a slice of text.
	for i := 1; i < len(text); i++ {
		c := text[i]
		switch {
		case c == q && (q == '"' || i+1 == len(text) || text[i+1] != '\''):
			if !utf8.Valid(text[1:i]) {
				return nil, 0, false
			}
			return text[1:i], i + 1, true
		case c == q, c == '\\' && q == '"':
			return quotedEscaped(text)
		case c < 0x20 && c != '\t':
			return nil, 0, false
		}
	}
	return nil, 0, false // the scalar goes on past the line
}

// quotedEscaped is quoted for a scalar with escapes.
func quotedEscaped(text []byte) ([]byte, int, bool) {
	q := text[0]
	var b []byte
	for i := 1; i < len(text); i++ {
		c := text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			b = append(b, '\'')
			i++
		case c == q:
			if !utf8.Valid(b) {
				return nil, 0, false
			}
			return b, i + 1, true
		case c == '\\' && q == '"':
			if i+1 >= len(text) {
				return nil, 0, false
			}
			i++
			switch text[i] {
			case '"', '\\':
				b = append(b, text[i])
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			case 'r':
				b = append(b, '\r')
			case 'u':
				if i+4 >= len(text) {
					return nil, 0, false
				}
				r, err := strconv.ParseUint(string(text[i+1:i+5]), 16, 32)
				if err != nil || (r >= 0xd800 && r < 0xe000) {
					return nil, 0, false
				}
				b = utf8.AppendRune(b, rune(r))
				i += 4
			default:
				return nil, 0, false
			}
		case c < 0x20 && c != '\t':
			return nil, 0, false
		default:
			b = append(b, c)
		}
	}
	return nil, 0, false // the scalar goes on past the line
}

// appendJSONString appends s as encoding/json writes a string (with its
// HTML escaping), copying it as it is when nothing needs escaping.
func appendJSONString[S string | []byte](out []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(string(s))
			return append(out, b...)
		}
	}
	out = append(out, '"')
	out = append(out, s...)
	return append(out, '"')
}

// fastFieldLine finds a field in a document's lines as
// yamlSource.fieldLine finds it in yaml.v3's nodes: the line (from 0) of
// a mapping key, or of a list element's content, and false for exact when
// the path goes past what the document writes (the line is then the last
// field found). ok is false when the walk meets what it does not read (a
// flow collection on the way, an element without content, a line the
// subset does not take): yaml.v3 then decides.
func fastFieldLine(lines []docLine, segs []segment) (line int, exact, ok bool) {
	if len(lines) == 0 || lines[0].indent != 0 || isItem(lines[0].text) {
		return 0, false, false
	}
	// The node reached: the block at lines[i:] with its entries at
	// indent, its first line's text replaced by first when it is a
	// mapping that starts on a list element's line; scalar when the node
	// is a scalar value.
	i, indent, first, scalar := 0, 0, []byte(nil), false
	at := lines[0].num
	for _, s := range segs {
		if scalar {
			return at, false, true
		}
		textAt := func(j int) (int, []byte) {
			if j == i && first != nil {
				return indent, first
			}
			return lines[j].indent, lines[j].text
		}
		if _, t := textAt(i); !isItem(t) { // a mapping
			found, rest := -1, []byte(nil)
			for j := i; j < len(lines); j++ {
				ind, t := textAt(j)
				if ind < indent {
					break
				}
				if ind > indent || isItem(t) {
					continue // inside a value
				}
				k, r, ok := mappingKey(t)
				if !ok {
					return 0, false, false
				}
				if string(k) == s.key {
					found, rest = j, r // the last of duplicate keys counts
				}
			}
			if found < 0 {
				return at, false, true
			}
			at = lines[found].num
			switch {
			case len(rest) > 0 && (rest[0] == '{' || rest[0] == '['):
				return 0, false, false
			case len(rest) > 0:
				scalar = true
			case found+1 < len(lines) && lines[found+1].indent > indent:
				i, indent, first = found+1, lines[found+1].indent, nil
			case found+1 < len(lines) && lines[found+1].indent == indent && isItem(lines[found+1].text):
				i, first = found+1, nil
			default:
				scalar = true // null
			}
			continue
		}
		// A sequence.
		if s.index < 0 {
			return at, false, true
		}
		item, n := -1, 0
		for j := i; j < len(lines); j++ {
			if lines[j].indent < indent {
				break
			}
			if lines[j].indent == indent && isItem(lines[j].text) {
				if n == s.index {
					item = j
					break
				}
				n++
			}
		}
		if item < 0 {
			return at, false, true
		}
		text := lines[item].text[1:]
		col := indent + 1
		for len(text) > 0 && text[0] == ' ' {
			text, col = text[1:], col+1
		}
		switch {
		case len(text) == 0 || isItem(text) || text[0] == '{' || text[0] == '[' || text[0] == '#':
			return 0, false, false
		default:
			at = lines[item].num
			if _, _, isKey := mappingKey(text); isKey {
				i, indent, first = item, col, text
			} else {
				scalar = true
			}
		}
	}
	return at, true, true
}
