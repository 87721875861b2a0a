package main

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `package p

const limit = 253

func f(a, b int, s string) (int, bool) {
	buf := make([]byte, 0, 16)
	var arr [8]byte
	_, _ = buf, arr
	if a < b && s != "" {
		a += 2
		return a, true
	}
	for i := 0; i < b; i++ {
		a++
		continue
	}
	s = s + "x"
	g()
	return a * b, false
}

func g() {}
`

// TestMutants pins the mutants of a small file: every kind the tool makes,
// and the sizes and string sums it leaves alone.
func TestMutants(t *testing.T) {
	ms, err := Mutants(token.NewFileSet(), "p/p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.ID())
	}
	want := []string{
		`p/p.go - @15 [253 -> 253+1] const limit = 253`,
		`p/p.go - @15 [253 -> 253-1] const limit = 253`,
		`p/p.go f @21 [0 -> 0+1] buf := make([]byte, 0, 16)`,
		`p/p.go f @21 [0 -> 0-1] buf := make([]byte, 0, 16)`,
		`p/p.go f @1 [remove statement] _, _ = buf, arr`,
		`p/p.go f @4 [negate if] if a < b && s != "" {`,
		`p/p.go f @6 [< -> <=] if a < b && s != "" {`,
		`p/p.go f @6 [< -> >=] if a < b && s != "" {`,
		`p/p.go f @10 [&& -> ||] if a < b && s != "" {`,
		`p/p.go f @15 [!= -> ==] if a < b && s != "" {`,
		`p/p.go f @1 [remove statement] a += 2`,
		`p/p.go f @3 [+= -> -=] a += 2`,
		`p/p.go f @6 [2 -> 2+1] a += 2`,
		`p/p.go f @6 [2 -> 2-1] a += 2`,
		`p/p.go f @1 [remove statement] return a, true`,
		`p/p.go f @11 [true -> false] return a, true`,
		`p/p.go f @10 [0 -> 0+1] for i := 0; i < b; i++ {`,
		`p/p.go f @10 [0 -> 0-1] for i := 0; i < b; i++ {`,
		`p/p.go f @15 [< -> <=] for i := 0; i < b; i++ {`,
		`p/p.go f @15 [< -> >=] for i := 0; i < b; i++ {`,
		`p/p.go f @21 [++ -> --] for i := 0; i < b; i++ {`,
		`p/p.go f @1 [remove statement] a++`,
		`p/p.go f @2 [++ -> --] a++`,
		`p/p.go f @1 [remove statement] continue`,
		`p/p.go f @1 [remove statement] s = s + "x"`,
		`p/p.go f @1 [remove statement] g()`,
		`p/p.go f @10 [* -> /] return a * b, false`,
		`p/p.go f @15 [false -> true] return a * b, false`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Mutants() IDs mismatch (-want +got):\n%s", diff)
	}
}

// TestApply checks that each mutant of the sample still parses, changes
// the source, and changes it where its ID says.
func TestApply(t *testing.T) {
	ms, err := Mutants(token.NewFileSet(), "p/p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		out := string(m.Apply([]byte(sample)))
		if out == sample {
			t.Errorf("%s: Apply changed nothing", m.ID())
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("%s: the mutated source does not parse: %v", m.ID(), err)
		}
		lines := strings.Split(out, "\n")
		if !strings.Contains(sample, strings.TrimSpace(lines[m.Line-1])) || m.Op == "remove statement" {
			continue
		}
		t.Errorf("%s: line %d unchanged: %q", m.ID(), m.Line, lines[m.Line-1])
	}
	negate := ms[5]
	if got := strings.Split(string(negate.Apply([]byte(sample))), "\n")[8]; got != "\tif !(a < b && s != \"\") {" {
		t.Errorf("negate if: line 9 = %q", got)
	}
}

// TestMutantsSameID: two mutants that would have the same ID are told apart
// by a number.
func TestMutantsSameID(t *testing.T) {
	src := "package p\n\nfunc f(a int) int {\n\tif a > 0 {\n\t\ta--\n\t}\n\tif a > 0 {\n\t\ta--\n\t}\n\treturn a\n}\n"
	ms, err := Mutants(token.NewFileSet(), "p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.ID()] {
			t.Errorf("two mutants named %s", m.ID())
		}
		seen[m.ID()] = true
	}
	if !seen["p.go f @1 [remove statement #2] a--"] {
		t.Errorf("no second removal of a--: %v", seen)
	}
}

func TestParseEquivalents(t *testing.T) {
	list := "# header\n\nmutant: a.go f @1 [x] y\nreason: one\n  and two\n\nmutant: b.go g @2 [z] w\nreason: three\n"
	got, err := parseEquivalents(strings.NewReader(list))
	if err != nil {
		t.Fatal(err)
	}
	want := []equivalent{{ID: "a.go f @1 [x] y", Reason: "one and two", Line: 3}, {ID: "b.go g @2 [z] w", Reason: "three", Line: 7}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseEquivalents() mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"mutant: a.go f @1 [x] y\n",                                         // no reason
		"reason: orphan\n",                                                  // no mutant
		"mutant: a\nreason: r\nmutant: a\nreason: r\n",                      // listed twice
		"mutant: a\nreason: r\nsomething else\n",                            // not the format
		"mutant: a.go f @1 [x] y\nreason: r\nmutant: b.go g @1 [x] y\n\n\n", // the last has no reason
	} {
		if _, err := parseEquivalents(strings.NewReader(bad)); err == nil {
			t.Errorf("parseEquivalents(%q) = nil error", bad)
		}
	}
}

func TestReport(t *testing.T) {
	m := func(op string) Mutant { return Mutant{File: "p.go", Func: "f", Col: 1, Code: "x", Op: op} }
	outs := []outcome{
		{m("a"), killed, "TestA"}, {m("b"), survived, ""}, {m("c"), survived, ""},
		{m("d"), invalid, "syntax"}, {m("e"), byNet, "TestGolden"}, {m("f"), killed, "TestF"},
	}
	equivalents := []equivalent{{ID: m("b").ID(), Reason: "r"}, {ID: m("f").ID(), Reason: "r"}, {ID: "gone", Reason: "r"}}
	c := count(outs, equivalents)
	if want := (counts{all: 6, invalid: 1, killed: 2, byNet: 1, survived: 1, equivalent: 1}); c != want {
		t.Errorf("count() = %+v, want %+v", c, want)
	}
	if got, want := c.score(), 75.0; got != want { // 3 killed of 6 - 1 invalid - 1 equivalent
		t.Errorf("score() = %v, want %v", got, want)
	}
	var b strings.Builder
	if code := report(&b, outs, equivalents, true); code != 1 {
		t.Errorf("report() = %d, want 1", code)
	}
	for _, want := range []string{"SURVIVED p.go:0: " + m("c").ID(), "ONLY BY TestGolden", "LISTED BUT KILLED (TestF)", "STALE (listed on line 0, no such mutant): gone"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report() output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if code := report(&b, []outcome{{m("a"), killed, "TestA"}, {m("b"), survived, ""}}, equivalents[:1], true); code != 0 {
		t.Errorf("report() = %d with every survivor listed, want 0:\n%s", code, b.String())
	}
}

// TestRunner tests the mutants of a small module of its own: a mutant a
// test catches is killed, one only the net catches is reported so, one no
// test sees survives, and one that does not compile is told apart.
func TestRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary per mutant")
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"p/p.go": "package p\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Pos(a int) bool { return a > 0 }\n\n" +
			"func One() int { return 1 }\n\nconst Max uint8 = 255\n\nfunc Twice(a int) int {\n\tn := a\n\tn += a\n\treturn n\n}\n",
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 || Twice(2) != 4 || Max != 255 {\n\t\tt.Fatal(Add(2, 3))\n\t}\n}\n\n" +
			"func TestNet(t *testing.T) {\n\tif Pos(0) || !Pos(1) {\n\t\tt.Fatal()\n\t}\n}\n",
	}
	for name, text := range files {
		if err := writeFile(root, name, text); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Chdir(root)
	mutants, sources, chk, err := packageMutants(t.Context(), root, "p", regexpAll)
	if err != nil {
		t.Fatal(err)
	}
	c := config{jobs: 2, nets: "^TestNet$"}
	var progress strings.Builder
	outs, err := testPackage(t.Context(), c, root, "p", chk, mutants, sources, &progress)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range outs {
		got[o.Mutant.Func+" "+o.Mutant.Op] = o.Status.String() + by(o)
		if o.Status == invalid && strings.Contains(o.By, "overflows") {
			got[o.Mutant.Func+" "+o.Mutant.Op] = "not compiling: overflows"
		}
	}
	want := map[string]string{
		"Add + -> -":             "killed (TestAdd)",
		"Pos > -> >=":            "killed by a net only (TestNet)",
		"Pos > -> <=":            "killed by a net only (TestNet)",
		"Pos 0 -> 0+1":           "killed by a net only (TestNet)",
		"Pos 0 -> 0-1":           "killed by a net only (TestNet)",
		"One 1 -> 1+1":           "survived (no test runs it)",
		"One 1 -> 1-1":           "survived (no test runs it)",
		"Twice remove statement": "killed (TestAdd)",
		"Twice += -> -=":         "killed (TestAdd)",
		"- 255 -> 255+1":         "not compiling: overflows",
		"- 255 -> 255-1":         "killed (TestAdd)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes mismatch (-want +got):\n%s\nprogress:\n%s", diff, progress.String())
	}
}

func TestParseIDs(t *testing.T) {
	text := "# a comment\n" +
		"p.go f @1 [x] y\n" +
		"mutant: p.go f @2 [x] y\n" +
		"SURVIVED p.go:12: p.go f @3 [x] y: z\n" +
		"ONLY BY TestGolden p.go:12: p.go f @4 [x] y\n" +
		"  [3/9] survived: p.go f @5 [x] y\n" +
		"  [4/9] killed by a net only (TestGolden): p.go f @6 [x] y\n\n"
	want := map[string]bool{}
	for _, id := range []string{"p.go f @1 [x] y", "p.go f @2 [x] y", "p.go f @3 [x] y: z", "p.go f @4 [x] y", "p.go f @5 [x] y", "p.go f @6 [x] y"} {
		want[id] = true
	}
	if diff := cmp.Diff(want, parseIDs(text)); diff != "" {
		t.Errorf("parseIDs() mismatch (-want +got):\n%s", diff)
	}
}
