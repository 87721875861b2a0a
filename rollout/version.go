package rollout

import "github.com/rolloutmath/rolloutmath/internal/kubeversion"

// Version is a supported Kubernetes minor release (1.35, 1.36 or 1.37).
// The zero value, Latest, is the newest supported minor.
type Version = kubeversion.Version

// The supported minors.
const (
	Latest = kubeversion.Latest // the newest supported minor
	V1_35  = kubeversion.V1_35  // Kubernetes 1.35 (modelled on v1.35.4)
	V1_36  = kubeversion.V1_36  // Kubernetes 1.36 (modelled on v1.36.3)
	V1_37  = kubeversion.V1_37  // Kubernetes 1.37 (modelled on v1.37.2)
)

// ParseVersion reads a minor as "1.36", "v1.36" or a patch release such as
// "v1.36.3"; the empty string is Latest. It returns an error naming the
// supported minors for anything else.
func ParseVersion(s string) (Version, error) { return kubeversion.Parse(s) }
