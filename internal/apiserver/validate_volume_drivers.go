package apiserver

import (
	"maps"
	"net"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the volume sources that a driver or plugin serves: flex
// volumes, cloud and vendor volumes, CSI drivers and images (upstream's
// validate<Source>VolumeSource functions, pkg/apis/core/validation).

// validateQuobyteVolumeSource is upstream's validateQuobyteVolumeSource: a
// registry of host:port pairs, a tenant of at most 64 bytes (checked only
// when the registry is set, and reported as "required"), and a volume.
func validateQuobyteVolumeSource(q *schema.QuobyteVolumeSource, p *field.Path) field.ErrorList {
	const registryMsg = "must be a host:port pair or multiple pairs separated by commas"
	var errs field.ErrorList
	switch {
	case q.Registry == "":
		errs = append(errs, field.RequiredValue(p.Child("registry"), registryMsg))
	case len(q.Tenant) >= 65:
		errs = append(errs, field.RequiredValue(p.Child("tenant"), "must be a UUID and may not exceed a length of 64 characters"))
	default:
		for _, pair := range strings.Split(q.Registry, ",") {
			if _, _, err := net.SplitHostPort(pair); err != nil {
				errs = append(errs, field.InvalidString(p.Child("registry"), q.Registry, registryMsg))
			}
		}
	}
	if q.Volume == "" {
		errs = append(errs, field.RequiredValue(p.Child("volume"), ""))
	}
	return errs
}

// validateFlexVolumeSource is upstream's validateFlexVolumeSource: a
// driver, and options outside the kubernetes.io and k8s.io namespaces
// (whose keys are checked in byte order).
func validateFlexVolumeSource(fv *schema.FlexVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if fv.Driver == "" {
		errs = append(errs, field.RequiredValue(p.Child("driver"), ""))
	}
	for _, k := range slices.Sorted(maps.Keys(fv.Options)) {
		namespace := k
		if ns, _, ok := strings.Cut(k, "/"); ok {
			namespace = ns
		}
		normalized := "." + strings.ToLower(namespace)
		if strings.HasSuffix(normalized, ".kubernetes.io") || strings.HasSuffix(normalized, ".k8s.io") {
			errs = append(errs, field.InvalidString(p.Child("options").Key(k), k, "kubernetes.io and k8s.io namespaces are reserved"))
		}
	}
	return errs
}

// validateAzureFile is upstream's validateAzureFile: a secret and a share.
func validateAzureFile(a *schema.AzureFileVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if a.SecretName == "" {
		errs = append(errs, field.RequiredValue(p.Child("secretName"), ""))
	}
	if a.ShareName == "" {
		errs = append(errs, field.RequiredValue(p.Child("shareName"), ""))
	}
	return errs
}

// validateAzureDisk is upstream's validateAzureDisk: a disk name and URI,
// a known caching mode and kind, and a URI of the kind's form (a managed
// disk's is an Azure resource ID, a blob disk's an https URL).
func validateAzureDisk(a *schema.AzureDiskVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if a.DiskName == "" {
		errs = append(errs, field.RequiredValue(p.Child("diskName"), ""))
	}
	if a.DataDiskURI == "" {
		errs = append(errs, field.RequiredValue(p.Child("diskURI"), ""))
	}
	if m := a.CachingMode; m != nil && *m != "None" && *m != "ReadOnly" && *m != "ReadWrite" {
		errs = append(errs, field.NotSupported(p.Child("cachingMode"), *m, []string{"None", "ReadOnly", "ReadWrite"}))
	}
	if k := a.Kind; k != nil && *k != "Shared" && *k != "Dedicated" && *k != "Managed" {
		errs = append(errs, field.NotSupported(p.Child("kind"), *k, []string{"Dedicated", "Managed", "Shared"}))
	}
	if a.Kind != nil && *a.Kind == "Managed" && !strings.HasPrefix(a.DataDiskURI, "/subscriptions/") {
		errs = append(errs, field.NotSupported(p.Child("diskURI"), a.DataDiskURI,
			[]string{"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}))
	}
	if a.Kind != nil && *a.Kind != "Managed" && !strings.HasPrefix(a.DataDiskURI, "https://") {
		errs = append(errs, field.NotSupported(p.Child("diskURI"), a.DataDiskURI,
			[]string{"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}))
	}
	return errs
}

// requiredString is the Required problem of an empty string field, the
// whole check of several sources.
func requiredString(v string, p *field.Path) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	return nil
}

// validateVsphereVolumeSource is upstream's validateVsphereVolumeSource: a
// volume path.
func validateVsphereVolumeSource(v *schema.VsphereVirtualDiskVolumeSource, p *field.Path) field.ErrorList {
	return requiredString(v.VolumePath, p.Child("volumePath"))
}

// validatePhotonPersistentDiskVolumeSource is upstream's
// validatePhotonPersistentDiskVolumeSource: a disk ID.
func validatePhotonPersistentDiskVolumeSource(v *schema.PhotonPersistentDiskVolumeSource, p *field.Path) field.ErrorList {
	return requiredString(v.PdID, p.Child("pdID"))
}

// validatePortworxVolumeSource is upstream's validatePortworxVolumeSource:
// a volume ID.
func validatePortworxVolumeSource(v *schema.PortworxVolumeSource, p *field.Path) field.ErrorList {
	return requiredString(v.VolumeID, p.Child("volumeID"))
}

// validateScaleIOVolumeSource is upstream's validateScaleIOVolumeSource: a
// gateway, a system and a volume name.
func validateScaleIOVolumeSource(s *schema.ScaleIOVolumeSource, p *field.Path) field.ErrorList {
	errs := requiredString(s.Gateway, p.Child("gateway"))
	errs = append(errs, requiredString(s.System, p.Child("system"))...)
	return append(errs, requiredString(s.VolumeName, p.Child("volumeName"))...)
}

// validateStorageOSVolumeSource is upstream's
// validateStorageOSVolumeSource: a DNS-label volume name, a DNS-label
// namespace if any, and a secret's name when it names one.
func validateStorageOSVolumeSource(s *schema.StorageOSVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.VolumeName == "" {
		errs = append(errs, field.RequiredValue(p.Child("volumeName"), ""))
	} else {
		errs = append(errs, validateDNS1123Label(s.VolumeName, p.Child("volumeName"))...)
	}
	if s.VolumeNamespace != "" {
		errs = append(errs, validateDNS1123Label(s.VolumeNamespace, p.Child("volumeNamespace"))...)
	}
	if s.SecretRef != nil && s.SecretRef.Name == "" {
		errs = append(errs, field.RequiredValue(p.Child("secretRef", "name"), ""))
	}
	return errs
}

// validateCSIDriverName is upstream's ValidateCSIDriverName: a driver name
// of at most 63 bytes that is a DNS subdomain in any case.
func validateCSIDriverName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	var errs field.ErrorList
	if len(name) > 63 {
		errs = append(errs, field.TooLongValue(p, 63))
	}
	for _, msg := range isDNS1123Subdomain(strings.ToLower(name)) {
		errs = append(errs, field.InvalidString(p, name, msg))
	}
	return errs
}

// validateCSIVolumeSource is upstream's validateCSIVolumeSource: a valid
// driver name, and a valid secret name when it names a secret. (Upstream
// reports a malformed secret name under csi.name, not under
// csi.nodePublishSecretRef.name.)
func validateCSIVolumeSource(c *schema.CSIVolumeSource, p *field.Path) field.ErrorList {
	errs := validateCSIDriverName(c.Driver, p.Child("driver"))
	if ref := c.NodePublishSecretRef; ref != nil {
		if ref.Name == "" {
			errs = append(errs, field.RequiredValue(p.Child("nodePublishSecretRef", "name"), ""))
		} else {
			for _, msg := range nameIsDNSSubdomain(ref.Name, false) {
				errs = append(errs, field.InvalidString(p.Child("name"), ref.Name, msg))
			}
		}
	}
	return errs
}

// validateImageVolumeSource is upstream's validateImageVolumeSource: an
// image volume needs a reference (before v1.37 only a pod's: a template's
// may leave it to be filled in; from v1.37 a template's too, unless the
// stored one already has none, VERSIONS.md V9), and the pull policy is one
// of the three. (The digest option,
// podOptions.AllowImageVolumeWithDigest, only concerns a pod's status.)
func validateImageVolumeSource(v *schema.ImageVolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	required := opts.ResourceIsPod
	if opts.minor() >= kubeversion.V1_37 {
		required = !opts.AllowEmptyImageVolumeReference
	}
	if required && v.Reference == "" {
		errs = append(errs, field.RequiredValue(p.Child("reference"), ""))
	}
	return append(errs, validatePullPolicy(v.PullPolicy, p.Child("pullPolicy"))...)
}
