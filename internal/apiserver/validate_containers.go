package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of containers: upstream's validateContainers,
// validateInitContainers, validateEphemeralContainers and
// validateContainerCommon with what they call (pkg/apis/core/validation).

// validateContainers is validateContainers: at least one container, each
// valid, with unique names.
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
		if names[c.Name] {
			errs = append(errs, field.DuplicateValue(cp.Child("name"), field.Quote(c.Name)))
		}
		names[c.Name] = true
	}
	return errs
}

// validateInitContainers is validateInitContainers.
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
		if names[c.Name] {
			errs = append(errs, field.DuplicateValue(cp.Child("name"), field.Quote(c.Name)))
		}
		names[c.Name] = true
	}
	return errs
}

// validateEphemeralContainers is validateEphemeralContainers. A template
// may have none (validatePodTemplateSpec refuses them), so this checks
// only their names.
func validateEphemeralContainers(cs []schema.EphemeralContainer, regular, init []schema.Container, vols map[string]*schema.VolumeSource, claims map[string]bool, p *field.Path, opts podOptions, restartPolicy string, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cs {
		if c.Name == "" {
			errs = append(errs, field.RequiredValue(p.Index(i).Child("name"), ""))
		}
	}
	return errs
}

// validateContainerCommon is validateContainerCommon: the name, the image,
// the ports and the volume mounts.
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
	portNames := map[string]bool{}
	for i, port := range c.Ports {
		pp := p.Child("ports").Index(i)
		if port.Name != "" {
			for _, msg := range isValidPortName(port.Name) {
				errs = append(errs, field.InvalidString(pp.Child("name"), port.Name, msg))
			}
			if portNames[port.Name] {
				errs = append(errs, field.DuplicateValue(pp.Child("name"), field.Quote(port.Name)))
			}
			portNames[port.Name] = true
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.RequiredValue(pp.Child("containerPort"), ""))
		} else {
			for _, msg := range isValidPortNum(int64(port.ContainerPort)) {
				errs = append(errs, field.InvalidInt(pp.Child("containerPort"), int64(port.ContainerPort), msg))
			}
		}
	}
	for i, m := range c.VolumeMounts {
		mp := p.Child("volumeMounts").Index(i)
		if m.Name == "" {
			errs = append(errs, field.RequiredValue(mp.Child("name"), ""))
		} else if _, ok := vols[m.Name]; !ok {
			errs = append(errs, field.NotFoundValue(mp.Child("name"), field.Quote(m.Name)))
		}
		if m.MountPath == "" {
			errs = append(errs, field.RequiredValue(mp.Child("mountPath"), ""))
		}
	}
	return errs
}
