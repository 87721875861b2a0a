package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// check's reports besides JSON and YAML: text for people, GitHub Actions
// annotations (here), SARIF (sarif.go) and JUnit XML (junit.go).

// render writes one report of out; answers say what --live's applies
// did, first in text, JSON and YAML.
func (f *checkFlags) render(format string, w io.Writer, out check.Report, answers []answer) error {
	switch format {
	case "json", "yaml":
		return encodeData(format, w, withAnswers(out, answers, true), nil)
	case "sarif":
		return writeSARIF(w, out)
	case "junit":
		return writeJUnit(w, out, f.failOn, f.wd)
	case "github":
		return writeGitHub(w, out)
	}
	writeAnswers(w, answers)
	return writeCheckText(w, out)
}

// writeCheckText writes the pod model, then each Deployment's violations
// and an OK line for each Deployment that broke no rule and was decided.
// Over a replica range, a rule's findings at several counts are its
// first one and a line naming the other counts (writeRangeFindings).
func writeCheckText(w io.Writer, out check.Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, out.Kubernetes)
	fmt.Fprintln(bw, out.PodModel)
	v := 0
	for ; v < len(out.Findings) && out.Findings[v].Deployment == ""; v++ {
		writeViolation(bw, out.Findings[v])
	}
	for _, c := range out.Deployments {
		first := v
		for v < len(out.Findings) && out.Findings[v].Deployment == c.Deployment {
			v++
		}
		writeRangeFindings(bw, out.Findings[first:v])
		if c.OK && c.Undecided == 0 {
			writeOK(bw, c)
		}
		if len(c.Projected) > 0 && c.Rollouts > 1 {
			writeProjected(bw, c)
		}
	}
	return bw.Flush()
}

// writeProjected says which counts of a range were computed to the end
// and which stopped at the work limit, which the range's counts share:
// "LIMIT web replicas=2..100000 (128 rollouts sampled from 99999
// counts): 61 computed to the end, 67 stopped at the work limit
// (--max-work, shared by the range's counts) and projected: 4212 to
// 100000".
func writeProjected(w io.Writer, c check.Result) {
	rollouts := words.Plural(int(c.Rollouts), "rollout")
	if all := int64(c.MaxReplicas) - int64(c.MinReplicas) + 1; c.Rollouts < all {
		rollouts = fmt.Sprintf("%d rollouts sampled from %d counts", c.Rollouts, all)
	}
	which := fmt.Sprint(c.Projected[0])
	if n := len(c.Projected); n > 1 {
		which = fmt.Sprintf("%d to %d", c.Projected[0], c.Projected[n-1])
	}
	fmt.Fprintf(w, "LIMIT %s replicas=%d..%d (%s): %d computed to the end, %d stopped at the work limit (--max-work, shared by the range's counts) and projected: %s\n",
		c.Deployment, c.MinReplicas, c.MaxReplicas, rollouts, c.Rollouts-int64(len(c.Projected)), len(c.Projected), which)
}

// writeRangeFindings writes one Deployment's findings as byRule groups
// them: each rule's findings at its first count in full, then a line
// naming the other counts.
func writeRangeFindings(w io.Writer, fs []check.Finding) {
	byRule(fs, func(f check.Finding, others []int32) {
		writeViolation(w, f)
		if len(others) > 0 {
			fmt.Fprintf(w, "     %s\n", alsoAt(others))
		}
	})
}

// byRule calls write for the findings of one Deployment a person reads:
// where a rule (with its severity) is broken at more than one replica
// count, as over an HPA's range, only its findings at the first of those
// counts, in order, the last of them with the other counts, in
// increasing order (others; nil elsewhere), whose figures -o json
// gives. A range of 5,000 counts makes a few lines a rule, not 5,000.
func byRule(fs []check.Finding, write func(f check.Finding, others []int32)) {
	type rule struct{ severity, name string }
	first := map[rule]int32{}
	others := map[rule][]int32{}
	for _, f := range fs {
		k := rule{f.Severity, f.Rule}
		if at, ok := first[k]; !ok {
			first[k] = f.Replicas
		} else if f.Replicas != at {
			others[k] = append(others[k], f.Replicas)
		}
	}
	for i, f := range fs {
		k := rule{f.Severity, f.Rule}
		if f.Replicas != first[k] {
			continue // named with its rule's first count
		}
		var more []int32
		if !slices.ContainsFunc(fs[i+1:], func(g check.Finding) bool {
			return g.Severity == f.Severity && g.Rule == f.Rule && g.Replicas == f.Replicas
		}) && len(others[k]) > 0 {
			more = slices.Compact(slices.Sorted(slices.Values(others[k])))
		}
		write(f, more)
	}
}

// alsoAt words the other counts of a rule's findings, in increasing
// order: "also at replicas 5..12 (8 more counts, each with its own
// figures in -o json)", their runs (words.Counts), or, where the counts
// are a sample of a range and so rarely consecutive, the lowest and the
// highest.
func alsoAt(counts []int32) string {
	at := "replicas " + words.Counts(counts)
	if strings.Count(at, ",") >= 4 {
		at = fmt.Sprintf("replicas %d to %d", counts[0], counts[len(counts)-1])
	}
	return fmt.Sprintf("also at %s (%s, each with its own figures in -o json)", at, words.Plural(len(counts), "more count"))
}

func writeViolation(w io.Writer, v check.Finding) {
	if v.Deployment == "" { // a document that could not be read
		fmt.Fprintf(w, "BAD  %s\n", v.ProblemText())
		return
	}
	label := map[string]string{check.SeverityError: "FAIL", check.SeverityWarning: "WARN", check.SeverityLimit: "LIMIT"}[v.Severity]
	at := "+" + words.Duration(time.Duration(v.At*float64(time.Second)))
	if v.Cause == check.CauseInput {
		at += " (input)"
	}
	where := v.Location.String()
	for _, r := range v.Related {
		where += "; " + r.File + ":" + strconv.Itoa(r.Line) + " " + r.Object + " " + r.Field
	}
	fmt.Fprintf(w, "%-4s %s replicas=%d at %s: %s: %s [%s]\n", label, v.Deployment, v.Replicas, at, v.Rule, v.Message, where)
}

// writeOK writes the OK line of c: its figures, and how long its
// rollout took ("complete in 0s" for one that completed at once), or the
// longest of its rollouts; "not complete" and "none complete" when no
// rollout completed, which Longest alone does not tell from one
// complete at once.
func writeOK(w io.Writer, c check.Result) {
	longest := words.Duration(time.Duration(c.Longest * float64(time.Second)))
	if c.Rollouts == 1 {
		complete := "complete in " + longest
		if c.Completed == 0 {
			complete = "not complete"
		}
		fmt.Fprintf(w, "OK   %s replicas=%d: peak pods %d, min available %d, %s\n",
			c.Deployment, c.MinReplicas, c.PeakPods, c.MinAvailable, complete)
		return
	}
	longest = "longest " + longest
	if c.Completed == 0 {
		longest = "none complete"
	}
	rollouts := words.Plural(int(c.Rollouts), "rollout")
	if all := int64(c.MaxReplicas) - int64(c.MinReplicas) + 1; c.Rollouts < all {
		rollouts = fmt.Sprintf("%d rollouts sampled from %d counts", c.Rollouts, all)
	}
	fmt.Fprintf(w, "OK   %s replicas=%d..%d (%s): peak pods %d, min available %d, %s\n",
		c.Deployment, c.MinReplicas, c.MaxReplicas, rollouts, c.PeakPods, c.MinAvailable, longest)
}

// writeGitHub writes one GitHub Actions workflow command per violation,
// which GitHub shows as an annotation on the line of the field to change:
// ::error file=deploy.yaml,line=14,title=rolloutctl max-pods::message;
// over a replica range, one for each rule's first count, naming the
// others (byRule), as GitHub shows only the first few annotations of a
// step.
// Limits are notices, and so are the report's notes (what was not
// checked, that PodDisruptionBudgets do not gate a rollout), last and
// without a file.
func writeGitHub(w io.Writer, out check.Report) error {
	bw := bufio.NewWriter(w)
	annotate := func(v check.Finding, others []int32) {
		level := map[string]string{check.SeverityError: "error", check.SeverityWarning: "warning", check.SeverityLimit: "notice"}[v.Severity]
		msg := fmt.Sprintf("%s replicas=%d at +%s: %s (%s)", v.Deployment, v.Replicas,
			words.Duration(time.Duration(v.At*float64(time.Second))), v.Message, v.Location.Field)
		if v.Deployment == "" {
			msg = v.Message
		}
		if len(others) > 0 {
			msg += "; " + alsoAt(others)
		}
		fmt.Fprintf(bw, "::%s file=%s,line=%d,title=%s::%s\n", level, ghProperty(v.Location.File), max(v.Location.Line, 1),
			ghProperty("rolloutctl "+v.Rule), ghData(msg))
	}
	for i := 0; i < len(out.Findings); {
		j := i + 1
		for j < len(out.Findings) && out.Findings[j].Deployment == out.Findings[i].Deployment {
			j++
		}
		if out.Findings[i].Deployment == "" {
			for _, v := range out.Findings[i:j] {
				annotate(v, nil)
			}
		} else {
			byRule(out.Findings[i:j], annotate)
		}
		i = j
	}
	for _, n := range out.Notes {
		fmt.Fprintf(bw, "::notice title=%s::%s\n", ghProperty("rolloutctl note"), ghData(n))
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message, as @actions/core does.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
