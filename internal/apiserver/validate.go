package apiserver

import (
	"math"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// podOptions is upstream's PodValidationOptions, with the options that
// a supported minor can set for a Deployment's or ReplicaSet's template.
// On create they follow the feature gates; on update, options that let an
// old object keep what it already has follow the stored template too.
// Besides upstream's options, version is the minor whose rules apply (the
// zero value, Latest, is the newest), and a few rules that changed between
// minors read it (VERSIONS.md).
type podOptions struct {
	ResourceIsPod                             bool
	AllowInvalidPodDeletionCost               bool
	AllowInvalidLabelValueInSelector          bool
	AllowIndivisibleHugePagesValues           bool
	AllowInvalidTopologySpreadLabelSelector   bool
	AllowNonLocalProjectedTokenPath           bool
	AllowNamespacedSysctlsForHostNetAndIPC    bool
	AllowRelaxedEnvironmentVariableValidation bool
	AllowRelaxedDNSSearchValidation           bool
	AllowPodLifecycleSleepActionZeroValue     bool
	AllowOnlyRecursiveSELinuxChangePolicy     bool
	PodLevelResourcesEnabled                  bool
	InPlacePodLevelResourcesVerticalScaling   bool
	AllowSidecarResizePolicy                  bool
	AllowInvalidLabelValueInRequiredNodeAff   bool
	AllowMatchLabelKeysInPodTopologySpread    bool
	AllowMatchLabelKeysSelectorMerge          bool
	AllowEnvFilesValidation                   bool
	AllowContainerRestartPolicyRules          bool
	AllowExistingRestartForNonSidecarInit     bool
	AllowUserNamespacesWithVolumeDevices      bool
	AllowTaintTolerationComparisonOperators   bool
	AllowUserNamespacesHostNetworkSupport     bool
	AllowRestartAllContainers                 bool
	AllowImageVolumeWithDigest                bool
	AllowEmptyImageVolumeReference            bool // v1.37
	AllowSysAdminWhenPrivilegeEscalationFalse bool // v1.37

	// nonStrictIPs is the StrictIPCIDRValidation gate off (the default in
	// v1.35): IsValidIPForLegacyField without strict validation.
	nonStrictIPs bool
	version      kubeversion.Version

	// update and oldEvictionResponders are the update of a stored template
	// and its spec.evictionResponders, which v1.37's declarative
	// validation does not check again where unchanged.
	update                bool
	oldEvictionResponders []schema.EvictionResponder
}

// minor is the supported minor whose rules opts apply.
func (opts podOptions) minor() kubeversion.Version {
	if !opts.version.Valid() {
		return kubeversion.Newest
	}
	return opts.version.Resolve()
}

// createPodOptions are GetValidationOptionsFromPodTemplate's options for a
// new template under the gates (the defaults of g's minor but the ones g
// changes).
func createPodOptions(g FeatureGates) podOptions {
	v := g.minor()
	return podOptions{
		AllowPodLifecycleSleepActionZeroValue:     true,
		PodLevelResourcesEnabled:                  true,
		AllowSidecarResizePolicy:                  g.enabled(gateInPlacePodVerticalScaling),
		AllowMatchLabelKeysInPodTopologySpread:    true,
		AllowMatchLabelKeysSelectorMerge:          true,
		InPlacePodLevelResourcesVerticalScaling:   v >= kubeversion.V1_36, // the gate is alpha (off) in v1.35
		AllowContainerRestartPolicyRules:          g.enabled(gateContainerRestartRules),
		AllowRestartAllContainers:                 g.enabled(gateRestartAllContainersOnContainerExits),
		AllowImageVolumeWithDigest:                true,
		AllowRelaxedEnvironmentVariableValidation: true,
		AllowRelaxedDNSSearchValidation:           true,
		AllowEnvFilesValidation:                   g.enabled(gateEnvFiles),
		AllowUserNamespacesHostNetworkSupport:     false,
		AllowOnlyRecursiveSELinuxChangePolicy:     !g.enabled(gateSELinuxMount), // useOnlyRecursiveSELinuxChangePolicy
		AllowTaintTolerationComparisonOperators:   false,
		// v1.35 has no rule against RestartContainer in a non-sidecar init
		// container's resizePolicy (validateInitContainers, v1.36+), which
		// is the rule switched off.
		AllowExistingRestartForNonSidecarInit: v < kubeversion.V1_36,
		nonStrictIPs:                          !g.enabled(gateStrictIPCIDRValidation),
		version:                               v,
	}
}

// validateDeployment is ValidateDeployment: the metadata, then the spec.
func validateDeployment(d *schema.Deployment, rollbackTo *int64, opts podOptions) field.ErrorList {
	errs := validateObjectMeta(&d.ObjectMeta, true, nameIsDNSSubdomain, field.NewPath("metadata"), opts.minor())
	return append(errs, validateDeploymentSpec(&d.Spec, rollbackTo, field.NewPath("spec"), opts)...)
}

// validateReplicaSet is ValidateReplicaSet.
func validateReplicaSet(rs *schema.ReplicaSet, opts podOptions) field.ErrorList {
	errs := validateObjectMeta(&rs.ObjectMeta, true, nameIsDNSSubdomain, field.NewPath("metadata"), opts.minor())
	return append(errs, validateReplicaSetSpec(&rs.Spec, field.NewPath("spec"), opts)...)
}

// validatePodTemplateSpec is ValidatePodTemplateSpec: the template's
// labels and annotations, its spec, the seccomp and AppArmor annotations
// against the fields, and no ephemeral containers.
func validatePodTemplateSpec(t *schema.PodTemplateSpec, p *field.Path, opts podOptions) field.ErrorList {
	errs := validateLabels(t.Labels, p.Child("labels"))
	errs = append(errs, validateAnnotations(t.Annotations, p.Child("annotations"))...)
	errs = append(errs, validatePodSpecificAnnotations(t.Annotations, &t.Spec, p.Child("annotations"), opts)...)
	errs = append(errs, validatePodSpec(&t.Spec, nil, p.Child("spec"), opts)...)
	errs = append(errs, validateSeccompAnnotationsAndFields(&t.ObjectMeta, &t.Spec, p.Child("spec"))...)
	errs = append(errs, validateAppArmorAnnotationsAndFieldsMatchOnCreate(&t.ObjectMeta, &t.Spec, p.Child("spec"))...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.ForbiddenField(p.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

// validatePodSpec is ValidatePodSpec. meta is the pod's metadata, nil for
// a template.
func validatePodSpec(s *schema.PodSpec, meta *schema.ObjectMeta, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if s.TerminationGracePeriodSeconds == nil {
		errs = append(errs, field.RequiredValue(p.Child("terminationGracePeriodSeconds"), ""))
	}
	hostUsers := s.HostUsers == nil || *s.HostUsers

	vols, volErrs := validateVolumes(s.Volumes, meta, p.Child("volumes"), opts)
	errs = append(errs, volErrs...)
	claims := podResourceClaimNames(s.ResourceClaims)
	errs = append(errs, validatePodResourceClaims(meta, s.ResourceClaims, p.Child("resourceClaims"))...)
	errs = append(errs, validateContainers(s.Containers, s.OS, vols, claims, s.TerminationGracePeriodSeconds, p.Child("containers"), opts, s.RestartPolicy, hostUsers)...)
	errs = append(errs, validateInitContainers(s.InitContainers, s.OS, s.Containers, vols, claims, s.TerminationGracePeriodSeconds, p.Child("initContainers"), opts, s.RestartPolicy, hostUsers)...)
	errs = append(errs, validateEphemeralContainers(s.EphemeralContainers, s.Containers, s.InitContainers, vols, claims, p.Child("ephemeralContainers"), opts, s.RestartPolicy, hostUsers)...)
	if opts.PodLevelResourcesEnabled {
		errs = append(errs, validatePodResources(s, claims, p, opts)...)
	}
	errs = append(errs, validatePodHostNetworkDeps(s, p, opts)...)
	errs = append(errs, validateRestartPolicy(s.RestartPolicy, p.Child("restartPolicy"))...)
	errs = append(errs, validateDNSPolicy(s.DNSPolicy, p.Child("dnsPolicy"))...)
	errs = append(errs, validateLabels(s.NodeSelector, p.Child("nodeSelector"))...)
	errs = append(errs, validatePodSpecSecurityContext(s.SecurityContext, s, p, p.Child("securityContext"), opts)...)
	errs = append(errs, validateImagePullSecrets(s.ImagePullSecrets, p.Child("imagePullSecrets"))...)
	errs = append(errs, validateAffinity(s.Affinity, opts, p.Child("affinity"))...)
	errs = append(errs, validatePodDNSConfig(s.DNSConfig, s.DNSPolicy, p.Child("dnsConfig"), opts)...)
	errs = append(errs, validateReadinessGates(s.ReadinessGates, p.Child("readinessGates"))...)
	errs = append(errs, validateSchedulingGates(s.SchedulingGates, p.Child("schedulingGates"))...)
	errs = append(errs, validateTopologySpreadConstraints(s.TopologySpreadConstraints, p.Child("topologySpreadConstraints"), opts)...)
	errs = append(errs, validateWindowsHostProcessPod(s, p)...)
	errs = append(errs, validateHostUsers(s, p, opts)...)
	errs = append(errs, validatePodHostName(s, p)...)
	if s.ServiceAccountName != "" {
		for _, msg := range nameIsDNSSubdomain(s.ServiceAccountName, false) {
			errs = append(errs, field.InvalidString(p.Child("serviceAccountName"), s.ServiceAccountName, msg))
		}
	}
	if s.NodeName != "" {
		for _, msg := range nameIsDNSSubdomain(s.NodeName, false) {
			errs = append(errs, field.InvalidString(p.Child("nodeName"), s.NodeName, msg))
		}
	}
	if s.ActiveDeadlineSeconds != nil {
		if v := *s.ActiveDeadlineSeconds; v < 1 || v > math.MaxInt32 {
			errs = append(errs, field.InvalidInt(p.Child("activeDeadlineSeconds"), v, inclusiveRangeError(1, math.MaxInt32)))
		}
	}
	if s.Hostname != "" {
		errs = append(errs, validateDNS1123Label(s.Hostname, p.Child("hostname"))...)
	}
	if s.Subdomain != "" {
		errs = append(errs, validateDNS1123Label(s.Subdomain, p.Child("subdomain"))...)
	}
	if len(s.Tolerations) > 0 {
		errs = append(errs, validateTolerations(s.Tolerations, p.Child("tolerations"), opts)...)
	}
	if len(s.HostAliases) > 0 {
		errs = append(errs, validateHostAliases(s.HostAliases, p.Child("hostAliases"), opts)...)
	}
	if s.PriorityClassName != "" {
		for _, msg := range nameIsDNSSubdomain(s.PriorityClassName, false) {
			errs = append(errs, field.InvalidString(p.Child("priorityClassName"), s.PriorityClassName, msg))
		}
	}
	if s.RuntimeClassName != nil {
		for _, msg := range nameIsDNSSubdomain(*s.RuntimeClassName, false) {
			errs = append(errs, field.InvalidString(p.Child("runtimeClassName"), *s.RuntimeClassName, msg))
		}
	}
	if s.PreemptionPolicy != nil {
		errs = append(errs, validatePreemptionPolicy(*s.PreemptionPolicy, p.Child("preemptionPolicy"))...)
	}
	if s.Overhead != nil {
		errs = append(errs, validateOverhead(s.Overhead, p.Child("overhead"), opts)...)
	}
	if s.OS != nil {
		osErrs := validateOS(s, p.Child("os"), opts)
		switch {
		case len(osErrs) > 0:
			errs = append(errs, osErrs...)
		case s.OS.Name == "linux":
			errs = append(errs, validateLinux(s, p)...)
		case s.OS.Name == "windows":
			errs = append(errs, validateWindows(s, p)...)
		}
	}
	if s.SchedulingGroup != nil {
		errs = append(errs, validateSchedulingGroup(s.SchedulingGroup, p.Child("schedulingGroup"))...)
		// v1.37's handwritten rule (its declarative twin is alpha, so
		// this one stays); other minors have no evictionResponders.
		if len(s.EvictionResponders) > 0 {
			errs = append(errs, field.ForbiddenField(p.Child("schedulingGroup"), "may not be set when evictionResponders is set"))
		}
	}
	// v1.37 only (its schema alone has the field): declarative validation.
	errs = append(errs, validateEvictionResponders(s.EvictionResponders, opts.oldEvictionResponders, opts.update, p.Child("evictionResponders"))...)
	if s.WorkloadRef != nil { // v1.35 only: its schema alone has the field
		errs = append(errs, validateWorkloadReference(s.WorkloadRef, p.Child("workloadRef"))...)
	}
	return append(errs, validateFileKeyRefVolumes(s, p)...)
}

// validateDNS1123Label is ValidateDNS1123Label.
func validateDNS1123Label(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isDNS1123Label(v) {
		errs = append(errs, field.InvalidString(p, v, msg))
	}
	return errs
}

// validateDNS1123Subdomain is ValidateDNS1123Subdomain.
func validateDNS1123Subdomain(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isDNS1123Subdomain(v) {
		errs = append(errs, field.InvalidString(p, v, msg))
	}
	return errs
}

// validateRestartPolicy is validateRestartPolicy.
func validateRestartPolicy(v string, p *field.Path) field.ErrorList {
	switch v {
	case "Always", "OnFailure", "Never":
		return nil
	case "":
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, v, []string{"Always", "OnFailure", "Never"})}
}

// validatePreemptionPolicy is ValidatePreemptionPolicy.
func validatePreemptionPolicy(v string, p *field.Path) field.ErrorList {
	switch v {
	case "PreemptLowerPriority", "Never":
		return nil
	case "":
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, v, []string{"PreemptLowerPriority", "Never"})}
}

// validateDNSPolicy is validateDNSPolicy.
func validateDNSPolicy(v string, p *field.Path) field.ErrorList {
	switch v {
	case "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None":
		return nil
	case "":
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, v, []string{"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"})}
}

// validatePodHostNetworkDeps is validatePodHostNetworkDeps: with host
// networking, a template's host ports must be 0 or match the container
// port.
func validatePodHostNetworkDeps(s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	if !s.HostNetwork {
		return nil
	}
	var errs field.ErrorList
	for i, c := range s.Containers {
		for j, port := range c.Ports {
			if (opts.ResourceIsPod || port.HostPort != 0) && port.HostPort != port.ContainerPort {
				errs = append(errs, field.InvalidInt(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), int64(port.HostPort), "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

// validateImagePullSecrets is validateImagePullSecrets: only a name.
func validateImagePullSecrets(refs []schema.LocalObjectReference, p *field.Path) field.ErrorList {
	// LocalObjectReference has only a name, so nothing else can be set.
	return nil
}

// validateReadinessGates is validateReadinessGates: qualified condition
// types.
func validateReadinessGates(gates []schema.PodReadinessGate, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, g := range gates {
		for _, msg := range isQualifiedName(g.ConditionType) {
			errs = append(errs, field.InvalidString(p.Index(i).Child("conditionType"), g.ConditionType, msg))
		}
	}
	return errs
}

// validateSchedulingGates is validateSchedulingGates: qualified, unique
// names.
func validateSchedulingGates(gates []schema.PodSchedulingGate, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, g := range gates {
		for _, msg := range isQualifiedName(g.Name) {
			errs = append(errs, field.InvalidString(p.Index(i), g.Name, msg))
		}
		if seen[g.Name] {
			errs = append(errs, field.DuplicateValue(p.Index(i), field.Quote(g.Name)))
		}
		seen[g.Name] = true
	}
	return errs
}

// podResourceClaimNames is gatherPodResourceClaimNames: the names of the
// pod's resource claims that have one.
func podResourceClaimNames(claims []schema.PodResourceClaim) map[string]bool {
	names := map[string]bool{}
	for _, c := range claims {
		if c.Name != "" {
			names[c.Name] = true
		}
	}
	return names
}
