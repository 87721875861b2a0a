package apiserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the annotations that carry pod settings, and of their
// agreement with the fields that replaced them (pkg/apis/core/validation).

// The annotation keys and values involved.
const (
	mirrorPodAnnotation         = "kubernetes.io/config.mirror"
	tolerationsAnnotation       = "scheduler.alpha.kubernetes.io/tolerations"
	podDeletionCostAnnotation   = "controller.kubernetes.io/pod-deletion-cost"
	seccompPodAnnotation        = "seccomp.security.alpha.kubernetes.io/pod"
	seccompContainerAnnotation  = "container.seccomp.security.alpha.kubernetes.io/" // + container name
	appArmorContainerAnnotation = "container.apparmor.security.beta.kubernetes.io/" // + container name

	seccompRuntimeDefault   = "runtime/default"
	seccompDockerDefault    = "docker/default"
	seccompUnconfined       = "unconfined"
	seccompLocalhostPrefix  = "localhost/"
	appArmorRuntimeDefault  = "runtime/default"
	appArmorUnconfined      = "unconfined"
	appArmorLocalhostPrefix = "localhost/"
)

// validatePodSpecificAnnotations is upstream's
// ValidatePodSpecificAnnotations: a mirror pod names its node, the
// tolerations annotation holds valid tolerations, the deletion cost is an
// int32 (unless opts allow otherwise), and the seccomp and AppArmor
// annotations hold valid profiles.
func validatePodSpecificAnnotations(a map[string]string, s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if v, ok := a[mirrorPodAnnotation]; ok && s.NodeName == "" {
		errs = append(errs, field.InvalidString(p.Key(mirrorPodAnnotation), v, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if a[tolerationsAnnotation] != "" {
		errs = append(errs, validateTolerationsAnnotation(a[tolerationsAnnotation], p, opts)...)
	}
	if !opts.AllowInvalidPodDeletionCost {
		if v, ok := a[podDeletionCostAnnotation]; ok && !isPodDeletionCost(v) {
			errs = append(errs, field.InvalidString(p.Key(podDeletionCostAnnotation), v, "must be a 32bit integer"))
		}
	}
	errs = append(errs, validateSeccompPodAnnotations(a, p)...)
	return append(errs, validateAppArmorPodAnnotations(a, s, p)...)
}

// annotatedToleration is the internal Toleration as encoding/json sees it:
// untagged fields, so keys match their names in any case.
type annotatedToleration struct {
	Key               string
	Operator          string
	Value             string
	Effect            string
	TolerationSeconds *int64
}

// validateTolerationsAnnotation is upstream's
// ValidateTolerationsInPodAnnotations: the annotation is a JSON list of
// tolerations, read leniently as encoding/json reads it, each of them
// valid.
func validateTolerationsAnnotation(v string, p *field.Path, opts podOptions) field.ErrorList {
	var decoded []annotatedToleration
	if err := json.Unmarshal([]byte(v), &decoded); err != nil {
		// encoding/json names the Go types; upstream's are core.Toleration.
		msg := strings.ReplaceAll(err.Error(), "apiserver.annotatedToleration", "core.Toleration")
		msg = strings.ReplaceAll(msg, "Go struct field annotatedToleration.", "Go struct field Toleration.")
		return field.ErrorList{field.InvalidString(p, tolerationsAnnotation, msg)}
	}
	if len(decoded) == 0 {
		return nil
	}
	ts := make([]schema.Toleration, len(decoded))
	for i, t := range decoded {
		ts[i] = schema.Toleration(t)
	}
	return validateTolerations(ts, p.Child(tolerationsAnnotation), opts)
}

// isPodDeletionCost reports whether v is a pod deletion cost: an int32 in
// decimal, without a '+' sign or leading zeros.
func isPodDeletionCost(v string) bool {
	if v == "" || !(v[0] == '-' || v == "0" || '1' <= v[0] && v[0] <= '9') {
		return false
	}
	_, err := strconv.ParseInt(v, 10, 32)
	return err == nil
}

// validateSeccompPodAnnotations is upstream's ValidateSeccompPodAnnotations.
// Upstream names the annotations as child fields (annotations.<key>), not
// as keys, and so does this.
func validateSeccompPodAnnotations(a map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v, ok := a[seccompPodAnnotation]; ok {
		errs = append(errs, validateSeccompAnnotationProfile(v, p.Child(seccompPodAnnotation))...)
	}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if strings.HasPrefix(k, seccompContainerAnnotation) {
			errs = append(errs, validateSeccompAnnotationProfile(a[k], p.Child(k))...)
		}
	}
	return errs
}

// validateSeccompAnnotationProfile is upstream's ValidateSeccompProfile:
// runtime/default, docker/default, unconfined, or localhost/ and a
// relative, descending path.
func validateSeccompAnnotationProfile(v string, p *field.Path) field.ErrorList {
	switch {
	case v == seccompRuntimeDefault || v == seccompDockerDefault || v == seccompUnconfined:
		return nil
	case strings.HasPrefix(v, seccompLocalhostPrefix):
		return validateLocalDescendingPath(strings.TrimPrefix(v, seccompLocalhostPrefix), p)
	}
	return field.ErrorList{field.InvalidString(p, v, "must be a valid seccomp profile")}
}

// validateAppArmorPodAnnotations is upstream's ValidateAppArmorPodAnnotations:
// each container annotation names a container of the pod and holds
// runtime/default, unconfined, localhost/<profile> or nothing.
func validateAppArmorPodAnnotations(a map[string]string, s *schema.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(a)) {
		name, ok := strings.CutPrefix(k, appArmorContainerAnnotation)
		if !ok {
			continue
		}
		if !podHasContainer(s, name) {
			errs = append(errs, field.InvalidString(p.Key(k), name, "container not found"))
		}
		if v := a[k]; v != "" && v != appArmorRuntimeDefault && v != appArmorUnconfined && !strings.HasPrefix(v, appArmorLocalhostPrefix) {
			errs = append(errs, field.InvalidString(p.Key(k), v, fmt.Sprintf("invalid AppArmor profile name: %q", v)))
		}
	}
	return errs
}

// podHasContainer reports whether any container of the pod (init,
// regular or ephemeral) has the name.
func podHasContainer(s *schema.PodSpec, name string) bool {
	found := false
	visitPodContainers(s, nil, func(c *schema.Container, _ *field.Path) {
		found = found || c.Name == name
	})
	return found
}

// validateSeccompAnnotationsAndFields is upstream's
// validateSeccompAnnotationsAndFields: where both a seccomp annotation and
// the matching seccompProfile field are set (the pod's or a container's),
// they must agree.
func validateSeccompAnnotationsAndFields(m *schema.ObjectMeta, s *schema.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.SecurityContext != nil && s.SecurityContext.SeccompProfile != nil {
		if v, ok := m.Annotations[seccompPodAnnotation]; ok {
			errs = append(errs, seccompAnnotationMatchesField(v, s.SecurityContext.SeccompProfile, p.Child("securityContext", "seccompProfile"))...)
		}
	}
	visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			return
		}
		if v, ok := m.Annotations[seccompContainerAnnotation+c.Name]; ok {
			errs = append(errs, seccompAnnotationMatchesField(v, c.SecurityContext.SeccompProfile, cp.Child("securityContext", "seccompProfile"))...)
		}
	})
	return errs
}

// seccompAnnotationMatchesField is upstream's
// validateSeccompAnnotationsAndFieldsMatch.
func seccompAnnotationMatchesField(v string, sp *schema.SeccompProfile, p *field.Path) field.ErrorList {
	typeMismatch := field.ErrorList{field.ForbiddenField(p.Child("type"), "seccomp type in annotation and field must match")}
	switch sp.Type {
	case "Unconfined":
		if v != seccompUnconfined {
			return typeMismatch
		}
	case "RuntimeDefault":
		if v != seccompRuntimeDefault && v != seccompDockerDefault {
			return typeMismatch
		}
	case "Localhost":
		if !strings.HasPrefix(v, seccompLocalhostPrefix) {
			return typeMismatch
		}
		if sp.LocalhostProfile == nil || strings.TrimPrefix(v, seccompLocalhostPrefix) != *sp.LocalhostProfile {
			return field.ErrorList{field.ForbiddenField(p.Child("localhostProfile"), "seccomp profile in annotation and field must match")}
		}
	}
	return nil
}

// validateAppArmorAnnotationsAndFieldsMatchOnCreate is upstream's
// validateAppArmorAnnotationsAndFieldsMatchOnCreate: outside Windows pods,
// a container's AppArmor annotation must agree with its effective
// appArmorProfile (its own, else the pod's).
func validateAppArmorAnnotationsAndFieldsMatchOnCreate(m *schema.ObjectMeta, s *schema.PodSpec, p *field.Path) field.ErrorList {
	if s.OS != nil && s.OS.Name == "windows" {
		return nil
	}
	var podProfile *schema.AppArmorProfile
	if s.SecurityContext != nil {
		podProfile = s.SecurityContext.AppArmorProfile
	}
	var errs field.ErrorList
	visitPodContainers(s, p, func(c *schema.Container, cp *field.Path) {
		profile := podProfile
		if c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			profile = c.SecurityContext.AppArmorProfile
		}
		if profile == nil {
			return
		}
		v, ok := m.Annotations[appArmorContainerAnnotation+c.Name]
		if !ok {
			return
		}
		ap := cp.Child("securityContext", "appArmorProfile")
		typeMismatch := field.ForbiddenField(ap.Child("type"), "apparmor type in annotation and field must match")
		switch profile.Type {
		case "Unconfined":
			if v != appArmorUnconfined {
				errs = append(errs, typeMismatch)
			}
		case "RuntimeDefault":
			if v != appArmorRuntimeDefault {
				errs = append(errs, typeMismatch)
			}
		case "Localhost":
			if !strings.HasPrefix(v, appArmorLocalhostPrefix) {
				errs = append(errs, typeMismatch)
			} else if profile.LocalhostProfile == nil || strings.TrimPrefix(v, appArmorLocalhostPrefix) != *profile.LocalhostProfile {
				errs = append(errs, field.ForbiddenField(ap.Child("localhostProfile"), "apparmor profile in annotation and field must match"))
			}
		}
	})
	return errs
}
