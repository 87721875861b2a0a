package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the pod-level parts of a pod spec: security context,
// affinity, tolerations, topology spread, DNS, host aliases, OS, overhead,
// pod-level resources and resource claims, and the annotations that must
// agree with fields (pkg/apis/core/validation).

func validatePodSpecificAnnotations(a map[string]string, s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	return nil
}

func validateSeccompAnnotationsAndFields(m *schema.ObjectMeta, s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}

func validateAppArmorAnnotationsAndFieldsMatchOnCreate(m *schema.ObjectMeta, s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}

func validatePodResourceClaims(meta *schema.ObjectMeta, claims []schema.PodResourceClaim, p *field.Path) field.ErrorList {
	return nil
}

func validateWindowsHostProcessPod(s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}

func validateHostUsers(s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	return nil
}

func validatePodHostName(s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}

func validateOS(s *schema.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	return nil
}

func validateLinux(s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}

func validateWindows(s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}

func validateSchedulingGroup(g *schema.PodSchedulingGroup, p *field.Path) field.ErrorList {
	return nil
}

func validateFileKeyRefVolumes(s *schema.PodSpec, p *field.Path) field.ErrorList {
	return nil
}
