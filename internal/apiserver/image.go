package apiserver

import (
	"regexp"
	"strings"
)

// The grammar of an image reference, as github.com/distribution/reference
// v0.6.0 (which the API server's defaulting parses images with) writes it.
var (
	referenceRegexp  = regexp.MustCompile(`^((?:(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[(?:[a-fA-F0-9:]+)\])(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*)*)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}))?$`)
	nameRegexp       = regexp.MustCompile(`^(?:((?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[(?:[a-fA-F0-9:]+)\])(?::[0-9]+)?)/)?([a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*)*)$`)
	identifierRegexp = regexp.MustCompile(`^([a-f0-9]{64})$`)
	hexRegexp        = regexp.MustCompile(`^[a-f0-9]+$`)
)

// imageTag returns the tag that upstream's parsers.ParseImageName gives an
// image reference: its tag, "latest" when it has neither tag nor digest,
// "" when it has only a digest or when it does not parse at all (a
// placeholder such as <REGISTRY>/app:latest).
func imageTag(image string) string {
	tag, digest, ok := parseImage(image)
	if !ok {
		return ""
	}
	if tag == "" && digest == "" {
		return "latest"
	}
	return tag
}

// parseImage parses a reference as reference.ParseNormalizedNamed does,
// returning its tag and digest.
func parseImage(s string) (tag, digest string, ok bool) {
	if identifierRegexp.MatchString(s) {
		return "", "", false
	}
	domain, remainder := splitDockerDomain(s)
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return "", "", false
	}
	m := referenceRegexp.FindStringSubmatch(domain + "/" + remainder)
	if m == nil {
		return "", "", false
	}
	name := nameRegexp.FindStringSubmatch(m[1])
	path := m[1]
	if len(name) == 3 {
		path = name[2]
	}
	if len(path) > 255 {
		return "", "", false
	}
	if m[3] != "" && !validDigest(m[3]) {
		return "", "", false
	}
	return m[2], m[3], true
}

// splitDockerDomain splits a reference into its registry and the rest, as
// Docker Hub's conventions have it.
func splitDockerDomain(name string) (domain, remote string) {
	maybeDomain, maybeRemote, ok := strings.Cut(name, "/")
	switch {
	case !ok:
		return "docker.io", "library/" + name
	case maybeDomain == "localhost":
		domain, remote = maybeDomain, maybeRemote
	case maybeDomain == "index.docker.io":
		domain, remote = "docker.io", maybeRemote
	case strings.ContainsAny(maybeDomain, ".:"):
		domain, remote = maybeDomain, maybeRemote
	case strings.ToLower(maybeDomain) != maybeDomain:
		domain, remote = maybeDomain, maybeRemote
	default:
		domain, remote = "docker.io", name
	}
	if domain == "docker.io" && !strings.ContainsRune(remote, '/') {
		remote = "library/" + remote
	}
	return domain, remote
}

// validDigest reports whether a digest's algorithm is one the API server
// links in (sha256, sha384, sha512) and its hex has that algorithm's length.
func validDigest(d string) bool {
	alg, hex, ok := strings.Cut(d, ":")
	if !ok {
		return false
	}
	size := map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}[alg]
	return size != 0 && len(hex) == size && hexRegexp.MatchString(hex)
}
