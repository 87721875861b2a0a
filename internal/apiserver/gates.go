package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// FeatureGates say which Kubernetes minor the API server is and how its
// feature gates that change what it stores for the objects of a rollout
// are set. The zero value is the newest supported minor (Version Latest)
// with that minor's default gates.
//
// A Version that is not Valid makes the functions that return errors
// refuse the object; the few that return none (DropDisabledTemplateFields,
// DefaultPodTemplateSpec) treat it as Latest.
type FeatureGates struct {
	// Version is the API server's minor; the zero value is Latest.
	Version kubeversion.Version
	Gates
}

// Gates are the settings of the feature gates that change what the API
// server stores for the objects of a rollout. Each field is a [Gate] whose
// zero value, GateDefault, means "the minor's default", so
// FeatureGates{Version: kubeversion.V1_35} is a v1.35 server as it ships.
// Setting a field to GateOn or GateOff overrides the default, as
// --feature-gates does.
//
// The defaults per minor are upstream's pkg/features/kube_features.go read
// at that minor (VERSIONS.md in this directory lists them). A gate that
// upstream locks to its default can still be overridden here; the real
// server refuses to start with such an override.
type Gates struct {
	// Off by default in v1.35 and v1.36, on from v1.37 (GA).
	ClusterTrustBundleProjection Gate // projected clusterTrustBundle sources
	PodCertificateRequest        Gate // projected podCertificate sources
	SELinuxMount                 Gate // seLinuxChangePolicy other than Recursive

	// Off by default in v1.35 and v1.36, on from v1.37 (beta).
	HPAScaleToZero Gate // a HorizontalPodAutoscaler's minReplicas 0

	// Off by default in v1.35, on from v1.36.
	RestartAllContainersOnContainerExits Gate // the RestartAllContainers restart-rule action
	StrictIPCIDRValidation               Gate // no leading zeros or IPv4-mapped IPv6 in hostAliases and nameservers

	// Off by default in every supported minor.
	GenericWorkload      Gate // spec.workloadRef (v1.35), spec.schedulingGroup (v1.36 on)
	ContainerStopSignals Gate // lifecycle.stopSignal

	// New in v1.37 (alpha, off by default), absent from v1.35 and v1.36,
	// whose schema has none of their fields: there, setting them changes
	// nothing.
	EvictionRequestAPI          Gate // spec.evictionResponders
	VolumeBindMountOptions      Gate // volumeMounts' bindMountOptions
	H2CContainerProbe           Gate // httpGet.protocol of probes and lifecycle handlers
	GRPCContainerProbeTLS       Gate // grpc.mode of probes
	EmptyDirVolumeMode          Gate // emptyDir.mode
	AtomicWriteVolumeUserFields Gate // user and defaultUser of secret, configMap, downwardAPI and projected volumes

	// On by default in every supported minor.
	UserNamespacesSupport     Gate // securityContext.hostUsers
	SupplementalGroupsPolicy  Gate // securityContext.supplementalGroupsPolicy
	InPlacePodVerticalScaling Gate // containers' resizePolicy
	SidecarContainers         Gate // init containers' restartPolicy (the gate is gone in v1.37: always on)
	ContainerRestartRules     Gate // restartPolicy and restartPolicyRules of containers
	RecursiveReadOnlyMounts   Gate // volumeMounts' recursiveReadOnly
	HostnameOverride          Gate // spec.hostnameOverride
	EnvFiles                  Gate // env valueFrom.fileKeyRef
	ImageVolume               Gate // image volumes, and their pull policy default
}

// Gate is the setting of one feature gate in [FeatureGates]. The zero
// value, GateDefault, leaves the gate at its version's default.
type Gate uint8

// The settings of a gate.
const (
	GateDefault Gate = iota // the default of FeatureGates.Version
	GateOn                  // enabled, whatever the default
	GateOff                 // disabled, whatever the default
)

// gate names one field of FeatureGates.
type gate uint8

const (
	gateClusterTrustBundleProjection gate = iota
	gatePodCertificateRequest
	gateSELinuxMount
	gateRestartAllContainersOnContainerExits
	gateStrictIPCIDRValidation
	gateGenericWorkload
	gateContainerStopSignals
	gateUserNamespacesSupport
	gateSupplementalGroupsPolicy
	gateInPlacePodVerticalScaling
	gateSidecarContainers
	gateContainerRestartRules
	gateRecursiveReadOnlyMounts
	gateHostnameOverride
	gateEnvFiles
	gateImageVolume
	gateEvictionRequestAPI
	gateVolumeBindMountOptions
	gateH2CContainerProbe
	gateGRPCContainerProbeTLS
	gateEmptyDirVolumeMode
	gateAtomicWriteVolumeUserFields
	gateHPAScaleToZero
	numGates
)

// minors is the number of supported minors, the length of a row of
// gateDefaults.
const minors = int(kubeversion.Newest-kubeversion.Oldest) + 1

// gateDefaults are the defaults of each gate in each minor, oldest first:
// upstream's defaultVersionedKubernetesFeatureGates read at v1.35.4,
// v1.36.3 and v1.37.2 (VERSIONS.md, G1 to G10 and G14). A gate that a
// minor does not have reads as off there.
var gateDefaults = [numGates][minors]bool{
	gateClusterTrustBundleProjection:         {false, false, true}, // beta off; GA in 1.37
	gatePodCertificateRequest:                {false, false, true}, // beta off; GA in 1.37
	gateSELinuxMount:                         {false, false, true}, // beta off; GA in 1.37
	gateRestartAllContainersOnContainerExits: {false, true, true},  // alpha in 1.35; beta on in 1.36
	gateStrictIPCIDRValidation:               {false, true, true},  // alpha in 1.35; beta on in 1.36
	gateGenericWorkload:                      {false, false, false},
	gateContainerStopSignals:                 {false, false, false},
	gateUserNamespacesSupport:                {true, true, true},
	gateSupplementalGroupsPolicy:             {true, true, true},
	gateInPlacePodVerticalScaling:            {true, true, true},
	gateSidecarContainers:                    {true, true, true},
	gateContainerRestartRules:                {true, true, true},
	gateRecursiveReadOnlyMounts:              {true, true, true},
	gateHostnameOverride:                     {true, true, true},
	gateEnvFiles:                             {true, true, true},
	gateImageVolume:                          {true, true, true},
	gateEvictionRequestAPI:                   {false, false, false}, // absent before 1.37; alpha in 1.37
	gateVolumeBindMountOptions:               {false, false, false}, // absent before 1.37; alpha in 1.37
	gateH2CContainerProbe:                    {false, false, false}, // absent before 1.37; alpha in 1.37
	gateGRPCContainerProbeTLS:                {false, false, false}, // absent before 1.37; alpha in 1.37
	gateEmptyDirVolumeMode:                   {false, false, false}, // absent before 1.37; alpha in 1.37
	gateAtomicWriteVolumeUserFields:          {false, false, false}, // absent before 1.37; alpha in 1.37
	gateHPAScaleToZero:                       {false, false, true},  // alpha off; beta on in 1.37
}

// minor is g's Version resolved to a supported minor: Latest, and a
// Version that is not Valid, are the newest.
func (g FeatureGates) minor() kubeversion.Version {
	if !g.Version.Valid() {
		return kubeversion.Newest
	}
	return g.Version.Resolve()
}

// enabled reports whether gate id is on: its setting in g, or the default
// of g's minor.
func (g FeatureGates) enabled(id gate) bool {
	switch g.setting(id) {
	case GateOn:
		return true
	case GateOff:
		return false
	}
	return gateDefaults[id][g.minor()-kubeversion.Oldest]
}

// setting returns the field of g that id names.
func (g FeatureGates) setting(id gate) Gate {
	switch id {
	case gateClusterTrustBundleProjection:
		return g.ClusterTrustBundleProjection
	case gatePodCertificateRequest:
		return g.PodCertificateRequest
	case gateSELinuxMount:
		return g.SELinuxMount
	case gateRestartAllContainersOnContainerExits:
		return g.RestartAllContainersOnContainerExits
	case gateStrictIPCIDRValidation:
		return g.StrictIPCIDRValidation
	case gateGenericWorkload:
		return g.GenericWorkload
	case gateContainerStopSignals:
		return g.ContainerStopSignals
	case gateUserNamespacesSupport:
		return g.UserNamespacesSupport
	case gateSupplementalGroupsPolicy:
		return g.SupplementalGroupsPolicy
	case gateInPlacePodVerticalScaling:
		return g.InPlacePodVerticalScaling
	case gateSidecarContainers:
		return g.SidecarContainers
	case gateContainerRestartRules:
		return g.ContainerRestartRules
	case gateRecursiveReadOnlyMounts:
		return g.RecursiveReadOnlyMounts
	case gateHostnameOverride:
		return g.HostnameOverride
	case gateEnvFiles:
		return g.EnvFiles
	case gateImageVolume:
		return g.ImageVolume
	case gateEvictionRequestAPI:
		return g.EvictionRequestAPI
	case gateVolumeBindMountOptions:
		return g.VolumeBindMountOptions
	case gateH2CContainerProbe:
		return g.H2CContainerProbe
	case gateGRPCContainerProbeTLS:
		return g.GRPCContainerProbeTLS
	case gateEmptyDirVolumeMode:
		return g.EmptyDirVolumeMode
	case gateAtomicWriteVolumeUserFields:
		return g.AtomicWriteVolumeUserFields
	case gateHPAScaleToZero:
		return g.HPAScaleToZero
	}
	return GateDefault
}

// checkVersion refuses a Version that is not Valid, for the functions that
// return field errors.
func checkVersion(g FeatureGates) field.ErrorList {
	if g.Version.Valid() {
		return nil
	}
	return field.ErrorList{field.InternalValue(field.NewPath("kubernetesVersion"), "unsupported Kubernetes version "+g.Version.String()+": want Latest or one of "+supportedNames())}
}

// supportedNames lists the supported minors as "1.35, 1.36, 1.37".
func supportedNames() string {
	s := ""
	for i, v := range kubeversion.Supported() {
		if i > 0 {
			s += ", "
		}
		s += v.String()
	}
	return s
}
