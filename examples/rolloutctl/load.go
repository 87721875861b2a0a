package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// A manifest is what one -f input holds: the objects rollout.Decode read
// from it, and where in the input each Deployment came from.
type manifest struct {
	name  string // the file name as given, or "<stdin>"
	objs  rollout.Objects
	where []string // where[i] locates objs.Deployments[i]: "document 2, items[0]"
}

// An inputError lists every problem found in an input, one line each, each
// line naming the file and, where known, the line, document, object and
// field.
type inputError struct{ problems []string }

func (e *inputError) Error() string { return strings.Join(e.problems, "\n") }

// newInputError returns an *inputError of problems, each made one line:
// names and values from the input may hold line breaks.
func newInputError(problems ...string) *inputError {
	out := make([]string, len(problems))
	r := strings.NewReplacer("\r", `\r`, "\n", `\n`)
	for i, p := range problems {
		out[i] = r.Replace(p)
	}
	return &inputError{out}
}

// loadManifest reads path ("-" is stdin) and parses it with parseManifest.
func loadManifest(path string, stdin io.Reader) (*manifest, error) {
	var (
		data []byte
		err  error
		name = path
	)
	switch path {
	case "":
		return nil, newInputError("no input: give -f FILE (or -f - for standard input)")
	case "-":
		name = "<stdin>"
		data, err = io.ReadAll(stdin)
	default:
		data, err = os.ReadFile(path)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is named once, below
		}
		return nil, newInputError(fmt.Sprintf("%s: cannot read: %v", name, err))
	}
	return parseManifest(name, data)
}

// parseManifest reads Kubernetes objects from data: JSON (one object, a
// List, or a stream of them) or YAML (one or more documents separated by
// "---", each an object or a List). It keeps what rollout.Decode keeps
// (Deployments, ReplicaSets, Pods) and checks every Deployment with
// rollout.Validate and every ReplicaSet with rollout.ValidateReplicaSet.
// It fails with an *inputError listing every problem, including a file
// without any Deployment.
func parseManifest(name string, data []byte) (*manifest, error) {
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return nil, newInputError(name + ": empty file: no Kubernetes objects")
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return nil, newInputError(name + ": binary data: not YAML or JSON")
	}
	var docs []document
	var problems []string
	if trimmed[0] == '{' {
		docs, problems = splitJSON(name, data)
	} else {
		docs, problems = splitYAML(name, data)
	}
	m := &manifest{name: name}
	skipped := map[string]int{}
	for _, doc := range docs {
		if len(docs) == 1 {
			doc.where = "" // a single document needs no number
		}
		problems = append(problems, m.addDocument(doc, skipped)...)
	}
	problems = append(problems, m.validate()...)
	if len(problems) == 0 && len(m.objs.Deployments) == 0 {
		problems = append(problems, fmt.Sprintf("%s: no Deployment found (%s)", name, found(m.objs, skipped)))
	}
	if len(problems) > 0 {
		return nil, newInputError(problems...)
	}
	return m, nil
}

// A document is one JSON value of the input, and where it is.
type document struct {
	json  []byte
	where string // "document 2"
	line  int    // its first line in the file
}

// splitJSON reads a stream of JSON values.
func splitJSON(name string, data []byte) ([]document, []string) {
	var docs []document
	dec := json.NewDecoder(bytes.NewReader(data))
	for n := 1; ; n++ {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			off := dec.InputOffset()
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = se.Offset
			}
			return nil, []string{fmt.Sprintf("%s:%d: invalid JSON: %v", name, lineOf(data, off), err)}
		}
		docs = append(docs, document{json: raw, where: fmt.Sprintf("document %d", n), line: lineOf(data, start)})
	}
}

// splitYAML splits data at "---" lines and converts each non-empty
// document to JSON. Documents are numbered from 1 in file order, empty ones
// included, so the numbers match what an editor shows.
func splitYAML(name string, data []byte) ([]document, []string) {
	// A document marker line: "---", possibly followed by a space and more.
	docSeparator := regexp.MustCompile(`^---(\s.*)?$`)
	// The line number in the YAML parser's message.
	yamlLine := regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: line (\d+): (.*)$`)
	var docs []document
	var problems []string
	lines := strings.SplitAfter(string(data), "\n")
	flush := func(n, first int, body []string) {
		text := strings.Join(body, "")
		if isBlankYAML(text) {
			return
		}
		j, err := yaml.YAMLToJSON([]byte(text))
		if err != nil {
			msg := err.Error()
			line := first
			if m := yamlLine.FindStringSubmatch(msg); m != nil {
				off, _ := strconv.Atoi(m[1])
				line, msg = first+off-1, "yaml: "+m[2]
			}
			problems = append(problems, fmt.Sprintf("%s:%d: document %d: %s", name, line, n, msg))
			return
		}
		docs = append(docs, document{json: j, where: fmt.Sprintf("document %d", n), line: first})
	}
	n, first := 1, 1
	var body []string
	for i, l := range lines {
		if docSeparator.MatchString(strings.TrimRight(l, "\r\n")) {
			if i > 0 {
				flush(n, first, body)
				n++
			}
			body, first = nil, i+2
			continue
		}
		body = append(body, l)
	}
	flush(n, first, body)
	if len(problems) > 0 {
		return nil, problems
	}
	return docs, nil
}

// isBlankYAML reports whether text holds only blank lines and comments.
func isBlankYAML(text string) bool {
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") && l != "..." {
			return false
		}
	}
	return true
}

func lineOf(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// addDocument decodes one document, a single object or a List, and
// returns its problems.
func (m *manifest) addDocument(doc document, skipped map[string]int) []string {
	loc := m.name
	if doc.where != "" {
		loc = fmt.Sprintf("%s:%d: %s", m.name, doc.line, doc.where)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc.json, &top); err != nil || top == nil {
		return []string{fmt.Sprintf("%s: not a Kubernetes object: %s", loc, describeJSON(doc.json))}
	}
	kind := jsonString(top["kind"])
	_, hasItems := top["items"]
	switch {
	case kind == "" && !hasItems:
		var keys []string
		for _, k := range sortedKeys(top) {
			keys = append(keys, display(k))
		}
		return []string{fmt.Sprintf("%s: not a Kubernetes object: no kind (keys: %s)", loc, strings.Join(keys, ", "))}
	case kind == "List" || strings.HasSuffix(kind, "List") || (kind == "" && hasItems):
		var items []json.RawMessage
		if err := json.Unmarshal(top["items"], &items); err != nil {
			return []string{fmt.Sprintf("%s: %s: items is not a list", loc, kind)}
		}
		var problems []string
		for i, item := range items {
			problems = append(problems, m.addObject(item, join(loc, fmt.Sprintf("items[%d]", i)), skipped)...)
		}
		return problems
	}
	return m.addObject(doc.json, loc, skipped)
}

// addObject decodes one object at loc.
func (m *manifest) addObject(data []byte, loc string, skipped map[string]int) []string {
	var meta struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.Kind == "" {
		return []string{fmt.Sprintf("%s: not a Kubernetes object: %s", loc, describeJSON(data))}
	}
	if meta.Kind == "Deployment" {
		if p := checkStrategy(data); p != "" {
			return []string{fmt.Sprintf("%s: Deployment %q: %s", loc, meta.Metadata.Name, p)}
		}
	}
	objs, err := rollout.Decode(data)
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "Go struct field plain.", "field ")
		return []string{fmt.Sprintf("%s: %s", loc, msg)}
	}
	switch meta.Kind {
	case "Deployment", "ReplicaSet", "Pod":
	default:
		skipped[meta.Kind]++
	}
	for range objs.Deployments {
		m.where = append(m.where, loc)
	}
	m.objs.Deployments = append(m.objs.Deployments, objs.Deployments...)
	m.objs.ReplicaSets = append(m.objs.ReplicaSets, objs.ReplicaSets...)
	m.objs.Pods = append(m.objs.Pods, objs.Pods...)
	return nil
}

// checkStrategy names the field when maxSurge or maxUnavailable cannot be
// read, which rollout.Decode reports without the full path.
func checkStrategy(data []byte) string {
	var d struct {
		Spec struct {
			Strategy struct {
				RollingUpdate map[string]json.RawMessage `json:"rollingUpdate"`
			} `json:"strategy"`
		} `json:"spec"`
	}
	if json.Unmarshal(data, &d) != nil {
		return "" // Decode reports it
	}
	for _, f := range []string{"maxSurge", "maxUnavailable"} {
		raw, ok := d.Spec.Strategy.RollingUpdate[f]
		if !ok || string(raw) == "null" {
			continue
		}
		var v surge.Value
		if err := v.UnmarshalJSON(raw); err != nil {
			return fmt.Sprintf("spec.strategy.rollingUpdate.%s: Invalid value: %s: %v (want a count such as 1 or a percent such as \"25%%\")", f, raw, err)
		}
	}
	return ""
}

// validate checks every Deployment and ReplicaSet as the API server would.
func (m *manifest) validate() []string {
	var problems []string
	for i, d := range m.objs.Deployments {
		for _, e := range unjoin(rollout.Validate(d)) {
			problems = append(problems, fmt.Sprintf("%s: Deployment %q: %v", m.where[i], d.Name, e))
		}
	}
	for _, rs := range m.objs.ReplicaSets {
		for _, e := range unjoin(rollout.ValidateReplicaSet(rs)) {
			problems = append(problems, fmt.Sprintf("%s: %v", m.name, e))
		}
	}
	return problems
}

// unjoin returns the errors joined in err: none for nil.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// pick returns the Deployment named name (or namespace/name), or the only
// one when name is empty.
func (m *manifest) pick(name string) (rollout.Deployment, error) {
	deps := m.objs.Deployments
	if name == "" {
		if len(deps) == 1 {
			return deps[0], nil
		}
		return rollout.Deployment{}, newInputError(fmt.Sprintf("%s holds %d Deployments (%s): choose one with --deployment NAME",
			m.name, len(deps), strings.Join(m.names(), ", ")))
	}
	for _, d := range deps {
		if d.Name == name || d.Namespace+"/"+d.Name == name {
			return d, nil
		}
	}
	return rollout.Deployment{}, newInputError(fmt.Sprintf("%s: no Deployment %q (it holds %s)", m.name, name, strings.Join(m.names(), ", ")))
}

// names lists the Deployments, namespace-qualified outside "default".
func (m *manifest) names() []string {
	var out []string
	for _, d := range m.objs.Deployments {
		out = append(out, qualified(d))
	}
	return out
}

func qualified(d rollout.Deployment) string {
	if d.Namespace == rollout.DefaultNamespace {
		return d.Name
	}
	return d.Namespace + "/" + d.Name
}

// hasReplicaSets reports whether the manifest holds a ReplicaSet of d: one
// d controls, or an orphan its selector matches (which d would adopt).
func (m *manifest) hasReplicaSets(d rollout.Deployment) bool {
	for _, rs := range m.objs.ReplicaSets {
		if rs.Namespace != d.Namespace {
			continue
		}
		ref, ok := rs.ControllerRef()
		if ok && ref.Kind == "Deployment" && ref.Name == d.Name {
			return true
		}
		if !ok && d.Spec.Selector.Matches(rs.Labels) {
			return true
		}
	}
	return false
}

// latest returns the latest time recorded in the manifest (creation,
// deletion and condition times), or fallback when there is none. Commands
// that simulate start there, so that their output depends on the input
// alone.
func (m *manifest) latest(fallback time.Time) time.Time {
	var t time.Time
	see := func(ts ...time.Time) {
		for _, x := range ts {
			if x.After(t) {
				t = x
			}
		}
	}
	for _, d := range m.objs.Deployments {
		see(d.CreationTimestamp, d.DeletionTimestamp)
		for _, c := range d.Status.Conditions {
			see(c.LastUpdateTime, c.LastTransitionTime)
		}
	}
	for _, rs := range m.objs.ReplicaSets {
		see(rs.CreationTimestamp, rs.DeletionTimestamp)
		for _, c := range rs.Status.Conditions {
			see(c.LastTransitionTime)
		}
	}
	for _, p := range m.objs.Pods {
		see(p.CreationTimestamp, p.DeletionTimestamp)
	}
	if t.IsZero() {
		return fallback
	}
	return t
}

func found(o rollout.Objects, skipped map[string]int) string {
	parts := []string{fmt.Sprintf("%d ReplicaSets", len(o.ReplicaSets)), fmt.Sprintf("%d Pods", len(o.Pods))}
	for _, k := range sortedKeys(skipped) {
		parts = append(parts, fmt.Sprintf("%d %s", skipped[k], display(k)))
	}
	return "found " + strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// describeJSON names the kind of a JSON value that is not an object.
func describeJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object without a kind"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// display returns s as it is when it is a plain name, and quoted
// otherwise.
func display(s string) string {
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r == '/' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}

func join(loc, more string) string { return loc + ": " + more }
