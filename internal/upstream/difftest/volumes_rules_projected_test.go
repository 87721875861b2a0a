package difftest

import "strings"

// The named cases of projected volumes; the clusterTrustBundle and
// podCertificate sources are gated (off by default in v1.36, when they
// are dropped on create).

const (
	saToken   = `{"serviceAccountToken":{"path":"token"}}`
	goodCert  = `"signerName":"example.com/signer","keyType":"ED25519","credentialBundlePath":"cred"`
	ctbSigner = `"signerName":"example.com/signer"`
)

var volumeProjectedRules = []volumeCase{
	{name: "projected: a valid one", vols: projected(`{"secret":{"name":"s","items":[{"key":"k","path":"a"}]}}`, `{"configMap":{"name":"c"}}`,
		`{"downwardAPI":{"items":[{"path":"b","fieldRef":{"fieldPath":"metadata.uid"}}]}}`, saToken)},
	{name: "projected: no sources", vols: projected()},
	{name: "projected: an empty source", vols: projected(`{}`)},
	{name: "projected: defaultMode above 0777", vols: `[{"name":"v","projected":{"sources":[],"defaultMode":512}}]`, want: []Problem{volInvalid("volumes[0].projected.defaultMode")}},
	{name: "projected: one kind per source", vols: projected(`{"secret":{"name":"s"},"configMap":{"name":"c"}}`), want: []Problem{volForbidden("volumes[0].projected.sources[0]")}},
	{name: "projected: secret name required", vols: projected(`{"secret":{}}`), want: []Problem{volRequired("volumes[0].projected.sources[0].secret.name")}},
	{name: "projected: configMap name required", vols: projected(`{"configMap":{"name":""}}`), want: []Problem{volRequired("volumes[0].projected.sources[0].configMap.name")}},
	{name: "projected: item problems", vols: projected(`{"configMap":{"name":"c","items":[{"key":"","path":"..a","mode":-1}]}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].configMap.items[0].key"), volInvalid("volumes[0].projected.sources[0].configMap.items[0].path"),
			volInvalid("volumes[0].projected.sources[0].configMap.items[0].mode")}},
	{name: "projected: duplicate paths across sources", vols: projected(`{"secret":{"name":"s","items":[{"key":"k","path":"a"}]}}`, `{"configMap":{"name":"c","items":[{"key":"k","path":"a"}]}}`),
		want: []Problem{volInvalid("volumes[0].projected")}},
	{name: "projected: duplicate paths in a downwardAPI source", vols: projected(`{"downwardAPI":{"items":[{"path":"a","fieldRef":{"fieldPath":"metadata.name"}},{"path":"a","fieldRef":{"fieldPath":"metadata.uid"}}]}}`),
		want: []Problem{volInvalid("volumes[0].projected")}},
	{name: "projected: items with no path are not duplicates", vols: projected(`{"secret":{"name":"s","items":[{"key":"k","path":""}]}}`, `{"secret":{"name":"s","items":[{"key":"k","path":""}]}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].secret.items[0].path"), volRequired("volumes[0].projected.sources[1].secret.items[0].path")}},
	{name: "projected: a downwardAPI file's problems are under the source", vols: projected(`{"downwardAPI":{"items":[{"path":"/a"}]}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].downwardAPI.path"), volRequired("volumes[0].projected.sources[0].downwardAPI")}},
	{name: "projected: token of less than 10 minutes", vols: projected(`{"serviceAccountToken":{"path":"t","expirationSeconds":599}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds")}},
	{name: "projected: token of 10 minutes and of 2^32 seconds", vols: projected(`{"serviceAccountToken":{"path":"t","expirationSeconds":600}}`,
		`{"serviceAccountToken":{"path":"u","expirationSeconds":4294967296}}`)},
	{name: "projected: token of more than 2^32 seconds", vols: projected(`{"serviceAccountToken":{"path":"t","expirationSeconds":4294967297}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds")}},
	{name: "projected: token path required, under the volume", vols: projected(`{"serviceAccountToken":{"path":""}}`), want: []Problem{volRequired("volumes[0].projected.path")}},
	{name: "projected: token path local, under the volume", vols: projected(`{"serviceAccountToken":{"path":"/t"}}`), want: []Problem{volInvalid("volumes[0].projected.path")}},
	{name: "projected: token paths are not counted as duplicates", vols: projected(saToken, saToken, `{"secret":{"name":"s","items":[{"key":"k","path":"token"}]}}`)},
	{name: "projected: clusterTrustBundle dropped with its gate off", vols: projected(`{"clusterTrustBundle":{"path":""}}`)},
	{name: "projected: podCertificate dropped with its gate off", vols: projected(`{"podCertificate":{}}`)},

	// clusterTrustBundle
	{name: "clusterTrustBundle: by name", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"bundle","path":"ca.crt"}}`)},
	{name: "clusterTrustBundle: by signer", gated: true, vols: projected(`{"clusterTrustBundle":{` + ctbSigner + `,"labelSelector":{"matchLabels":{"a":"b"}},"path":"ca.crt"}}`)},
	{name: "clusterTrustBundle: not both name and signer", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"b",` + ctbSigner + `,"path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle")}},
	{name: "clusterTrustBundle: name or signer required", gated: true, vols: projected(`{"clusterTrustBundle":{"path":"p"}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].clusterTrustBundle")}},
	{name: "clusterTrustBundle: empty name", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"","path":"p"}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].clusterTrustBundle.name"), volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.name")}},
	{name: "clusterTrustBundle: a signer's bundle name", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"example.com:signer:Bad_Name","path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.name")}},
	{name: "clusterTrustBundle: a name starting with ':'", gated: true, vols: projected(`{"clusterTrustBundle":{"name":":x","path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.name")}},
	{name: "clusterTrustBundle: no label selector with a name", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"b","labelSelector":{},"path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.labelSelector")}},
	{name: "clusterTrustBundle: empty signer", gated: true, vols: projected(`{"clusterTrustBundle":{"signerName":"","path":"p"}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].clusterTrustBundle.signerName"), volRequired("volumes[0].projected.sources[0].clusterTrustBundle.signerName")}},
	{name: "clusterTrustBundle: a bad label selector", gated: true, vols: projected(`{"clusterTrustBundle":{` + ctbSigner + `,"labelSelector":{"matchLabels":{"k":"bad value!"}},"path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.labelSelector.matchLabels")}},
	{name: "clusterTrustBundle: path required", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"b","path":""}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].clusterTrustBundle.path")}},
	{name: "clusterTrustBundle: duplicate path, empty ones too", gated: true, vols: projected(`{"clusterTrustBundle":{"name":"b","path":""}}`, `{"clusterTrustBundle":{"name":"b","path":""}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].clusterTrustBundle.path"), volRequired("volumes[0].projected.sources[1].clusterTrustBundle.path"),
			volInvalid("volumes[0].projected")}},

	// signer names (through clusterTrustBundle)
	{name: "signerName: one '/'", gated: true, vols: projected(`{"clusterTrustBundle":{"signerName":"a.b/c/d","path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.signerName")}},
	{name: "signerName: a domain of two labels", gated: true, vols: projected(`{"clusterTrustBundle":{"signerName":"example/x","path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.signerName")}},
	{name: "signerName: bad domain and path labels", gated: true, vols: projected(`{"clusterTrustBundle":{"signerName":"Example.com/Bad_Path","path":"p"}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.signerName"), volInvalid("volumes[0].projected.sources[0].clusterTrustBundle.signerName")}},
	{name: "signerName: a domain over 253 bytes", gated: true, vols: projected(`{"clusterTrustBundle":{"signerName":"` + strings.Repeat("a.", 127) + `io/x","path":"p"}}`),
		want: []Problem{volTooLong("volumes[0].projected.sources[0].clusterTrustBundle.signerName")}},
	{name: "signerName: over 571 bytes", gated: true, vols: projected(`{"clusterTrustBundle":{"signerName":"example.com/` + strings.Repeat("p.", 280) + `p","path":"p"}}`),
		want: []Problem{volTooLong("volumes[0].projected.sources[0].clusterTrustBundle.signerName")}},

	// podCertificate
	{name: "podCertificate: a valid one", gated: true, vols: projected(`{"podCertificate":{` + goodCert + `,"keyPath":"key","maxExpirationSeconds":7862400,"userAnnotations":{"example.com/a":"b"}}}`)},
	{name: "podCertificate: signer and key type required", gated: true, vols: projected(`{"podCertificate":{"credentialBundlePath":"c"}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].podCertificate.signerName"), volUnsupported("volumes[0].projected.sources[0].podCertificate.keyType")}},
	{name: "podCertificate: a path required", gated: true, vols: projected(`{"podCertificate":{"signerName":"example.com/s","keyType":"RSA3072"}}`),
		want: []Problem{volRequired("volumes[0].projected.sources[0].podCertificate")}},
	{name: "podCertificate: paths local, and not another source's", gated: true,
		vols: projected(`{"podCertificate":{`+goodCert+`,"keyPath":"/k","certificateChainPath":"..c"}}`, `{"secret":{"name":"s","items":[{"key":"k","path":"cred"}]}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].podCertificate.keyPath"), volInvalid("volumes[0].projected.sources[0].podCertificate.certificateChainPath"),
			volInvalid("volumes[0].projected")}},
	{name: "podCertificate: at least an hour", gated: true, vols: projected(`{"podCertificate":{` + goodCert + `,"maxExpirationSeconds":3599}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].podCertificate.maxExpirationSeconds")}},
	{name: "podCertificate: at most 91 days", gated: true, vols: projected(`{"podCertificate":{` + goodCert + `,"maxExpirationSeconds":7862401}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].podCertificate.maxExpirationSeconds")}},
	{name: "podCertificate: at most a day for a Kubernetes signer", gated: true,
		vols: projected(`{"podCertificate":{"signerName":"kubernetes.io/x","keyType":"RSA4096","credentialBundlePath":"c","maxExpirationSeconds":86401}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].podCertificate.maxExpirationSeconds")}},
	{name: "podCertificate: user annotation keys domain-prefixed", gated: true, vols: projected(`{"podCertificate":{` + goodCert + `,"userAnnotations":{"plain":"v","":"w","Example.COM/A":"x","a b/c":"y"}}}`),
		want: []Problem{volInvalid("volumes[0].projected.sources[0].podCertificate.userAnnotations"), volRequired("volumes[0].projected.sources[0].podCertificate.userAnnotations"),
			volInvalid("volumes[0].projected.sources[0].podCertificate.userAnnotations")}},
	{name: "podCertificate: user annotations at most 256 KiB", gated: true, vols: projected(`{"podCertificate":{` + goodCert + `,"userAnnotations":{"example.com/a":"` + strings.Repeat("v", 256*1024) + `"}}}`),
		want: []Problem{volTooLong("volumes[0].projected.sources[0].podCertificate.userAnnotations")}},
}
