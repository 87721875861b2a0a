package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// JUnit XML, as CI test tabs read it (GitLab's unit test reports, and on
// GitHub mikepenz/action-junit-report and dorny/test-reporter): a test
// suite per Deployment, a test case per rule applied, failing with the
// violations of its rule. Each case carries the file and line of the
// field to change (of the Deployment, when it passes), which those readers
// turn into annotations. Warnings fail only with --fail-on warning, and
// are printed to the case's system-out otherwise; a limit skips the case.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	File     string      `xml:"file,attr,omitempty"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitError   `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitError struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// writeJUnit writes out as JUnit XML; failOn is --fail-on, and wd the
// directory file names are made relative to. The documents that could
// not be read come first, in a suite "input", as test cases in error.
func writeJUnit(w io.Writer, out check.Report, failOn, wd string) error {
	doc := junitSuites{Name: "rolloutctl check", Time: "0"}
	v := 0
	if len(out.Findings) > 0 && out.Findings[0].Deployment == "" {
		suite := junitSuite{Name: "input", Time: "0"}
		for ; v < len(out.Findings) && out.Findings[v].Deployment == ""; v++ {
			x := out.Findings[v]
			file := junitPath(x.Location.File, wd)
			suite.Cases = append(suite.Cases, junitCase{Name: fmt.Sprintf("%s:%d", file, x.Location.Line), Classname: "rolloutctl.check.input",
				File: file, Line: x.Location.Line, Time: "0", Error: &junitError{Message: x.Message, Type: x.Rule}})
			suite.Errors++
		}
		suite.Tests = len(suite.Cases)
		doc.Tests, doc.Errors = doc.Tests+suite.Tests, doc.Errors+suite.Errors
		doc.Suites = append(doc.Suites, suite)
	}
	for _, c := range out.Deployments {
		var mine []check.Finding
		for ; v < len(out.Findings) && out.Findings[v].Deployment == c.Deployment; v++ {
			mine = append(mine, out.Findings[v])
		}
		suite := junitSuite{Name: c.Deployment, Time: "0", File: junitPath(c.Location.File, wd)}
		for _, id := range c.Rules {
			tc := junitCase{Name: id, Classname: "rolloutctl.check." + c.Deployment, File: junitPath(c.Location.File, wd), Line: c.Location.Line, Time: "0"}
			var failed, warned, limited []check.Finding
			for _, x := range mine {
				switch {
				case x.Rule == check.RuleLimit && id == check.RuleNeverFinish:
					limited = append(limited, x)
				case x.Rule != id:
				case x.Rule == check.RuleInput:
					tc.Error = &junitError{Message: x.Message, Type: x.Rule}
				case x.Severity == check.SeverityError || x.Severity == check.SeverityWarning && failOn == check.SeverityWarning:
					failed = append(failed, x)
				default:
					warned = append(warned, x)
				}
			}
			switch {
			case tc.Error != nil:
				suite.Errors++
			case len(failed) > 0:
				tc.File, tc.Line = junitPath(failed[0].Location.File, wd), failed[0].Location.Line
				tc.Failure = &junitFailure{Message: failed[0].Message, Type: id, Text: junitText(failed)}
				suite.Failures++
			case len(limited) > 0:
				tc.Skipped = &junitSkipped{Message: limited[0].Message}
				suite.Skipped++
			case len(warned) > 0:
				tc.SystemOut = junitText(warned)
			}
			suite.Cases = append(suite.Cases, tc)
		}
		suite.Tests = len(suite.Cases)
		doc.Tests, doc.Failures, doc.Skipped = doc.Tests+suite.Tests, doc.Failures+suite.Failures, doc.Skipped+suite.Skipped
		doc.Errors += suite.Errors
		doc.Suites = append(doc.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitText lists violations, one a line, each with where to change what.
func junitText(vs []check.Finding) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%s:%d: %s: replicas=%d at +%s: %s\n", v.Location.File, v.Location.Line, v.Location.Field, v.Replicas,
			words.Duration(time.Duration(v.At*float64(time.Second))), v.Message)
	}
	return b.String()
}

// junitPath is a file name as JUnit readers match it to the files of a
// repository: relative to the working directory wd where it is under it,
// with forward slashes, and "stdin" for standard input; never a URL.
func junitPath(name, wd string) string {
	if name == manifest.Stdin || name == "" {
		return "stdin"
	}
	if filepath.IsAbs(name) && wd != "" {
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(name), "./")
}
