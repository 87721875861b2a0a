package apiserver

import (
	"path"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
)

// Relative paths inside a volume or a profile directory: upstream's
// validateLocalDescendingPath and validatePathNoBacksteps, which volume
// sources, mounts, seccomp profiles and file key references share. This is
// the containers' copy: the volumes' port defines the same names with the
// same signatures, and only one of the two is to be kept.

// validateLocalDescendingPath is upstream's validateLocalDescendingPath: a
// relative path with no '..' step.
func validateLocalDescendingPath(target string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(target) {
		errs = append(errs, field.InvalidString(p, target, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(target, p)...)
}

// validatePathNoBacksteps is upstream's validatePathNoBacksteps: no '..'
// step, with '/' as the separator (the API server runs on Linux, where
// filepath.ToSlash changes nothing); one error however many there are.
func validatePathNoBacksteps(target string, p *field.Path) field.ErrorList {
	for _, step := range strings.Split(target, "/") {
		if step == ".." {
			return field.ErrorList{field.InvalidString(p, target, "must not contain '..'")}
		}
	}
	return nil
}
