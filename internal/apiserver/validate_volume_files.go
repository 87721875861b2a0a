package apiserver

import (
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the volume sources that write files into the volume
// (secret, configMap, downwardAPI; projected is in
// validate_volume_projected.go) and of the paths inside a volume, which
// the containers' subPath and devices share (pkg/apis/core/validation).

// fileModeErrorMsg is the problem with a file mode out of range.
const fileModeErrorMsg = "must be a number between 0 and 0777 (octal), both inclusive"

// validateFileMode is the check upstream makes of every mode and
// defaultMode: unset, or 0 to 0777. The value is printed in decimal.
func validateFileMode(mode *int32, p *field.Path) field.ErrorList {
	if mode != nil && (*mode > 0o777 || *mode < 0) {
		return field.ErrorList{field.InvalidInt(p, int64(*mode), fileModeErrorMsg)}
	}
	return nil
}

// validateLocalDescendingPath is upstream's validateLocalDescendingPath: a
// relative path with no ".." element.
func validateLocalDescendingPath(target string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.HasPrefix(target, "/") {
		errs = append(errs, field.InvalidString(p, target, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(target, p)...)
}

// validatePathNoBacksteps is upstream's validatePathNoBacksteps: no
// element of the path is "..". It splits at '/' only, as the API server
// does on Linux (on Windows, filepath.ToSlash would make '\' a separator
// too).
func validatePathNoBacksteps(target string, p *field.Path) field.ErrorList {
	for _, part := range strings.Split(target, "/") {
		if part == ".." {
			return field.ErrorList{field.InvalidString(p, target, "must not contain '..'")}
		}
	}
	return nil
}

// validateLocalNonReservedPath is upstream's ValidateLocalNonReservedPath:
// a local descending path that does not start with ".." either (a name
// such as "..data", which the kubelet reserves for its own use).
func validateLocalNonReservedPath(target string, p *field.Path) field.ErrorList {
	errs := validateLocalDescendingPath(target, p)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		errs = append(errs, field.InvalidString(p, target, "must not start with '..'"))
	}
	return errs
}

// validateKeyToPath is upstream's validateKeyToPath: a key, a local
// non-reserved path, and a valid mode.
func validateKeyToPath(kp *schema.KeyToPath, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if kp.Key == "" {
		errs = append(errs, field.RequiredValue(p.Child("key"), ""))
	}
	if kp.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(kp.Path, p.Child("path"))...)
	errs = append(errs, validateFileMode(kp.Mode, p.Child("mode"))...)
	return append(errs, validateUserField(kp.User, p.Child("user"))...)
}

// validateUserField is v1.37's validateUserField: the user and defaultUser
// of the volume sources that write files (AtomicWriteVolumeUserFields),
// when set, is a valid user ID (0 to 2147483647). Only v1.37's schema has
// these fields, so for the other minors there is nothing to check.
func validateUserField(user *int64, p *field.Path) field.ErrorList {
	if user == nil {
		return nil
	}
	var errs field.ErrorList
	for _, msg := range isValidUserID(*user) {
		errs = append(errs, field.InvalidInt(p, *user, msg))
	}
	return errs
}

// validateSecretVolumeSource is upstream's validateSecretVolumeSource: a
// secret name, a valid default mode and valid items.
func validateSecretVolumeSource(s *schema.SecretVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.SecretName == "" {
		errs = append(errs, field.RequiredValue(p.Child("secretName"), ""))
	}
	errs = append(errs, validateFileMode(s.DefaultMode, p.Child("defaultMode"))...)
	errs = append(errs, validateUserField(s.DefaultUser, p.Child("defaultUser"))...)
	for i := range s.Items {
		errs = append(errs, validateKeyToPath(&s.Items[i], p.Child("items").Index(i))...)
	}
	return errs
}

// validateConfigMapVolumeSource is upstream's
// validateConfigMapVolumeSource: a config map name, a valid default mode
// and valid items.
func validateConfigMapVolumeSource(c *schema.ConfigMapVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.RequiredValue(p.Child("name"), ""))
	}
	errs = append(errs, validateFileMode(c.DefaultMode, p.Child("defaultMode"))...)
	errs = append(errs, validateUserField(c.DefaultUser, p.Child("defaultUser"))...)
	for i := range c.Items {
		errs = append(errs, validateKeyToPath(&c.Items[i], p.Child("items").Index(i))...)
	}
	return errs
}

// validateDownwardAPIVolumeSource is upstream's
// validateDownwardAPIVolumeSource: a valid default mode and valid files.
// Upstream reports a file's problems under the source itself, with no
// items[i] in the path, and so do we.
func validateDownwardAPIVolumeSource(d *schema.DownwardAPIVolumeSource, p *field.Path, opts podOptions) field.ErrorList {
	errs := validateFileMode(d.DefaultMode, p.Child("defaultMode"))
	errs = append(errs, validateUserField(d.DefaultUser, p.Child("defaultUser"))...)
	for i := range d.Items {
		errs = append(errs, validateDownwardAPIVolumeFile(&d.Items[i], p, opts)...)
	}
	return errs
}

// validateDownwardAPIVolumeFile is upstream's validateDownwardAPIVolumeFile:
// a local non-reserved path, exactly one of a fieldRef (to the pod's
// metadata) and a resourceFieldRef (to a named container's resources),
// and a valid mode.
func validateDownwardAPIVolumeFile(f *schema.DownwardAPIVolumeFile, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if f.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(f.Path, p.Child("path"))...)
	switch {
	case f.FieldRef != nil:
		errs = append(errs, validateObjectFieldSelector(f.FieldRef, validVolumeDownwardAPIFieldPathExpressions(), p.Child("fieldRef"))...)
		if f.ResourceFieldRef != nil {
			errs = append(errs, field.InvalidString(p, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case f.ResourceFieldRef != nil:
		errs = append(errs, validateContainerResourceFieldSelector(f.ResourceFieldRef, validContainerResourceFieldPathExpressions(),
			validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages(), p.Child("resourceFieldRef"), true)...)
	default:
		errs = append(errs, field.RequiredValue(p, "one of fieldRef and resourceFieldRef is required"))
	}
	errs = append(errs, validateFileMode(f.Mode, p.Child("mode"))...)
	return append(errs, validateUserField(f.User, p.Child("user"))...)
}
