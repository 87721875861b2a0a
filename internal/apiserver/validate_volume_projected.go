package apiserver

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of projected volumes: upstream's validateProjectedVolumeSource
// and validateProjectionSources (pkg/apis/core/validation).

// The longest a pod certificate may live, in seconds: 91 days, or one day
// for a signer of the Kubernetes project (upstream's
// certificates.MaxMaxExpirationSeconds and KubernetesMaxMaxExpirationSeconds).
const (
	maxMaxExpirationSeconds           = 91 * 24 * 60 * 60
	kubernetesMaxMaxExpirationSeconds = 24 * 60 * 60
)

// validateProjectedVolumeSource is upstream's validateProjectedVolumeSource:
// a valid default mode and valid sources.
func validateProjectedVolumeSource(pr *schema.ProjectedVolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	errs := validateFileMode(pr.DefaultMode, p.Child("defaultMode"))
	errs = append(errs, validateUserField(pr.DefaultUser, p.Child("defaultUser"))...)
	return append(errs, validateProjectionSources(pr, p, opts)...)
}

// projectedPaths are the files of a projected volume so far, for
// upstream's "conflicting duplicate paths", which it reports under the
// projected volume itself.
type projectedPaths struct {
	seen map[string]bool
	p    *field.Path
}

// add records path and returns the problem when an earlier source already
// wrote it; value is what upstream prints (for secret and config map items
// the source's name, otherwise the path).
func (pp projectedPaths) add(path, value string) field.ErrorList {
	if pp.seen[path] {
		return field.ErrorList{field.InvalidString(pp.p, value, "conflicting duplicate paths")}
	}
	pp.seen[path] = true
	return nil
}

// validateProjectionSources is upstream's validateProjectionSources: each
// source is one kind and valid, and no two write the same path (items
// with no path, and service account tokens, are not counted).
func validateProjectionSources(pr *schema.ProjectedVolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	paths := projectedPaths{seen: map[string]bool{}, p: p}
	for i := range pr.Sources {
		src := &pr.Sources[i]
		sp := p.Child("sources").Index(i)
		n := 0
		if s := src.Secret; s != nil {
			n++
			errs = append(errs, validateProjectedItems(s.Name, s.Items, sp.Child("secret"), paths)...)
		}
		if c := src.ConfigMap; c != nil {
			n++
			errs = append(errs, validateProjectedItems(c.Name, c.Items, sp.Child("configMap"), paths)...)
		}
		if d := src.DownwardAPI; d != nil {
			n++
			for j := range d.Items {
				f := &d.Items[j]
				errs = append(errs, validateDownwardAPIVolumeFile(f, sp.Child("downwardAPI"), opts)...)
				if f.Path != "" {
					errs = append(errs, paths.add(f.Path, f.Path)...)
				}
			}
		}
		if t := src.ServiceAccountToken; t != nil {
			n++
			errs = append(errs, validateServiceAccountTokenProjection(t, sp.Child("serviceAccountToken"), p, opts)...)
		}
		if b := src.ClusterTrustBundle; b != nil {
			n++
			errs = append(errs, validateClusterTrustBundleProjection(b, sp.Child("clusterTrustBundle"))...)
			errs = append(errs, paths.add(b.Path, b.Path)...)
		}
		if c := src.PodCertificate; c != nil {
			n++
			errs = append(errs, validatePodCertificateProjection(c, sp.Child("podCertificate"), paths)...)
		}
		if n > 1 {
			errs = append(errs, field.ForbiddenField(sp, "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}

// validateProjectedItems checks a projected secret or config map: a name,
// valid items, and no item path already written.
func validateProjectedItems(name string, items []schema.KeyToPath, p *field.Path, paths projectedPaths) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.RequiredValue(p.Child("name"), ""))
	}
	for i := range items {
		kp := &items[i]
		errs = append(errs, validateKeyToPath(kp, p.Child("items").Index(i))...)
		if kp.Path != "" {
			errs = append(errs, paths.add(kp.Path, name)...)
		}
	}
	return errs
}

// validateServiceAccountTokenProjection checks a projected token: it lives
// 10 minutes to 2^32 seconds, and it has a path, local and non-reserved
// unless the options allow otherwise. Upstream reports the path's problems
// under the projected volume (projected, its path), not under the source.
func validateServiceAccountTokenProjection(t *schema.ServiceAccountTokenProjection, p, projected *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	var secs int64 // a missing expiration converts to 0 (defaulting sets 3600)
	if t.ExpirationSeconds != nil {
		secs = *t.ExpirationSeconds
	}
	if secs < 10*60 {
		errs = append(errs, field.InvalidInt(p.Child("expirationSeconds"), secs, "may not specify a duration less than 10 minutes"))
	}
	if secs > 1<<32 {
		errs = append(errs, field.InvalidInt(p.Child("expirationSeconds"), secs, "may not specify a duration larger than 2^32 seconds"))
	}
	if t.Path == "" {
		errs = append(errs, field.RequiredValue(projected.Child("path"), ""))
	} else if !opts.AllowNonLocalProjectedTokenPath {
		errs = append(errs, validateLocalNonReservedPath(t.Path, projected.Child("path"))...)
	}
	return append(errs, validateUserField(t.User, p.Child("user"))...)
}

// validateClusterTrustBundleProjection checks a projected
// ClusterTrustBundle: either a bundle's name (valid for the signer its
// name implies, with no label selector) or a signer name with a valid
// label selector, and a local non-reserved path.
func validateClusterTrustBundleProjection(b *schema.ClusterTrustBundleProjection, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case b.Name != nil && b.SignerName != nil:
		errs = append(errs, field.InvalidValue(p, clusterTrustBundleValue(b), "only one of name and signerName may be used"))
	case b.Name != nil:
		name := *b.Name
		if name == "" {
			errs = append(errs, field.RequiredValue(p.Child("name"), "must be a valid object name"))
		}
		signer, _ := signerNameOfClusterTrustBundle(name)
		for _, msg := range clusterTrustBundleNameProblems(signer, name) {
			errs = append(errs, field.InvalidString(p.Child("name"), name, "not a valid clustertrustbundlename: "+msg))
		}
		if b.LabelSelector != nil {
			errs = append(errs, field.InvalidValue(p.Child("labelSelector"), jsonValue(b.LabelSelector), "labelSelector must be unset if name is specified"))
		}
	case b.SignerName != nil:
		if *b.SignerName == "" {
			errs = append(errs, field.RequiredValue(p.Child("signerName"), "must be a valid signer name"))
		}
		errs = append(errs, validateSignerName(p.Child("signerName"), *b.SignerName)...)
		errs = append(errs, validateLabelSelector(b.LabelSelector, false, p.Child("labelSelector"))...)
	default:
		errs = append(errs, field.RequiredValue(p, "either name or signerName must be specified"))
	}
	if b.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	}
	errs = append(errs, validateUserField(b.User, p.Child("user"))...)
	return append(errs, validateLocalNonReservedPath(b.Path, p.Child("path"))...)
}

// clusterTrustBundleValue renders a projection as upstream's error prints
// the internal struct: JSON with Go's field names.
func clusterTrustBundleValue(b *schema.ClusterTrustBundleProjection) string {
	return jsonValue(struct {
		Name          *string
		SignerName    *string
		LabelSelector *schema.LabelSelector
		Optional      *bool
		Path          string
	}{b.Name, b.SignerName, b.LabelSelector, b.Optional, b.Path})
}

// jsonValue renders a value as upstream's errors print a structured one.
func jsonValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<unprintable>"
	}
	return string(b)
}

// validatePodCertificateProjection checks a projected pod certificate: a
// valid signer name, domain-prefixed user annotation keys, a supported
// key type, a maximum lifetime of an hour to the signer's limit, and at
// least one local non-reserved path that no other source writes.
func validatePodCertificateProjection(c *schema.PodCertificateProjection, p *field.Path, paths projectedPaths) field.ErrorList {
	errs := validateSignerName(p.Child("signerName"), c.SignerName)
	if c.UserAnnotations != nil {
		errs = append(errs, validateUserAnnotations(c.UserAnnotations, p.Child("userAnnotations"))...)
	}
	errs = append(errs, validateUserField(c.User, p.Child("user"))...)
	switch c.KeyType {
	case "RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519":
	default:
		errs = append(errs, field.NotSupported(p.Child("keyType"), c.KeyType, []string{"RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"}))
	}
	if m := c.MaxExpirationSeconds; m != nil {
		if *m < 3600 {
			errs = append(errs, field.InvalidInt(p.Child("maxExpirationSeconds"), int64(*m), "if provided, maxExpirationSeconds must be >= 3600"))
		}
		limit := maxMaxExpirationSeconds
		if isKubernetesSignerName(c.SignerName) {
			limit = kubernetesMaxMaxExpirationSeconds
		}
		if *m > int32(limit) {
			errs = append(errs, field.InvalidInt(p.Child("maxExpirationSeconds"), int64(*m), "if provided, maxExpirationSeconds must be <= "+strconv.Itoa(limit)))
		}
	}
	n := 0
	for _, f := range []struct {
		path, name string
	}{{c.CredentialBundlePath, "credentialBundlePath"}, {c.KeyPath, "keyPath"}, {c.CertificateChainPath, "certificateChainPath"}} {
		if f.path == "" {
			continue
		}
		n++
		errs = append(errs, validateLocalNonReservedPath(f.path, p.Child(f.name))...)
		errs = append(errs, paths.add(f.path, f.path)...)
	}
	if n == 0 {
		errs = append(errs, field.RequiredValue(p, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"))
	}
	return errs
}

// validateUserAnnotations is upstream's ValidateUserAnnotations: every key
// (in lower case) is a domain-prefixed label key, and keys and values
// together are at most 256 KiB. Keys are checked in byte order.
func validateUserAnnotations(a map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for _, k := range slices.Sorted(maps.Keys(a)) {
		errs = append(errs, isDomainPrefixedKey(p, strings.ToLower(k))...)
		size += len(k) + len(a[k])
	}
	if size > totalAnnotationSizeLimit {
		errs = append(errs, field.TooLongValue(p, totalAnnotationSizeLimit))
	}
	return errs
}

// isDomainPrefixedKey is apimachinery's IsDomainPrefixedKey: a label key
// with a prefix.
func isDomainPrefixedKey(p *field.Path, key string) field.ErrorList {
	if key == "" {
		return field.ErrorList{field.RequiredValue(p, "")}
	}
	var errs field.ErrorList
	for _, msg := range isQualifiedName(key) {
		errs = append(errs, field.InvalidString(p, key, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	if strings.Count(key, "/") != 1 {
		return field.ErrorList{field.InvalidString(p, key, `must be a domain-prefixed key (such as "acme.io/foo")`)}
	}
	return nil
}

// hasNonLocalProjectedTokenPath is upstream's hasNonLocalProjectedTokenPath
// (pkg/api/pod): whether a stored pod spec has a projected token whose
// path validateLocalNonReservedPath refuses. On an update, such a spec
// sets podOptions.AllowNonLocalProjectedTokenPath, so that it may keep it.
func hasNonLocalProjectedTokenPath(s *schema.PodSpec) bool {
	for _, v := range s.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, src := range v.Projected.Sources {
			if t := src.ServiceAccountToken; t != nil && len(validateLocalNonReservedPath(t.Path, field.NewPath("path"))) > 0 {
				return true
			}
		}
	}
	return false
}
