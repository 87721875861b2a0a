package apiserver

// FeatureGates are the Kubernetes feature gates that change what the API
// server stores for the objects of a rollout. The zero value is v1.36's
// defaults: each field names a departure from them, so that a gate that is
// on by default is turned off with a Disable field and one that is off by
// default is turned on with an Enable field.
type FeatureGates struct {
	// Off by default in v1.36: the fields they guard are dropped on create.
	EnableClusterTrustBundleProjection bool // projected clusterTrustBundle sources
	EnablePodCertificateRequest        bool // projected podCertificate sources
	EnableGenericWorkload              bool // spec.schedulingGroup
	EnableContainerStopSignals         bool // lifecycle.stopSignal

	// On by default in v1.36.
	DisableUserNamespacesSupport     bool // securityContext.hostUsers
	DisableSupplementalGroupsPolicy  bool // securityContext.supplementalGroupsPolicy
	DisableInPlacePodVerticalScaling bool // containers' resizePolicy
	DisableSidecarContainers         bool // init containers' restartPolicy
	DisableContainerRestartRules     bool // restartPolicy and restartPolicyRules of containers
	DisableRecursiveReadOnlyMounts   bool // volumeMounts' recursiveReadOnly
	DisableHostnameOverride          bool // spec.hostnameOverride
	DisableEnvFiles                  bool // env valueFrom.fileKeyRef
	DisableImageVolume               bool // image volumes, and their pull policy default
}
