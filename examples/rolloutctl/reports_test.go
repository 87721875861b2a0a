package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// allFindings runs check over the policy manifests with every rule on, so
// that the reports hold errors, warnings and related locations.
func allFindings(t *testing.T, format string, extra ...string) result {
	t.Helper()
	args := append([]string{"check", "--format", format, "--max-pods", "12", "--min-available", "90%", "--max-duration", "3m"},
		policyArgs("checkout.yaml", "quota-throttles.yaml", "indexer.yaml", "frontend.yaml", "pdb-three.yaml", "gateway.yaml", "gateway-hpa.yaml", "orders.yaml")...)
	r := runCLI(t, "", append(args, extra...)...)
	r.wantCode(t, args, exitViolation)
	return r
}

func sarifSchema(t *testing.T) *jsonSchema {
	t.Helper()
	b, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := newJSONSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCheckSARIFValidates holds check's SARIF to the OASIS SARIF 2.1.0
// schema, and each result to what code scanning needs: a rule the driver
// lists, at its index, and a file and line that exist.
func TestCheckSARIFValidates(t *testing.T) {
	r := allFindings(t, "sarif")
	doc, err := decodeJSON([]byte(r.stdout))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if errs := sarifSchema(t).validate(doc); len(errs) > 0 {
		t.Fatalf("SARIF does not validate:\n%s", strings.Join(errs, "\n"))
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) < 8 {
		t.Fatalf("%d results, want the policy manifests' findings", len(run.Results))
	}
	levels := map[string]bool{}
	for _, res := range run.Results {
		levels[res.Level] = true
		if rule := run.Tool.Driver.Rules[res.RuleIndex]; rule.ID != res.RuleID {
			t.Errorf("result %s: ruleIndex %d is rule %s", res.RuleID, res.RuleIndex, rule.ID)
		}
		for _, loc := range append(res.Locations, res.RelatedLocations...) {
			file, line := loc.PhysicalLocation.ArtifactLocation.URI, loc.PhysicalLocation.Region.StartLine
			if lines := readLines(t, filepath.FromSlash(file)); line > len(lines) {
				t.Errorf("result %s: %s:%d is past the end of the file", res.RuleID, file, line)
			}
		}
	}
	if !levels["error"] || !levels["warning"] {
		t.Errorf("levels %v, want errors and warnings", levels)
	}
}

// TestSchemaValidatorRejects: the validator finds what the schema
// forbids, so that a passing SARIF test means something.
func TestSchemaValidatorRejects(t *testing.T) {
	s := sarifSchema(t)
	for _, bad := range []struct{ name, doc, want string }{
		{"no runs", `{"version": "2.1.0"}`, `required property "runs" missing`},
		{"wrong version", `{"version": "2.0.0", "runs": []}`, "is not one of"},
		{"unknown property", `{"version": "2.1.0", "runs": [], "extra": 1}`, `property "extra" is not allowed`},
		{"result without message", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "r"}]}]}`, `required property "message" missing`},
		{"bad level", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`, "is not one of"},
		{"line 0", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"},
			"locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.yaml"}, "region": {"startLine": 0}}}]}]}]}`, "below the minimum 1"},
		{"bad uri", `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"},
			"locations": [{"physicalLocation": {"artifactLocation": {"uri": "a b.yaml"}}}]}]}]}`, "is not a uri-reference"},
	} {
		doc, err := decodeJSON([]byte(bad.doc))
		if err != nil {
			t.Fatalf("%s: %v", bad.name, err)
		}
		if errs := s.validate(doc); !strings.Contains(strings.Join(errs, "\n"), bad.want) {
			t.Errorf("%s: errors %q, want %q", bad.name, errs, bad.want)
		}
	}
}

// xmlNode is an element of a generic XML tree.
type xmlNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xmlNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n xmlNode) attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// junitElements are the elements and attributes that GitLab's JUnit
// reports and GitHub's readers (mikepenz/action-junit-report,
// dorny/test-reporter) take: testsuites, testsuite, testcase with its
// file and line, failure, skipped, system-out.
var junitElements = map[string][]string{
	"testsuites": {"name", "tests", "failures", "errors", "skipped", "time"},
	"testsuite":  {"name", "tests", "failures", "errors", "skipped", "time", "file"},
	"testcase":   {"name", "classname", "file", "line", "time"},
	"failure":    {"message", "type"},
	"skipped":    {"message"},
	"system-out": {},
}

// TestCheckJUnit holds check's JUnit XML to what GitHub's and GitLab's
// readers take: only those elements and attributes, counts that add up,
// and a file and line that exist on each failing case.
func TestCheckJUnit(t *testing.T) {
	r := allFindings(t, "junit")
	var root xmlNode
	if err := xml.Unmarshal([]byte(r.stdout), &root); err != nil {
		t.Fatalf("not XML: %v\n%s", err, r.stdout)
	}
	if root.XMLName.Local != "testsuites" {
		t.Fatalf("root %s, want testsuites", root.XMLName.Local)
	}
	count := func(n xmlNode, attr string) int {
		v, _ := n.attr(attr)
		i, err := strconv.Atoi(v)
		if err != nil {
			t.Errorf("<%s %s=%q>: not a number", n.XMLName.Local, attr, v)
		}
		return i
	}
	var walk func(n xmlNode, parent string)
	walk = func(n xmlNode, parent string) {
		name := n.XMLName.Local
		allowed, ok := junitElements[name]
		if !ok {
			t.Errorf("element <%s> in <%s>: not one JUnit readers take", name, parent)
		}
		for _, a := range n.Attrs {
			if !slices.Contains(allowed, a.Name.Local) {
				t.Errorf("<%s %s>: not an attribute JUnit readers take", name, a.Name.Local)
			}
		}
		for _, c := range n.Children {
			walk(c, name)
		}
	}
	walk(root, "")
	var tests, failures, skipped int
	for _, suite := range root.Children {
		st, sf, ss := 0, 0, 0
		for _, tc := range suite.Children {
			st++
			for _, want := range []string{"name", "classname", "file", "line"} {
				if v, ok := tc.attr(want); !ok || v == "" {
					t.Errorf("testcase %v: no %s", tc.Attrs, want)
				}
			}
			for _, c := range tc.Children {
				switch c.XMLName.Local {
				case "failure":
					sf++
					file, _ := tc.attr("file")
					line, _ := tc.attr("line")
					n, _ := strconv.Atoi(line)
					if lines := readLines(t, filepath.FromSlash(file)); n < 1 || n > len(lines) {
						t.Errorf("failing testcase at %s:%s: no such line", file, line)
					}
				case "skipped":
					ss++
				}
			}
		}
		if count(suite, "tests") != st || count(suite, "failures") != sf || count(suite, "skipped") != ss {
			t.Errorf("testsuite %v: counts do not add up to %d tests, %d failures, %d skipped", suite.Attrs, st, sf, ss)
		}
		tests, failures, skipped = tests+st, failures+sf, skipped+ss
	}
	if count(root, "tests") != tests || count(root, "failures") != failures || count(root, "skipped") != skipped || failures == 0 {
		t.Errorf("testsuites %v: want %d tests, %d failures, %d skipped", root.Attrs, tests, failures, skipped)
	}
}

// TestCheckGitHub: one workflow command per finding, at the line of the
// field, escaped so that a message cannot end the command early, but for
// a rule broken at several replica counts of a range: only its findings
// at the first count it is broken at, the last of them naming the
// others; then one notice per note of the report, without a file.
func TestCheckGitHub(t *testing.T) {
	r := allFindings(t, "github")
	json := allFindings(t, "json")
	var out check.Report
	if err := jsonUnmarshal(json.stdout, &out); err != nil {
		t.Fatal(err)
	}
	var annotated []check.Finding
	named := 0
	for i, f := range out.Findings {
		if slices.ContainsFunc(out.Findings[:i], func(g check.Finding) bool {
			return g.Deployment == f.Deployment && g.Severity == f.Severity && g.Rule == f.Rule && g.Replicas != f.Replicas
		}) {
			named++
			continue
		}
		annotated = append(annotated, f)
	}
	if named == 0 {
		t.Fatal("no finding of a rule at a second replica count: the test shows nothing of ranges")
	}
	if also := strings.Count(r.stdout, "more count"); also == 0 {
		t.Errorf("no annotation names the other counts of its rule:\n%s", r.stdout)
	}
	out.Findings = annotated
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != len(out.Findings)+len(out.Notes) || len(out.Notes) == 0 {
		t.Fatalf("%d annotations for %d violations and %d notes", len(lines), len(out.Findings), len(out.Notes))
	}
	for i, n := range out.Notes {
		if want := "::notice title=rolloutctl note::" + ghData(n); lines[len(out.Findings)+i] != want {
			t.Errorf("annotation %q, want %q", lines[len(out.Findings)+i], want)
		}
	}
	lines = lines[:len(out.Findings)]
	re := regexp.MustCompile(`^::(error|warning|notice) file=([^,:]+),line=(\d+),title=rolloutctl [a-z-]+::[^\n\r]+$`)
	for i, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("annotation %q is not a workflow command", l)
			continue
		}
		if v := out.Findings[i]; m[2] != v.Location.File || m[3] != strconv.Itoa(v.Location.Line) {
			t.Errorf("annotation %q, want %s:%d", l, v.Location.File, v.Location.Line)
		}
	}
	if got := ghData("50% done\nnext"); got != "50%25 done%0Anext" {
		t.Errorf("ghData = %q", got)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestReportPairs: --format F --output FILE pairs write several reports
// at once, standard output holding one at most; misplaced or clashing
// outputs are usage errors.
func TestReportPairs(t *testing.T) {
	dir := t.TempDir()
	sarif, junit := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "out.xml")
	args := []string{"check", "-f", policyPath("checkout.yaml"), "-f", policyPath("quota-blocks.yaml"),
		"--format", "sarif", "--output", sarif, "--format", "junit", "--output", junit, "--format", "text"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	if !strings.HasPrefix(afterModel(t, r.stdout), "FAIL payments/checkout") {
		t.Errorf("stdout: %q, want the text report alone", r.stdout)
	}
	for _, f := range []string{sarif, junit} {
		if b, err := os.ReadFile(f); err != nil || len(b) == 0 {
			t.Errorf("%s: %v, %d bytes", f, err, len(b))
		}
	}
	only := runCLI(t, "", "check", "-f", policyPath("checkout.yaml"), "--format", "json", "--output", filepath.Join(dir, "x.json"))
	if only.code != exitOK || only.stdout != "" {
		t.Errorf("all reports to files: exit %d, stdout %q", only.code, only.stdout)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--output", "x.json"}, "give --format F before each --output FILE"},
		{[]string{"--format", "json", "--format", "text"}, "two reports for standard output"},
		{[]string{"--format", "json", "--output", "a", "--format", "sarif", "--output", "a"}, "--output a given twice"},
		{[]string{"--format", "svg"}, `--format "svg": want text, json, yaml, sarif, junit or github`},
	} {
		args := append([]string{"check", "-f", policyPath("checkout.yaml")}, bad.args...)
		r := runCLI(t, "", args...)
		if r.code != exitBadInput || !strings.Contains(r.stderr, bad.want) {
			t.Errorf("run(%q) = %d, stderr %q; want 2 and %q", args, r.code, r.stderr, bad.want)
		}
	}
}
