package apiserver

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The API server validates and stores the internal form of an object and
// serves the versioned one, so a stored apps/v1 object has been through
// the conversions v1 -> internal -> v1. Most fields pass unchanged; these
// functions do what the round trip changes.

// rollbackToAnnotation is the deprecated rollback request, which the
// conversion to the internal form parses into spec.rollbackTo.
const rollbackToAnnotation = "deprecated.deployment.rollback.to"

// convertDeployment applies Convert_v1_Deployment_To_apps_Deployment and
// back: the rollback annotation must be an integer, is written back in its
// decimal form, and an empty one is dropped. It returns the revision, or
// nil, and an error for an annotation that does not parse.
func convertDeployment(d *schema.Deployment) (rollbackTo *int64, err *field.Error) {
	if v, ok := d.Annotations[rollbackToAnnotation]; ok {
		if v == "" {
			delete(d.Annotations, rollbackToAnnotation)
		} else {
			n, perr := strconv.ParseInt(v, 10, 64)
			if perr != nil {
				return nil, &field.Error{Type: field.Invalid, Field: "metadata.annotations",
					Value:  field.Quote(rollbackToAnnotation + "=" + v),
					Detail: "failed to parse annotation[" + rollbackToAnnotation + "]=" + v + " as int64"}
			}
			d.Annotations[rollbackToAnnotation] = strconv.FormatInt(n, 10)
			rollbackTo = &n
		}
	}
	convertPodTemplate(&d.Spec.Template)
	return rollbackTo, nil
}

// initContainerAnnotations are the pre-1.6 annotations that held init
// containers; the conversions drop them from pod templates.
var initContainerAnnotations = [...]string{
	"pod.beta.kubernetes.io/init-containers",
	"pod.alpha.kubernetes.io/init-containers",
	"pod.beta.kubernetes.io/init-container-statuses",
	"pod.alpha.kubernetes.io/init-container-statuses",
}

// keepInitContainerAnnotations returns the init-container annotations of a
// stored template that reading it keeps: none before v1.37, whose
// PodTemplateSpec conversion drops them; all of them from v1.37, which
// drops them only when an object is written (pod DropInitContainerAnnotations
// in dropDisabledFields; VERSIONS.md D1). The result is in the order of
// initContainerAnnotations.
func keepInitContainerAnnotations(annotations map[string]string, g FeatureGates) [][2]string {
	if g.minor() < kubeversion.V1_37 {
		return nil
	}
	var kept [][2]string
	for _, k := range initContainerAnnotations {
		if v, ok := annotations[k]; ok {
			kept = append(kept, [2]string{k, v})
		}
	}
	return kept
}

// restoreInitContainerAnnotations puts back what keepInitContainerAnnotations
// kept.
func restoreInitContainerAnnotations(t *schema.PodTemplateSpec, kept [][2]string) {
	for _, kv := range kept {
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[kv[0]] = kv[1]
	}
}

// convertPodTemplate applies the PodTemplateSpec and PodSpec conversions.
func convertPodTemplate(t *schema.PodTemplateSpec) {
	for _, k := range initContainerAnnotations {
		delete(t.Annotations, k)
	}
	convertPodSpec(&t.Spec)
}

// convertPodSpec applies the PodSpec conversions: serviceAccount is an
// alias of serviceAccountName, which wins when both are set, and both are
// written back; the security context always exists.
func convertPodSpec(s *schema.PodSpec) {
	if s.ServiceAccountName == "" {
		s.ServiceAccountName = s.DeprecatedServiceAccount
	}
	s.DeprecatedServiceAccount = s.ServiceAccountName
	if s.SecurityContext == nil {
		s.SecurityContext = &schema.PodSecurityContext{}
	}
}

// dropDisabledFields is pod.DropDisabledTemplateFields: it clears the
// fields whose feature gate is off, unless old (the stored template, nil on
// create) already uses them. It returns the gates (by upstream's names)
// whose fields s used and lost, so that nothing is dropped silently.
func dropDisabledFields(s, old *schema.PodSpec, g FeatureGates) (dropped []string) {
	drop := func(disabled bool, gate string, used func(*schema.PodSpec) bool) bool {
		if !disabled || old != nil && used(old) {
			return false
		}
		if used(s) {
			dropped = append(dropped, gate)
		}
		return true
	}
	if drop(!g.enabled(gateUserNamespacesSupport), "UserNamespacesSupport", func(p *schema.PodSpec) bool { return p.HostUsers != nil }) {
		s.HostUsers = nil
	}
	if drop(!g.enabled(gateSupplementalGroupsPolicy), "SupplementalGroupsPolicy", func(p *schema.PodSpec) bool {
		return p.SecurityContext != nil && p.SecurityContext.SupplementalGroupsPolicy != nil
	}) {
		if s.SecurityContext != nil {
			s.SecurityContext.SupplementalGroupsPolicy = nil
		}
	}
	if drop(!g.enabled(gateClusterTrustBundleProjection), "ClusterTrustBundleProjection", projects(func(p *schema.VolumeProjection) bool { return p.ClusterTrustBundle != nil })) {
		for i := range s.Volumes {
			if pr := s.Volumes[i].Projected; pr != nil {
				for j := range pr.Sources {
					pr.Sources[j].ClusterTrustBundle = nil
				}
			}
		}
	}
	if drop(!g.enabled(gatePodCertificateRequest), "PodCertificateRequest", projects(func(p *schema.VolumeProjection) bool { return p.PodCertificate != nil })) {
		for i := range s.Volumes {
			if pr := s.Volumes[i].Projected; pr != nil {
				for j := range pr.Sources {
					pr.Sources[j].PodCertificate = nil
				}
			}
		}
	}
	// GenericWorkload guards spec.workloadRef in v1.35 (dropDisabledWorkloadRef)
	// and spec.schedulingGroup from v1.36 (dropDisabledSchedulingGroup);
	// each minor's schema has only its own field.
	if drop(!g.enabled(gateGenericWorkload), "GenericWorkload", func(p *schema.PodSpec) bool { return p.SchedulingGroup != nil || p.WorkloadRef != nil }) {
		s.SchedulingGroup = nil
		s.WorkloadRef = nil
	}
	if drop(!g.enabled(gateInPlacePodVerticalScaling), "InPlacePodVerticalScaling", anyContainer(func(c *schema.Container) bool { return len(c.ResizePolicy) > 0 })) {
		for _, cs := range [][]schema.Container{s.Containers, s.InitContainers} {
			for i := range cs {
				cs[i].ResizePolicy = nil
			}
		}
		for i := range s.EphemeralContainers {
			s.EphemeralContainers[i].ResizePolicy = nil
		}
	}
	// v1.37 removed the SidecarContainers gate and its drop (pod
	// dropDisabledFields): init containers' restartPolicy always stays.
	if drop(!g.enabled(gateSidecarContainers) && g.minor() < kubeversion.V1_37, "SidecarContainers", func(p *schema.PodSpec) bool {
		for _, c := range p.InitContainers {
			if c.RestartPolicy != nil {
				return true
			}
		}
		return false
	}) {
		for i := range s.InitContainers {
			s.InitContainers[i].RestartPolicy = nil
		}
	}
	if drop(!g.enabled(gateContainerRestartRules), "ContainerRestartRules", func(p *schema.PodSpec) bool {
		for _, c := range p.InitContainers {
			if c.RestartPolicy != nil && *c.RestartPolicy != "Always" || len(c.RestartPolicyRules) > 0 {
				return true
			}
		}
		for _, c := range p.Containers {
			if c.RestartPolicy != nil {
				return true
			}
		}
		return false
	}) {
		for i := range s.InitContainers {
			c := &s.InitContainers[i]
			if c.RestartPolicy != nil && *c.RestartPolicy != "Always" {
				c.RestartPolicy = nil
			}
			c.RestartPolicyRules = nil
		}
		for i := range s.Containers {
			s.Containers[i].RestartPolicy = nil
			s.Containers[i].RestartPolicyRules = nil
		}
		for i := range s.EphemeralContainers {
			s.EphemeralContainers[i].RestartPolicy = nil
			s.EphemeralContainers[i].RestartPolicyRules = nil
		}
	}
	if drop(!g.enabled(gateRecursiveReadOnlyMounts), "RecursiveReadOnlyMounts", anyContainer(func(c *schema.Container) bool {
		for _, m := range c.VolumeMounts {
			if m.RecursiveReadOnly != nil {
				return true
			}
		}
		return false
	})) {
		for _, cs := range [][]schema.Container{s.Containers, s.InitContainers} {
			for i := range cs {
				for j := range cs[i].VolumeMounts {
					cs[i].VolumeMounts[j].RecursiveReadOnly = nil
				}
			}
		}
		for i := range s.EphemeralContainers {
			for j := range s.EphemeralContainers[i].VolumeMounts {
				s.EphemeralContainers[i].VolumeMounts[j].RecursiveReadOnly = nil
			}
		}
	}
	if drop(!g.enabled(gateHostnameOverride), "HostnameOverride", func(p *schema.PodSpec) bool { return p.HostnameOverride != nil }) {
		s.HostnameOverride = nil
	}
	if drop(!g.enabled(gateEnvFiles), "EnvFiles", anyContainer(func(c *schema.Container) bool {
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.FileKeyRef != nil {
				return true
			}
		}
		return false
	})) {
		for _, cs := range [][]schema.Container{s.Containers, s.InitContainers} {
			for i := range cs {
				for j := range cs[i].Env {
					if vf := cs[i].Env[j].ValueFrom; vf != nil {
						vf.FileKeyRef = nil
					}
				}
			}
		}
	}
	if drop(!g.enabled(gateImageVolume), "ImageVolume", func(p *schema.PodSpec) bool {
		for _, v := range p.Volumes {
			if v.Image != nil {
				return true
			}
		}
		return false
	}) {
		dropImageVolumes(s)
	}
	if drop(!g.enabled(gateContainerStopSignals), "ContainerStopSignals", anyContainer(func(c *schema.Container) bool {
		return c.Lifecycle != nil && c.Lifecycle.StopSignal != nil
	})) {
		wipe := func(l **schema.Lifecycle) {
			if *l == nil || (*l).StopSignal == nil {
				return
			}
			(*l).StopSignal = nil
			if **l == (schema.Lifecycle{}) {
				*l = nil
			}
		}
		for _, cs := range [][]schema.Container{s.Containers, s.InitContainers} {
			for i := range cs {
				wipe(&cs[i].Lifecycle)
			}
		}
		for i := range s.EphemeralContainers {
			wipe(&s.EphemeralContainers[i].Lifecycle)
		}
	}
	return append(dropped, dropDisabled137Fields(s, old, g)...)
}

// projects returns a test of whether a pod spec has a projected source
// that has.
func projects(has func(*schema.VolumeProjection) bool) func(*schema.PodSpec) bool {
	return func(p *schema.PodSpec) bool {
		for _, v := range p.Volumes {
			if v.Projected == nil {
				continue
			}
			for i := range v.Projected.Sources {
				if has(&v.Projected.Sources[i]) {
					return true
				}
			}
		}
		return false
	}
}

// anyContainer returns a test of whether a pod spec has a container or
// init container that has.
func anyContainer(has func(*schema.Container) bool) func(*schema.PodSpec) bool {
	return func(p *schema.PodSpec) bool {
		for _, cs := range [][]schema.Container{p.Containers, p.InitContainers} {
			for i := range cs {
				if has(&cs[i]) {
					return true
				}
			}
		}
		return false
	}
}

// dropImageVolumes removes image volumes and the mounts that name them.
func dropImageVolumes(s *schema.PodSpec) {
	images := map[string]bool{}
	var kept []schema.Volume
	for _, v := range s.Volumes {
		if v.Image != nil {
			images[v.Name] = true
			continue
		}
		kept = append(kept, v)
	}
	s.Volumes = kept
	keep := func(ms []schema.VolumeMount) []schema.VolumeMount {
		var out []schema.VolumeMount
		for _, m := range ms {
			if !images[m.Name] {
				out = append(out, m)
			}
		}
		return out
	}
	for _, cs := range [][]schema.Container{s.Containers, s.InitContainers} {
		for i := range cs {
			cs[i].VolumeMounts = keep(cs[i].VolumeMounts)
		}
	}
	for i := range s.EphemeralContainers {
		s.EphemeralContainers[i].VolumeMounts = keep(s.EphemeralContainers[i].VolumeMounts)
	}
}
