package apiserver

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the volume sources that name storage outside the cluster's
// API objects: host paths, git repositories, network and block storage and
// cloud disks (upstream's validate<Source>VolumeSource functions,
// pkg/apis/core/validation). Drivers' and plugins' sources are in
// validate_volume_drivers.go.

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
