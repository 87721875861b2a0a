package difftest

import (
	"math"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The parts of volGen for the sources with nested objects: projected
// volumes (with their gated clusterTrustBundle and podCertificate
// sources) and ephemeral volumes' claim templates.

func (g *volGen) projections() []v1.VolumeProjection {
	var ps []v1.VolumeProjection
	paths := func() string { return volPick(g, "a", "b", "a/b", "tok", "", "..x", "/abs", "ca.crt") }
	for range g.r.IntN(4) {
		var p v1.VolumeProjection
		kinds := 1
		if g.chance(0.1) {
			kinds = 2
		}
		for range kinds {
			max := 4
			if g.trustBundles {
				max++
			}
			if g.podCertificates {
				max++
			}
			k := g.r.IntN(max)
			if k == 4 && !g.trustBundles {
				k = 5
			}
			switch k {
			case 0:
				p.Secret = &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: volPick(g, "", "s")}, Items: g.projItems(paths)}
			case 1:
				p.ConfigMap = &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: volPick(g, "", "cm")}, Items: g.projItems(paths)}
			case 2:
				files := g.downwardFiles()
				for i := range files {
					files[i].Path = paths()
				}
				p.DownwardAPI = &v1.DownwardAPIProjection{Items: files}
			case 3:
				p.ServiceAccountToken = &v1.ServiceAccountTokenProjection{
					Audience:          volPick(g, "", "api"),
					ExpirationSeconds: volPtrOr(g, int64(599), 600, 3600, 1<<32, 1<<32+1, -1, 0, math.MaxInt64),
					Path:              paths(),
				}
			case 4:
				p.ClusterTrustBundle = g.trustBundle(paths())
			case 5:
				p.PodCertificate = g.podCertificate(paths)
			}
		}
		ps = append(ps, p)
	}
	return ps
}

func (g *volGen) projItems(paths func() string) []v1.KeyToPath {
	items := g.keyToPaths()
	for i := range items {
		items[i].Path = paths()
	}
	return items
}

func (g *volGen) signerName() string {
	return volPick(g, "", "example.com/signer", "kubernetes.io/kube-apiserver-client", "foo.kubernetes.io/x", "nodomain/x",
		"example.com", "a/b/c", "Example.com/x", "example.com/Bad_Path", "example.com/a.b", "example..com/x",
		strings.Repeat("a", 64)+".com/x", "example.com/"+strings.Repeat("p", 560),
		strings.Repeat("a.", 127)+"io/x")
}

func (g *volGen) trustBundle(path string) *v1.ClusterTrustBundleProjection {
	b := &v1.ClusterTrustBundleProjection{Path: path, Optional: volPtrOr(g, true)}
	switch g.r.IntN(4) {
	case 0:
		b.Name = volPtrOr(g, "", "bundle", "example.com:signer:bundle", "a:b", ":x", "Bad_Name", "example.com:signer:Bad_Name")
	case 1:
		b.SignerName = volPtrOr(g, g.signerName(), g.signerName())
	case 2:
		b.Name, b.SignerName = volPtrOr(g, "bundle"), volPtrOr(g, "example.com/signer")
	}
	b.LabelSelector = g.labelSelector()
	return b
}

func (g *volGen) podCertificate(paths func() string) *v1.PodCertificateProjection {
	c := &v1.PodCertificateProjection{
		SignerName:           g.signerName(),
		KeyType:              volPick(g, "", "RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519", "DSA"),
		MaxExpirationSeconds: volPtrOr(g, int32(3599), 3600, 86400, 86401, 7862400, 7862401, -1, math.MaxInt32),
	}
	if g.chance(0.7) {
		c.CredentialBundlePath = paths()
	}
	if g.chance(0.4) {
		c.KeyPath = paths()
	}
	if g.chance(0.4) {
		c.CertificateChainPath = paths()
	}
	if g.chance(0.4) {
		c.UserAnnotations = map[string]string{}
		for range g.r.IntN(3) {
			c.UserAnnotations[volPick(g, "example.com/a", "noprefix", "Example.COM/B", "bad key", "a/b/c", "/x", "x/", "")] = "v"
		}
	}
	return c
}

func (g *volGen) claimTemplate() *v1.PersistentVolumeClaimTemplate {
	t := &v1.PersistentVolumeClaimTemplate{}
	if g.chance(0.3) {
		t.Labels = map[string]string{volPick(g, "app", "bad key!"): volPick(g, "db", "bad value!")}
	}
	if g.chance(0.2) {
		t.Annotations = map[string]string{volPick(g, "a", "Example.com/B", "bad key!"): "v"}
	}
	if g.chance(0.15) {
		switch g.r.IntN(8) {
		case 0:
			t.Name = "n"
		case 1:
			t.GenerateName = "g-"
		case 2:
			t.Namespace = "ns"
		case 3:
			t.UID = "u"
		case 4:
			t.Finalizers = []string{"f"}
		case 5:
			t.Generation = 2
		case 6:
			t.ResourceVersion = "1"
		case 7:
			t.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "u"}}
		}
	}
	s := &t.Spec
	for range g.r.IntN(3) {
		s.AccessModes = append(s.AccessModes, volPick[v1.PersistentVolumeAccessMode](g, "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod", "Bad", ""))
	}
	if g.chance(0.8) {
		s.Resources.Requests = v1.ResourceList{}
		if g.chance(0.9) {
			s.Resources.Requests["storage"] = g.quantity("1Gi", "1Gi", "0", "-1", "1m", "0.5", "100")
		}
		if g.chance(0.2) {
			s.Resources.Requests["cpu"] = g.quantity("1")
		}
	}
	if g.chance(0.2) {
		s.Resources.Limits = v1.ResourceList{"storage": g.quantity("2Gi", "-1")}
	}
	s.Selector = g.labelSelector()
	s.StorageClassName = volPtrOr(g, "", "fast", "Bad_Class", volLong64+".x")
	s.VolumeMode = volPtrOr[v1.PersistentVolumeMode](g, "Block", "Filesystem", "Bad")
	s.VolumeAttributesClassName = volPtrOr(g, "", "gold", "Bad_Class")
	s.VolumeName = volPick(g, "", "pv")
	groups := []*string{nil, volPtr(""), volPtr("snapshot.storage.k8s.io"), volPtr("Bad_Group")}
	if g.chance(0.4) {
		s.DataSource = &v1.TypedLocalObjectReference{APIGroup: volPick(g, groups...), Kind: volPick(g, "", "PersistentVolumeClaim", "VolumeSnapshot"), Name: volPick(g, "", "src")}
	}
	if g.chance(0.4) {
		if s.DataSource != nil && g.chance(0.5) {
			ds := s.DataSource
			s.DataSourceRef = &v1.TypedObjectReference{APIGroup: ds.APIGroup, Kind: ds.Kind, Name: ds.Name}
		} else {
			s.DataSourceRef = &v1.TypedObjectReference{APIGroup: volPick(g, groups...), Kind: volPick(g, "", "PersistentVolumeClaim", "VolumeSnapshot"), Name: volPick(g, "", "src")}
		}
		s.DataSourceRef.Namespace = volPtrOr(g, "", "ns", "Bad_NS")
	}
	return t
}
