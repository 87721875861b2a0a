package apiserver

import (
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of a pod's containers: upstream's validateContainers,
// validateInitContainers, validateEphemeralContainers and
// validateContainerCommon (pkg/apis/core/validation). What they call lives
// beside this file: validate_container_env.go (ports and environment),
// validate_container_mounts.go, validate_container_restart.go,
// validate_probes.go (probes and lifecycle hooks), validate_resources.go,
// validate_container_security.go, and the parts other areas share:
// validate_selectors_ctr.go, validate_paths_ctr.go,
// validate_profiles_ctr.go and validate_resource_names_ctr.go.

// validateContainers is upstream's validateContainers: at least one
// container; each valid, with a name unique among the regular containers,
// valid lifecycle hooks and probes and a container restart policy; and no
// two containers claiming the same host port.
func validateContainers(cs []schema.Container, os *schema.PodOS, vols map[string]*schema.VolumeSource, claims map[string]bool, grace *int64, p *field.Path, opts podOptions, restartPolicy string, hostUsers bool) field.ErrorList {
	if len(cs) == 0 {
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	var errs field.ErrorList
	names := map[string]bool{}
	for i := range cs {
		c := &cs[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(c, vols, claims, cp, opts, restartPolicy, hostUsers)...)
		// Clashes with init and ephemeral containers are reported there.
		if names[c.Name] {
			errs = append(errs, field.DuplicateValue(cp.Child("name"), field.Quote(c.Name)))
		} else {
			names[c.Name] = true
		}
		if c.Lifecycle != nil {
			errs = append(errs, validateLifecycle(c.Lifecycle, grace, cp.Child("lifecycle"), opts, os)...)
		}
		errs = append(errs, validateLivenessProbe(c.LivenessProbe, grace, cp.Child("livenessProbe"), opts)...)
		errs = append(errs, validateReadinessProbe(c.ReadinessProbe, grace, cp.Child("readinessProbe"), opts)...)
		errs = append(errs, validateStartupProbe(c.StartupProbe, grace, cp.Child("startupProbe"), opts)...)
		if opts.AllowContainerRestartPolicyRules {
			errs = append(errs, validateContainerRestartPolicy(c.RestartPolicy, c.RestartPolicyRules, cp, opts)...)
		} else if c.RestartPolicy != nil {
			errs = append(errs, field.ForbiddenField(cp.Child("restartPolicy"), "may not be set for non-init containers"))
		}
	}
	return append(errs, checkHostPortConflicts(cs, p)...)
}

// validateInitContainers is upstream's validateInitContainers: each init
// container valid, with a name unique among init and regular containers; a
// restart policy of Always (a sidecar) allows lifecycle hooks and probes,
// which other init containers may not have; and the host ports of each
// init container checked on their own, since init containers run one at a
// time.
func validateInitContainers(cs []schema.Container, os *schema.PodOS, regular []schema.Container, vols map[string]*schema.VolumeSource, claims map[string]bool, grace *int64, p *field.Path, opts podOptions, restartPolicy string, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, c := range regular {
		names[c.Name] = true
	}
	for i := range cs {
		c := &cs[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(c, vols, claims, cp, opts, restartPolicy, hostUsers)...)
		errs = append(errs, validateInitContainerRestartPolicy(c.RestartPolicy, c.RestartPolicyRules, cp, opts)...)
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == "Always"
		if names[c.Name] {
			errs = append(errs, field.DuplicateValue(cp.Child("name"), field.Quote(c.Name)))
		} else if c.Name != "" {
			names[c.Name] = true
		}
		// Upstream checks a one-container list under p, so a conflict is
		// reported at index 0 whatever i is.
		errs = append(errs, checkHostPortConflicts(cs[i:i+1], p)...)
		if sidecar {
			if c.Lifecycle != nil {
				errs = append(errs, validateLifecycle(c.Lifecycle, grace, cp.Child("lifecycle"), opts, os)...)
			}
			errs = append(errs, validateLivenessProbe(c.LivenessProbe, grace, cp.Child("livenessProbe"), opts)...)
			errs = append(errs, validateReadinessProbe(c.ReadinessProbe, grace, cp.Child("readinessProbe"), opts)...)
			errs = append(errs, validateStartupProbe(c.StartupProbe, grace, cp.Child("startupProbe"), opts)...)
		} else {
			const notSidecar = "may not be set for init containers without restartPolicy=Always"
			if c.Lifecycle != nil {
				errs = append(errs, field.ForbiddenField(cp.Child("lifecycle"), notSidecar))
			}
			if c.LivenessProbe != nil {
				errs = append(errs, field.ForbiddenField(cp.Child("livenessProbe"), notSidecar))
			}
			if c.ReadinessProbe != nil {
				errs = append(errs, field.ForbiddenField(cp.Child("readinessProbe"), notSidecar))
			}
			if c.StartupProbe != nil {
				errs = append(errs, field.ForbiddenField(cp.Child("startupProbe"), notSidecar))
			}
		}
		if !opts.AllowSidecarResizePolicy && len(c.ResizePolicy) > 0 {
			errs = append(errs, field.InvalidValue(cp.Child("resizePolicy"), resizePolicyString(c.ResizePolicy), "must not be set for init containers"))
		}
		if !sidecar && !opts.AllowExistingRestartForNonSidecarInit {
			for j, rp := range c.ResizePolicy {
				if rp.RestartPolicy == "RestartContainer" {
					errs = append(errs, field.InvalidString(cp.Child("resizePolicy").Index(j).Child("restartPolicy"), rp.RestartPolicy, "must not be set to 'RestartContainer' for non-sidecar initContainers"))
				}
			}
		}
	}
	return errs
}

// validateEphemeralContainers is upstream's validateEphemeralContainers.
// Pod templates may not have ephemeral containers (validatePodTemplateSpec
// refuses them), but upstream validates them in full all the same: the
// common rules, no leading or trailing space in the image, a name unique
// among all containers, a target that names a regular or init container,
// none of the fields an ephemeral container may not set, and no subPath.
func validateEphemeralContainers(cs []schema.EphemeralContainer, regular, init []schema.Container, vols map[string]*schema.VolumeSource, claims map[string]bool, p *field.Path, opts podOptions, restartPolicy string, hostUsers bool) field.ErrorList {
	if len(cs) == 0 {
		return nil
	}
	var errs field.ErrorList
	others, all := map[string]bool{}, map[string]bool{}
	for _, cs := range [][]schema.Container{regular, init} {
		for _, c := range cs {
			others[c.Name] = true
			all[c.Name] = true
		}
	}
	for i := range cs {
		ec := &cs[i]
		cp := p.Index(i)
		c := (*schema.Container)(&ec.EphemeralContainerCommon)
		errs = append(errs, validateContainerCommon(c, vols, claims, cp, opts, restartPolicy, hostUsers)...)
		errs = append(errs, validateContainerOnlyForPod(c, cp)...)
		if all[ec.Name] {
			errs = append(errs, field.DuplicateValue(cp.Child("name"), field.Quote(ec.Name)))
		} else {
			all[ec.Name] = true
		}
		if ec.TargetContainerName != "" && !others[ec.TargetContainerName] {
			errs = append(errs, field.NotFoundValue(cp.Child("targetContainerName"), field.Quote(ec.TargetContainerName)))
		}
		errs = append(errs, validateEphemeralContainerFields(c, cp)...)
		for j, m := range ec.VolumeMounts {
			mp := cp.Child("volumeMounts").Index(j)
			if m.SubPath != "" {
				errs = append(errs, field.ForbiddenField(mp.Child("subPath"), ephemeralForbidden))
			}
			if m.SubPathExpr != "" {
				errs = append(errs, field.ForbiddenField(mp.Child("subPathExpr"), ephemeralForbidden))
			}
		}
	}
	return errs
}

const ephemeralForbidden = "cannot be set for an Ephemeral Container"

// validateEphemeralContainerFields is upstream's validateFieldAllowList
// with allowedEphemeralContainerFields: a field outside the list that is
// set (not its type's zero value; an empty but present list or map counts
// as set) is forbidden.
func validateEphemeralContainerFields(c *schema.Container, p *field.Path) field.ErrorList {
	r := &c.Resources
	set := []struct {
		name string
		set  bool
	}{
		{"ports", c.Ports != nil},
		{"resources", r.Limits != nil || r.Requests != nil || r.Claims != nil},
		{"resizePolicy", c.ResizePolicy != nil},
		{"restartPolicy", c.RestartPolicy != nil},
		{"restartPolicyRules", c.RestartPolicyRules != nil},
		{"livenessProbe", c.LivenessProbe != nil},
		{"readinessProbe", c.ReadinessProbe != nil},
		{"startupProbe", c.StartupProbe != nil},
		{"lifecycle", c.Lifecycle != nil},
	}
	var errs field.ErrorList
	for _, f := range set {
		if f.set {
			errs = append(errs, field.ForbiddenField(p.Child(f.name), ephemeralForbidden))
		}
	}
	return errs
}

// validateContainerOnlyForPod is upstream's validateContainerOnlyForPod:
// no leading or trailing white space in the image. Upstream applies it to
// a pod's containers (validateContainersOnlyForPod, not for templates) and
// to ephemeral containers everywhere.
func validateContainerOnlyForPod(c *schema.Container, p *field.Path) field.ErrorList {
	if len(c.Image) != len(strings.TrimSpace(c.Image)) {
		return field.ErrorList{field.InvalidString(p.Child("image"), c.Image, "must not have leading or trailing whitespace")}
	}
	return nil
}

// validateContainerCommon is upstream's validateContainerCommon, the rules
// every kind of container follows: a DNS-label name, an image (white
// space is allowed: some tools use " " as a placeholder), a termination
// message policy, then the ports, environment, mounts, devices, pull
// policy, resources, resize policy and security context.
func validateContainerCommon(c *schema.Container, vols map[string]*schema.VolumeSource, claims map[string]bool, p *field.Path, opts podOptions, restartPolicy string, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	namePath := p.Child("name")
	if c.Name == "" {
		errs = append(errs, field.RequiredValue(namePath, ""))
	} else {
		errs = append(errs, validateDNS1123Label(c.Name, namePath)...)
	}
	if c.Image == "" {
		errs = append(errs, field.RequiredValue(p.Child("image"), ""))
	}
	switch c.TerminationMessagePolicy {
	case "File", "FallbackToLogsOnError":
	case "":
		errs = append(errs, field.RequiredValue(p.Child("terminationMessagePolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("terminationMessagePolicy"), c.TerminationMessagePolicy, []string{"File", "FallbackToLogsOnError"}))
	}
	mounts := volumeMountPaths(c.VolumeMounts)
	devices := volumeDevicePaths(c.VolumeDevices)
	// The validators of lists report nothing for an empty one: the calls
	// are skipped then, sparing their paths, which escape to the heap.
	if len(c.Ports) > 0 {
		errs = append(errs, validateContainerPorts(c.Ports, p.Child("ports"))...)
	}
	if len(c.Env) > 0 {
		errs = append(errs, validateEnv(c.Env, p.Child("env"), opts)...)
	}
	if len(c.EnvFrom) > 0 {
		errs = append(errs, validateEnvFrom(c.EnvFrom, p.Child("envFrom"), opts)...)
	}
	if len(c.VolumeMounts) > 0 {
		errs = append(errs, validateVolumeMounts(c.VolumeMounts, devices, vols, c, p.Child("volumeMounts"))...)
	}
	if len(c.VolumeDevices) > 0 {
		errs = append(errs, validateVolumeDevices(c.VolumeDevices, mounts, vols, p.Child("volumeDevices"))...)
	}
	switch c.ImagePullPolicy {
	case "Always", "IfNotPresent", "Never": // validatePullPolicy reports nothing
	default:
		errs = append(errs, validatePullPolicy(c.ImagePullPolicy, p.Child("imagePullPolicy"))...)
	}
	errs = append(errs, validateContainerResourceRequirements(&c.Resources, claims, p.Child("resources"), opts)...)
	if len(c.ResizePolicy) > 0 {
		errs = append(errs, validateResizePolicy(c.ResizePolicy, p.Child("resizePolicy"), restartPolicy, opts.minor())...)
	}
	if c.SecurityContext == nil { // validateSecurityContext reports nothing then
		return errs
	}
	return append(errs, validateSecurityContext(c.SecurityContext, p.Child("securityContext"), hostUsers, opts.AllowSysAdminWhenPrivilegeEscalationFalse)...)
}

// validatePullPolicy is upstream's validatePullPolicy: Always,
// IfNotPresent or Never. Image volumes' pull policies follow it too.
func validatePullPolicy(policy string, p *field.Path) field.ErrorList {
	switch policy {
	case "Always", "IfNotPresent", "Never":
		return nil
	case "":
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, policy, []string{"Always", "IfNotPresent", "Never"})}
}

// validateResizePolicy is upstream's validateResizePolicy: one policy per
// resource, for cpu or memory, each NotRequired or RestartContainer, and
// NotRequired only when the pod never restarts. Upstream reports the
// missing and unsupported values at the list, not at the entry. v1.35
// words the last rule without "pod" (VERSIONS.md V1).
func validateResizePolicy(policies []schema.ContainerResizePolicy, p *field.Path, podRestartPolicy string, v kubeversion.Version) field.ErrorList {
	neverMsg := "must be 'NotRequired' when pod `restartPolicy` is 'Never'"
	if v < kubeversion.V1_36 {
		neverMsg = "must be 'NotRequired' when `restartPolicy` is 'Never'"
	}
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, rp := range policies {
		if seen[rp.ResourceName] {
			errs = append(errs, field.DuplicateValue(p.Index(i), field.Quote(rp.ResourceName)))
		}
		seen[rp.ResourceName] = true
		switch rp.ResourceName {
		case "cpu", "memory":
		case "":
			errs = append(errs, field.RequiredValue(p, ""))
		default:
			errs = append(errs, field.NotSupported(p, rp.ResourceName, []string{"cpu", "memory"}))
		}
		switch rp.RestartPolicy {
		case "NotRequired", "RestartContainer":
		case "":
			errs = append(errs, field.RequiredValue(p, ""))
		default:
			errs = append(errs, field.NotSupported(p, rp.RestartPolicy, []string{"NotRequired", "RestartContainer"}))
		}
		if podRestartPolicy == "Never" && rp.RestartPolicy != "NotRequired" {
			errs = append(errs, field.InvalidString(p, rp.RestartPolicy, neverMsg))
		}
	}
	return errs
}

// resizePolicyString renders a resize policy list for an error message.
func resizePolicyString(policies []schema.ContainerResizePolicy) string {
	parts := make([]string, len(policies))
	for i, rp := range policies {
		parts[i] = rp.ResourceName + ":" + rp.RestartPolicy
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
