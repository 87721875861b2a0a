package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// RuleInput is the rule of a document that cannot be read as the API
// server reads it: a syntax error, a field it refuses, an object given
// twice where it cannot be told apart. Its findings have severity error
// and cause input, and name no Deployment when the document is not one.
const RuleInput = "input"

// inputFinding is a problem with the input at file:line; text is the
// whole problem, "file:line: message" (the line left out when 0).
func inputFinding(file string, line int, text string) Finding {
	msg := text
	prefix := file + ": "
	if line > 0 {
		prefix = fmt.Sprintf("%s:%d: ", file, line)
	}
	msg = strings.TrimPrefix(msg, prefix)
	return Finding{Rule: RuleInput, Severity: SeverityError, Cause: CauseInput, Message: msg,
		Location: Location{File: file, Line: line, Written: line > 0}}
}

// errorFindings returns one finding per problem of err, each a
// *manifest.Error (or else at source).
func errorFindings(source string, err error) []Finding {
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var out []Finding
	for _, e := range errs {
		var me *manifest.Error
		if errors.As(e, &me) {
			for _, l := range lines(e) {
				out = append(out, inputFinding(me.Source, me.Line, l))
			}
			continue
		}
		for _, l := range lines(e) {
			out = append(out, inputFinding(source, 0, l))
		}
	}
	return out
}

// docFindings returns a finding per line of text, each at doc.
func docFinding(doc manifest.Document, text string) Finding {
	return inputFinding(doc.Source, doc.Line, text)
}

// ProblemText returns a problem with the input in one line, as a
// command prints it: "file:line: message".
func (f Finding) ProblemText() string {
	if f.Location.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", f.Location.File, f.Location.Line, f.Message)
	}
	if f.Location.File == "" {
		return f.Message
	}
	return f.Location.File + ": " + f.Message
}

// ApplyProblem returns the finding of a manifest that cannot be applied
// (kubectl or the API server refuses it): rule input, severity error, at
// doc's file and line, with message text.
func ApplyProblem(doc manifest.Document, text string) Finding {
	return inputFinding(doc.Source, doc.Line, text)
}
