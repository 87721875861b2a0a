package apiserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of where and how a pod runs: tolerations, topology spread
// constraints, DNS configuration and host aliases
// (pkg/apis/core/validation).

// validateTolerations is upstream's ValidateTolerations: a qualified key;
// an empty key only with Exists; tolerationSeconds only with NoExecute;
// an operator of Equal (or empty) with a label value, Exists without a
// value, Lt or Gt (when opts allow them) with a decimal int64; a known
// effect when one is set. Upstream reports a bad value under "operator".
func validateTolerations(ts []schema.Toleration, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		tp := p.Index(i)
		if t.Key != "" {
			errs = append(errs, validateLabelName(t.Key, tp.Child("key"))...)
		}
		if t.Key == "" && t.Operator != "Exists" {
			errs = append(errs, field.InvalidString(tp.Child("operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != "NoExecute" {
			errs = append(errs, field.InvalidValue(tp.Child("effect"), field.QuoteTyped(t.Effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case "Equal", "":
			if msgs := isValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, field.InvalidString(tp.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case "Exists":
			if t.Value != "" {
				errs = append(errs, field.InvalidString(tp.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		case "Lt", "Gt":
			if !opts.AllowTaintTolerationComparisonOperators {
				errs = append(errs, field.NotSupported(tp.Child("operator"), t.Operator, []string{"Equal", "Exists", "Lt", "Gt"}))
				break
			}
			for _, msg := range isDecimalInteger(t.Value) {
				errs = append(errs, field.InvalidString(tp.Child("value"), t.Value, msg))
			}
			if _, err := strconv.ParseInt(t.Value, 10, 64); err != nil {
				errs = append(errs, field.InvalidString(tp.Child("value"), t.Value, err.Error()))
			}
		default:
			errs = append(errs, field.NotSupported(tp.Child("operator"), t.Operator, []string{"Equal", "Exists"}))
		}
		if t.Effect != "" {
			switch t.Effect {
			case "NoSchedule", "PreferNoSchedule", "NoExecute":
			default:
				errs = append(errs, field.NotSupported(tp.Child("effect"), t.Effect, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
			}
		}
	}
	return errs
}

// isDecimalInteger is apimachinery's content.IsDecimalInteger: an
// optional '-' and digits, without leading zeros ("0" alone is one, "-0"
// is not).
func isDecimalInteger(v string) []string {
	const msg = "must be a valid decimal integer in canonical form"
	if v == "" {
		return []string{emptyError()}
	}
	digits := strings.TrimPrefix(v, "-")
	switch {
	case digits == "":
		return []string{msg}
	case digits[0] == '0':
		if v == "0" {
			return nil
		}
		return []string{msg}
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return []string{msg}
		}
	}
	return nil
}

// validateTopologySpreadConstraints is upstream's
// validateTopologySpreadConstraints: a positive maxSkew, a topologyKey, a
// known whenUnsatisfiable, no two constraints with the same key and
// action, a positive minDomains only with DoNotSchedule, known node
// inclusion policies, valid matchLabelKeys, and a valid label selector
// (unless opts allow an invalid one).
func validateTopologySpreadConstraints(cs []schema.TopologySpreadConstraint, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cs {
		cp := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.InvalidInt(cp.Child("maxSkew"), int64(c.MaxSkew), notPositiveErrorMsg))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.RequiredValue(cp.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != "DoNotSchedule" && c.WhenUnsatisfiable != "ScheduleAnyway" {
			errs = append(errs, field.NotSupported(cp.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, []string{"DoNotSchedule", "ScheduleAnyway"}))
		}
		for _, rest := range cs[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				errs = append(errs, field.DuplicateValue(cp.Child("{topologyKey, whenUnsatisfiable}"), "{"+c.TopologyKey+", "+c.WhenUnsatisfiable+"}"))
				break
			}
		}
		if c.MinDomains != nil {
			mp := cp.Child("minDomains")
			if *c.MinDomains <= 0 {
				errs = append(errs, field.InvalidInt(mp, int64(*c.MinDomains), notPositiveErrorMsg))
			}
			if c.WhenUnsatisfiable != "DoNotSchedule" {
				errs = append(errs, field.InvalidInt(mp, int64(*c.MinDomains), "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "+c.WhenUnsatisfiable))
			}
		}
		errs = append(errs, validateNodeInclusionPolicy(c.NodeAffinityPolicy, cp.Child("nodeAffinityPolicy"))...)
		errs = append(errs, validateNodeInclusionPolicy(c.NodeTaintsPolicy, cp.Child("nodeTaintsPolicy"))...)
		// On create no old pod violates anything, so the merge gate alone
		// picks the newer check or the legacy one.
		if opts.AllowMatchLabelKeysInPodTopologySpread && opts.AllowMatchLabelKeysSelectorMerge {
			errs = append(errs, validateMatchLabelKeysAndMismatchLabelKeys(cp, c.MatchLabelKeys, nil, c.LabelSelector)...)
		} else {
			errs = append(errs, validateMatchLabelKeysInTopologySpread(cp.Child("matchLabelKeys"), c.MatchLabelKeys, c.LabelSelector)...)
		}
		if !opts.AllowInvalidTopologySpreadLabelSelector {
			errs = append(errs, validateLabelSelector(c.LabelSelector, false, cp.Child("labelSelector"))...)
		}
	}
	return errs
}

// notPositiveErrorMsg is upstream's message for a value that must be
// above zero.
const notPositiveErrorMsg = "must be greater than zero"

// validateNodeInclusionPolicy is upstream's validateNodeInclusionPolicy:
// Honor or Ignore.
func validateNodeInclusionPolicy(policy *string, p *field.Path) field.ErrorList {
	if policy == nil || *policy == "Honor" || *policy == "Ignore" {
		return nil
	}
	return field.ErrorList{field.NotSupported(p, *policy, []string{"Honor", "Ignore"})}
}

// validateMatchLabelKeysInTopologySpread is upstream's
// ValidateMatchLabelKeysInTopologySpread, the legacy check: keys need a
// label selector, are qualified names, and are not keys of the selector.
func validateMatchLabelKeysInTopologySpread(p *field.Path, keys []string, sel *schema.LabelSelector) field.ErrorList {
	if len(keys) == 0 {
		return nil
	}
	var errs field.ErrorList
	inSelector := map[string]bool{}
	if sel != nil {
		for k := range sel.MatchLabels {
			inSelector[k] = true
		}
		for _, r := range sel.MatchExpressions {
			inSelector[r.Key] = true
		}
	} else {
		errs = append(errs, field.ForbiddenField(p, "must not be specified when labelSelector is not set"))
	}
	for i, k := range keys {
		errs = append(errs, validateLabelName(k, p.Index(i))...)
		if inSelector[k] {
			errs = append(errs, field.InvalidString(p.Index(i), k, "exists in both matchLabelKeys and labelSelector"))
		}
	}
	return errs
}

// The limits of a pod's DNS configuration, from libc's resolver.
const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
)

// validatePodDNSConfig is upstream's validatePodDNSConfig: with dnsPolicy
// None a configuration with a nameserver; at most 3 nameservers, IP
// addresses; at most 32 search domains of at most 2048 characters in all,
// each a DNS subdomain (with '_' and a lone "." allowed when opts relax
// it; a final dot ignored); options with names.
func validatePodDNSConfig(c *schema.PodDNSConfig, policy string, p *field.Path, opts podOptions) field.ErrorList {
	if policy == "None" {
		if c == nil {
			return field.ErrorList{field.RequiredValue(p, "must provide `dnsConfig` when `dnsPolicy` is None")}
		}
		if len(c.Nameservers) == 0 {
			return field.ErrorList{field.RequiredValue(p.Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")}
		}
	}
	if c == nil {
		return nil
	}
	var errs field.ErrorList
	if len(c.Nameservers) > maxDNSNameservers {
		errs = append(errs, field.InvalidValue(p.Child("nameservers"), fmt.Sprintf("%q", c.Nameservers), fmt.Sprintf("must not have more than %v nameservers", maxDNSNameservers)))
	}
	for i, ns := range c.Nameservers {
		errs = append(errs, validateLegacyIP(ns, p.Child("nameservers").Index(i), !opts.nonStrictIPs)...)
	}
	if len(c.Searches) > maxDNSSearchPaths {
		errs = append(errs, field.InvalidValue(p.Child("searches"), fmt.Sprintf("%q", c.Searches), fmt.Sprintf("must not have more than %v search paths", maxDNSSearchPaths)))
	}
	if len(strings.Join(c.Searches, " ")) > maxDNSSearchListChars {
		errs = append(errs, field.InvalidValue(p.Child("searches"), fmt.Sprintf("%q", c.Searches), fmt.Sprintf("must not have more than %v characters (including spaces) in the search list", maxDNSSearchListChars)))
	}
	for i, search := range c.Searches {
		sp := p.Child("searches").Index(i)
		switch {
		case !opts.AllowRelaxedDNSSearchValidation:
			errs = append(errs, validateDNS1123Subdomain(strings.TrimSuffix(search, "."), sp)...)
		case search != ".":
			search = strings.TrimSuffix(search, ".")
			for _, msg := range isDNS1123SubdomainWithUnderscore(search) {
				errs = append(errs, field.InvalidString(sp, search, msg))
			}
		}
	}
	for i, o := range c.Options {
		if o.Name == "" {
			errs = append(errs, field.RequiredValue(p.Child("options").Index(i), "must not be empty"))
		}
	}
	return errs
}

// A DNS subdomain whose labels may also hold '_' and start with one.
const dns1123SubdomainWithUnderscoreFmt = `_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*`

var dns1123SubdomainWithUnderscoreRegexp = regexp.MustCompile("^" + dns1123SubdomainWithUnderscoreFmt + "$")

// isDNS1123SubdomainWithUnderscore is apimachinery's
// IsDNS1123SubdomainWithUnderscore.
func isDNS1123SubdomainWithUnderscore(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !dns1123SubdomainWithUnderscoreRegexp.MatchString(v) {
		errs = append(errs, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
			dns1123SubdomainWithUnderscoreFmt, "example.com"))
	}
	return errs
}

// validateHostAliases is upstream's ValidateHostAliases: IP addresses and
// DNS-subdomain hostnames.
func validateHostAliases(as []schema.HostAlias, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	for i, a := range as {
		errs = append(errs, validateLegacyIP(a.IP, p.Index(i).Child("ip"), !opts.nonStrictIPs)...)
		for j, h := range a.Hostnames {
			errs = append(errs, validateDNS1123Subdomain(h, p.Index(i).Child("hostnames").Index(j))...)
		}
	}
	return errs
}
