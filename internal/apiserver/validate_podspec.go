package apiserver

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the pod-level parts of a pod spec that concern the pod as
// a whole: its resource claims, its host namespaces and hostname, its
// operating system and what that forbids, Windows host-process pods, the
// scheduling group, and environment files' volumes
// (pkg/apis/core/validation). The security context is in
// validate_security.go, affinity in validate_affinity.go, tolerations,
// topology spread, DNS and host aliases in validate_scheduling.go,
// pod-level resources and overhead in validate_pod_resources.go.

// visitPodContainers calls visit with every container of the pod and its
// path under specPath, as upstream's VisitContainersWithPath does: the
// init containers, the regular ones, then the ephemeral ones (as a copy
// in the Container type, whose fields they share).
func visitPodContainers(s *schema.PodSpec, specPath *field.Path, visit func(c *schema.Container, p *field.Path)) {
	// Each list's path is built once, and only for a list with containers.
	if len(s.InitContainers) > 0 {
		lp := specPath.Child("initContainers")
		for i := range s.InitContainers {
			visit(&s.InitContainers[i], lp.Index(i))
		}
	}
	if len(s.Containers) > 0 {
		lp := specPath.Child("containers")
		for i := range s.Containers {
			visit(&s.Containers[i], lp.Index(i))
		}
	}
	if len(s.EphemeralContainers) > 0 {
		lp := specPath.Child("ephemeralContainers")
		for i := range s.EphemeralContainers {
			c := schema.Container(s.EphemeralContainers[i].EphemeralContainerCommon)
			visit(&c, lp.Index(i))
		}
	}
}

// validatePodResourceClaims is upstream's validatePodResourceClaims with
// validatePodResourceClaim: a static pod has none; each claim has a
// unique DNS-label name and exactly one of resourceClaimName and
// resourceClaimTemplateName, a DNS subdomain. meta is nil for a template.
func validatePodResourceClaims(meta *schema.ObjectMeta, claims []schema.PodResourceClaim, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, c := range claims {
		if meta != nil {
			if _, mirror := meta.Annotations[mirrorPodAnnotation]; mirror {
				errs = append(errs, field.ForbiddenField(field.NewPath(""), "static pods do not support resource claims"))
				continue
			}
		}
		cp := p.Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, field.RequiredValue(cp.Child("name"), ""))
		case seen[c.Name]:
			errs = append(errs, field.DuplicateValue(cp.Child("name"), field.Quote(c.Name)))
		default:
			errs = append(errs, validateDNS1123Label(c.Name, cp.Child("name"))...)
			seen[c.Name] = true
		}
		switch {
		case c.ResourceClaimName != nil && c.ResourceClaimTemplateName != nil:
			errs = append(errs, field.InvalidValue(cp, podResourceClaimString(c), "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		case c.ResourceClaimName == nil && c.ResourceClaimTemplateName == nil:
			errs = append(errs, field.InvalidValue(cp, podResourceClaimString(c), "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
		if c.ResourceClaimName != nil {
			for _, msg := range nameIsDNSSubdomain(*c.ResourceClaimName, false) {
				errs = append(errs, field.InvalidString(cp.Child("resourceClaimName"), *c.ResourceClaimName, msg))
			}
		}
		if c.ResourceClaimTemplateName != nil {
			for _, msg := range nameIsDNSSubdomain(*c.ResourceClaimTemplateName, false) {
				errs = append(errs, field.InvalidString(cp.Child("resourceClaimTemplateName"), *c.ResourceClaimTemplateName, msg))
			}
		}
	}
	return errs
}

// podResourceClaimString renders a claim in errors, as a Go struct.
func podResourceClaimString(c schema.PodResourceClaim) string {
	// Upstream passes the claim (core.PodResourceClaim, no JSON tags) to
	// field.Invalid, whose ErrorBody renders it with encoding/json.
	opt := func(p *string) string {
		if p == nil {
			return "null"
		}
		return field.QuoteTyped(*p)
	}
	return `{"Name":` + field.QuoteTyped(c.Name) + `,"ResourceClaimName":` + opt(c.ResourceClaimName) +
		`,"ResourceClaimTemplateName":` + opt(c.ResourceClaimTemplateName) + "}"
}

// validateHostUsers is upstream's validateHostUsers: a pod in its own user
// namespace (hostUsers false) may not share the host's network (unless
// opts allow it), PID or IPC namespaces, nor have volume devices (unless
// opts allow them). Upstream names hostPID and hostIPC with capitals here.
func validateHostUsers(s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	if s.HostUsers == nil || *s.HostUsers {
		return nil
	}
	const detail = "when `hostUsers` is false"
	var errs field.ErrorList
	if !opts.AllowUserNamespacesHostNetworkSupport && s.HostNetwork {
		errs = append(errs, field.ForbiddenField(p.Child("hostNetwork"), detail))
	}
	if s.HostPID {
		errs = append(errs, field.ForbiddenField(p.Child("HostPID"), detail))
	}
	if s.HostIPC {
		errs = append(errs, field.ForbiddenField(p.Child("HostIPC"), detail))
	}
	if !opts.AllowUserNamespacesWithVolumeDevices {
		visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
			if len(c.VolumeDevices) > 0 {
				errs = append(errs, field.ForbiddenField(cp.Child("volumeDevices"), detail))
			}
		})
	}
	return errs
}

// maxHostnameOverride is the longest hostnameOverride: 64 bytes.
const maxHostnameOverride = 64

// validatePodHostName is upstream's validatePodHostName: a
// hostnameOverride goes neither with setHostnameAsFQDN nor with
// hostNetwork, and is a DNS subdomain of at most 64 bytes.
func validatePodHostName(s *schema.PodSpec, p *field.Path) field.ErrorList {
	if s.HostnameOverride == nil {
		return nil
	}
	hp := p.Child("hostnameOverride")
	var errs field.ErrorList
	if s.SetHostnameAsFQDN != nil && *s.SetHostnameAsFQDN {
		errs = append(errs, field.ForbiddenField(hp, "may not be specified when setHostnameAsFQDN is true"))
	}
	if s.HostNetwork {
		errs = append(errs, field.ForbiddenField(hp, "may not be specified when hostNetwork is true"))
	}
	if len(*s.HostnameOverride) > maxHostnameOverride {
		errs = append(errs, field.TooLongValue(hp, maxHostnameOverride))
	}
	return append(errs, validateDNS1123Subdomain(*s.HostnameOverride, hp)...)
}

// validateFileKeyRefVolumes is upstream's validateFileKeyRefVolumes: an
// environment variable read from a file names an emptyDir volume of the
// pod.
func validateFileKeyRefVolumes(s *schema.PodSpec, p *field.Path) field.ErrorList {
	sources := map[string]*schema.VolumeSource{}
	for i := range s.Volumes {
		sources[s.Volumes[i].Name] = &s.Volumes[i].VolumeSource
	}
	var errs field.ErrorList
	visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
		for j, env := range c.Env {
			if env.ValueFrom == nil || env.ValueFrom.FileKeyRef == nil {
				continue
			}
			name := env.ValueFrom.FileKeyRef.VolumeName
			np := cp.Child("env").Index(j).Child("valueFrom", "fileKeyRef", "volumeName")
			switch src, ok := sources[name]; {
			case !ok:
				errs = append(errs, field.NotFoundValue(np, field.Quote(name)))
			case src.EmptyDir == nil:
				errs = append(errs, field.InvalidString(np, name, "referenced volume must be of type emptyDir"))
			}
		}
	})
	return errs
}

// validateOS is upstream's validateOS: a name, linux or windows.
func validateOS(s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	if s.OS == nil {
		return nil
	}
	switch s.OS.Name {
	case "":
		return field.ErrorList{field.RequiredValue(p.Child("name"), "")}
	case "linux", "windows":
		return nil
	}
	return field.ErrorList{field.NotSupported(p, s.OS.Name, []string{"linux", "windows"})}
}

// validateLinux is upstream's validateLinux: a Linux pod has no Windows
// options, neither its own nor its containers'.
func validateLinux(s *schema.PodSpec, p *field.Path) field.ErrorList {
	const detail = "windows options cannot be set for a linux pod"
	var errs field.ErrorList
	if s.SecurityContext != nil && s.SecurityContext.WindowsOptions != nil {
		errs = append(errs, field.ForbiddenField(p.Child("securityContext", "windowsOptions"), detail))
	}
	visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			errs = append(errs, field.ForbiddenField(cp.Child("securityContext", "windowsOptions"), detail))
		}
	})
	return errs
}

// validateWindows is upstream's validateWindows: a Windows pod sets none
// of the Linux-only settings, neither in its security context (nor the
// host namespaces and process sharing upstream keeps there) nor in its
// containers'.
func validateWindows(s *schema.PodSpec, p *field.Path) field.ErrorList {
	const detail = "cannot be set for a windows pod"
	var errs field.ErrorList
	forbid := func(set bool, fp *field.Path) {
		if set {
			errs = append(errs, field.ForbiddenField(fp, detail))
		}
	}
	sc := s.SecurityContext
	if sc == nil {
		sc = &schema.PodSecurityContext{}
	}
	scp := p.Child("securityContext")
	forbid(sc.AppArmorProfile != nil, scp.Child("appArmorProfile"))
	forbid(sc.SELinuxOptions != nil, scp.Child("seLinuxOptions"))
	forbid(s.HostUsers != nil, p.Child("hostUsers"))
	forbid(s.HostPID, p.Child("hostPID"))
	forbid(s.HostIPC, p.Child("hostIPC"))
	forbid(sc.SeccompProfile != nil, scp.Child("seccompProfile"))
	forbid(sc.FSGroup != nil, scp.Child("fsGroup"))
	forbid(sc.FSGroupChangePolicy != nil, scp.Child("fsGroupChangePolicy"))
	forbid(len(sc.Sysctls) > 0, scp.Child("sysctls"))
	forbid(s.ShareProcessNamespace != nil, p.Child("shareProcessNamespace"))
	forbid(sc.RunAsUser != nil, scp.Child("runAsUser"))
	forbid(sc.RunAsGroup != nil, scp.Child("runAsGroup"))
	forbid(sc.SupplementalGroups != nil, scp.Child("supplementalGroups"))
	forbid(sc.SupplementalGroupsPolicy != nil, scp.Child("supplementalGroupsPolicy"))
	forbid(sc.SELinuxChangePolicy != nil, scp.Child("seLinuxChangePolicy"))
	visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
		csc := c.SecurityContext
		if csc == nil {
			return
		}
		sp := cp.Child("securityContext")
		forbid(csc.AppArmorProfile != nil, sp.Child("appArmorProfile"))
		forbid(csc.SELinuxOptions != nil, sp.Child("seLinuxOptions"))
		forbid(csc.SeccompProfile != nil, sp.Child("seccompProfile"))
		forbid(csc.Capabilities != nil, sp.Child("capabilities"))
		forbid(csc.ReadOnlyRootFilesystem != nil, sp.Child("readOnlyRootFilesystem"))
		forbid(csc.Privileged != nil, sp.Child("privileged"))
		forbid(csc.AllowPrivilegeEscalation != nil, sp.Child("allowPrivilegeEscalation"))
		forbid(csc.ProcMount != nil, sp.Child("procMount"))
		forbid(csc.RunAsUser != nil, sp.Child("runAsUser"))
		forbid(csc.RunAsGroup != nil, sp.Child("runAsGroup"))
	})
	return errs
}

// clusterAllowsPrivileged is the API server's --allow-privileged, which
// clusters set (and the differential harness sets): with it, host-process
// containers are not refused by cluster policy.
const clusterAllowsPrivileged = true

// validateWindowsHostProcessPod is upstream's validateWindowsHostProcessPod:
// a container's hostProcess agrees with the pod's when both are set; if
// any container is a host process (by its own setting or the pod's), all
// are, and the pod uses the host's network.
func validateWindowsHostProcessPod(s *schema.PodSpec, p *field.Path) field.ErrorList {
	var podHostProcess *bool
	if s.SecurityContext != nil && s.SecurityContext.WindowsOptions != nil {
		podHostProcess = s.SecurityContext.WindowsOptions.HostProcess
	}
	var errs field.ErrorList
	containers, hostProcess := 0, 0
	visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
		containers++
		var own *bool
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			own = c.SecurityContext.WindowsOptions.HostProcess
		}
		if podHostProcess != nil && own != nil && *podHostProcess != *own {
			errs = append(errs, field.InvalidValue(cp.Child("securityContext", "windowsOptions", "hostProcess"), strconv.FormatBool(*own),
				"pod hostProcess value must be identical if both are specified, was "+strconv.FormatBool(*podHostProcess)))
		}
		if own != nil && *own || own == nil && podHostProcess != nil && *podHostProcess {
			hostProcess++
		}
	})
	if hostProcess > 0 {
		if hostProcess != containers {
			errs = append(errs, field.InvalidString(p, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
		}
		if !s.HostNetwork {
			errs = append(errs, field.InvalidValue(p.Child("hostNetwork"), "false", "hostNetwork must be true if pod contains any hostProcess containers"))
		}
		if !clusterAllowsPrivileged {
			errs = append(errs, field.ForbiddenField(p, "hostProcess containers are disallowed by cluster policy"))
		}
	}
	return errs
}

// validateSchedulingGroup is upstream's validateSchedulingGroup: a
// podGroupName, a DNS subdomain.
func validateSchedulingGroup(g *schema.PodSchedulingGroup, p *field.Path) field.ErrorList {
	np := p.Child("podGroupName")
	if g.PodGroupName == nil {
		return field.ErrorList{field.InvalidValue(np, "null", "must specify one of: `podGroupName`")}
	}
	var errs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(*g.PodGroupName, false) {
		errs = append(errs, field.InvalidString(np, *g.PodGroupName, msg))
	}
	return errs
}

// validateWorkloadReference is v1.35's validateWorkloadReference: name is a
// DNS subdomain (ValidateWorkloadName), podGroup a DNS label
// (ValidatePodGroupName) and podGroupReplicaKey, when set, a DNS label
// (ValidatePodGroupReplicaKey).
func validateWorkloadReference(w *schema.WorkloadReference, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(w.Name, false) {
		errs = append(errs, field.InvalidString(p.Child("name"), w.Name, msg))
	}
	for _, msg := range nameIsDNSLabel(w.PodGroup, false) {
		errs = append(errs, field.InvalidString(p.Child("podGroup"), w.PodGroup, msg))
	}
	if w.PodGroupReplicaKey != "" {
		for _, msg := range nameIsDNSLabel(w.PodGroupReplicaKey, false) {
			errs = append(errs, field.InvalidString(p.Child("podGroupReplicaKey"), w.PodGroupReplicaKey, msg))
		}
	}
	return errs
}
