package difftest

import "strings"

// The named cases of the network, cloud, CSI and image volume sources.

const goodIQN = `"iqn":"iqn.2001-04.com.example:storage"`

var volumeDiskRules = []volumeCase{
	// iscsi
	{name: "iscsi: a valid one", vols: one(`"iscsi":{"targetPortal":"10.0.0.1:3260",` + goodIQN + `,"lun":0}`)},
	{name: "iscsi: targetPortal and iqn required", vols: one(`"iscsi":{"targetPortal":"","iqn":"","lun":0}`),
		want: []Problem{volRequired("volumes[0].iscsi.targetPortal"), volRequired("volumes[0].iscsi.iqn")}},
	{name: "iscsi: iqn of no known form", vols: one(`"iscsi":{"targetPortal":"t","iqn":"foo","lun":0}`), want: []Problem{volInvalid("volumes[0].iscsi.iqn")}},
	{name: "iscsi: malformed iqn", vols: one(`"iscsi":{"targetPortal":"t","iqn":"iqn.bad","lun":0}`), want: []Problem{volInvalid("volumes[0].iscsi.iqn")}},
	{name: "iscsi: malformed eui", vols: one(`"iscsi":{"targetPortal":"t","iqn":"eui.123","lun":0}`), want: []Problem{volInvalid("volumes[0].iscsi.iqn")}},
	{name: "iscsi: malformed naa", vols: one(`"iscsi":{"targetPortal":"t","iqn":"naa.x","lun":0}`), want: []Problem{volInvalid("volumes[0].iscsi.iqn")}},
	{name: "iscsi: eui and naa forms", vols: `[{"name":"a","iscsi":{"targetPortal":"t","iqn":"eui.0123456789ABCDEF","lun":0}},` +
		`{"name":"b","iscsi":{"targetPortal":"t","iqn":"naa.` + strings.Repeat("1", 32) + `","lun":0}}]`},
	{name: "iscsi: lun above 255", vols: one(`"iscsi":{"targetPortal":"t",` + goodIQN + `,"lun":256}`), want: []Problem{volInvalid("volumes[0].iscsi.lun")}},
	{name: "iscsi: negative lun", vols: one(`"iscsi":{"targetPortal":"t",` + goodIQN + `,"lun":-1}`), want: []Problem{volInvalid("volumes[0].iscsi.lun")}},
	{name: "iscsi: CHAP needs a secret", vols: one(`"iscsi":{"targetPortal":"t",` + goodIQN + `,"lun":0,"chapAuthSession":true}`), want: []Problem{volRequired("volumes[0].iscsi.secretRef")}},
	{name: "iscsi: initiator name of no known form", vols: one(`"iscsi":{"targetPortal":"t",` + goodIQN + `,"lun":0,"initiatorName":"foo"}`),
		want: []Problem{volInvalid("volumes[0].iscsi.initiatorname")}},
	{name: "iscsi: malformed initiator name", vols: one(`"iscsi":{"targetPortal":"t",` + goodIQN + `,"lun":0,"initiatorName":"eui.1"}`),
		want: []Problem{volInvalid("volumes[0].iscsi.initiatorname")}},
	{name: "iscsi: name and portal over 64 bytes with an initiator", vols: one(`"iscsi":{"targetPortal":"` + longPortal + `",` + goodIQN + `,"lun":0,"initiatorName":"iqn.2001-04.com.example:i"}`),
		want: []Problem{volInvalid("volumes[0].name")}},
	{name: "iscsi: name and portal of 64 bytes with an initiator", vols: one(`"iscsi":{"targetPortal":"` + longPortal[1:] + `",` + goodIQN + `,"lun":0,"initiatorName":"iqn.2001-04.com.example:i"}`)},
	{name: "iscsi: name and portal over 64 bytes without an initiator", vols: one(`"iscsi":{"targetPortal":"` + longPortal + `",` + goodIQN + `,"lun":0}`)},

	// glusterfs, flocker, persistentVolumeClaim, rbd, cinder, cephfs
	{name: "glusterfs: endpoints and path required", vols: one(`"glusterfs":{"endpoints":"","path":""}`),
		want: []Problem{volRequired("volumes[0].glusterfs.endpoints"), volRequired("volumes[0].glusterfs.path")}},
	{name: "flocker: a dataset required", vols: one(`"flocker":{}`), want: []Problem{volRequired("volumes[0].flocker")}},
	{name: "flocker: not both name and UUID", vols: one(`"flocker":{"datasetName":"d","datasetUUID":"u"}`), want: []Problem{volInvalid("volumes[0].flocker")}},
	{name: "flocker: no '/' in the name", vols: one(`"flocker":{"datasetName":"a/b"}`), want: []Problem{volInvalid("volumes[0].flocker.datasetName")}},
	{name: "persistentVolumeClaim: claimName required", vols: one(`"persistentVolumeClaim":{"claimName":""}`), want: []Problem{volRequired("volumes[0].persistentVolumeClaim.claimName")}},
	{name: "persistentVolumeClaim: a claim", vols: one(`"persistentVolumeClaim":{"claimName":"c","readOnly":true}`)},
	{name: "rbd: monitors and image required", vols: one(`"rbd":{"monitors":[],"image":""}`),
		want: []Problem{volRequired("volumes[0].rbd.monitors"), volRequired("volumes[0].rbd.image")}},
	{name: "cinder: volumeID required", vols: one(`"cinder":{"volumeID":""}`), want: []Problem{volRequired("volumes[0].cinder.volumeID")}},
	{name: "cinder: secret name required", vols: one(`"cinder":{"volumeID":"v","secretRef":{}}`), want: []Problem{volRequired("volumes[0].cinder.secretRef.name")}},
	{name: "cephfs: monitors required", vols: one(`"cephfs":{"monitors":null}`), want: []Problem{volRequired("volumes[0].cephfs.monitors")}},

	// flexVolume
	{name: "flexVolume: driver required", vols: one(`"flexVolume":{"driver":""}`), want: []Problem{volRequired("volumes[0].flexVolume.driver")}},
	{name: "flexVolume: options in reserved namespaces", vols: one(`"flexVolume":{"driver":"d","options":{"kubernetes.io/a":"1","x.K8S.io":"2","example.com/b":"3","notk8s.io":"4"}}`),
		want: []Problem{volInvalid("volumes[0].flexVolume.options[kubernetes.io/a]"), volInvalid("volumes[0].flexVolume.options[x.K8S.io]")}},

	// fc
	{name: "fc: WWNs or WWIDs required", vols: one(`"fc":{}`), want: []Problem{volRequired("volumes[0].fc.targetWWNs")}},
	{name: "fc: not both", vols: one(`"fc":{"targetWWNs":["a"],"wwids":["b"],"lun":0}`), want: []Problem{volInvalid("volumes[0].fc.targetWWNs")}},
	{name: "fc: lun required with WWNs", vols: one(`"fc":{"targetWWNs":["a"]}`), want: []Problem{volRequired("volumes[0].fc.lun")}},
	{name: "fc: lun above 255", vols: one(`"fc":{"targetWWNs":["a"],"lun":256}`), want: []Problem{volInvalid("volumes[0].fc.lun")}},
	{name: "fc: WWIDs without a lun", vols: one(`"fc":{"wwids":["a"]}`)},

	// azureFile, azureDisk
	{name: "azureFile: secretName and shareName required", vols: one(`"azureFile":{"secretName":"","shareName":""}`),
		want: []Problem{volRequired("volumes[0].azureFile.secretName"), volRequired("volumes[0].azureFile.shareName")}},
	{name: "azureDisk: diskName and diskURI required (and a shared disk's URI is https)", vols: one(`"azureDisk":{"diskName":"","diskURI":""}`),
		want: []Problem{volRequired("volumes[0].azureDisk.diskName"), volRequired("volumes[0].azureDisk.diskURI"), volUnsupported("volumes[0].azureDisk.diskURI")}},
	{name: "azureDisk: a shared blob disk", vols: one(`"azureDisk":{"diskName":"d","diskURI":"https://a.blob.core.windows.net/c/d.vhd"}`)},
	{name: "azureDisk: unsupported caching mode", vols: one(`"azureDisk":{"diskName":"d","diskURI":"https://x","cachingMode":"Bad"}`), want: []Problem{volUnsupported("volumes[0].azureDisk.cachingMode")}},
	{name: "azureDisk: unsupported kind (and not https)", vols: one(`"azureDisk":{"diskName":"d","diskURI":"/subscriptions/x","kind":"Bad"}`),
		want: []Problem{volUnsupported("volumes[0].azureDisk.kind"), volUnsupported("volumes[0].azureDisk.diskURI")}},
	{name: "azureDisk: a managed disk's URI is a resource ID", vols: one(`"azureDisk":{"diskName":"d","diskURI":"https://x","kind":"Managed"}`),
		want: []Problem{volUnsupported("volumes[0].azureDisk.diskURI")}},
	{name: "azureDisk: a managed disk", vols: one(`"azureDisk":{"diskName":"d","diskURI":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/disks/d","kind":"Managed"}`)},

	// vsphereVolume, photonPersistentDisk, portworxVolume, quobyte, scaleIO, storageos
	{name: "vsphereVolume: volumePath required", vols: one(`"vsphereVolume":{"volumePath":""}`), want: []Problem{volRequired("volumes[0].vsphereVolume.volumePath")}},
	{name: "photonPersistentDisk: pdID required", vols: one(`"photonPersistentDisk":{"pdID":""}`), want: []Problem{volRequired("volumes[0].photonPersistentDisk.pdID")}},
	{name: "portworxVolume: volumeID required", vols: one(`"portworxVolume":{"volumeID":""}`), want: []Problem{volRequired("volumes[0].portworxVolume.volumeID")}},
	{name: "quobyte: registry and volume required", vols: one(`"quobyte":{"registry":"","volume":""}`),
		want: []Problem{volRequired("volumes[0].quobyte.registry"), volRequired("volumes[0].quobyte.volume")}},
	{name: "quobyte: tenant over 64 bytes is 'required'", vols: one(`"quobyte":{"registry":"r","volume":"v","tenant":"` + strings.Repeat("t", 65) + `"}`),
		want: []Problem{volRequired("volumes[0].quobyte.tenant")}},
	{name: "quobyte: host:port pairs, one problem each", vols: one(`"quobyte":{"registry":"a:1,b,c","volume":"v"}`),
		want: []Problem{volInvalid("volumes[0].quobyte.registry"), volInvalid("volumes[0].quobyte.registry")}},
	{name: "quobyte: a registry of pairs", vols: one(`"quobyte":{"registry":"a:1,[::1]:2","volume":"v","tenant":"` + strings.Repeat("t", 64) + `"}`)},
	{name: "scaleIO: gateway, system and volumeName required", vols: one(`"scaleIO":{"gateway":"","system":"","secretRef":{"name":"s"}}`),
		want: []Problem{volRequired("volumes[0].scaleIO.gateway"), volRequired("volumes[0].scaleIO.system"), volRequired("volumes[0].scaleIO.volumeName")}},
	{name: "storageos: volumeName required", vols: one(`"storageos":{}`), want: []Problem{volRequired("volumes[0].storageos.volumeName")}},
	{name: "storageos: names are DNS labels", vols: one(`"storageos":{"volumeName":"Bad_Name","volumeNamespace":"a.b"}`),
		want: []Problem{volInvalid("volumes[0].storageos.volumeName"), volInvalid("volumes[0].storageos.volumeNamespace")}},
	{name: "storageos: secret name required", vols: one(`"storageos":{"volumeName":"v","secretRef":{"name":""}}`), want: []Problem{volRequired("volumes[0].storageos.secretRef.name")}},

	// csi
	{name: "csi: driver required", vols: one(`"csi":{"driver":""}`), want: []Problem{volRequired("volumes[0].csi.driver")}},
	{name: "csi: driver over 63 bytes", vols: one(`"csi":{"driver":"` + strings.Repeat("a", 64) + `"}`), want: []Problem{volTooLong("volumes[0].csi.driver")}},
	{name: "csi: driver a DNS subdomain in any case", vols: one(`"csi":{"driver":"CSI.Example.com"}`)},
	{name: "csi: driver not a DNS subdomain", vols: one(`"csi":{"driver":"bad_driver"}`), want: []Problem{volInvalid("volumes[0].csi.driver")}},
	{name: "csi: secret name required", vols: one(`"csi":{"driver":"d","nodePublishSecretRef":{}}`), want: []Problem{volRequired("volumes[0].csi.nodePublishSecretRef.name")}},
	{name: "csi: a bad secret name is reported under csi.name", vols: one(`"csi":{"driver":"d","nodePublishSecretRef":{"name":"Bad_Name"}}`),
		want: []Problem{volInvalid("volumes[0].csi.name")}},

	// image
	{name: "image: a template may leave the reference empty", vols: one(`"image":{}`)},
	{name: "image: a pull policy by the tag", vols: `[{"name":"a","image":{"reference":"nginx"}},{"name":"b","image":{"reference":"nginx:1.27"}}]`},
	{name: "image: unsupported pull policy", vols: one(`"image":{"reference":"nginx","pullPolicy":"Sometimes"}`), want: []Problem{volUnsupported("volumes[0].image.pullPolicy")}},
}
