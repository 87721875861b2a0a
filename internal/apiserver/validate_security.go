package apiserver

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
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
		for _, msg := range isValidUserID(*sc.RunAsUser) {
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
		// 1.37 moved the check to validateShareProcessNamespace, called
		// with the pod spec's path (validatePodSpec): the error names
		// spec.shareProcessNamespace, where 1.35 and 1.36 name
		// spec.securityContext.shareProcessNamespace.
		at := p
		if opts.minor() >= kubeversion.V1_37 {
			at = specPath
		}
		errs = append(errs, field.InvalidValue(at.Child("shareProcessNamespace"), "true", "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	if len(sc.Sysctls) != 0 {
		errs = append(errs, validateSysctls(sc.Sysctls, s.HostNetwork, s.HostIPC, p.Child("sysctls"), opts)...)
	}
	if sc.FSGroupChangePolicy != nil {
		if v := *sc.FSGroupChangePolicy; v != "Always" && v != "OnRootMismatch" {
			errs = append(errs, field.NotSupported(p.Child("fsGroupChangePolicy"), v, []string{"Always", "OnRootMismatch"}))
		}
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, p.Child("seccompProfile"))...)
	errs = append(errs, validateWindowsSecurityContextOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	errs = append(errs, validateAppArmorProfileField(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
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

// isValidUserID and isValidGroupID are upstream's IsValidUserID and
// IsValidGroupID: 0 to MaxInt32.
func isValidUserID(id int64) []string  { return isInRange(id, 0, math.MaxInt32) }
func isValidGroupID(id int64) []string { return isInRange(id, 0, math.MaxInt32) }

func podValidateGroupID(id int64, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isValidGroupID(id) {
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
