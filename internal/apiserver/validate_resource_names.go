package apiserver

import (
	"slices"
	"strings"
)

// The kinds of resource names, as pkg/apis/core/helper tells them apart,
// which the containers' and the pod's resources both use. This is the
// containers' copy: the pod's port has its own (in
// validate_pod_resources.go), and only one is to be kept.

const (
	hugePagesPrefix    = "hugepages-"
	requestsPrefix     = "requests."
	kubernetesIOPrefix = "kubernetes.io/"
)

// The resource names Kubernetes defines (helper's standardResources), the
// ones a container may request (standardContainerResources, besides huge
// pages) and the ones counted in whole units (integerResources, besides
// extended resources).
var (
	standardResourceNames = []string{
		"cpu", "memory", "ephemeral-storage",
		"requests.cpu", "requests.memory", "requests.ephemeral-storage",
		"limits.cpu", "limits.memory", "limits.ephemeral-storage",
		"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
		"persistentvolumeclaims", "storage", "requests.storage",
		"services.nodeports", "services.loadbalancers",
	}
	integerResourceNames = []string{
		"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
		"persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
	}
)

// isHugePageResourceName is helper.IsHugePageResourceName.
func isHugePageResourceName(name string) bool { return strings.HasPrefix(name, hugePagesPrefix) }

// isStandardContainerResourceName is helper.IsStandardContainerResourceName:
// cpu, memory, ephemeral-storage or huge pages.
func isStandardContainerResourceName(name string) bool {
	return name == "cpu" || name == "memory" || name == "ephemeral-storage" || isHugePageResourceName(name)
}

// isStandardResourceName is helper.IsStandardResourceName: a standard name
// or a huge pages one, with or without the requests. prefix of quotas.
func isStandardResourceName(name string) bool {
	return slices.Contains(standardResourceNames, name) || isHugePageResourceName(name) ||
		strings.HasPrefix(name, requestsPrefix+hugePagesPrefix)
}

// isNativeResource is helper.IsNativeResource: unprefixed, or in the
// kubernetes.io namespace.
func isNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, kubernetesIOPrefix)
}

// isExtendedResourceName is helper.IsExtendedResourceName: not native, not
// starting with requests., and still a qualified name with requests. in
// front (as quotas write it).
func isExtendedResourceName(name string) bool {
	if isNativeResource(name) || strings.HasPrefix(name, requestsPrefix) {
		return false
	}
	return len(isQualifiedName(requestsPrefix+name)) == 0
}

// isOvercommitAllowed is helper.IsOvercommitAllowed: native resources
// other than huge pages may have requests below their limits.
func isOvercommitAllowed(name string) bool {
	return isNativeResource(name) && !isHugePageResourceName(name)
}

// isIntegerResourceName is helper.IsIntegerResourceName.
func isIntegerResourceName(name string) bool {
	return slices.Contains(integerResourceNames, name) || isExtendedResourceName(name)
}
