package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// agree checks that where fastYAMLToJSON answers, its JSON is what
// sigs.k8s.io/yaml's strict conversion gives, byte for byte, and that it
// answers only for documents that conversion takes.
func agree(t testing.TB, doc []byte) bool {
	got, ok := fastYAMLToJSON(doc)
	if !ok {
		return false
	}
	want, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		t.Fatalf("fastYAMLToJSON(%q) = %s, but sigs.k8s.io/yaml refuses it: %v", doc, got, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("fastYAMLToJSON(%q) =\n%s\nwant\n%s", doc, got, want)
	}
	sameTopLevel(t, got)
	return true
}

// sameTopLevel checks that convertedTopLevel, which stops at kind, reads
// the kind and items topLevel reads in converted JSON, whose keys are
// sorted.
func sameTopLevel(t testing.TB, converted []byte) {
	if len(converted) == 0 || converted[0] != '{' {
		return
	}
	kind, items, at, ok := convertedTopLevel(converted)
	wantKind, wantItems, wantAt, wantOK := topLevel(converted)
	if kind != wantKind || !bytes.Equal(items, wantItems) || at != wantAt || ok != wantOK {
		t.Fatalf("convertedTopLevel(%s) = %q, %s, %d, %v; topLevel gives %q, %s, %d, %v",
			converted, kind, items, at, ok, wantKind, wantItems, wantAt, wantOK)
	}
}

// TestConvertedTopLevel holds convertedTopLevel to topLevel on the JSON
// sigs.k8s.io/yaml converts documents to, with keys that sort around kind
// and items.
func TestConvertedTopLevel(t *testing.T) {
	for _, doc := range []string{
		"kind: Deployment\napiVersion: apps/v1\nmetadata: {name: a}\n",
		"kind: List\nitems:\n- kind: Pod\n",
		"items: []\n", "items:\n- a: 1\n", "kinda: x\nkind: y\nitems: [1]\n", "Kind: X\nkind: Y\n",
		"itemsz: 1\nkind: Z\nzz: {kind: no}\n", "kind: 3\n", "a: 1\n", "\"k\\u0069nd\": Escaped\n", "\u00e9: 1\nkind: Late\n",
	} {
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		sameTopLevel(t, j)
	}
}

// TestFastYAMLAgrees holds the fast path to sigs.k8s.io/yaml on every
// YAML document of the repository's test data, and on a table of the
// subset's edges.
func TestFastYAMLAgrees(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata", "../../examples/rolloutctl/testdata", "testdata"} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return nil
		})
	}
	fast, all := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			if _, err := yaml.YAMLToJSONStrict(doc); err != nil {
				continue
			}
			all++
			if agree(t, doc) {
				fast++
			}
		}
	}
	if all < 50 || fast*2 < all {
		t.Errorf("the fast path took %d of %d documents; want most of at least 50", fast, all)
	}
	for _, doc := range []string{
		"a: 1\nb: -2\nc: 0.5\nd: 1.0\ne: 100m\nf: 128Mi\ng: true\nh: null\ni:\nj: x # a comment\n",
		"z: 1\na: 2\nm:\n  y: 1\n  b: {}\n  c: []\n",
		"k: \"<a & b>\"\nl: 'it''s'\nm: \"tab\\there\\u00e9\"\nn: héllo\n",
		"list:\n- a\n- 1\n- name: x\n  image: y:1\n-\n  nested: true\n- - no\n",
		"list:\n  - name: a\n    ports:\n    - containerPort: 80\n      protocol: TCP\n  - name: b\n",
		"key: \"quoted\" # comment\n\"quoted key\": v\n'single': w\n",
		"url: http://example.com/a#b\nimage: registry.example.com:5000/app:1.2.3\n",
		"big: 123456789012345678\nbigger: 1234567890123456789\n",
		"sel: {app: web, tier: \"front end\"}\nargs: [\"--queue\", orders, 3, 'x']\nempty: {}\nnone: [] # c\n",
	} {
		agree(t, []byte(doc))
	}
}

// TestFastYAMLGivesUp lists what the fast path leaves to sigs.k8s.io/yaml:
// the YAML it does not read, and the scalars YAML 1.1 resolves in ways it
// does not reproduce.
func TestFastYAMLGivesUp(t *testing.T) {
	for _, doc := range []string{
		"a: yes\n", "a: on\n", "a: ~\n", "a: 0777\n", "a: 0x1f\n", "a: 1e3\n", "a: 1_000\n", "a: .inf\n",
		"a: 2001-12-14\n", "a: -0\n", "on: 1\n", "80: http\n", "null: c\n", "true: c\n", "a: {null: c}\n",
		"a: |\n  text\n", "a: >\n  text\n", "a: {b: [c]}\n", "a: [1,\n  2]\n", "a: {b: c, b: d}\n", "a: [x, ]\n", "a: {b:c}\n", "a: &x 1\nb: *x\n", "a: !!str 1\n",
		"a: b\na: c\n", "a: b: c\n", "a:\n  text\n  more\n", "a: \"multi\n  line\"\n", "a: 'x\n  y'\n",
		"- a\n- b\n", "  a: 1\n", "a:\n\tb: 1\n", "%YAML 1.1\na: 1\n", "a: \"\\x41\"\n", "? a\n: b\n",
		"a: 1\n  b: 2\n", "a:\n    b: 1\n  c: 2\n", "a: x\n   continued\n",
		// Found by FuzzFastYAML, each a row here:
		"A:\n#000000\x00",               // a control character in a comment, which YAML refuses
		strings.Repeat("k", 1100) + ":", // an implicit key longer than YAML's 1024 characters
		"A: #\r0",                       // a carriage return alone breaks a line
		"A:\n\t", "A:\n-\t",             // tabs where YAML takes none
		"A: 0X00000_", // a number once its underscores are gone
		// Alike:
		"a: b\x01\n", "a: \u0080\n", "a: b\t#c\n", "a\tb: c\n",
	} {
		if out, ok := fastYAMLToJSON([]byte(doc)); ok {
			t.Errorf("fastYAMLToJSON(%q) = %s, want it left to sigs.k8s.io/yaml", doc, out)
		}
	}
}

// FuzzFastYAML: wherever the fast path answers, sigs.k8s.io/yaml's strict
// conversion takes the document and gives the same JSON.
func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "a:\n- b: c\n  d: [] # x\n", "a: 'b''c'\n", "a: \"\\u00e9\"\n", "b: 1\na: 2\n", "a: -1.50\n",
		"x:\n  y:\n  - 1\n  - z\n", "k: v:1\n", "k: 1.14.2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		agree(t, doc)
	})
}

// TestFastFieldLineAgrees holds the fast walk to yaml.v3's nodes: for
// every field and list element of every YAML document of the test data,
// and a missing child of each, the line and exactness agree wherever the
// fast walk answers.
func TestFastFieldLineAgrees(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata", "../../examples/rolloutctl/testdata", "testdata"} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				files = append(files, path)
			}
			return nil
		})
	}
	answered, asked := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range bytes.Split(data, []byte("\n---\n")) {
			var doc yamlv3.Node
			if yamlv3.Unmarshal(text, &doc) != nil || len(doc.Content) != 1 {
				continue
			}
			lines, ok := yamlLines(text)
			if !ok {
				continue
			}
			y := &yamlSource{text: text, line: 1}
			var walk func(n *yamlv3.Node, path []segment)
			check := func(path []segment) {
				asked++
				line, exact, ok := fastFieldLine(lines, path)
				if !ok {
					return
				}
				answered++
				wantLine, wantExact := y.nodeFieldLine(Document{Item: -1}, path)
				if line+1 != wantLine || exact != wantExact {
					t.Errorf("%s: %v: fast walk gives line %d (exact %v), yaml.v3 %d (exact %v)", f, path, line+1, exact, wantLine, wantExact)
				}
			}
			walk = func(n *yamlv3.Node, path []segment) {
				check(path)
				check(append(slices.Clone(path), segment{key: "missing", index: -1}))
				switch n.Kind {
				case yamlv3.MappingNode:
					for i := 0; i+1 < len(n.Content); i += 2 {
						walk(n.Content[i+1], append(slices.Clone(path), segment{key: n.Content[i].Value, index: -1}))
					}
				case yamlv3.SequenceNode:
					for i, c := range n.Content {
						walk(c, append(slices.Clone(path), segment{key: strconv.Itoa(i), index: i}))
					}
					check(append(slices.Clone(path), segment{key: "99", index: 99}))
				}
			}
			walk(doc.Content[0], nil)
		}
	}
	if answered*2 < asked || asked < 1000 {
		t.Errorf("the fast walk answered %d of %d paths; want most of at least 1000", answered, asked)
	}
}

// FuzzFastFieldLine: wherever the fast walk answers for a document that
// the fast conversion takes, yaml.v3's nodes give the same line and
// exactness.
func FuzzFastFieldLine(f *testing.F) {
	f.Add([]byte("a:\n  b: 1\n  c:\n  - x\n  - d: 2\n    e: 3\n"), "a.c[1].e")
	f.Add([]byte("metadata:\n  name: web\nspec:\n  replicas: 3\n"), "metadata.name")
	f.Add([]byte("a:\n- b: 1\n-   c: 2\n    d: 3\n"), "a[1].d")
	f.Fuzz(func(t *testing.T, doc []byte, path string) {
		if _, ok := fastYAMLToJSON(doc); !ok {
			return
		}
		lines, ok := yamlLines(doc)
		if !ok {
			return
		}
		segs := parsePath(path)
		line, exact, ok := fastFieldLine(lines, segs)
		if !ok {
			return
		}
		y := &yamlSource{text: doc, line: 1}
		wantLine, wantExact := y.nodeFieldLine(Document{Item: -1}, segs)
		if line+1 != wantLine || exact != wantExact {
			t.Fatalf("%q in %q: fast walk gives line %d (exact %v), yaml.v3 %d (exact %v)", path, doc, line+1, exact, wantLine, wantExact)
		}
	})
}
