package apiserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The seccomp and AppArmor profiles and the Windows options of a security
// context, a container's or the pod's: upstream's
// validateSeccompProfileField, ValidateAppArmorProfileField and
// validateWindowsSecurityContextOptions. This is the containers' copy: the
// pod's port has its own (podSeccompProfileField, podAppArmorProfileField,
// podWindowsOptions, validateRunAsUserName), and only one is to be kept.

// validateSeccompProfileField is upstream's validateSeccompProfileField: a
// type, and a localhost profile (a relative path without '..') exactly
// when the type is Localhost.
func validateSeccompProfileField(sp *schema.SeccompProfile, p *field.Path) field.ErrorList {
	if sp == nil {
		return nil
	}
	var errs field.ErrorList
	switch sp.Type {
	case "Localhost", "RuntimeDefault", "Unconfined":
	case "":
		errs = append(errs, field.RequiredValue(p.Child("type"), "type is required when seccompProfile is set"))
	default:
		errs = append(errs, field.NotSupported(p.Child("type"), sp.Type, []string{"Localhost", "RuntimeDefault", "Unconfined"}))
	}
	lp := p.Child("localhostProfile")
	switch {
	case sp.Type == "Localhost" && sp.LocalhostProfile == nil:
		errs = append(errs, field.RequiredValue(lp, "must be set when seccomp type is Localhost"))
	case sp.Type == "Localhost":
		errs = append(errs, validateLocalDescendingPath(*sp.LocalhostProfile, lp)...)
	case sp.LocalhostProfile != nil:
		// Upstream (validateSeccompProfileField) passes the whole profile,
		// which field.Error renders with encoding/json.
		v := `{"Type":` + field.QuoteTyped(sp.Type) + `,"LocalhostProfile":` + field.QuoteTyped(*sp.LocalhostProfile) + "}"
		errs = append(errs, field.InvalidValue(lp, v, "can only be set when seccomp type is Localhost"))
	}
	return errs
}

// maxAppArmorLocalhostProfileLength is PATH_MAX - 1.
const maxAppArmorLocalhostProfileLength = 4095

// validateAppArmorProfileField is upstream's ValidateAppArmorProfileField:
// a type; for Localhost, a profile name without surrounding white space
// and at most 4095 bytes long; for the others, none.
func validateAppArmorProfileField(ap *schema.AppArmorProfile, p *field.Path) field.ErrorList {
	if ap == nil {
		return nil
	}
	var errs field.ErrorList
	lp := p.Child("localhostProfile")
	switch ap.Type {
	case "Localhost":
		if ap.LocalhostProfile == nil {
			return field.ErrorList{field.RequiredValue(lp, "must be set when AppArmor type is Localhost")}
		}
		name := *ap.LocalhostProfile
		if trimmed := strings.TrimSpace(name); trimmed != name {
			errs = append(errs, field.InvalidString(lp, name, "must not be padded with whitespace"))
		} else if trimmed == "" {
			errs = append(errs, field.RequiredValue(lp, "must be set when AppArmor type is Localhost"))
		}
		if len(name) > maxAppArmorLocalhostProfileLength {
			errs = append(errs, field.TooLongValue(lp, maxAppArmorLocalhostProfileLength))
		}
	case "RuntimeDefault", "Unconfined":
		if ap.LocalhostProfile != nil {
			errs = append(errs, field.InvalidString(lp, *ap.LocalhostProfile, "can only be set when AppArmor type is Localhost"))
		}
	case "":
		errs = append(errs, field.RequiredValue(p.Child("type"), "type is required when appArmorProfile is set"))
	default:
		errs = append(errs, field.NotSupported(p.Child("type"), ap.Type, []string{"Localhost", "RuntimeDefault", "Unconfined"}))
	}
	return errs
}

// The limits on Windows options: a GMSA credential spec of at most 64 KiB,
// and a runAsUserName whose domain is under 256 characters and whose user
// is at most 104.
const (
	maxGMSACredentialSpecKiB     = 64
	maxGMSACredentialSpecLength  = maxGMSACredentialSpecKiB * 1024
	maxRunAsUserNameDomainLength = 256
	maxRunAsUserNameUserLength   = 104
)

// The forms of a Windows user name: no control characters; a domain that
// is a NetBIOS name (at most 15 characters, not starting with '.', none of
// \/:*?"<>|) or a DNS name; a user with none of "/\:;|=,+*?<>@[] and not
// only dots and spaces.
var (
	controlCharRegexp         = regexp.MustCompile(`[[:cntrl:]]+`)
	netBIOSDomainRegexp       = regexp.MustCompile(`^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$`)
	dnsDomainRegexp           = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)
	invalidUserNameCharRegexp = regexp.MustCompile(`["/\\:;|=,\+\*\?<>@\[\]]`)
	dotsSpacesRegexp          = regexp.MustCompile(`^[\. ]+$`)
)

// validateWindowsSecurityContextOptions is upstream's
// validateWindowsSecurityContextOptions: a GMSA credential spec name that
// is a DNS subdomain, a credential spec that is neither empty nor over 64
// KiB, and a runAsUserName of the form [DOMAIN\]USER.
func validateWindowsSecurityContextOptions(w *schema.WindowsSecurityContextOptions, p *field.Path) field.ErrorList {
	if w == nil {
		return nil
	}
	var errs field.ErrorList
	if w.GMSACredentialSpecName != nil {
		for _, msg := range isDNS1123Subdomain(*w.GMSACredentialSpecName) {
			errs = append(errs, field.InvalidString(p.Child("gmsaCredentialSpecName"), *w.GMSACredentialSpecName, msg))
		}
	}
	if w.GMSACredentialSpec != nil {
		sp := p.Child("gmsaCredentialSpec")
		if n := len(*w.GMSACredentialSpec); n == 0 {
			errs = append(errs, field.InvalidString(sp, "", "gmsaCredentialSpec cannot be an empty string"))
		} else if n > maxGMSACredentialSpecLength {
			errs = append(errs, field.InvalidValue(sp, fmt.Sprintf("<%d bytes>", n), fmt.Sprintf("gmsaCredentialSpec size must be under %d KiB", maxGMSACredentialSpecKiB)))
		}
	}
	if w.RunAsUserName != nil {
		errs = append(errs, validateRunAsUserName(*w.RunAsUserName, p.Child("runAsUserName"))...)
	}
	return errs
}

// validateRunAsUserName checks a Windows user name, [DOMAIN\]USER, as
// validateWindowsSecurityContextOptions does.
func validateRunAsUserName(name string, p *field.Path) field.ErrorList {
	// Upstream passes the *string field, which field.Error renders with
	// encoding/json.
	bad := func(msg string) *field.Error { return field.InvalidValue(p, field.QuoteTyped(name), msg) }
	if name == "" {
		return field.ErrorList{bad("runAsUserName cannot be an empty string")}
	}
	if controlCharRegexp.MatchString(name) {
		return field.ErrorList{bad("runAsUserName cannot contain control characters")}
	}
	parts := strings.Split(name, `\`)
	if len(parts) > 2 {
		return field.ErrorList{bad("runAsUserName cannot contain more than one backslash")}
	}
	var errs field.ErrorList
	domain, user := "", parts[0]
	if len(parts) == 2 {
		domain, user = parts[0], parts[1]
	}
	if len(domain) >= maxRunAsUserNameDomainLength {
		errs = append(errs, bad(fmt.Sprintf("runAsUserName's Domain length must be under %d characters", maxRunAsUserNameDomainLength)))
	}
	if len(parts) == 2 && !netBIOSDomainRegexp.MatchString(domain) && !dnsDomainRegexp.MatchString(domain) {
		errs = append(errs, bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format"))
	}
	if n := len(user); n == 0 {
		errs = append(errs, bad("runAsUserName's User cannot be empty"))
	} else if n > maxRunAsUserNameUserLength {
		errs = append(errs, bad(fmt.Sprintf("runAsUserName's User length must not be longer than %d characters", maxRunAsUserNameUserLength)))
	}
	if dotsSpacesRegexp.MatchString(user) {
		errs = append(errs, bad("runAsUserName's User cannot contain only periods or spaces"))
	}
	if invalidUserNameCharRegexp.MatchString(user) {
		errs = append(errs, bad(`runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`))
	}
	return errs
}
