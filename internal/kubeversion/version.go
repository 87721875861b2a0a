// Package kubeversion names the Kubernetes minor releases that rolloutmath
// models. Everything that differs between minors (the fields of the API,
// feature gates and their defaults, validation and dropping rules, the text
// hashed into a pod-template-hash, the controller's few differences) is keyed
// by a [Version].
package kubeversion

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a supported Kubernetes minor release. The zero value, Latest,
// stands for the newest supported minor; [Version.Resolve] turns it into
// that minor, so that code keyed by minor never sees Latest.
type Version uint8

// The supported minors, oldest first after Latest.
const (
	Latest Version = iota // the newest supported minor (see Newest)
	V1_35                 // Kubernetes 1.35 (modelled on v1.35.4)
	V1_36                 // Kubernetes 1.36 (modelled on v1.36.3)
	V1_37                 // Kubernetes 1.37 (modelled on v1.37.2)

	end // one past the last minor
)

// Oldest and Newest are the supported minors at either end.
const (
	Oldest = V1_35
	Newest = end - 1
)

// patch returns the patch release v (a supported minor) is modelled on.
func (v Version) patch() int {
	switch v {
	case V1_35:
		return 4
	case V1_36:
		return 3
	}
	return 2 // V1_37
}

// Supported returns the supported minors, oldest first.
func Supported() []Version {
	vs := make([]Version, 0, end-1)
	for v := Oldest; v <= Newest; v++ {
		vs = append(vs, v)
	}
	return vs
}

// Resolve returns v, with Latest replaced by Newest.
func (v Version) Resolve() Version {
	if v == Latest {
		return Newest
	}
	return v
}

// Valid reports whether v is Latest or a supported minor.
func (v Version) Valid() bool { return v < end }

// Minor returns the minor number of v, as 36 for Kubernetes 1.36; Latest
// gives the newest minor's. It returns 0 for a Version that is not Valid.
func (v Version) Minor() int {
	if !v.Valid() {
		return 0
	}
	return int(v.Resolve()-V1_35) + 35
}

// Patch returns the patch release v is modelled on, as "v1.36.3".
func (v Version) Patch() string {
	if !v.Valid() {
		return v.String()
	}
	r := v.Resolve()
	return fmt.Sprintf("v1.%d.%d", r.Minor(), r.patch())
}

// String returns "1.35", "1.36" or "1.37"; Latest gives the newest
// minor's; a Version that is not Valid gives "Version(N)".
func (v Version) String() string {
	if !v.Valid() {
		return "Version(" + strconv.Itoa(int(v)) + ")"
	}
	return "1." + strconv.Itoa(v.Minor())
}

// Parse reads a minor as "1.36", "v1.36" or a patch release such as
// "1.36.3" or "v1.36.3" (any patch of a supported minor is taken as that
// minor). The empty string is Latest.
func Parse(s string) (Version, error) {
	if s == "" {
		return Latest, nil
	}
	t := strings.TrimPrefix(s, "v")
	parts := strings.Split(t, ".")
	if (len(parts) == 2 || len(parts) == 3) && parts[0] == "1" {
		minor, err := strconv.Atoi(parts[1])
		patchOK := true
		if len(parts) == 3 {
			_, perr := strconv.ParseUint(parts[2], 10, 16)
			patchOK = perr == nil
		}
		if err == nil && patchOK && strconv.Itoa(minor) == parts[1] {
			for _, v := range Supported() {
				if v.Minor() == minor {
					return v, nil
				}
			}
		}
	}
	return Latest, fmt.Errorf("kubernetes version %q: want one of %s", s, names())
}

func names() string {
	var b strings.Builder
	for i, v := range Supported() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.String())
	}
	return b.String()
}
