package apiserver

import (
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the volume sources that name storage outside the cluster's
// API objects: host paths, git repositories, network and cloud disks, CSI
// drivers and images (upstream's validate<Source>VolumeSource functions,
// pkg/apis/core/validation).

// pdPartitionErrorMsg is the problem with a disk partition out of range.
// (Upstream accepts 0, which it takes as "no partition", though the
// message says 1.)
const pdPartitionErrorMsg = "must be between 1 and 255, inclusive"

// validateHostPathVolumeSource is upstream's validateHostPathVolumeSource:
// a path with no ".." element and a known type.
func validateHostPathVolumeSource(h *schema.HostPathVolumeSource, p *field.Path) field.ErrorList {
	if h.Path == "" {
		return field.ErrorList{field.RequiredValue(p.Child("path"), "")}
	}
	errs := validatePathNoBacksteps(h.Path, p.Child("path"))
	return append(errs, validateHostPathType(h.Type, p.Child("type"))...)
}

// validateHostPathType is upstream's validateHostPathType: unset, "", or
// one of the kinds of file a host path may be.
func validateHostPathType(t *string, p *field.Path) field.ErrorList {
	if t == nil {
		return nil
	}
	switch *t {
	case "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice", "BlockDevice":
		return nil
	}
	return field.ErrorList{field.NotSupported(p, *t, []string{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"})}
}

// validateGitRepoVolumeSource is upstream's validateGitRepoVolumeSource: a
// repository, and a directory inside the volume.
func validateGitRepoVolumeSource(g *schema.GitRepoVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if g.Repository == "" {
		errs = append(errs, field.RequiredValue(p.Child("repository"), ""))
	}
	return append(errs, validateLocalDescendingPath(g.Directory, p.Child("directory"))...)
}

// The forms of iSCSI names (RFC 3720): iqn.yyyy-mm.naming-authority:unique
// (the iqn form is not anchored at its start, as upstream's is not),
// eui.<16 characters> and naa.<32 characters>.
var (
	iscsiInitiatorIqnRegex = regexp.MustCompile(`iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`)
	iscsiInitiatorEuiRegex = regexp.MustCompile(`^eui.[[:alnum:]]{16}$`)
	iscsiInitiatorNaaRegex = regexp.MustCompile(`^naa.[[:alnum:]]{32}$`)
)

// iscsiNameProblem returns why an iSCSI name with a known prefix is
// malformed, or "".
func iscsiNameProblem(name string) string {
	switch {
	case strings.HasPrefix(name, "iqn") && !iscsiInitiatorIqnRegex.MatchString(name),
		strings.HasPrefix(name, "eui") && !iscsiInitiatorEuiRegex.MatchString(name),
		strings.HasPrefix(name, "naa") && !iscsiInitiatorNaaRegex.MatchString(name):
		return "must be valid format"
	}
	return ""
}

// hasISCSIPrefix reports whether name starts as an iSCSI name does.
func hasISCSIPrefix(name string) bool {
	return strings.HasPrefix(name, "iqn") || strings.HasPrefix(name, "eui") || strings.HasPrefix(name, "naa")
}

// validateISCSIVolumeSource is upstream's validateISCSIVolumeSource: a
// target portal, a well-formed IQN, a LUN of 0 to 255, a secret for CHAP,
// and a well-formed initiator name if any.
func validateISCSIVolumeSource(s *schema.ISCSIVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.TargetPortal == "" {
		errs = append(errs, field.RequiredValue(p.Child("targetPortal"), ""))
	}
	switch {
	case s.IQN == "":
		errs = append(errs, field.RequiredValue(p.Child("iqn"), ""))
	case !hasISCSIPrefix(s.IQN):
		errs = append(errs, field.InvalidString(p.Child("iqn"), s.IQN, "must be valid format starting with iqn, eui, or naa"))
	case iscsiNameProblem(s.IQN) != "":
		errs = append(errs, field.InvalidString(p.Child("iqn"), s.IQN, iscsiNameProblem(s.IQN)))
	}
	if s.Lun < 0 || s.Lun > 255 {
		errs = append(errs, field.InvalidInt(p.Child("lun"), int64(s.Lun), inclusiveRangeError(0, 255)))
	}
	if (s.DiscoveryCHAPAuth || s.SessionCHAPAuth) && s.SecretRef == nil {
		errs = append(errs, field.RequiredValue(p.Child("secretRef"), ""))
	}
	if s.InitiatorName != nil {
		name := *s.InitiatorName
		if !hasISCSIPrefix(name) {
			errs = append(errs, field.InvalidString(p.Child("initiatorname"), name, "must be valid format starting with iqn, eui, or naa"))
		}
		if msg := iscsiNameProblem(name); msg != "" {
			errs = append(errs, field.InvalidString(p.Child("initiatorname"), name, msg))
		}
	}
	return errs
}

// validateFCVolumeSource is upstream's validateFCVolumeSource: target WWNs
// with a LUN of 0 to 255, or WWIDs, not both.
func validateFCVolumeSource(fc *schema.FCVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(fc.TargetWWNs) < 1 && len(fc.WWIDs) < 1 {
		errs = append(errs, field.RequiredValue(p.Child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
	}
	if len(fc.TargetWWNs) != 0 && len(fc.WWIDs) != 0 {
		errs = append(errs, field.InvalidValue(p.Child("targetWWNs"), jsonStrings(fc.TargetWWNs), "targetWWNs and wwids can not be specified simultaneously"))
	}
	if len(fc.TargetWWNs) != 0 {
		if fc.Lun == nil {
			errs = append(errs, field.RequiredValue(p.Child("lun"), "lun is required if targetWWNs is specified"))
		} else if *fc.Lun < 0 || *fc.Lun > 255 {
			errs = append(errs, field.InvalidInt(p.Child("lun"), int64(*fc.Lun), inclusiveRangeError(0, 255)))
		}
	}
	return errs
}

// jsonStrings renders a list of strings as upstream's errors print one: as
// JSON.
func jsonStrings(ss []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(s))
	}
	b.WriteByte(']')
	return b.String()
}

// validateGCEPersistentDiskVolumeSource is upstream's
// validateGCEPersistentDiskVolumeSource: a disk name and a partition of 0
// to 255.
func validateGCEPersistentDiskVolumeSource(pd *schema.GCEPersistentDiskVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if pd.PDName == "" {
		errs = append(errs, field.RequiredValue(p.Child("pdName"), ""))
	}
	if pd.Partition < 0 || pd.Partition > 255 {
		errs = append(errs, field.InvalidInt(p.Child("partition"), int64(pd.Partition), pdPartitionErrorMsg))
	}
	return errs
}

// validateAWSElasticBlockStoreVolumeSource is upstream's
// validateAWSElasticBlockStoreVolumeSource: a volume ID and a partition of
// 0 to 255.
func validateAWSElasticBlockStoreVolumeSource(pd *schema.AWSElasticBlockStoreVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if pd.VolumeID == "" {
		errs = append(errs, field.RequiredValue(p.Child("volumeID"), ""))
	}
	if pd.Partition < 0 || pd.Partition > 255 {
		errs = append(errs, field.InvalidInt(p.Child("partition"), int64(pd.Partition), pdPartitionErrorMsg))
	}
	return errs
}

// validateNFSVolumeSource is upstream's validateNFSVolumeSource: a server
// and an absolute path.
func validateNFSVolumeSource(nfs *schema.NFSVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if nfs.Server == "" {
		errs = append(errs, field.RequiredValue(p.Child("server"), ""))
	}
	if nfs.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	}
	if !strings.HasPrefix(nfs.Path, "/") {
		errs = append(errs, field.InvalidString(p.Child("path"), nfs.Path, "must be an absolute path"))
	}
	return errs
}

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

// validateGlusterfsVolumeSource is upstream's
// validateGlusterfsVolumeSource: endpoints and a path.
func validateGlusterfsVolumeSource(g *schema.GlusterfsVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if g.EndpointsName == "" {
		errs = append(errs, field.RequiredValue(p.Child("endpoints"), ""))
	}
	if g.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	}
	return errs
}

// validateFlockerVolumeSource is upstream's validateFlockerVolumeSource:
// a dataset name without '/' or a dataset UUID, not both.
func validateFlockerVolumeSource(f *schema.FlockerVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if f.DatasetName == "" && f.DatasetUUID == "" {
		errs = append(errs, field.RequiredValue(p, "one of datasetName and datasetUUID is required"))
	}
	if f.DatasetName != "" && f.DatasetUUID != "" {
		errs = append(errs, field.InvalidString(p, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
	}
	if strings.Contains(f.DatasetName, "/") {
		errs = append(errs, field.InvalidString(p.Child("datasetName"), f.DatasetName, "must not contain '/'"))
	}
	return errs
}

// validatePersistentClaimVolumeSource is upstream's
// validatePersistentClaimVolumeSource: a claim name.
func validatePersistentClaimVolumeSource(c *schema.PersistentVolumeClaimVolumeSource, p *field.Path) field.ErrorList {
	if c.ClaimName == "" {
		return field.ErrorList{field.RequiredValue(p.Child("claimName"), "")}
	}
	return nil
}

// validateRBDVolumeSource is upstream's validateRBDVolumeSource: monitors
// and an image.
func validateRBDVolumeSource(rbd *schema.RBDVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(rbd.CephMonitors) == 0 {
		errs = append(errs, field.RequiredValue(p.Child("monitors"), ""))
	}
	if rbd.RBDImage == "" {
		errs = append(errs, field.RequiredValue(p.Child("image"), ""))
	}
	return errs
}

// validateCinderVolumeSource is upstream's validateCinderVolumeSource: a
// volume ID, and a secret's name when it names one.
func validateCinderVolumeSource(c *schema.CinderVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.VolumeID == "" {
		errs = append(errs, field.RequiredValue(p.Child("volumeID"), ""))
	}
	if c.SecretRef != nil && c.SecretRef.Name == "" {
		errs = append(errs, field.RequiredValue(p.Child("secretRef", "name"), ""))
	}
	return errs
}

// validateCephFSVolumeSource is upstream's validateCephFSVolumeSource:
// monitors.
func validateCephFSVolumeSource(c *schema.CephFSVolumeSource, p *field.Path) field.ErrorList {
	if len(c.Monitors) == 0 {
		return field.ErrorList{field.RequiredValue(p.Child("monitors"), "")}
	}
	return nil
}

// validateFlexVolumeSource is upstream's validateFlexVolumeSource: a
// driver, and options outside the kubernetes.io and k8s.io namespaces
// (whose keys are checked in byte order).
func validateFlexVolumeSource(fv *schema.FlexVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if fv.Driver == "" {
		errs = append(errs, field.RequiredValue(p.Child("driver"), ""))
	}
	for _, k := range sortedKeys(fv.Options) {
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

// validateImageVolumeSource is upstream's validateImageVolumeSource: a
// pod's image volume needs a reference (a template's may leave it to be
// filled in), and the pull policy is one of the three.
func validateImageVolumeSource(v *schema.ImageVolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if opts.ResourceIsPod && v.Reference == "" {
		errs = append(errs, field.RequiredValue(p.Child("reference"), ""))
	}
	return append(errs, validateImageVolumePullPolicy(v.PullPolicy, p.Child("pullPolicy"))...)
}

// validateImageVolumePullPolicy is upstream's validatePullPolicy, which
// the containers' imagePullPolicy shares: Always, IfNotPresent or Never.
func validateImageVolumePullPolicy(policy string, p *field.Path) field.ErrorList {
	switch policy {
	case "Always", "IfNotPresent", "Never":
		return nil
	case "":
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, policy, []string{"Always", "IfNotPresent", "Never"})}
}
