package apiserver

import (
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
)

// The names of certificate signers and of ClusterTrustBundles, which
// projected clusterTrustBundle and podCertificate sources name: upstream's
// pkg/apis/core/validation/names.go.

// isKubernetesSignerName is upstream's IsKubernetesSignerName: the
// signer's domain is kubernetes.io or under it.
func isKubernetesSignerName(signer string) bool {
	host, _, _ := strings.Cut(signer, "/")
	return host == "kubernetes.io" || strings.HasSuffix(host, ".kubernetes.io")
}

// validateSignerName is upstream's ValidateSignerName: a signer name is
// "<domain>/<path>", the domain a DNS name of at least two labels and at
// most 253 bytes, the path dot-separated DNS subdomains, 571 bytes in all
// at most. It reports only the first bad label of each part.
func validateSignerName(p *field.Path, signer string) field.ErrorList {
	if signer == "" {
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	domain, path, ok := strings.Cut(signer, "/")
	if !ok || strings.Contains(path, "/") {
		return field.ErrorList{field.InvalidString(p, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	const maxDomain = 253
	var errs field.ErrorList
	if len(domain) > maxDomain {
		errs = append(errs, field.TooLongValue(p, maxDomain))
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		if msgs := isDNS1123Label(l); len(msgs) > 0 {
			for _, msg := range msgs {
				errs = append(errs, field.InvalidString(p, domain, "validating label "+field.Quote(l)+": "+msg))
			}
			break
		}
	}
	if len(labels) < 2 {
		errs = append(errs, field.InvalidString(p, domain, "should be a domain with at least two segments separated by dots"))
	}
	for _, l := range strings.Split(path, ".") {
		if msgs := isDNS1123Subdomain(l); len(msgs) > 0 {
			for _, msg := range msgs {
				errs = append(errs, field.InvalidString(p, path, "validating label "+field.Quote(l)+": "+msg))
			}
			break
		}
	}
	const maxSigner = maxDomain + (253 + 63 + 1) + 1 // domain, '/', a namespace and a name joined by '.'
	if len(signer) > maxSigner {
		errs = append(errs, field.TooLongValue(p, maxSigner))
	}
	return errs
}

// clusterTrustBundleNameProblems is upstream's
// ValidateClusterTrustBundleName(signer) applied to a name: a bundle with
// no signer has a DNS-subdomain name without ':'; a signer's bundle is
// named "<signer with '/' as ':'>:<DNS subdomain>".
func clusterTrustBundleNameProblems(signer, name string) []string {
	if signer == "" {
		if strings.Contains(name, ":") {
			return []string{`ClusterTrustBundle without signer name must not have ":" in its name`}
		}
		return nameIsDNSSubdomain(name, false)
	}
	prefix := strings.ReplaceAll(signer, "/", ":") + ":"
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return []string{"ClusterTrustBundle for signerName " + signer + " must be named with prefix " + prefix}
	}
	return nameIsDNSSubdomain(rest, false)
}

// signerNameOfClusterTrustBundle is upstream's
// extractSignerNameFromClusterTrustBundleName: the signer a bundle's name
// implies (what comes before its last ':', with ':' as '/'), if it has one.
func signerNameOfClusterTrustBundle(name string) (string, bool) {
	i := strings.LastIndex(name, ":")
	if i < 0 {
		return "", false
	}
	return strings.ReplaceAll(name[:i], ":", "/"), true
}
