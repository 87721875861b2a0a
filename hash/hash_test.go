package hash_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/hash"
)

var update = flag.Bool("update", false, "rewrite testdata/hashes.golden with the current hashes")

const goldenFile = "testdata/hashes.golden"

// spec returns the JSON of a pod spec with one container per name=image pair.
func spec(containers ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"containers":[`)
	for i, c := range containers {
		name, image, _ := strings.Cut(c, "=")
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"image":%q,"name":%q}`, image, name)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// goldenCases are the hashes users' ReplicaSet names are made of. Never
// change a row's template; add rows instead.
func goldenCases() []struct {
	name  string
	t     hash.Template
	count *int32
} {
	web := map[string]string{"app": "web"}
	nginx19 := hash.Template{Labels: web, Spec: spec("nginx=nginx:1.9")}
	count := func(n int32) *int32 { return &n }
	return []struct {
		name  string
		t     hash.Template
		count *int32
	}{
		{name: "empty", t: hash.Template{}},
		{name: "empty/count=0", t: hash.Template{}, count: count(0)},
		{name: "empty/count=1", t: hash.Template{}, count: count(1)},
		{name: "labels-only", t: hash.Template{Labels: web}},
		{name: "labels-and-annotations", t: hash.Template{Labels: web, Annotations: map[string]string{"team": "a"}}},
		{name: "with-hash-label", t: hash.Template{Labels: map[string]string{"app": "web", hash.Label: "5d4b6b8c9f"}}},
		// Upstream vector D.5: labels {a:1, b:2}, terminationGracePeriodSeconds 30, container c img:v1.
		{name: "vector-d5", t: hash.Template{
			Labels: map[string]string{"a": "1", "b": "2"},
			Spec:   []byte(`{"containers":[{"image":"img:v1","name":"c"}],"terminationGracePeriodSeconds":30}`),
		}},
		// The section E template: {app: web}, container c img:v1 / img:v2.
		{name: "web/img:v1", t: hash.Template{Labels: web, Spec: spec("c=img:v1")}},
		{name: "web/img:v1/count=1", t: hash.Template{Labels: web, Spec: spec("c=img:v1")}, count: count(1)},
		{name: "web/img:v2", t: hash.Template{Labels: web, Spec: spec("c=img:v2")}},
		{name: "web/nginx:1.9", t: nginx19},
		{name: "web/nginx:1.9.3", t: hash.Template{Labels: web, Spec: spec("nginx=nginx:1.9.3")}},
		{name: "web/nginx:1.9/count=0", t: nginx19, count: count(0)},
		{name: "web/nginx:1.9/count=1", t: nginx19, count: count(1)},
		{name: "web/nginx:1.9/count=2147483647", t: nginx19, count: count(2147483647)},
	}
}

func TestGolden(t *testing.T) {
	got := map[string]string{}
	var out bytes.Buffer
	for _, c := range goldenCases() {
		h := hash.Sum(c.t)
		if c.count != nil {
			h = hash.SumCollisions(c.t, *c.count)
		}
		got[c.name] = h
		fmt.Fprintf(&out, "%s\t%s\n", c.name, h)
	}
	if *update {
		if err := os.WriteFile(goldenFile, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, h, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("%s: malformed line %q", goldenFile, sc.Text())
		}
		want[name] = h
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sum() mismatch (-want +got):\n%s\n"+
			"!!! THE POD-TEMPLATE-HASH CHANGED. This renames the ReplicaSet of every Deployment of every user:\n"+
			"!!! after upgrading, the controller would create a new ReplicaSet for each unchanged template.\n"+
			"!!! Revert the change. Only with a migration plan, regenerate with: go test ./hash -run TestGolden -update", diff)
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		sum  uint32
		want string
	}{
		{0, "4"},
		{9, "f"},
		{10, "54"},
		// Upstream D.5: SafeEncode("0123456789") = "456789bcdf"; as a sum the
		// leading 0 cannot appear, so check every digit through 1234567890.
		{1234567890, "56789bcdf4"},
		{987654321, "fdcb98765"},
		// Upstream D.5: the FNV-1a sum of the empty PodTemplateSpec dump.
		{4130463924, "85748b7f68"},
		{4294967295, "86f8fbc6f9"},
	}
	for _, tt := range tests {
		if got := hash.Encode(tt.sum); got != tt.want {
			t.Errorf("Encode(%d) = %q, want %q", tt.sum, got, tt.want)
		}
	}
}

// Upstream: TestPodTemplateSpecHash.
func TestSumDistinctImages(t *testing.T) {
	seen := map[string]int{}
	for i := range 1000 {
		tmpl := hash.Template{Spec: spec(fmt.Sprintf("cats=registry/test/cats:v0.%d.0", i))}
		h := hash.Sum(tmpl)
		if j, ok := seen[h]; ok {
			t.Fatalf("Sum(image v0.%d.0) = Sum(image v0.%d.0) = %q", i, j, h)
		}
		seen[h] = i
	}
}

// Upstream: TestComputeHash.
func TestSumCollisions(t *testing.T) {
	empty := hash.Template{}
	pairs := []struct {
		name string
		a, b string
	}{
		{"count 1 vs 2", hash.SumCollisions(empty, 1), hash.SumCollisions(empty, 2)},
		{"no count vs 2147483647", hash.Sum(empty), hash.SumCollisions(empty, 2147483647)},
		{"no count vs 0", hash.Sum(empty), hash.SumCollisions(empty, 0)}, // upstream's nil and 0 differ
		{"count -1 vs 2147483647", hash.SumCollisions(empty, -1), hash.SumCollisions(empty, 2147483647)},
	}
	for _, p := range pairs {
		if p.a == p.b {
			t.Errorf("%s: both hash to %q, want different hashes", p.name, p.a)
		}
	}
}

func TestSumIgnoresRepresentation(t *testing.T) {
	tests := []struct {
		name string
		a, b hash.Template
	}{
		{"nil vs empty labels", hash.Template{}, hash.Template{Labels: map[string]string{}}},
		{"nil vs empty annotations", hash.Template{}, hash.Template{Annotations: map[string]string{}}},
		{"nil vs {} spec", hash.Template{}, hash.Template{Spec: []byte("{}")}},
		{"nil vs null spec", hash.Template{}, hash.Template{Spec: []byte("null")}},
		{"nil vs blank spec", hash.Template{}, hash.Template{Spec: []byte(" \n\t")}},
		{"key order and whitespace", hash.Template{Spec: []byte(`{"a":1,"b":[true]}`)}, hash.Template{Spec: []byte("{ \"b\" : [ true ] ,\n \"a\":1 }")}},
		{"null and empty list members", hash.Template{Spec: []byte(`{"a":1}`)}, hash.Template{Spec: []byte(`{"a":1,"b":null,"c":[]}`)}},
		{"string escaping", hash.Template{Spec: []byte(`{"a":"<é>"}`)}, hash.Template{Spec: []byte(`{"\u0061":"\u003c\u00e9\u003e"}`)}},
	}
	for _, tt := range tests {
		if ga, gb := hash.Sum(tt.a), hash.Sum(tt.b); ga != gb {
			t.Errorf("%s: Sum = %q and %q, want equal", tt.name, ga, gb)
		}
	}
}

func TestSumDistinguishes(t *testing.T) {
	tests := []struct {
		name string
		a, b hash.Template
	}{
		{"label key/value split", hash.Template{Labels: map[string]string{"ab": "c"}}, hash.Template{Labels: map[string]string{"a": "bc"}}},
		{"labels vs annotations", hash.Template{Labels: map[string]string{"a": "b"}}, hash.Template{Annotations: map[string]string{"a": "b"}}},
		{"hash label included", hash.Template{}, hash.Template{Labels: map[string]string{hash.Label: "x"}}},
		{"empty object member kept", hash.Template{Spec: []byte(`{}`)}, hash.Template{Spec: []byte(`{"securityContext":{}}`)}},
		{"number text kept", hash.Template{Spec: []byte(`{"a":1}`)}, hash.Template{Spec: []byte(`{"a":1.0}`)}},
		{"invalid spec bytes", hash.Template{Spec: []byte(`{"a":`)}, hash.Template{Spec: []byte(`{"a":}`)}},
	}
	for _, tt := range tests {
		if ga, gb := hash.Sum(tt.a), hash.Sum(tt.b); ga == gb {
			t.Errorf("%s: Sum = %q for both, want different hashes", tt.name, ga)
		}
	}
}

func TestSumAllocs(t *testing.T) {
	tmpl := hash.Template{Labels: map[string]string{"app": "web"}, Spec: spec("nginx=nginx:1.9")}
	// One allocation: the returned string.
	if n := testing.AllocsPerRun(100, func() { hash.Sum(tmpl) }); n > 1 {
		t.Errorf("Sum allocates %v times, want at most 1", n)
	}
	many := hash.Template{Labels: map[string]string{}, Annotations: map[string]string{}, Spec: tmpl.Spec}
	for i := range 16 {
		many.Labels[fmt.Sprint("label-", i)] = "v"
		many.Annotations[fmt.Sprint("annotation-", i)] = "v"
	}
	if n := testing.AllocsPerRun(100, func() { hash.SumCollisions(many, 1) }); n > 1 {
		t.Errorf("SumCollisions with 16 labels and annotations allocates %v times, want at most 1", n)
	}
}

// clone deep-copies t, keeping nil maps nil.
func clone(t hash.Template) hash.Template {
	return hash.Template{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations), Spec: bytes.Clone(t.Spec)}
}

func TestEqual(t *testing.T) {
	const H = hash.Label
	// tmpl builds a B.1 template: name and nodeName live in the spec JSON.
	tmpl := func(name, nodeName string, annotations, labels map[string]string) hash.Template {
		return hash.Template{
			Labels:      labels,
			Annotations: annotations,
			Spec:        fmt.Appendf(nil, `{"name":%q,"nodeName":%q}`, name, nodeName),
		}
	}
	type m = map[string]string
	tests := []struct {
		name          string
		former, later hash.Template
		want          bool
	}{
		// Upstream: TestEqualIgnoreHash, rows 1-10 (B.1).
		{"same with same pod-template-hash label", tmpl("foo", "foo-node", m{}, m{H: "value-1", "something": "else"}), tmpl("foo", "foo-node", m{}, m{H: "value-1", "something": "else"}), true},
		{"same with different pod-template-hash label", tmpl("foo", "foo-node", m{}, m{H: "value-1", "something": "else"}), tmpl("foo", "foo-node", m{}, m{H: "value-2", "something": "else"}), true},
		{"same with only one pod-template-hash label", tmpl("foo", "foo-node", m{}, m{"something": "else"}), tmpl("foo", "foo-node", m{}, m{H: "value-2", "something": "else"}), true},
		{"different labels, one pod-template-hash label", tmpl("foo", "foo-node", m{}, m{"something": "else"}), tmpl("foo", "foo-node", m{}, m{H: "value-2"}), false},
		{"different label keys", tmpl("foo", "foo-node", m{}, m{H: "value-1"}), tmpl("foo", "foo-node", m{}, m{"something": "else"}), false},
		{"one more label", tmpl("foo", "foo-node", m{}, m{H: "value-1"}), tmpl("foo", "foo-node", m{}, m{H: "value-1", "something": "else"}), false},
		{"different annotations", tmpl("foo", "foo-node", m{"former": "value"}, m{H: "value-1", "something": "else"}), tmpl("foo", "foo-node", m{"latter": "value"}, m{H: "value-1", "something": "else"}), false},
		{"different name", tmpl("foo-1", "foo-node", m{}, m{H: "value-1", "something": "else"}), tmpl("foo-2", "foo-node", m{}, m{H: "value-2", "something": "else"}), false},
		{"different name and node, one pod-template-hash label", tmpl("foo-1", "foo-node-1", m{}, m{"something": "else"}), tmpl("foo-2", "foo-node-2", m{}, m{H: "value-2", "something": "else"}), false},
		{"different node and labels", tmpl("foo", "foo-node-1", m{}, m{"something": "else"}), tmpl("foo", "foo-node-2", m{}, m{"nothing": "else"}), false},

		// Our model.
		{"zero templates", hash.Template{}, hash.Template{}, true},
		{"nil vs empty maps", hash.Template{}, hash.Template{Labels: m{}, Annotations: m{}}, true},
		{"only a pod-template-hash label", hash.Template{}, hash.Template{Labels: m{H: "x"}}, true},
		{"annotation value differs", hash.Template{Annotations: m{"a": "1"}}, hash.Template{Annotations: m{"a": "2"}}, false},
		{"label value differs", hash.Template{Labels: m{"a": "1"}}, hash.Template{Labels: m{"a": "2"}}, false},
		{"spec key order", hash.Template{Spec: []byte(`{"a":1,"b":2}`)}, hash.Template{Spec: []byte(`{"b":2, "a":1}`)}, true},
		{"spec nil vs {} vs null", hash.Template{}, hash.Template{Spec: []byte(`null`)}, true},
		{"spec nil vs blank", hash.Template{Spec: []byte(`{}`)}, hash.Template{Spec: []byte("\n")}, true},
		{"spec null member vs absent", hash.Template{Spec: []byte(`{"a":null}`)}, hash.Template{Spec: []byte(`{}`)}, true},
		{"spec empty list vs absent", hash.Template{Spec: []byte(`{"volumes":[]}`)}, hash.Template{}, true},
		{"spec empty object vs absent", hash.Template{Spec: []byte(`{"securityContext":{}}`)}, hash.Template{}, false},
		{"spec canonical, different", hash.Template{Spec: []byte(`{"a":1}`)}, hash.Template{Spec: []byte(`{"a":2}`)}, false},
		{"spec invalid, same bytes", hash.Template{Spec: []byte(`{"a"`)}, hash.Template{Spec: []byte(`{"a"`)}, true},
		{"spec invalid, different bytes", hash.Template{Spec: []byte(`{"a"`)}, hash.Template{Spec: []byte(` {"a"`)}, false},
		{"spec invalid vs valid", hash.Template{Spec: []byte(`{"a"`)}, hash.Template{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, order := range [][2]hash.Template{{tt.former, tt.later}, {tt.later, tt.former}} {
				a, b := clone(order[0]), clone(order[1])
				if got := hash.Equal(a, b); got != tt.want {
					t.Errorf("Equal(%v, %v) = %v, want %v", order[0], order[1], got, tt.want)
				}
				// Equal must leave its inputs alone, nil-ness included.
				if diff := cmp.Diff(order[0], a); diff != "" {
					t.Errorf("Equal() modified its first argument (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(order[1], b); diff != "" {
					t.Errorf("Equal() modified its second argument (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestEqualAllocs(t *testing.T) {
	a := hash.Template{Labels: map[string]string{"app": "web", hash.Label: "1"}, Annotations: map[string]string{"x": "y"}, Spec: spec("nginx=nginx:1.9")}
	b := clone(a)
	b.Labels[hash.Label] = "2"
	if n := testing.AllocsPerRun(100, func() { hash.Equal(a, b) }); n != 0 {
		t.Errorf("Equal of equal canonical templates allocates %v times, want 0", n)
	}
	// Different but canonical specs must not canonicalize either.
	c := clone(a)
	c.Spec = spec("nginx=nginx:1.9.3")
	if n := testing.AllocsPerRun(100, func() { hash.Equal(a, c) }); n != 0 {
		t.Errorf("Equal of different canonical templates allocates %v times, want 0", n)
	}
}

// Upstream: TestGenerateReplicaSetName and
// TestDeploymentController_generateReplicaSetName (C.8).
func TestName(t *testing.T) {
	tests := []struct {
		name         string
		prefix, hash string
		want         string
	}{
		{"short name", "my-deployment", "abcde12345", "my-deployment-abcde12345"},
		{"242 characters fit", strings.Repeat("a", 242), "abcde12345", strings.Repeat("a", 242) + "-abcde12345"},
		{"250 characters cut to 242", strings.Repeat("b", 250), "abcde12345", strings.Repeat("b", 242) + "-abcde12345"},
		{"nine-character hash leaves 243", strings.Repeat("c", 250), "b54bc767c", strings.Repeat("c", 243) + "-b54bc767c"},
		{"hash too long to cut", strings.Repeat("d", 252), strings.Repeat("h", 252), strings.Repeat("d", 252) + "-" + strings.Repeat("h", 252)},
		{"limit exactly 1", strings.Repeat("e", 5), strings.Repeat("h", 251), "e-" + strings.Repeat("h", 251)},
		{"empty prefix", "", "4", "-4"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, hash.Name(tt.prefix, tt.hash)); diff != "" {
			t.Errorf("%s: Name() mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	// With a real (10-character) hash every name fits.
	h := hash.Sum(hash.Template{})
	for _, n := range []int{0, 13, 242, 243, 250, 1000} {
		if got := hash.Name(strings.Repeat("a", n), h); len(got) > 253 || !strings.HasSuffix(got, "-"+h) {
			t.Errorf("Name(%d a's, %q) = %d bytes ending %q, want at most 253 ending in -hash", n, h, len(got), got[max(0, len(got)-12):])
		}
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", "{}"},
		{"blank", " \t\r\n", "{}"},
		{"empty object", "{}", "{}"},
		{"key order", `{"b":1,"a":2,"c":3}`, `{"a":2,"b":1,"c":3}`},
		{"key order is byte-wise", `{"b":1,"B":2,"é":3,"a":4}`, `{"B":2,"a":4,"b":1,"é":3}`},
		{"key order by decoded key", `{"\u0062":1,"a\"":2,"a":3}`, `{"a":3,"a\"":2,"b":1}`},
		{"escaped key order", `{"a\u0001":1,"a\n":2,"a!":3}`, `{"a\u0001":1,"a\n":2,"a!":3}`},
		{"whitespace", "{ \"a\" :\n[ 1 , 2 ]\t, \"b\" : { } }", `{"a":[1,2],"b":{}}`},
		{"null member dropped", `{"a":null,"b":1}`, `{"b":1}`},
		{"empty array member dropped", `{"a":[],"b":[ ]}`, `{}`},
		{"empty object member kept", `{"a":{}}`, `{"a":{}}`},
		{"nested", `{"z":{"y":null,"x":[{"b":1,"a":[]}]},"a":0}`, `{"a":0,"z":{"x":[{"b":1}]}}`},
		{"array elements kept", `[null,[],{},1]`, `[null,[],{},1]`},
		{"top-level null", `null`, `null`},
		{"top-level empty array", ` [ ] `, `[]`},
		{"duplicate keys, last wins", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"duplicate keys, last null drops", `{"a":1,"a":null}`, `{}`},
		{"duplicate keys by decoded form", `{"a":1,"\u0061":2}`, `{"a":2}`},
		{"numbers verbatim", `[0,-0,1.50,1e10,1E+10,-2.5e-3,12345678901234567890123]`, `[0,-0,1.50,1e10,1E+10,-2.5e-3,12345678901234567890123]`},
		{"literals", `[true,false,null]`, `[true,false,null]`},
		{"short escapes", `"\"\\\/\b\f\n\r\t"`, `"\"\\/\b\f\n\r\t"`},
		{"unicode escapes decoded", `"\u0041\u00e9\u4e16\ud83d\ude00"`, `"Aé世😀"`},
		{"upper-case hex", `"\u00E9\u001F"`, `"é\u001f"`},
		{"control characters", `"\u0000\u0001\u0008\u000c\u001f\u007f"`, `"\u0000\u0001\b\f\u001f` + "\x7f" + `"`},
		{"html not escaped", `"\u003c\u003e\u0026<>&"`, `"<>&<>&"`},
		{"line separators escaped", "\"\u2028\\u2029\"", `"\u2028\u2029"`},
		{"lone surrogate", `"\ud800x\udc00"`, "\"\uFFFDx\uFFFD\""},
		{"reversed surrogates", `"\udc00\ud800"`, "\"\uFFFD\uFFFD\""},
		{"high surrogate then non-surrogate", `"\ud800\u0041"`, "\"\uFFFDA\""},
		{"invalid UTF-8", "\"a\xffb\xc0\"", "\"a\uFFFDb\uFFFD\""},
		{"surrogate in UTF-8", "\"\xed\xa0\x80\"", "\"\uFFFD\uFFFD\uFFFD\""},
		{"replacement character kept", "\"\uFFFD\"", "\"\uFFFD\""},
		{"string", ` "x" `, `"x"`},
		{"deep nesting within limit", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10000) + strings.Repeat("]", 10000)},
	}
	for _, tt := range tests {
		got, err := hash.Canonical(nil, []byte(tt.in))
		if err != nil {
			t.Errorf("%s: Canonical(%q) error: %v", tt.name, tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("%s: Canonical() mismatch (-want +got):\n%s", tt.name, diff)
		}
		if !hash.IsCanonical(got) {
			t.Errorf("%s: IsCanonical(%q) = false, want true", tt.name, got)
		}
		if again, err := hash.Canonical(nil, got); err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: Canonical(%q) = %q, %v, want it unchanged", tt.name, got, again, err)
		}
	}
}

func TestCanonicalAppends(t *testing.T) {
	dst := []byte("prefix:")
	got, err := hash.Canonical(dst, []byte(`{"b":1,"a":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`prefix:{"b":1}`, string(got)); diff != "" {
		t.Errorf("Canonical() mismatch (-want +got):\n%s", diff)
	}
	got, err = hash.Canonical(dst, []byte(`{"b":`))
	if err == nil || string(got) != "prefix:" {
		t.Errorf(`Canonical("prefix:", invalid) = %q, %v, want "prefix:" and an error`, got, err)
	}
}

func TestCanonicalErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		offset int64 // as encoding/json reports it
	}{
		{"truncated object", `{"a":`, 5},
		{"trailing comma", `{"a":1,}`, 8},
		{"missing colon", `{"a" 1}`, 6},
		{"unquoted key", `{a:1}`, 2},
		{"trailing data", `{} {}`, 4},
		{"bad literal", `[tru]`, 5},
		{"leading zero", `01`, 2},
		{"bare minus", `-`, 1},
		{"bad fraction", `1.`, 2},
		{"bad exponent", `1e+`, 3},
		{"single quotes", `'a'`, 1},
		{"bad escape", `"\x"`, 3},
		{"apostrophe escape", `"\'"`, 3},
		{"short unicode escape", `"\u12"`, 6},
		{"control character in string", "\"a\nb\"", 3},
		{"unterminated string", `"abc`, 4},
		{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), 10001},
		{"byte order mark", "\uFEFF{}", 1},
		// Found by FuzzCanonical: Unicode spaces are not JSON whitespace.
		{"line separator alone", "\u2028", 1},
		{"no-break space", "\u00a0{}", 1},
		{"NaN", `NaN`, 1},
		{"lone close", `}`, 1},
	}
	for _, tt := range tests {
		got, err := hash.Canonical(nil, []byte(tt.in))
		if err == nil {
			t.Errorf("%s: Canonical(%.40q) = %q, want an error", tt.name, tt.in, got)
			continue
		}
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Canonical(%.40q) error %v does not wrap a *json.SyntaxError", tt.name, tt.in, err)
			continue
		}
		if se.Offset != tt.offset {
			t.Errorf("%s: Canonical(%.40q) error offset %d, want %d", tt.name, tt.in, se.Offset, tt.offset)
		}
		if want := fmt.Sprintf("hash: invalid JSON at offset %d: ", tt.offset); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: Canonical(%.40q) error %q, want prefix %q", tt.name, tt.in, err, want)
		}
	}
}

func TestIsCanonical(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{``, false},
		{`{}`, true},
		{` {}`, false},
		{`{} `, false},
		{`{"a":1,"b":2}`, true},
		{`{"b":2,"a":1}`, false},
		{`{"a":1,"a":1}`, false},
		{`{"a":null}`, false},
		{`{"a":[]}`, false},
		{`{"a":[null,[]]}`, true},
		{`{"a":{}}`, true},
		{`{"a":{"c":1,"b":1}}`, false},
		{`[1, 2]`, false},
		{`"\/"`, false},
		{`"\u0041"`, false},
		{`"\u001F"`, false},
		{`"\u001f"`, true},
		{`"\u000a"`, false},
		{`"\n"`, true},
		{`"\u2028"`, true},
		{"\"\u2028\"", false},
		{"\"\xff\"", false},
		{"\"\uFFFD\"", true},
		{`"<>&"`, true},
		{`1.0`, true},
		{`01`, false},
		{`{"a":1}x`, false},
		{`{"a\u0001":1,"a\n":2}`, true},
		{`{"a\n":1,"a\u0001":2}`, false},
		// Keys sort by decoded bytes: é is C3 A9, U+2028 is E2 80 A8, "~" is 7E.
		{`{"~":0,"é":2,"\u2028":1}`, true},
		{`{"~":0,"\u2028":1,"é":2}`, false},
	}
	for _, tt := range tests {
		if got := hash.IsCanonical([]byte(tt.in)); got != tt.want {
			t.Errorf("IsCanonical(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestIsCanonicalExhaustive checks IsCanonical against Canonical on every
// one-byte string, every \uXXXX escape and every one- and two-byte document.
// IsCanonical(b) must equal "Canonical(nil, b) == b" exactly.
func TestIsCanonicalExhaustive(t *testing.T) {
	check := func(in []byte) {
		t.Helper()
		c, err := hash.Canonical(nil, in)
		want := err == nil && len(in) > 0 && bytes.Equal(c, in)
		if got := hash.IsCanonical(in); got != want {
			t.Fatalf("IsCanonical(%q) = %v, want %v (Canonical = %q, %v)", in, got, want, c, err)
		}
	}
	for b := range 256 {
		check([]byte{'"', byte(b), '"'})
		check([]byte{byte(b)})
		for b2 := range 256 {
			check([]byte{byte(b), byte(b2)})
		}
	}
	for r := range 0x10000 {
		check(fmt.Appendf(nil, `"\u%04x"`, r))
	}
}

func TestIsCanonicalAllocs(t *testing.T) {
	b := []byte(`{"containers":[{"env":[{"name":"A\n","value":"\u0001é"}],"image":"nginx:1.9","name":"nginx","ports":[{"containerPort":80}]}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","terminationGracePeriodSeconds":30}`)
	if !hash.IsCanonical(b) {
		t.Fatalf("IsCanonical(%s) = false", b)
	}
	if n := testing.AllocsPerRun(100, func() { hash.IsCanonical(b) }); n != 0 {
		t.Errorf("IsCanonical allocates %v times, want 0", n)
	}
}
