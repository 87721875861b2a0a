package apiserver

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of a pod's security context and of the profiles and Windows
// options that containers' security contexts share with it
// (pkg/apis/core/validation).
//
// Upstream validates the internal form, whose PodSecurityContext also
// holds hostNetwork, hostPID, hostIPC, shareProcessNamespace and hostUsers
// and is never nil after conversion. Ours reads those five from the v1
// spec, and treats a nil security context as an empty one; the error paths
// stay upstream's, under securityContext where upstream puts them.

// validatePodSpecSecurityContext is upstream's
// validatePodSpecSecurityContext: user and group ids in range, not both
// shareProcessNamespace and hostPID, valid sysctls, fsGroupChangePolicy,
// seccomp and AppArmor profiles, Windows options, supplementalGroupsPolicy
// and seLinuxChangePolicy.
func validatePodSpecSecurityContext(sc *schema.PodSecurityContext, s *schema.PodSpec, specPath, p *field.Path, opts podOptions) field.ErrorList {
	if sc == nil {
		sc = &schema.PodSecurityContext{}
	}
	var errs field.ErrorList
	if sc.FSGroup != nil {
		errs = append(errs, podValidateGroupID(*sc.FSGroup, p.Child("fsGroup"))...)
	}
	if sc.RunAsUser != nil {
		for _, msg := range podIsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.InvalidInt(p.Child("runAsUser"), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		errs = append(errs, podValidateGroupID(*sc.RunAsGroup, p.Child("runAsGroup"))...)
	}
	for i, gid := range sc.SupplementalGroups {
		errs = append(errs, podValidateGroupID(gid, p.Child("supplementalGroups").Index(i))...)
	}
	if s.ShareProcessNamespace != nil && s.HostPID && *s.ShareProcessNamespace {
		errs = append(errs, field.InvalidValue(p.Child("shareProcessNamespace"), "true", "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	if len(sc.Sysctls) != 0 {
		errs = append(errs, validateSysctls(sc.Sysctls, s.HostNetwork, s.HostIPC, p.Child("sysctls"), opts)...)
	}
	if sc.FSGroupChangePolicy != nil {
		if v := *sc.FSGroupChangePolicy; v != "Always" && v != "OnRootMismatch" {
			errs = append(errs, field.NotSupported(p.Child("fsGroupChangePolicy"), v, []string{"Always", "OnRootMismatch"}))
		}
	}
	errs = append(errs, podSeccompProfileField(sc.SeccompProfile, p.Child("seccompProfile"))...)
	errs = append(errs, podWindowsOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	errs = append(errs, podAppArmorProfileField(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
	if sc.SupplementalGroupsPolicy != nil {
		if v := *sc.SupplementalGroupsPolicy; v != "Merge" && v != "Strict" {
			errs = append(errs, field.NotSupported(p.Child("supplementalGroupsPolicy"), v, []string{"Merge", "Strict"}))
		}
	}
	if sc.SELinuxChangePolicy != nil {
		errs = append(errs, validateSELinuxChangePolicy(*sc.SELinuxChangePolicy, p.Child("seLinuxChangePolicy"), opts)...)
	}
	return errs
}

// podIsValidUserID and podIsValidGroupID are upstream's IsValidUserID and
// IsValidGroupID: 0 to MaxInt32.
func podIsValidUserID(id int64) []string  { return isInRange(id, 0, math.MaxInt32) }
func podIsValidGroupID(id int64) []string { return isInRange(id, 0, math.MaxInt32) }

func podValidateGroupID(id int64, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range podIsValidGroupID(id) {
		errs = append(errs, field.InvalidInt(p, id, msg))
	}
	return errs
}

// validateSELinuxChangePolicy is upstream's validateSELinuxChangePolicy:
// only Recursive while the SELinuxMount gate is off (and no old object
// used another policy), else Recursive or MountOption.
func validateSELinuxChangePolicy(v string, p *field.Path, opts podOptions) field.ErrorList {
	if opts.AllowOnlyRecursiveSELinuxChangePolicy {
		if v != "Recursive" {
			return field.ErrorList{field.NotSupported(p, v, []string{"Recursive"})}
		}
		return nil
	}
	if v != "MountOption" && v != "Recursive" {
		return field.ErrorList{field.NotSupported(p, v, []string{"MountOption", "Recursive"})}
	}
	return nil
}

// sysctlMaxLength is the longest a sysctl name may be.
const sysctlMaxLength = 253

// sysctlNameRegexp is a sysctl name: segments of lower-case letters,
// digits, '-' and '_', starting and ending with a letter or digit, joined
// by '.' or '/'.
var sysctlNameRegexp = regexp.MustCompile(`^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`)

// validateSysctls is upstream's validateSysctls: each name present, well
// formed and unique, and (unless opts allow it) not one of the host's
// network namespace with hostNetwork, nor of its IPC namespace with
// hostIPC.
func validateSysctls(sysctls []schema.Sysctl, hostNetwork, hostIPC bool, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, s := range sysctls {
		np := p.Index(i).Child("name")
		switch {
		case s.Name == "":
			errs = append(errs, field.RequiredValue(np, ""))
		case len(s.Name) > sysctlMaxLength || !sysctlNameRegexp.MatchString(s.Name):
			errs = append(errs, field.InvalidString(np, s.Name, fmt.Sprintf("must have at most %d characters and match regex %s", sysctlMaxLength, sysctlNameRegexp)))
		case names[s.Name]:
			errs = append(errs, field.DuplicateValue(np, field.Quote(s.Name)))
		}
		if !opts.AllowNamespacedSysctlsForHostNetAndIPC {
			switch sysctlNamespace(s.Name) {
			case "Net":
				if hostNetwork {
					errs = append(errs, field.InvalidString(np, s.Name, "may not be specified when 'hostNetwork' is true"))
				}
			case "IPC":
				if hostIPC {
					errs = append(errs, field.InvalidString(np, s.Name, "may not be specified when 'hostIPC' is true"))
				}
			}
		}
		names[s.Name] = true
	}
	return errs
}

// sysctlNamespace is the Linux namespace a sysctl belongs to ("Net",
// "IPC" or "" when none is known), as component-helpers' GetNamespace
// finds it: on the name in dotted form, cut at a '*'.
func sysctlNamespace(name string) string {
	name = normalizeSysctlName(name)
	if i := strings.IndexByte(name, '*'); i >= 0 {
		name = name[:i]
	}
	switch name {
	case "kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced", "kernel.shm",
		"kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg":
		return "IPC"
	}
	switch {
	case strings.HasPrefix(name, "net."):
		return "Net"
	case strings.HasPrefix(name, "fs.mqueue."):
		return "IPC"
	}
	return ""
}

// normalizeSysctlName turns a name written with '/' separators
// (net/ipv4/conf/eno2.100/rp_filter) into the dotted form
// (net.ipv4.conf.eno2/100.rp_filter): when the first separator is '/',
// every '.' and '/' are swapped.
func normalizeSysctlName(name string) string {
	i := strings.IndexAny(name, "./")
	if i < 0 || name[i] == '.' {
		return name
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.':
			return '/'
		case '/':
			return '.'
		}
		return r
	}, name)
}

// podSeccompProfileField is upstream's validateSeccompProfileField: a
// known type, and a relative, descending localhostProfile exactly when the
// type is Localhost.
func podSeccompProfileField(sp *schema.SeccompProfile, p *field.Path) field.ErrorList {
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
	if sp.Type == "Localhost" {
		if sp.LocalhostProfile == nil {
			errs = append(errs, field.RequiredValue(p.Child("localhostProfile"), "must be set when seccomp type is Localhost"))
		} else {
			errs = append(errs, podLocalDescendingPath(*sp.LocalhostProfile, p.Child("localhostProfile"))...)
		}
	} else if sp.LocalhostProfile != nil {
		errs = append(errs, field.InvalidValue(p.Child("localhostProfile"), fmt.Sprintf("%+v", *sp), "can only be set when seccomp type is Localhost"))
	}
	return errs
}

// podLocalDescendingPath is upstream's validateLocalDescendingPath: a
// relative path without a ".." element.
func podLocalDescendingPath(target string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(target) {
		errs = append(errs, field.InvalidString(p, target, "must be a relative path"))
	}
	for _, part := range strings.Split(target, "/") {
		if part == ".." {
			errs = append(errs, field.InvalidString(p, target, "must not contain '..'"))
			break
		}
	}
	return errs
}

// maxAppArmorLocalhostProfile is PATH_MAX - 1.
const maxAppArmorLocalhostProfile = 4095

// podAppArmorProfileField is upstream's ValidateAppArmorProfileField: a
// known type, and a localhostProfile exactly when the type is Localhost,
// unpadded, non-empty and at most 4095 bytes.
func podAppArmorProfileField(ap *schema.AppArmorProfile, p *field.Path) field.ErrorList {
	if ap == nil {
		return nil
	}
	var errs field.ErrorList
	lp := p.Child("localhostProfile")
	switch ap.Type {
	case "Localhost":
		if ap.LocalhostProfile == nil {
			errs = append(errs, field.RequiredValue(lp, "must be set when AppArmor type is Localhost"))
			break
		}
		v := *ap.LocalhostProfile
		if trimmed := strings.TrimSpace(v); trimmed != v {
			errs = append(errs, field.InvalidString(lp, v, "must not be padded with whitespace"))
		} else if trimmed == "" {
			errs = append(errs, field.RequiredValue(lp, "must be set when AppArmor type is Localhost"))
		}
		if len(v) > maxAppArmorLocalhostProfile {
			errs = append(errs, field.TooLongValue(lp, maxAppArmorLocalhostProfile))
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

// The limits of Windows options: a GMSA credential spec of at most 64 KiB,
// a runAsUserName domain under 256 characters and a user of at most 104.
const (
	maxGMSACredentialSpecKiB = 64
	maxGMSACredentialSpec    = maxGMSACredentialSpecKiB * 1024
	maxRunAsUserNameDomain   = 256
	maxRunAsUserNameUser     = 104
)

var (
	// A control character anywhere.
	windowsControlRegexp = regexp.MustCompile(`[[:cntrl:]]+`)
	// A NetBIOS domain: 1 to 15 characters, none of \ / : * ? " < > |, not
	// starting with '.'.
	windowsNetBIOSRegexp = regexp.MustCompile(`^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$`)
	// A DNS domain: labels of letters, digits and '-', joined by dots.
	windowsDNSDomainRegexp = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)
	// A character a Windows user name may not contain.
	windowsUserForbiddenRegexp = regexp.MustCompile(`["/\\:;|=,\+\*\?<>@\[\]]`)
	// A user name of periods and spaces only.
	windowsUserDotsSpacesRegexp = regexp.MustCompile(`^[\. ]+$`)
)

// podWindowsOptions is upstream's validateWindowsSecurityContextOptions:
// the GMSA credential spec name is a DNS subdomain, the credential spec
// is non-empty and at most 64 KiB, and runAsUserName is [DOMAIN\]USER
// with a valid NetBIOS or DNS domain and a valid user.
func podWindowsOptions(o *schema.WindowsSecurityContextOptions, p *field.Path) field.ErrorList {
	if o == nil {
		return nil
	}
	var errs field.ErrorList
	if o.GMSACredentialSpecName != nil {
		for _, msg := range isDNS1123Subdomain(*o.GMSACredentialSpecName) {
			errs = append(errs, field.InvalidString(p.Child("gmsaCredentialSpecName"), *o.GMSACredentialSpecName, msg))
		}
	}
	if o.GMSACredentialSpec != nil {
		switch l := len(*o.GMSACredentialSpec); {
		case l == 0:
			errs = append(errs, field.InvalidString(p.Child("gmsaCredentialSpec"), "", "gmsaCredentialSpec cannot be an empty string"))
		case l > maxGMSACredentialSpec:
			errs = append(errs, field.InvalidString(p.Child("gmsaCredentialSpec"), *o.GMSACredentialSpec, fmt.Sprintf("gmsaCredentialSpec size must be under %d KiB", maxGMSACredentialSpecKiB)))
		}
	}
	if o.RunAsUserName != nil {
		errs = append(errs, validateRunAsUserName(*o.RunAsUserName, p.Child("runAsUserName"))...)
	}
	return errs
}

// validateRunAsUserName is the runAsUserName part of
// validateWindowsSecurityContextOptions.
func validateRunAsUserName(name string, p *field.Path) field.ErrorList {
	bad := func(msg string) *field.Error { return field.InvalidString(p, name, msg) }
	parts := strings.Split(name, "\\")
	switch {
	case name == "":
		return field.ErrorList{bad("runAsUserName cannot be an empty string")}
	case windowsControlRegexp.MatchString(name):
		return field.ErrorList{bad("runAsUserName cannot contain control characters")}
	case len(parts) > 2:
		return field.ErrorList{bad("runAsUserName cannot contain more than one backslash")}
	}
	domain, user, hasDomain := "", parts[0], len(parts) == 2
	if hasDomain {
		domain, user = parts[0], parts[1]
	}
	var errs field.ErrorList
	if len(domain) >= maxRunAsUserNameDomain {
		errs = append(errs, bad(fmt.Sprintf("runAsUserName's Domain length must be under %d characters", maxRunAsUserNameDomain)))
	}
	if hasDomain && !windowsNetBIOSRegexp.MatchString(domain) && !windowsDNSDomainRegexp.MatchString(domain) {
		errs = append(errs, bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format"))
	}
	if user == "" {
		errs = append(errs, bad("runAsUserName's User cannot be empty"))
	} else if len(user) > maxRunAsUserNameUser {
		errs = append(errs, bad(fmt.Sprintf("runAsUserName's User length must not be longer than %d characters", maxRunAsUserNameUser)))
	}
	if windowsUserDotsSpacesRegexp.MatchString(user) {
		errs = append(errs, bad("runAsUserName's User cannot contain only periods or spaces"))
	}
	if windowsUserForbiddenRegexp.MatchString(user) {
		errs = append(errs, bad(`runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`))
	}
	return errs
}
