package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of a pod's volumes: upstream's ValidateVolumes and
// validateVolumeSource (pkg/apis/core/validation). The sources are
// validated in validate_volume_sources.go, validate_volume_drivers.go,
// validate_volume_files.go (secret, configMap, downwardAPI),
// validate_volume_projected.go and validate_volume_claims.go (ephemeral).

// validateVolumes is upstream's ValidateVolumes: each volume has a unique
// DNS-label name and exactly one valid source, and no persistentVolumeClaim
// names a claim that an ephemeral volume of the pod creates (which only a
// pod's meta, nil for a template, can tell).
//
// It returns what upstream's returned map holds, for the containers'
// mounts and devices: the volumes that have no problem, by name. (A
// volume with a problem is left out, so a mount of it is also "not found".)
// Upstream's map holds copies of the sources; ours points into volumes,
// which the caller must not change while it uses the map. The kind of a
// source is the pointer that is set: a device needs PersistentVolumeClaim
// or Ephemeral, for example.
func validateVolumes(volumes []schema.Volume, meta *schema.ObjectMeta, p *field.Path, opts podOptions) (map[string]*schema.VolumeSource, field.ErrorList) {
	created := map[string]bool{} // the claims the pod's ephemeral volumes create
	if meta != nil && meta.Name != "" {
		for _, v := range volumes {
			if v.Ephemeral != nil {
				created[meta.Name+"-"+v.Name] = true
			}
		}
	}
	var errs field.ErrorList
	byName := map[string]*schema.VolumeSource{}
	for i := range volumes {
		v := &volumes[i]
		vp := p.Index(i)
		namePath := vp.Child("name")
		el := validateVolumeSource(&v.VolumeSource, vp, v.Name, meta, opts)
		if v.Name == "" {
			el = append(el, field.RequiredValue(namePath, ""))
		} else {
			el = append(el, validateDNS1123Label(v.Name, namePath)...)
		}
		if _, dup := byName[v.Name]; dup {
			el = append(el, field.DuplicateValue(namePath, field.Quote(v.Name)))
		}
		if len(el) == 0 {
			byName[v.Name] = &v.VolumeSource
		} else {
			errs = append(errs, el...)
		}
		if c := v.PersistentVolumeClaim; c != nil && created[c.ClaimName] {
			errs = append(errs, field.InvalidString(vp.Child("persistentVolumeClaim", "claimName"), c.ClaimName,
				"must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return byName, errs
}

// volumeSourceCheck is one kind of volume source in validateVolumeSource.
type volumeSourceCheck struct {
	set   bool                   // the source is present
	name  string                 // the child upstream names when an earlier source is present too
	check func() field.ErrorList // its validation, when it is the first present
	also  func() field.ErrorList // what is checked even when it is not the first, or nil
}

// validateVolumeSource is upstream's validateVolumeSource: exactly one
// source, which must be valid. Every source after the first present one
// is "forbidden" under its own name, in upstream's order and with
// upstream's names: cephfs is "cephFS" there and downwardAPI "downwarAPI",
// and a gcePersistentDisk is validated under "persistentDisk".
func validateVolumeSource(s *schema.VolumeSource, p *field.Path, volName string, meta *schema.ObjectMeta, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	n := 0
	if s.EmptyDir != nil {
		n++
		if l := s.EmptyDir.SizeLimit; l != nil && l.Sign() < 0 {
			errs = append(errs, field.ForbiddenField(p.Child("emptyDir", "sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
		// v1.37 (EmptyDirVolumeMode): a mode of 0 to 01777, printed in decimal.
		if m := s.EmptyDir.Mode; m != nil && (*m > 0o1777 || *m < 0) {
			errs = append(errs, field.InvalidInt(p.Child("emptyDir", "mode"), int64(*m), "must be a number between 0 and 01777 (octal), both inclusive"))
		}
	}
	checks := []volumeSourceCheck{
		{s.HostPath != nil, "hostPath", func() field.ErrorList { return validateHostPathVolumeSource(s.HostPath, p.Child("hostPath")) }, nil},
		{s.GitRepo != nil, "gitRepo", func() field.ErrorList { return validateGitRepoVolumeSource(s.GitRepo, p.Child("gitRepo")) }, nil},
		{s.GCEPersistentDisk != nil, "gcePersistentDisk", func() field.ErrorList {
			return validateGCEPersistentDiskVolumeSource(s.GCEPersistentDisk, p.Child("persistentDisk"))
		}, nil},
		{s.AWSElasticBlockStore != nil, "awsElasticBlockStore", func() field.ErrorList {
			return validateAWSElasticBlockStoreVolumeSource(s.AWSElasticBlockStore, p.Child("awsElasticBlockStore"))
		}, nil},
		{s.Secret != nil, "secret", func() field.ErrorList { return validateSecretVolumeSource(s.Secret, p.Child("secret")) }, nil},
		{s.NFS != nil, "nfs", func() field.ErrorList { return validateNFSVolumeSource(s.NFS, p.Child("nfs")) }, nil},
		{s.ISCSI != nil, "iscsi", func() field.ErrorList { return validateISCSIVolumeSource(s.ISCSI, p.Child("iscsi")) },
			func() field.ErrorList { return validateISCSIVolumeName(s.ISCSI, volName, p) }},
		{s.Glusterfs != nil, "glusterfs", func() field.ErrorList { return validateGlusterfsVolumeSource(s.Glusterfs, p.Child("glusterfs")) }, nil},
		{s.Flocker != nil, "flocker", func() field.ErrorList { return validateFlockerVolumeSource(s.Flocker, p.Child("flocker")) }, nil},
		{s.PersistentVolumeClaim != nil, "persistentVolumeClaim", func() field.ErrorList {
			return validatePersistentClaimVolumeSource(s.PersistentVolumeClaim, p.Child("persistentVolumeClaim"))
		}, nil},
		{s.RBD != nil, "rbd", func() field.ErrorList { return validateRBDVolumeSource(s.RBD, p.Child("rbd")) }, nil},
		{s.Cinder != nil, "cinder", func() field.ErrorList { return validateCinderVolumeSource(s.Cinder, p.Child("cinder")) }, nil},
		{s.CephFS != nil, "cephFS", func() field.ErrorList { return validateCephFSVolumeSource(s.CephFS, p.Child("cephfs")) }, nil},
		{s.Quobyte != nil, "quobyte", func() field.ErrorList { return validateQuobyteVolumeSource(s.Quobyte, p.Child("quobyte")) }, nil},
		{s.DownwardAPI != nil, "downwarAPI", func() field.ErrorList {
			return validateDownwardAPIVolumeSource(s.DownwardAPI, p.Child("downwardAPI"), opts)
		}, nil},
		{s.FC != nil, "fc", func() field.ErrorList { return validateFCVolumeSource(s.FC, p.Child("fc")) }, nil},
		{s.FlexVolume != nil, "flexVolume", func() field.ErrorList { return validateFlexVolumeSource(s.FlexVolume, p.Child("flexVolume")) }, nil},
		{s.ConfigMap != nil, "configMap", func() field.ErrorList { return validateConfigMapVolumeSource(s.ConfigMap, p.Child("configMap")) }, nil},
		{s.AzureFile != nil, "azureFile", func() field.ErrorList { return validateAzureFile(s.AzureFile, p.Child("azureFile")) }, nil},
		{s.VsphereVolume != nil, "vsphereVolume", func() field.ErrorList {
			return validateVsphereVolumeSource(s.VsphereVolume, p.Child("vsphereVolume"))
		}, nil},
		{s.PhotonPersistentDisk != nil, "photonPersistentDisk", func() field.ErrorList {
			return validatePhotonPersistentDiskVolumeSource(s.PhotonPersistentDisk, p.Child("photonPersistentDisk"))
		}, nil},
		{s.PortworxVolume != nil, "portworxVolume", func() field.ErrorList {
			return validatePortworxVolumeSource(s.PortworxVolume, p.Child("portworxVolume"))
		}, nil},
		{s.AzureDisk != nil, "azureDisk", func() field.ErrorList { return validateAzureDisk(s.AzureDisk, p.Child("azureDisk")) }, nil},
		{s.StorageOS != nil, "storageos", func() field.ErrorList { return validateStorageOSVolumeSource(s.StorageOS, p.Child("storageos")) }, nil},
		{s.Projected != nil, "projected", func() field.ErrorList {
			return validateProjectedVolumeSource(s.Projected, p.Child("projected"), opts)
		}, nil},
		{s.ScaleIO != nil, "scaleIO", func() field.ErrorList { return validateScaleIOVolumeSource(s.ScaleIO, p.Child("scaleIO")) }, nil},
		{s.CSI != nil, "csi", func() field.ErrorList { return validateCSIVolumeSource(s.CSI, p.Child("csi")) }, nil},
		{s.Ephemeral != nil, "ephemeral", func() field.ErrorList {
			errs := validateEphemeralVolumeSource(s.Ephemeral, p.Child("ephemeral"))
			return append(errs, validateEphemeralClaimName(meta, volName, p)...)
		}, nil},
		{s.Image != nil, "image", func() field.ErrorList { return validateImageVolumeSource(s.Image, p.Child("image"), opts) }, nil},
	}
	for _, c := range checks {
		if !c.set {
			continue
		}
		if n > 0 {
			errs = append(errs, field.ForbiddenField(p.Child(c.name), "may not specify more than 1 volume type"))
		} else {
			n++
			errs = append(errs, c.check()...)
		}
		if c.also != nil {
			errs = append(errs, c.also()...)
		}
	}
	if n == 0 {
		errs = append(errs, field.RequiredValue(p, "must specify a volume type"))
	}
	return errs
}

// validateISCSIVolumeName is the check validateVolumeSource makes of every
// iscsi source, first or not: with an initiator name, "<volume
// name>:<targetPortal>" is at most 64 bytes.
func validateISCSIVolumeName(iscsi *schema.ISCSIVolumeSource, volName string, p *field.Path) field.ErrorList {
	if iscsi.InitiatorName != nil && len(volName+":"+iscsi.TargetPortal) > 64 {
		return field.ErrorList{field.InvalidString(p.Child("name"), volName,
			"Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.")}
	}
	return nil
}

// validateEphemeralClaimName is the check validateVolumeSource makes of an
// ephemeral volume of a pod (not of a template, whose meta is nil): the
// claim it creates, "<pod name>-<volume name>", has a valid name.
func validateEphemeralClaimName(meta *schema.ObjectMeta, volName string, p *field.Path) field.ErrorList {
	if meta == nil || meta.Name == "" || volName == "" {
		return nil
	}
	var errs field.ErrorList
	claim := meta.Name + "-" + volName
	for _, msg := range nameIsDNSSubdomain(claim, false) {
		errs = append(errs, field.InvalidString(p.Child("name"), volName, "PVC name "+field.Quote(claim)+": "+msg))
	}
	return errs
}
