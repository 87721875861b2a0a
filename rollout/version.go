package rollout

import (
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// Version is a supported Kubernetes minor release: the API a manifest is
// read as (its fields, defaults and validation) and the controller whose
// sync is computed (the pod-template-hash, and so every ReplicaSet's
// name, differs between minors). The zero value, [Latest], is the newest
// supported minor, [V1_37]; [ParseVersion] reads "1.36" and the like.
type Version = kubeversion.Version

// The supported minors. Latest, the zero Version, stands for the newest.
const (
	Latest = kubeversion.Latest // the newest supported minor
	V1_35  = kubeversion.V1_35  // Kubernetes 1.35 (exact to v1.35.4)
	V1_36  = kubeversion.V1_36  // Kubernetes 1.36 (exact to v1.36.3)
	V1_37  = kubeversion.V1_37  // Kubernetes 1.37 (exact to v1.37.2)
)

// ErrVersion is wrapped by the errors of [Plan] and [DecodeOptions.Decode]
// for a Version that is not Latest or a supported minor (a conversion
// from a number, as Version(9)).
var ErrVersion = errors.New("not a supported Kubernetes version")

// checkVersion returns an error wrapping ErrVersion, naming where v was
// given, unless v is Valid.
func checkVersion(where string, v Version) error {
	if v.Valid() {
		return nil
	}
	return fmt.Errorf("rollout: %s %s: %w (want Latest or one of %v)", where, v, ErrVersion, SupportedVersions())
}

// ParseVersion reads a minor as "1.36", "v1.36" or a patch release of a
// supported minor ("1.36.3"); the empty string is Latest. Any other input
// is an error naming the supported minors.
func ParseVersion(s string) (Version, error) { return kubeversion.Parse(s) }

// SupportedVersions returns the supported minors, oldest first.
func SupportedVersions() []Version { return kubeversion.Supported() }
