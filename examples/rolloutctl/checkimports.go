package main

import (
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// The command's names for package check's, so that the command reads as
// it did before the check moved there.
type (
	loaded    = check.Input
	checkJSON = check.Report
	violation = check.Finding
	checked   = check.Result
	place     = check.Location
)

const (
	severityError   = check.SeverityError
	severityWarning = check.SeverityWarning
	severityLimit   = check.SeverityLimit
	ruleNeverFinish = check.RuleNeverFinish
	ruleLimit       = check.RuleLimit
)

// controls reports whether d controls rs, as the controller decides: by
// the UID of rs's controller reference.
func controls(d rollout.Deployment, rs rollout.ReplicaSet) bool {
	return rs.Namespace == d.Namespace && rollout.IsControlledBy(&rs.ObjectMeta, &d.ObjectMeta)
}

// templateImages lists the images of a pod template's init containers,
// then its containers.
func templateImages(t rollout.PodTemplate) []string {
	var out []string
	for _, c := range t.Spec.Images() {
		out = append(out, c.Image)
	}
	return out
}
