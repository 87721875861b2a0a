package difftest

import "strings"

// The named cases of ValidateVolumes, validateVolumeSource and the sources
// that name storage outside the cluster's API objects.

var longPortal = strings.Repeat("p", 63) // with "v:", 65 bytes: one over

var volumeSourceRules = []volumeCase{
	// ValidateVolumes
	{name: "volumes: an emptyDir is accepted", vols: one(`"emptyDir":{}`), mounts: `[{"name":"v","mountPath":"/v"}]`},
	{name: "volumes: a volume with no source defaults to emptyDir", vols: `[{"name":"v"}]`},
	{name: "volumes: name required", vols: `[{"name":"","emptyDir":{}}]`, want: []Problem{volRequired("volumes[0].name")}},
	{name: "volumes: name is a DNS label", vols: `[{"name":"Vol","emptyDir":{}}]`, want: []Problem{volInvalid("volumes[0].name")}},
	{name: "volumes: name of 64 bytes", vols: `[{"name":"` + strings.Repeat("a", 64) + `","emptyDir":{}}]`, want: []Problem{volInvalid("volumes[0].name")}},
	{name: "volumes: duplicate name", vols: `[{"name":"v","emptyDir":{}},{"name":"v","emptyDir":{}}]`, want: []Problem{volDuplicate("volumes[1].name")}},
	{name: "volumes: a volume with a problem does not count for duplicates",
		vols: `[{"name":"v","hostPath":{"path":""}},{"name":"v","emptyDir":{}}]`, want: []Problem{volRequired("volumes[0].hostPath.path")}},
	{name: "volumes: a volume with a problem is not mounted", vols: one(`"hostPath":{"path":""}`), mounts: `[{"name":"v","mountPath":"/v"}]`,
		want: []Problem{volRequired("volumes[0].hostPath.path"), volNotFound("containers[0].volumeMounts[0].name")}},
	{name: "volumes: a mount of no volume", vols: one(`"emptyDir":{}`), mounts: `[{"name":"w","mountPath":"/w"}]`,
		want: []Problem{volNotFound("containers[0].volumeMounts[0].name")}},

	// validateVolumeSource
	{name: "source: more than one", vols: one(`"emptyDir":{},"hostPath":{"path":"/x"}`), want: []Problem{volForbidden("volumes[0].hostPath")}},
	{name: "source: only the first is validated", vols: one(`"secret":{"secretName":"s"},"nfs":{"server":"","path":""}`), want: []Problem{volForbidden("volumes[0].nfs")}},
	{name: "source: a second cephfs is named cephFS", vols: one(`"emptyDir":{},"cephfs":{"monitors":["m"]}`), want: []Problem{volForbidden("volumes[0].cephFS")}},
	{name: "source: a second downwardAPI is named downwarAPI", vols: one(`"emptyDir":{},"downwardAPI":{}`), want: []Problem{volForbidden("volumes[0].downwarAPI")}},
	{name: "source: a second iscsi still has its name length checked",
		vols: one(`"emptyDir":{},"iscsi":{"targetPortal":"` + longPortal + `","iqn":"iqn.2001-04.com.example:s","lun":0,"initiatorName":"iqn.2001-04.com.example:i"}`),
		want: []Problem{volForbidden("volumes[0].iscsi"), volInvalid("volumes[0].name")}},

	// emptyDir
	{name: "emptyDir: negative sizeLimit", vols: one(`"emptyDir":{"sizeLimit":"-1"}`), want: []Problem{volForbidden("volumes[0].emptyDir.sizeLimit")}},
	{name: "emptyDir: zero sizeLimit", vols: one(`"emptyDir":{"sizeLimit":"0"}`)},
	{name: "emptyDir: medium is not validated", vols: one(`"emptyDir":{"medium":"Bogus"}`)},

	// hostPath
	{name: "hostPath: path required", vols: one(`"hostPath":{"path":""}`), want: []Problem{volRequired("volumes[0].hostPath.path")}},
	{name: "hostPath: no '..' element", vols: one(`"hostPath":{"path":"/a/../b"}`), want: []Problem{volInvalid("volumes[0].hostPath.path")}},
	{name: "hostPath: a relative path", vols: one(`"hostPath":{"path":"a/b"}`)},
	{name: "hostPath: unsupported type", vols: one(`"hostPath":{"path":"/a","type":"Bogus"}`), want: []Problem{volUnsupported("volumes[0].hostPath.type")}},
	{name: "hostPath: every type", vols: `[{"name":"a","hostPath":{"path":"/a","type":"DirectoryOrCreate"}},{"name":"b","hostPath":{"path":"/a","type":"Socket"}},` +
		`{"name":"c","hostPath":{"path":"/a","type":"BlockDevice"}},{"name":"d","hostPath":{"path":"/a","type":""}}]`},

	// gitRepo
	{name: "gitRepo: repository required", vols: one(`"gitRepo":{"repository":""}`), want: []Problem{volRequired("volumes[0].gitRepo.repository")}},
	{name: "gitRepo: directory relative", vols: one(`"gitRepo":{"repository":"r","directory":"/d"}`), want: []Problem{volInvalid("volumes[0].gitRepo.directory")}},
	{name: "gitRepo: directory without '..'", vols: one(`"gitRepo":{"repository":"r","directory":"a/.."}`), want: []Problem{volInvalid("volumes[0].gitRepo.directory")}},
	{name: "gitRepo: directory may start with '..'", vols: one(`"gitRepo":{"repository":"r","directory":"..d"}`)},

	// gcePersistentDisk, awsElasticBlockStore
	{name: "gcePersistentDisk: pdName required, under persistentDisk", vols: one(`"gcePersistentDisk":{"pdName":""}`), want: []Problem{volRequired("volumes[0].persistentDisk.pdName")}},
	{name: "gcePersistentDisk: partition above 255", vols: one(`"gcePersistentDisk":{"pdName":"d","partition":256}`), want: []Problem{volInvalid("volumes[0].persistentDisk.partition")}},
	{name: "gcePersistentDisk: partition 0 and 255", vols: `[{"name":"a","gcePersistentDisk":{"pdName":"d","partition":0}},{"name":"b","gcePersistentDisk":{"pdName":"d","partition":255}}]`},
	{name: "awsElasticBlockStore: volumeID required", vols: one(`"awsElasticBlockStore":{"volumeID":""}`), want: []Problem{volRequired("volumes[0].awsElasticBlockStore.volumeID")}},
	{name: "awsElasticBlockStore: negative partition", vols: one(`"awsElasticBlockStore":{"volumeID":"v","partition":-1}`), want: []Problem{volInvalid("volumes[0].awsElasticBlockStore.partition")}},

	// nfs
	{name: "nfs: server required", vols: one(`"nfs":{"server":"","path":"/p"}`), want: []Problem{volRequired("volumes[0].nfs.server")}},
	{name: "nfs: path required, and so not absolute", vols: one(`"nfs":{"server":"s","path":""}`), want: []Problem{volRequired("volumes[0].nfs.path"), volInvalid("volumes[0].nfs.path")}},
	{name: "nfs: path absolute", vols: one(`"nfs":{"server":"s","path":"p"}`), want: []Problem{volInvalid("volumes[0].nfs.path")}},
}
