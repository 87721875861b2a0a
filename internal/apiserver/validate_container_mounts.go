package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// A container's volume mounts and devices: upstream's ValidateVolumeMounts
// and ValidateVolumeDevices, with validateMountPropagation and
// validateMountRecursiveReadOnly.

// volumeMountPaths is upstream's GetVolumeMountMap: each mounted volume's
// mount path (the last, for a volume mounted twice).
func volumeMountPaths(mounts []schema.VolumeMount) map[string]string {
	m := make(map[string]string, len(mounts))
	for _, mnt := range mounts {
		m[mnt.Name] = mnt.MountPath
	}
	return m
}

// volumeDevicePaths is upstream's GetVolumeDeviceMap: each device volume's
// device path.
func volumeDevicePaths(devices []schema.VolumeDevice) map[string]string {
	m := make(map[string]string, len(devices))
	for _, d := range devices {
		m[d.Name] = d.DevicePath
	}
	return m
}

// hasPath reports whether some value of paths is p.
func hasPath(paths map[string]string, p string) bool {
	for _, v := range paths {
		if v == p {
			return true
		}
	}
	return false
}

// validateVolumeMounts is upstream's ValidateVolumeMounts: each mount names
// a valid volume of the pod that the container does not also use as a
// device, at a unique mount path that no device uses; a subPath or a
// subPathExpr (not both) is a relative path without '..'; and the mount
// propagation and recursive read-only mode are valid. c is the container,
// whose privilege bidirectional propagation needs.
//
// Upstream reports the subPath, subPathExpr, mountPropagation and
// recursiveReadOnly problems under the list (volumeMounts.subPath), not
// under the entry; so does this.
func validateVolumeMounts(mounts []schema.VolumeMount, devices map[string]string, vols map[string]*schema.VolumeSource, c *schema.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	mountPaths := map[string]bool{}
	for i := range mounts {
		m := &mounts[i]
		ip := p.Index(i)
		if m.Name == "" {
			errs = append(errs, field.RequiredValue(ip.Child("name"), ""))
		}
		if _, ok := vols[m.Name]; !ok {
			errs = append(errs, field.NotFoundValue(ip.Child("name"), field.Quote(m.Name)))
		}
		if m.MountPath == "" {
			errs = append(errs, field.RequiredValue(ip.Child("mountPath"), ""))
		}
		if mountPaths[m.MountPath] {
			errs = append(errs, field.InvalidString(ip.Child("mountPath"), m.MountPath, "must be unique"))
		}
		mountPaths[m.MountPath] = true
		if _, ok := devices[m.Name]; ok {
			errs = append(errs, field.InvalidString(ip.Child("name"), m.Name, "must not already exist in volumeDevices"))
		}
		if hasPath(devices, m.MountPath) {
			errs = append(errs, field.InvalidString(ip.Child("mountPath"), m.MountPath, "must not already exist as a path in volumeDevices"))
		}
		if m.SubPath != "" {
			errs = append(errs, validateLocalDescendingPath(m.SubPath, p.Child("subPath"))...)
		}
		if m.SubPathExpr != "" {
			if m.SubPath != "" {
				errs = append(errs, field.InvalidString(ip.Child("subPathExpr"), m.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
			}
			errs = append(errs, validateLocalDescendingPath(m.SubPathExpr, p.Child("subPathExpr"))...)
		}
		if m.MountPropagation != nil {
			errs = append(errs, validateMountPropagation(*m.MountPropagation, c, p.Child("mountPropagation"))...)
		}
		errs = append(errs, validateMountRecursiveReadOnly(m, p.Child("recursiveReadOnly"))...)
		errs = append(errs, validateBindMountOptions(m.BindMountOptions, ip.Child("bindMountOptions"))...)
		if len(m.BindMountOptions) > 0 {
			if v, ok := vols[m.Name]; ok && v.Image != nil {
				errs = append(errs, field.InvalidValue(ip.Child("bindMountOptions"), jsonValue(m.BindMountOptions), "bindMountOptions may not be used with image volumes"))
			}
		}
	}
	return errs
}

// validateBindMountOptions is v1.37's validateBindMountOptions
// (VolumeBindMountOptions): each option is nodev, noexec or nosuid, and
// none repeats. Only v1.37's schema has the field.
func validateBindMountOptions(opts []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, o := range opts {
		switch o {
		case "nodev", "noexec", "nosuid":
		default:
			errs = append(errs, field.NotSupported(p.Index(i), o, []string{"nodev", "noexec", "nosuid"}))
		}
		if seen[o] {
			errs = append(errs, field.DuplicateValue(p.Index(i), field.Quote(o)))
		}
		seen[o] = true
	}
	return errs
}

// validateMountPropagation is upstream's validateMountPropagation:
// Bidirectional, HostToContainer or None, and Bidirectional only for a
// privileged container. c is nil where the container is not known yet.
func validateMountPropagation(mode string, c *schema.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch mode {
	case "Bidirectional", "HostToContainer", "None":
	default:
		errs = append(errs, field.NotSupported(p, mode, []string{"Bidirectional", "HostToContainer", "None"}))
	}
	if c == nil {
		return errs
	}
	sc := c.SecurityContext
	privileged := sc != nil && sc.Privileged != nil && *sc.Privileged
	if mode == "Bidirectional" && !privileged {
		errs = append(errs, field.ForbiddenField(p, "Bidirectional mount propagation is available only to privileged containers"))
	}
	return errs
}

// validateMountRecursiveReadOnly is upstream's
// validateMountRecursiveReadOnly: Disabled, or Enabled or IfPossible on a
// read-only mount whose propagation is None or unset.
func validateMountRecursiveReadOnly(m *schema.VolumeMount, p *field.Path) field.ErrorList {
	if m.RecursiveReadOnly == nil {
		return nil
	}
	var errs field.ErrorList
	switch rro := *m.RecursiveReadOnly; rro {
	case "Disabled":
	case "Enabled", "IfPossible":
		if !m.ReadOnly {
			errs = append(errs, field.ForbiddenField(p, "may only be specified when readOnly is true"))
		}
		if m.MountPropagation != nil && *m.MountPropagation != "None" {
			errs = append(errs, field.ForbiddenField(p, "may only be specified when mountPropagation is None or not specified"))
		}
	default:
		errs = append(errs, field.NotSupported(p, rro, []string{"Disabled", "Enabled", "IfPossible"}))
	}
	return errs
}

// validateVolumeDevices is upstream's ValidateVolumeDevices: each device
// names a persistentVolumeClaim or ephemeral volume of the pod, once, that
// the container does not also mount, at a unique device path without '..'
// that no mount uses.
func validateVolumeDevices(devices []schema.VolumeDevice, mounts map[string]string, vols map[string]*schema.VolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	paths, names := map[string]bool{}, map[string]bool{}
	for i, d := range devices {
		ip := p.Index(i)
		src, found := vols[d.Name]
		if d.Name == "" {
			errs = append(errs, field.RequiredValue(ip.Child("name"), ""))
		}
		if names[d.Name] {
			errs = append(errs, field.InvalidString(ip.Child("name"), d.Name, "must be unique"))
		}
		if found && src.PersistentVolumeClaim == nil && src.Ephemeral == nil {
			errs = append(errs, field.InvalidString(ip.Child("name"), d.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if !found {
			errs = append(errs, field.NotFoundValue(ip.Child("name"), field.Quote(d.Name)))
		}
		if d.DevicePath == "" {
			errs = append(errs, field.RequiredValue(ip.Child("devicePath"), ""))
		}
		if paths[d.DevicePath] {
			errs = append(errs, field.InvalidString(ip.Child("devicePath"), d.DevicePath, "must be unique"))
		}
		if d.DevicePath != "" && len(validatePathNoBacksteps(d.DevicePath, p.Child("devicePath"))) > 0 {
			errs = append(errs, field.InvalidString(ip.Child("devicePath"), d.DevicePath, "can not contain backsteps ('..')"))
		} else {
			paths[d.DevicePath] = true
		}
		if _, ok := mounts[d.Name]; ok {
			errs = append(errs, field.InvalidString(ip.Child("name"), d.Name, "must not already exist in volumeMounts"))
		}
		if hasPath(mounts, d.DevicePath) {
			errs = append(errs, field.InvalidString(ip.Child("devicePath"), d.DevicePath, "must not already exist as a path in volumeMounts"))
		}
		if d.Name != "" {
			names[d.Name] = true
		}
	}
	return errs
}
