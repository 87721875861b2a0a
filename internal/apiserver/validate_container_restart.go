package apiserver

import (
	"slices"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The restart policy and restart rules of a container (KEP-753 sidecars
// and KEP-5307 container restart rules).

// The limits on restart rules.
const (
	maxContainerRestartRules     = 20
	maxContainerRestartExitCodes = 255
)

// validateInitContainerRestartPolicy is upstream's
// validateInitContainerRestartPolicy: no rules without a policy; with
// restart rules allowed, a sidecar's (Always) rules follow
// validateContainerRestartPolicy when rules may restart all containers and
// are forbidden otherwise, and any other policy follows it too; without
// restart rules, only Always is supported.
func validateInitContainerRestartPolicy(policy *string, rules []schema.ContainerRestartRule, p *field.Path, opts podOptions) field.ErrorList {
	if policy == nil {
		if len(rules) > 0 {
			return field.ErrorList{field.RequiredValue(p.Child("restartPolicy"), "must specify restartPolicy when restart rules are used")}
		}
		return nil
	}
	if !opts.AllowContainerRestartPolicyRules {
		if *policy != "Always" {
			return field.ErrorList{field.NotSupported(p.Child("restartPolicy"), *policy, []string{"Always"})}
		}
		return nil
	}
	if *policy == "Always" && !opts.AllowRestartAllContainers {
		if len(rules) > 0 {
			return field.ErrorList{field.ForbiddenField(p.Child("restartPolicyRules"), "restartPolicyRules are not allowed for init containers with restart policy Always")}
		}
		return nil
	}
	return validateContainerRestartPolicy(policy, rules, p, opts)
}

// validateContainerRestartPolicy is upstream's
// validateContainerRestartPolicy, for a container at p: a policy of
// Always, Never or OnFailure, required when there are rules; at most 20
// rules, each with a supported action (Restart, and RestartAllContainers
// when allowed) and exit codes with an In or NotIn operator and at most 255
// values. v1.35 reports too many rules or exit codes as TooLong ("may not
// be more than 20 bytes") and lists only Restart as supported, whatever
// the actions allowed; v1.36 reports TooMany and lists the actions allowed
// (VERSIONS.md V2 to V4).
func validateContainerRestartPolicy(policy *string, rules []schema.ContainerRestartRule, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	policyPath := p.Child("restartPolicy")
	if policy == nil {
		if len(rules) == 0 {
			return nil
		}
		errs = append(errs, field.RequiredValue(policyPath, "must specify restartPolicy when restart rules are used"))
	} else if *policy != "Always" && *policy != "Never" && *policy != "OnFailure" {
		errs = append(errs, field.NotSupported(policyPath, *policy, []string{"Always", "Never", "OnFailure"}))
	}
	rulesPath := p.Child("restartPolicyRules")
	v135 := opts.minor() < kubeversion.V1_36
	tooMany := func(p *field.Path, n, max int) *field.Error {
		if v135 {
			return field.TooLongValue(p, max)
		}
		return field.TooManyItems(p, n, max)
	}
	if len(rules) > maxContainerRestartRules {
		errs = append(errs, tooMany(rulesPath, len(rules), maxContainerRestartRules))
	}
	actions := []string{"Restart"}
	if opts.AllowRestartAllContainers {
		actions = []string{"Restart", "RestartAllContainers"}
	}
	supported := actions
	if v135 {
		supported = []string{"Restart"}
	}
	for i, rule := range rules {
		rp := rulesPath.Index(i)
		if !slices.Contains(actions, rule.Action) {
			errs = append(errs, field.NotSupported(rp.Child("action"), rule.Action, supported))
		}
		if rule.ExitCodes == nil {
			errs = append(errs, field.RequiredValue(rp.Child("exitCodes"), "must be specified"))
			continue
		}
		ep := rp.Child("exitCodes")
		if op := rule.ExitCodes.Operator; op != "In" && op != "NotIn" {
			errs = append(errs, field.NotSupported(ep.Child("operator"), op, []string{"In", "NotIn"}))
		}
		if n := len(rule.ExitCodes.Values); n > maxContainerRestartExitCodes {
			errs = append(errs, tooMany(ep.Child("values"), n, maxContainerRestartExitCodes))
		}
	}
	return errs
}
