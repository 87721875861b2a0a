package apiserver

import (
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The downward API's selectors, which environment variables (here) and
// downwardAPI volume files share: upstream's validateObjectFieldSelector,
// validateContainerResourceFieldSelector and
// validateContainerResourceDivisor. This is the containers' copy: the
// volumes' port defines the same names with the same signatures, and only
// one of the two files is to be kept.

// The prefixes of the huge pages resources a resourceFieldRef may read.
const (
	hugePagesRequestsPrefixDownwardAPI = "requests.hugepages-"
	hugePagesLimitsPrefixDownwardAPI   = "limits.hugepages-"
)

// validContainerResourceFieldPathExpressions are the container resources
// a resourceFieldRef may read besides huge pages (upstream's set of that
// name), sorted.
func validContainerResourceFieldPathExpressions() []string {
	return []string{"limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"}
}

// validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages are the
// prefixes of the huge pages resources a resourceFieldRef may read, sorted.
func validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages() []string {
	return []string{hugePagesLimitsPrefixDownwardAPI, hugePagesRequestsPrefixDownwardAPI}
}

// validateObjectFieldSelector is upstream's validateObjectFieldSelector: an
// API version (v1, the only one a pod's fields convert from) and a field
// path, which is either one of expressions (sorted) or one label or
// annotation, written metadata.labels['key'], whose key must be a
// qualified name (an annotation's once lowercased).
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
	var errs field.ErrorList
	switch path {
	case "metadata.annotations":
		subscript = strings.ToLower(subscript)
	case "metadata.labels":
	default:
		return field.ErrorList{field.InvalidString(p, path, "does not support subscript")}
	}
	for _, msg := range isQualifiedName(subscript) {
		errs = append(errs, field.InvalidString(p, subscript, msg))
	}
	return errs
}

// convertDownwardAPIFieldLabel is upstream's
// pods.ConvertDownwardAPIFieldLabel: the internal form of a v1 field path
// (spec.host, an old alias, becomes spec.nodeName), or why there is none.
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
	case "spec.host":
		return "spec.nodeName", ""
	}
	return "", "field label not supported: " + label
}

// splitMaybeSubscriptedPath is upstream's fieldpath.SplitMaybeSubscriptedPath:
// "metadata.labels['k']" is ("metadata.labels", "k", true); a path without
// a subscript is (path, "", false).
func splitMaybeSubscriptedPath(fieldPath string) (string, string, bool) {
	s, ok := strings.CutSuffix(fieldPath, "']")
	if !ok {
		return fieldPath, "", false
	}
	path, subscript, ok := strings.Cut(s, "['")
	if !ok || path == "" {
		return fieldPath, "", false
	}
	return path, subscript, true
}

// validateContainerResourceFieldSelector is upstream's
// validateContainerResourceFieldSelector: a container name when the
// selector is a volume's, then a resource that is one of expressions or
// starts with one of prefixes, and a divisor that suits the resource.
func validateContainerResourceFieldSelector(fs *schema.ResourceFieldSelector, expressions, prefixes []string, p *field.Path, volume bool) field.ErrorList {
	var errs field.ErrorList
	switch {
	case volume && fs.ContainerName == "":
		errs = append(errs, field.RequiredValue(p.Child("containerName"), ""))
	case fs.Resource == "":
		errs = append(errs, field.RequiredValue(p.Child("resource"), ""))
	case !slices.Contains(expressions, fs.Resource):
		if !slices.ContainsFunc(prefixes, func(pre string) bool { return strings.HasPrefix(fs.Resource, pre) }) {
			errs = append(errs, field.NotSupported(p.Child("resource"), fs.Resource, expressions))
		}
	}
	return append(errs, validateContainerResourceDivisor(fs.Resource, fs.Divisor, p)...)
}

// The divisors a resourceFieldRef may have: 1m and 1 for cpu, 1 and the
// decimal and binary units for the others.
var (
	validCPUDivisors  = []string{"1m", "1"}
	validByteDivisors = []string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}
)

// validateContainerResourceDivisor is upstream's
// validateContainerResourceDivisor: a divisor that is not zero must be one
// of the units of its resource, compared in canonical form.
func validateContainerResourceDivisor(resource string, divisor schema.Quantity, p *field.Path) field.ErrorList {
	if divisor.IsZero() {
		return nil
	}
	d := divisor.String()
	dp := p.Child("divisor")
	var errs field.ErrorList
	switch resource {
	case "limits.cpu", "requests.cpu":
		if !slices.Contains(validCPUDivisors, d) {
			errs = append(errs, field.InvalidString(dp, resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case "limits.memory", "requests.memory":
		if !slices.Contains(validByteDivisors, d) {
			errs = append(errs, field.InvalidString(dp, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"))
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !slices.Contains(validByteDivisors, d) {
			errs = append(errs, field.InvalidString(dp, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"))
		}
	}
	if strings.HasPrefix(resource, hugePagesRequestsPrefixDownwardAPI) || strings.HasPrefix(resource, hugePagesLimitsPrefixDownwardAPI) {
		if !slices.Contains(validByteDivisors, d) {
			errs = append(errs, field.InvalidString(dp, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"))
		}
	}
	return errs
}
