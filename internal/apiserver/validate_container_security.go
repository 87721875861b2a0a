package apiserver

import (
	"encoding/json"
	"math"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// A container's security context: upstream's ValidateSecurityContext with
// ValidateProcMountType. The profiles and Windows options it checks are in
// validate_profiles_ctr.go.

// allowPrivileged is the API server's --allow-privileged flag, which
// upstream reads from pkg/capabilities. The flag's default is false, but
// clusters that run workloads set it (kubeadm, kind and the managed
// services all do), so this reproduction models a server that allows
// privileged containers. With false, privileged: true is forbidden.
const allowPrivileged = true

// validateSecurityContext is upstream's ValidateSecurityContext: privileged
// only where the cluster allows it; user and group IDs from 0 to 2^31-1;
// a proc mount of Default, or Unmasked without host users; valid seccomp,
// Windows and AppArmor options; and no privileged container or
// CAP_SYS_ADMIN when privilege escalation is off, unless allowSysAdmin
// (v1.37's AllowSysAdminWhenPrivilegeEscalationFalse, set on an update of a
// template that has it, VERSIONS.md V18).
func validateSecurityContext(sc *schema.SecurityContext, p *field.Path, hostUsers, allowSysAdmin bool) field.ErrorList {
	if sc == nil {
		return nil
	}
	var errs field.ErrorList
	privileged := sc.Privileged != nil && *sc.Privileged
	if privileged && !allowPrivileged {
		errs = append(errs, field.ForbiddenField(p.Child("privileged"), "disallowed by cluster policy"))
	}
	if sc.RunAsUser != nil {
		for _, msg := range isInRange(*sc.RunAsUser, 0, math.MaxInt32) {
			errs = append(errs, field.InvalidInt(p.Child("runAsUser"), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		for _, msg := range isInRange(*sc.RunAsGroup, 0, math.MaxInt32) {
			errs = append(errs, field.InvalidInt(p.Child("runAsGroup"), *sc.RunAsGroup, msg))
		}
	}
	if sc.ProcMount != nil {
		errs = append(errs, validateProcMountType(*sc.ProcMount, p.Child("procMount"))...)
		if hostUsers && *sc.ProcMount == "Unmasked" {
			errs = append(errs, field.InvalidString(p.Child("procMount"), *sc.ProcMount, "`hostUsers` must be false to use `Unmasked`"))
		}
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, p.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if privileged {
			errs = append(errs, field.InvalidValue(p, securityContextValue(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if !allowSysAdmin && sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if c == "CAP_SYS_ADMIN" {
					errs = append(errs, field.InvalidValue(p, securityContextValue(sc), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	errs = append(errs, validateWindowsSecurityContextOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	return append(errs, validateAppArmorProfileField(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
}

// validateProcMountType is upstream's ValidateProcMountType: Default or
// Unmasked.
func validateProcMountType(t string, p *field.Path) field.ErrorList {
	if t == "Default" || t == "Unmasked" {
		return nil
	}
	return field.ErrorList{field.NotSupported(p, t, []string{"Default", "Unmasked"})}
}

// securityContextValue renders a container's security context as upstream
// prints it as the bad value of a field error: the JSON of the internal
// core.SecurityContext, which has no JSON tags, so its members are the Go
// field names, every field present, an absent one null. The internal types
// have the fields of ours, in the same order, in v1.35, v1.36 and v1.37;
// tagless copies of them give that JSON.
func securityContextValue(sc *schema.SecurityContext) string {
	type capabilities struct{ Add, Drop []string }
	type seLinuxOptions struct{ User, Role, Type, Level string }
	type windowsOptions struct {
		GMSACredentialSpecName, GMSACredentialSpec, RunAsUserName *string
		HostProcess                                               *bool
	}
	type profile struct {
		Type             string
		LocalhostProfile *string
	}
	type securityContext struct {
		Capabilities             *capabilities
		Privileged               *bool
		SELinuxOptions           *seLinuxOptions
		WindowsOptions           *windowsOptions
		RunAsUser                *int64
		RunAsGroup               *int64
		RunAsNonRoot             *bool
		ReadOnlyRootFilesystem   *bool
		AllowPrivilegeEscalation *bool
		ProcMount                *string
		SeccompProfile           *profile
		AppArmorProfile          *profile
	}
	v := securityContext{
		Privileged: sc.Privileged, RunAsUser: sc.RunAsUser, RunAsGroup: sc.RunAsGroup, RunAsNonRoot: sc.RunAsNonRoot,
		ReadOnlyRootFilesystem: sc.ReadOnlyRootFilesystem, AllowPrivilegeEscalation: sc.AllowPrivilegeEscalation, ProcMount: sc.ProcMount,
	}
	if c := sc.Capabilities; c != nil {
		v.Capabilities = &capabilities{c.Add, c.Drop}
	}
	if o := sc.SELinuxOptions; o != nil {
		v.SELinuxOptions = &seLinuxOptions{o.User, o.Role, o.Type, o.Level}
	}
	if o := sc.WindowsOptions; o != nil {
		v.WindowsOptions = &windowsOptions{o.GMSACredentialSpecName, o.GMSACredentialSpec, o.RunAsUserName, o.HostProcess}
	}
	if o := sc.SeccompProfile; o != nil {
		v.SeccompProfile = &profile{o.Type, o.LocalhostProfile}
	}
	if o := sc.AppArmorProfile; o != nil {
		v.AppArmorProfile = &profile{o.Type, o.LocalhostProfile}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "{}" // plain strings, numbers and bools always marshal
	}
	return string(b)
}
