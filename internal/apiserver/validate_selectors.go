package apiserver

import (
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of the downward API's selectors, which both the downwardAPI
// volume files (and projections) and the containers' env valueFrom use:
// upstream's validateObjectFieldSelector, validateContainerResourceFieldSelector
// and validateContainerResourceDivisor (pkg/apis/core/validation), with
// pods.ConvertDownwardAPIFieldLabel and fieldpath.SplitMaybeSubscriptedPath,
// which they call.

// validVolumeDownwardAPIFieldPathExpressions are the pod fields a
// downwardAPI volume file may project, in byte order (upstream's
// validVolumeDownwardAPIFieldPathExpressions, listed as sets.List lists it).
func validVolumeDownwardAPIFieldPathExpressions() []string {
	return []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"}
}

// validContainerResourceFieldPathExpressions are the container resources a
// resourceFieldRef may name, in byte order (upstream's set of the same
// name); env valueFrom and volume files share them.
func validContainerResourceFieldPathExpressions() []string {
	return []string{"limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"}
}

// The prefixes of the huge-page resources a resourceFieldRef may name.
const (
	hugePagesRequestsPrefixDownwardAPI = "requests.hugepages-"
	hugePagesLimitsPrefixDownwardAPI   = "limits.hugepages-"
)

// validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages are
// the prefixes a resourceFieldRef's resource may start with besides the
// names of validContainerResourceFieldPathExpressions, in byte order.
func validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages() []string {
	return []string{hugePagesLimitsPrefixDownwardAPI, hugePagesRequestsPrefixDownwardAPI}
}

// validateObjectFieldSelector is upstream's validateObjectFieldSelector: a
// fieldRef has an API version and a field path, the path converts from
// v1, and it is one of expressions (sorted) or a subscripted annotation or
// label whose key is a qualified name (an annotation's in any case). The
// first missing part is the only problem reported.
func validateObjectFieldSelector(fs *schema.ObjectFieldSelector, expressions []string, p *field.Path) field.ErrorList {
	if fs.APIVersion == "" {
		return field.ErrorList{field.RequiredValue(p.Child("apiVersion"), "")}
	}
	if fs.FieldPath == "" {
		return field.ErrorList{field.RequiredValue(p.Child("fieldPath"), "")}
	}
	internal, err := convertDownwardAPIFieldLabel(fs.APIVersion, fs.FieldPath)
	if err != "" {
		return field.ErrorList{field.InvalidString(p.Child("fieldPath"), fs.FieldPath, "error converting fieldPath: "+err)}
	}
	path, subscript, ok := splitMaybeSubscriptedPath(internal)
	if !ok {
		if !slices.Contains(expressions, path) {
			return field.ErrorList{field.NotSupported(p.Child("fieldPath"), path, expressions)}
		}
		return nil
	}
	switch path {
	case "metadata.annotations":
		return validateLabelName(strings.ToLower(subscript), p)
	case "metadata.labels":
		return validateLabelName(subscript, p)
	}
	// The conversion refuses every other subscripted path, so this is
	// upstream's guard for a conversion that would let one through.
	return field.ErrorList{field.InvalidString(p, path, "does not support subscript")}
}

// convertDownwardAPIFieldLabel is pods.ConvertDownwardAPIFieldLabel for a
// label alone: the internal field path of a v1 downward API field path, or
// the reason it has none.
func convertDownwardAPIFieldLabel(version, label string) (string, string) {
	if version != "v1" {
		return "", "unsupported pod version: " + version
	}
	if path, _, ok := splitMaybeSubscriptedPath(label); ok {
		if path == "metadata.annotations" || path == "metadata.labels" {
			return label, ""
		}
		return "", "field label does not support subscript: " + label
	}
	switch label {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
		"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs":
		return label, ""
	case "spec.host": // what old v1 clients send for spec.nodeName
		return "spec.nodeName", ""
	}
	return "", "field label not supported: " + label
}

// splitMaybeSubscriptedPath is fieldpath.SplitMaybeSubscriptedPath: it
// splits metadata.labels['key'] into metadata.labels and key; ok is false
// (and path the whole input) when the input has no such subscript.
func splitMaybeSubscriptedPath(fieldPath string) (path, subscript string, ok bool) {
	s, found := strings.CutSuffix(fieldPath, "']")
	if !found {
		return fieldPath, "", false
	}
	path, subscript, found = strings.Cut(s, "['")
	if !found || path == "" {
		return fieldPath, "", false
	}
	return path, subscript, true
}

// validateContainerResourceFieldSelector is upstream's
// validateContainerResourceFieldSelector: a volume file's selector names
// its container; the resource is required and is one of expressions
// (sorted) or starts with one of prefixes; and the divisor suits the
// resource. Only the first of the first three problems is reported.
func validateContainerResourceFieldSelector(fs *schema.ResourceFieldSelector, expressions, prefixes []string, p *field.Path, volume bool) field.ErrorList {
	var errs field.ErrorList
	switch {
	case volume && fs.ContainerName == "":
		errs = append(errs, field.RequiredValue(p.Child("containerName"), ""))
	case fs.Resource == "":
		errs = append(errs, field.RequiredValue(p.Child("resource"), ""))
	case !slices.Contains(expressions, fs.Resource):
		prefixed := slices.ContainsFunc(prefixes, func(pre string) bool { return strings.HasPrefix(fs.Resource, pre) })
		if !prefixed {
			errs = append(errs, field.NotSupported(p.Child("resource"), fs.Resource, expressions))
		}
	}
	return append(errs, validateContainerResourceDivisor(fs.Resource, fs.Divisor, p)...)
}

// isCPUDivisor reports whether d (canonical) may divide a cpu resource.
func isCPUDivisor(d string) bool { return d == "1m" || d == "1" }

// isByteDivisor reports whether d (canonical) may divide a resource
// counted in bytes: 1, or a power of 1000 or 1024 up to E and Ei.
func isByteDivisor(d string) bool {
	switch d {
	case "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei":
		return true
	}
	return false
}

// validateContainerResourceDivisor is upstream's
// validateContainerResourceDivisor: an unset (zero) divisor is fine;
// otherwise cpu takes 1m or 1, and memory, ephemeral storage and huge
// pages take 1 or a power of 1000 or 1024 up to E and Ei. Other resources
// take any divisor.
func validateContainerResourceDivisor(resource string, divisor schema.Quantity, p *field.Path) field.ErrorList {
	if divisor.IsZero() {
		return nil
	}
	d := divisor.String()
	var errs field.ErrorList
	bad := func(msg string) {
		errs = append(errs, field.InvalidString(p.Child("divisor"), resource, msg))
	}
	const bytesList = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei"
	switch resource {
	case "limits.cpu", "requests.cpu":
		if !isCPUDivisor(d) {
			bad("only divisor's values 1m and 1 are supported with the cpu resource")
		}
	case "limits.memory", "requests.memory":
		if !isByteDivisor(d) {
			bad("only divisor's values " + bytesList + " are supported with the memory resource")
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !isByteDivisor(d) {
			bad("only divisor's values " + bytesList + " are supported with the local ephemeral storage resource")
		}
	}
	if strings.HasPrefix(resource, hugePagesRequestsPrefixDownwardAPI) || strings.HasPrefix(resource, hugePagesLimitsPrefixDownwardAPI) {
		if !isByteDivisor(d) {
			bad("only divisor's values " + bytesList + " are supported with the hugepages resource")
		}
	}
	return errs
}
