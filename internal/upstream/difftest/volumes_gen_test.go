package difftest

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A generator of Deployments whose pod volumes are random but plausible:
// each value is drawn from a small pool of good and bad ones, with the
// values at and around every limit the volume validation has. Most
// volumes have one source, some two; the containers mount some of them by
// name, so that which volumes validation keeps (a mount of any other is
// "not found") is compared too.

// volGen draws the values of one case.
type volGen struct {
	r *rand.Rand
	// gates says which gated sources may be drawn: the projected
	// clusterTrustBundle and podCertificate sources are dropped on create
	// unless their gates are on.
	trustBundles, podCertificates bool
}

func newVolGen(seed uint64) *volGen {
	return &volGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// volPick returns one of the values.
func volPick[T any](g *volGen, vs ...T) T { return vs[g.r.IntN(len(vs))] }

// chance is true with probability p.
func (g *volGen) chance(p float64) bool { return g.r.Float64() < p }

// volPtrOr returns nil with probability 1/3, or a pointer to one of vs.
func volPtrOr[T any](g *volGen, vs ...T) *T {
	if g.chance(1.0 / 3) {
		return nil
	}
	v := volPick(g, vs...)
	return &v
}

var (
	volLong63 = strings.Repeat("a", 63)
	volLong64 = strings.Repeat("a", 64)
)

func (g *volGen) volumeName() string {
	return volPick(g, "vol", "data", "cfg", "vol", "data", "", "Vol", "a.b", "-a", "a_b", volLong63, volLong64, "1abc")
}

// localPath is a path inside a volume: good, absolute, with "..", or
// starting with "..".
func (g *volGen) localPath() string {
	return volPick(g, "a", "b", "a/b", "c.txt", "", "/abs", "..", "../x", "a/../b", "..data", "...", "a/..", ".", "./a", "a//b", "x..y", "/", "..a/b", "a/b/")
}

func (g *volGen) mode() *int32 {
	return volPtrOr(g, int32(0), 0o644, 0o400, 0o777, 0o1000, -1, 511, 512, math.MaxInt32, math.MinInt32)
}

func (g *volGen) int32Around(limits ...int32) int32 {
	base := volPick(g, limits...)
	v := int64(base) + int64(g.r.IntN(3)-1)
	if v > math.MaxInt32 || v < math.MinInt32 {
		return base
	}
	return int32(v)
}

func (g *volGen) quantity(texts ...string) resource.Quantity {
	return resource.MustParse(volPick(g, texts...))
}

func (g *volGen) secretRef() *v1.LocalObjectReference {
	return volPtrOr(g, v1.LocalObjectReference{}, v1.LocalObjectReference{Name: "s"}, v1.LocalObjectReference{Name: "Bad_Name"})
}

func (g *volGen) keyToPaths() []v1.KeyToPath {
	var items []v1.KeyToPath
	for range g.r.IntN(4) {
		items = append(items, v1.KeyToPath{Key: volPick(g, "k", "", "key.txt", "bad key"), Path: g.localPath(), Mode: g.mode()})
	}
	return items
}

func (g *volGen) fieldRef() *v1.ObjectFieldSelector {
	return &v1.ObjectFieldSelector{
		APIVersion: volPick(g, "", "v1", "v1", "v2"),
		FieldPath: volPick(g, "metadata.name", "metadata.namespace", "metadata.uid", "metadata.labels", "metadata.annotations",
			"metadata.labels['app']", "metadata.annotations['Example.com/X']", "metadata.labels['bad key!']",
			"metadata.annotations['']", "metadata.labels['a/b/c']", "spec.nodeName", "status.podIP", "spec.host",
			"bogus", "", "metadata.name['x']", "['x']", "metadata.labels['x'"),
	}
}

func (g *volGen) resourceFieldRef() *v1.ResourceFieldSelector {
	return &v1.ResourceFieldSelector{
		ContainerName: volPick(g, "", "app", "app"),
		Resource: volPick(g, "", "limits.cpu", "requests.cpu", "limits.memory", "requests.memory", "limits.ephemeral-storage",
			"requests.ephemeral-storage", "requests.hugepages-2Mi", "limits.hugepages-1Gi", "limits.hugepages-", "limits.gpu", "cpu"),
		Divisor: g.quantity("0", "1", "1m", "1Mi", "2", "0.5", "1k", "1000m", "1Ei", "1Gi", "1000", "1e3", "1024Ki"),
	}
}

func (g *volGen) downwardFiles() []v1.DownwardAPIVolumeFile {
	var files []v1.DownwardAPIVolumeFile
	for range g.r.IntN(4) {
		f := v1.DownwardAPIVolumeFile{Path: g.localPath(), Mode: g.mode()}
		switch g.r.IntN(5) {
		case 0, 1:
			f.FieldRef = g.fieldRef()
		case 2, 3:
			f.ResourceFieldRef = g.resourceFieldRef()
		case 4:
			if g.chance(0.5) {
				f.FieldRef, f.ResourceFieldRef = g.fieldRef(), g.resourceFieldRef()
			}
		}
		files = append(files, f)
	}
	return files
}

func (g *volGen) iscsiName() string {
	return volPick(g, "", "iqn.2001-04.com.example:storage", "iqn.2001-04.com.example", "iqn.bad", "xiqn.2001-04.com.example:s",
		"eui.0123456789ABCDEF", "eui.123", "naa."+strings.Repeat("1", 32), "naa.x", "foo")
}

func (g *volGen) labelSelector() *metav1.LabelSelector {
	return volPtrOr(g,
		metav1.LabelSelector{},
		metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
		metav1.LabelSelector{MatchLabels: map[string]string{"bad key!": "x", "k": "bad value!"}},
		metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "In"}}},
		metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Exists", Values: []string{"x"}}}},
		metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}},
	)
}

// source returns a volume source of the kind k (an index into volSourceKinds).
func (g *volGen) source(k int, src *v1.VolumeSource) {
	switch volSourceKinds[k] {
	case "emptyDir":
		e := &v1.EmptyDirVolumeSource{Medium: volPick(g, v1.StorageMediumDefault, v1.StorageMediumMemory, v1.StorageMediumHugePages, "HugePages-2Mi")}
		if g.chance(0.5) {
			q := g.quantity("-1", "0", "1Gi", "-1m", "1m", "100")
			e.SizeLimit = &q
		}
		src.EmptyDir = e
	case "hostPath":
		src.HostPath = &v1.HostPathVolumeSource{
			Path: volPick(g, "", "/var/log", "/a/../b", "..", "rel/path", "/x/.."),
			Type: volPtrOr(g, v1.HostPathUnset, v1.HostPathDirectoryOrCreate, v1.HostPathDirectory, v1.HostPathFileOrCreate,
				v1.HostPathFile, v1.HostPathSocket, v1.HostPathCharDev, v1.HostPathBlockDev, "Bogus"),
		}
	case "gitRepo":
		src.GitRepo = &v1.GitRepoVolumeSource{Repository: volPick(g, "", "https://example.com/r.git"), Revision: volPick(g, "", "main"), Directory: g.localPath()}
	case "gcePersistentDisk":
		src.GCEPersistentDisk = &v1.GCEPersistentDiskVolumeSource{PDName: volPick(g, "", "disk"), Partition: g.int32Around(0, 255, math.MinInt32, math.MaxInt32)}
	case "awsElasticBlockStore":
		src.AWSElasticBlockStore = &v1.AWSElasticBlockStoreVolumeSource{VolumeID: volPick(g, "", "vol-1"), Partition: g.int32Around(0, 255, math.MaxInt32)}
	case "secret":
		src.Secret = &v1.SecretVolumeSource{SecretName: volPick(g, "", "s", "Bad_Name"), Items: g.keyToPaths(), DefaultMode: g.mode(), Optional: volPtrOr(g, true, false)}
	case "nfs":
		src.NFS = &v1.NFSVolumeSource{Server: volPick(g, "", "nfs.example.com"), Path: volPick(g, "", "/exports", "exports", "/a/../b")}
	case "iscsi":
		portal := volPick(g, "", "10.0.0.1:3260", strings.Repeat("p", 50), strings.Repeat("p", 60))
		var initiator *string
		if g.chance(0.5) {
			n := g.iscsiName()
			initiator = &n
		}
		src.ISCSI = &v1.ISCSIVolumeSource{
			TargetPortal: portal, IQN: g.iscsiName(), Lun: g.int32Around(0, 255, math.MinInt32),
			DiscoveryCHAPAuth: g.chance(0.3), SessionCHAPAuth: g.chance(0.3), SecretRef: g.secretRef(), InitiatorName: initiator,
		}
	case "glusterfs":
		src.Glusterfs = &v1.GlusterfsVolumeSource{EndpointsName: volPick(g, "", "ep"), Path: volPick(g, "", "vol")}
	case "persistentVolumeClaim":
		src.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: volPick(g, "", "claim", "web-vol")}
	case "rbd":
		src.RBD = &v1.RBDVolumeSource{CephMonitors: volPick(g, []string(nil), []string{}, []string{"m:6789"}), RBDImage: volPick(g, "", "img"), SecretRef: g.secretRef()}
	case "flexVolume":
		opts := map[string]string{}
		for range g.r.IntN(3) {
			opts[volPick(g, "a", "example.com/x", "kubernetes.io/x", "foo.k8s.io/y", "K8S.IO", "x.Kubernetes.io", "kubernetes.io", "k8s.io/a/b", "notk8s.io")] = "v"
		}
		src.FlexVolume = &v1.FlexVolumeSource{Driver: volPick(g, "", "example/driver"), Options: opts, SecretRef: g.secretRef()}
	case "cinder":
		src.Cinder = &v1.CinderVolumeSource{VolumeID: volPick(g, "", "v"), SecretRef: g.secretRef()}
	case "cephfs":
		src.CephFS = &v1.CephFSVolumeSource{Monitors: volPick(g, []string(nil), []string{"m"}), SecretRef: g.secretRef()}
	case "flocker":
		src.Flocker = &v1.FlockerVolumeSource{DatasetName: volPick(g, "", "ds", "a/b"), DatasetUUID: volPick(g, "", "uuid")}
	case "downwardAPI":
		src.DownwardAPI = &v1.DownwardAPIVolumeSource{Items: g.downwardFiles(), DefaultMode: g.mode()}
	case "fc":
		src.FC = &v1.FCVolumeSource{
			TargetWWNs: volPick(g, []string(nil), []string{"500a0982991b8dc5"}, []string{"a", "b"}), WWIDs: volPick(g, []string(nil), []string{"wwid"}),
			Lun: volPtrOr(g, int32(0), 255, 256, -1, math.MinInt32),
		}
	case "azureFile":
		src.AzureFile = &v1.AzureFileVolumeSource{SecretName: volPick(g, "", "s"), ShareName: volPick(g, "", "share")}
	case "configMap":
		src.ConfigMap = &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: volPick(g, "", "cm", "Bad_Name")},
			Items: g.keyToPaths(), DefaultMode: g.mode(), Optional: volPtrOr(g, true, false)}
	case "vsphereVolume":
		src.VsphereVolume = &v1.VsphereVirtualDiskVolumeSource{VolumePath: volPick(g, "", "[ds] vol.vmdk")}
	case "quobyte":
		src.Quobyte = &v1.QuobyteVolumeSource{
			Registry: volPick(g, "", "host:123", "host", "a:1,b:2", "a:1,b", "[::1]:80", ":80", "a:1,"),
			Volume:   volPick(g, "", "v"), Tenant: volPick(g, "", strings.Repeat("t", 64), strings.Repeat("t", 65)),
		}
	case "azureDisk":
		src.AzureDisk = &v1.AzureDiskVolumeSource{
			DiskName:    volPick(g, "", "d"),
			DataDiskURI: volPick(g, "", "https://acct.blob.core.windows.net/c/d.vhd", "/subscriptions/x/resourcegroups/g/providers/microsoft.compute/disks/d", "http://x"),
			CachingMode: volPtrOr[v1.AzureDataDiskCachingMode](g, "None", "ReadOnly", "ReadWrite", "Bad"),
			Kind:        volPtrOr[v1.AzureDataDiskKind](g, "Shared", "Dedicated", "Managed", "Bad"),
		}
	case "photonPersistentDisk":
		src.PhotonPersistentDisk = &v1.PhotonPersistentDiskVolumeSource{PdID: volPick(g, "", "pd")}
	case "projected":
		src.Projected = &v1.ProjectedVolumeSource{Sources: g.projections(), DefaultMode: g.mode()}
	case "portworxVolume":
		src.PortworxVolume = &v1.PortworxVolumeSource{VolumeID: volPick(g, "", "v")}
	case "scaleIO":
		src.ScaleIO = &v1.ScaleIOVolumeSource{Gateway: volPick(g, "", "gw"), System: volPick(g, "", "sys"), VolumeName: volPick(g, "", "v"), SecretRef: g.secretRef()}
	case "storageos":
		src.StorageOS = &v1.StorageOSVolumeSource{VolumeName: volPick(g, "", "v", "Bad_Name", volLong64), VolumeNamespace: volPick(g, "", "ns", "Bad.NS"), SecretRef: g.secretRef()}
	case "csi":
		src.CSI = &v1.CSIVolumeSource{
			Driver:               volPick(g, "", "csi.example.com", "CSI.Example.Com", volLong64, "bad_driver", "a..b", strings.Repeat("a", 63)),
			NodePublishSecretRef: g.secretRef(),
		}
	case "ephemeral":
		if g.chance(0.1) {
			src.Ephemeral = &v1.EphemeralVolumeSource{}
		} else {
			src.Ephemeral = &v1.EphemeralVolumeSource{VolumeClaimTemplate: g.claimTemplate()}
		}
	case "image":
		src.Image = &v1.ImageVolumeSource{
			Reference:  volPick(g, "", "nginx", "nginx:latest", "nginx:1.27", "repo/img@sha256:"+strings.Repeat("a", 64), "<REGISTRY>/x"),
			PullPolicy: volPick[v1.PullPolicy](g, "", "Always", "IfNotPresent", "Never", "Sometimes"),
		}
	default:
		panic(volSourceKinds[k])
	}
}

// volSourceKinds are the kinds of volume source, by their JSON names.
var volSourceKinds = []string{
	"emptyDir", "hostPath", "gitRepo", "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi", "glusterfs",
	"persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc", "azureFile", "configMap",
	"vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected", "portworxVolume", "scaleIO", "storageos",
	"csi", "ephemeral", "image",
}

func volPtr[T any](v T) *T { return &v }

// volume draws one volume: usually one source, sometimes two.
func (g *volGen) volume() v1.Volume {
	v := v1.Volume{Name: g.volumeName()}
	n := 1
	if g.chance(0.08) {
		n = 2
	}
	for range n {
		g.source(g.r.IntN(len(volSourceKinds)), &v.VolumeSource)
	}
	return v
}

// deployment draws a Deployment that is valid but for its volumes, whose
// one container mounts some of the volumes and a volume that is not there.
func (g *volGen) deployment() []byte {
	var vols []v1.Volume
	for range g.r.IntN(4) {
		vols = append(vols, g.volume())
	}
	var mounts []v1.VolumeMount
	for i, v := range vols {
		if v.Name != "" && g.chance(0.7) {
			mounts = append(mounts, v1.VolumeMount{Name: v.Name, MountPath: fmt.Sprintf("/mnt/%d", i)})
		}
	}
	if g.chance(0.1) {
		mounts = append(mounts, v1.VolumeMount{Name: "missing", MountPath: "/mnt/missing"})
	}
	d := appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: v1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: v1.PodSpec{
					Volumes:    vols,
					Containers: []v1.Container{{Name: "app", Image: "nginx:1.27", VolumeMounts: mounts}},
				},
			},
		},
	}
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return b
}
