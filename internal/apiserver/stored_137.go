package apiserver

import "github.com/rolloutmath/rolloutmath/internal/schema"

// This file drops the template fields that v1.37 added behind alpha gates,
// off by default (VERSIONS.md G14), as v1.37.2's pkg/api/pod
// dropDisabledPodFields does: dropDisabledEvictionResponders,
// dropDisabledGRPCContainerProbeTLS, dropDisabledAtomicWriteVolumeUserFields,
// dropHTTPProbeProtocol and the emptyDir mode and bind-mount-option drops.
// Each field stays when its gate is on or when the stored template (old)
// already uses it. v1.35 and v1.36 have none of these fields (the decoder
// refuses them), so there the drops find nothing to clear.

// dropDisabled137Fields clears the fields of s that v1.37 guards with
// EvictionRequestAPI, VolumeBindMountOptions, H2CContainerProbe,
// GRPCContainerProbeTLS, EmptyDirVolumeMode and
// AtomicWriteVolumeUserFields when the gate is off and old does not use
// them. It returns the gates whose fields s used and lost, in upstream's
// order of the drops.
func dropDisabled137Fields(s, old *schema.PodSpec, g FeatureGates) (dropped []string) {
	drop := func(id gate, name string, used func(*schema.PodSpec) bool, clear func(*schema.PodSpec)) {
		if g.enabled(id) || old != nil && used(old) {
			return
		}
		if used(s) {
			dropped = append(dropped, name)
		}
		clear(s)
	}
	drop(gateAtomicWriteVolumeUserFields, "AtomicWriteVolumeUserFields", volumeUsersInUse, dropVolumeUsers)
	drop(gateGRPCContainerProbeTLS, "GRPCContainerProbeTLS", grpcModeInUse, func(p *schema.PodSpec) {
		for _, c := range containersOf(p) {
			for _, pr := range c.probes {
				if pr != nil && pr.GRPC != nil {
					pr.GRPC.Mode = nil
				}
			}
		}
	})
	drop(gateEvictionRequestAPI, "EvictionRequestAPI", func(p *schema.PodSpec) bool { return len(p.EvictionResponders) > 0 }, func(p *schema.PodSpec) {
		p.EvictionResponders = nil
	})
	drop(gateEmptyDirVolumeMode, "EmptyDirVolumeMode", func(p *schema.PodSpec) bool {
		for _, v := range p.Volumes {
			if v.EmptyDir != nil && v.EmptyDir.Mode != nil {
				return true
			}
		}
		return false
	}, func(p *schema.PodSpec) {
		for i := range p.Volumes {
			if e := p.Volumes[i].EmptyDir; e != nil {
				e.Mode = nil
			}
		}
	})
	drop(gateVolumeBindMountOptions, "VolumeBindMountOptions", func(p *schema.PodSpec) bool {
		for _, c := range containersOf(p) {
			for _, m := range c.mounts {
				if len(m.BindMountOptions) > 0 {
					return true
				}
			}
		}
		return false
	}, func(p *schema.PodSpec) {
		for _, c := range containersOf(p) {
			for j := range c.mounts {
				c.mounts[j].BindMountOptions = nil
			}
		}
	})
	drop(gateH2CContainerProbe, "H2CContainerProbe", httpProtocolInUse, func(p *schema.PodSpec) {
		for _, c := range containersOf(p) {
			for _, a := range c.httpGets() {
				a.Protocol = nil
			}
		}
	})
	return dropped
}

// containerParts are the parts of one container (init, regular or
// ephemeral) that the v1.37 drops read. The slice and pointers share
// storage with the pod spec, so clearing through them clears the spec.
type containerParts struct {
	mounts    []schema.VolumeMount
	probes    [3]*schema.Probe // liveness, readiness, startup
	lifecycle *schema.Lifecycle
}

// containersOf lists the containers of p in upstream's VisitContainers
// order: init containers, containers, ephemeral containers.
func containersOf(p *schema.PodSpec) []containerParts {
	out := make([]containerParts, 0, len(p.InitContainers)+len(p.Containers)+len(p.EphemeralContainers))
	for _, cs := range [][]schema.Container{p.InitContainers, p.Containers} {
		for i := range cs {
			c := &cs[i]
			out = append(out, containerParts{c.VolumeMounts, [3]*schema.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe}, c.Lifecycle})
		}
	}
	for i := range p.EphemeralContainers {
		c := &p.EphemeralContainers[i]
		out = append(out, containerParts{c.VolumeMounts, [3]*schema.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe}, c.Lifecycle})
	}
	return out
}

// httpGets returns the HTTP actions of c's probes and of its postStart and
// preStop handlers.
func (c containerParts) httpGets() []*schema.HTTPGetAction {
	var out []*schema.HTTPGetAction
	for _, pr := range c.probes {
		if pr != nil && pr.HTTPGet != nil {
			out = append(out, pr.HTTPGet)
		}
	}
	if l := c.lifecycle; l != nil {
		for _, h := range []*schema.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil && h.HTTPGet != nil {
				out = append(out, h.HTTPGet)
			}
		}
	}
	return out
}

// grpcModeInUse is upstream's grpcProbeModeInUse: a probe's grpc.mode is
// set, to any value.
func grpcModeInUse(p *schema.PodSpec) bool {
	for _, c := range containersOf(p) {
		for _, pr := range c.probes {
			if pr != nil && pr.GRPC != nil && pr.GRPC.Mode != nil {
				return true
			}
		}
	}
	return false
}

// httpProtocolInUse is upstream's httpProbeProtocolInUse.
func httpProtocolInUse(p *schema.PodSpec) bool {
	for _, c := range containersOf(p) {
		for _, a := range c.httpGets() {
			if a.Protocol != nil {
				return true
			}
		}
	}
	return false
}

// volumeUsersInUse is upstream's atomicWriteVolumeUserFieldsInUse. Like
// it, it reads only the first source a volume (or a projection) sets, in
// the order secret, configMap, downwardAPI, projected (and, in a
// projection, secret, downwardAPI, configMap, serviceAccountToken,
// clusterTrustBundle, podCertificate); a volume that sets two is refused
// by validation anyway.
func volumeUsersInUse(p *schema.PodSpec) bool {
	for _, v := range p.Volumes {
		switch {
		case v.Secret != nil:
			if v.Secret.DefaultUser != nil || keyUsers(v.Secret.Items) {
				return true
			}
		case v.ConfigMap != nil:
			if v.ConfigMap.DefaultUser != nil || keyUsers(v.ConfigMap.Items) {
				return true
			}
		case v.DownwardAPI != nil:
			if v.DownwardAPI.DefaultUser != nil || fileUsers(v.DownwardAPI.Items) {
				return true
			}
		case v.Projected != nil:
			if v.Projected.DefaultUser != nil {
				return true
			}
			for _, src := range v.Projected.Sources {
				var used bool
				switch {
				case src.Secret != nil:
					used = keyUsers(src.Secret.Items)
				case src.DownwardAPI != nil:
					used = fileUsers(src.DownwardAPI.Items)
				case src.ConfigMap != nil:
					used = keyUsers(src.ConfigMap.Items)
				case src.ServiceAccountToken != nil:
					used = src.ServiceAccountToken.User != nil
				case src.ClusterTrustBundle != nil:
					used = src.ClusterTrustBundle.User != nil
				case src.PodCertificate != nil:
					used = src.PodCertificate.User != nil
				}
				if used {
					return true
				}
			}
		}
	}
	return false
}

func keyUsers(items []schema.KeyToPath) bool {
	for _, it := range items {
		if it.User != nil {
			return true
		}
	}
	return false
}

func fileUsers(items []schema.DownwardAPIVolumeFile) bool {
	for _, it := range items {
		if it.User != nil {
			return true
		}
	}
	return false
}

// dropVolumeUsers is the clearing half of upstream's
// dropDisabledAtomicWriteVolumeUserFields, with the same first-source
// order as volumeUsersInUse.
func dropVolumeUsers(p *schema.PodSpec) {
	keys := func(items []schema.KeyToPath) {
		for i := range items {
			items[i].User = nil
		}
	}
	files := func(items []schema.DownwardAPIVolumeFile) {
		for i := range items {
			items[i].User = nil
		}
	}
	for i := range p.Volumes {
		v := &p.Volumes[i]
		switch {
		case v.Secret != nil:
			v.Secret.DefaultUser = nil
			keys(v.Secret.Items)
		case v.ConfigMap != nil:
			v.ConfigMap.DefaultUser = nil
			keys(v.ConfigMap.Items)
		case v.DownwardAPI != nil:
			v.DownwardAPI.DefaultUser = nil
			files(v.DownwardAPI.Items)
		case v.Projected != nil:
			v.Projected.DefaultUser = nil
			for j := range v.Projected.Sources {
				src := &v.Projected.Sources[j]
				switch {
				case src.Secret != nil:
					keys(src.Secret.Items)
				case src.DownwardAPI != nil:
					files(src.DownwardAPI.Items)
				case src.ConfigMap != nil:
					keys(src.ConfigMap.Items)
				case src.ServiceAccountToken != nil:
					src.ServiceAccountToken.User = nil
				case src.ClusterTrustBundle != nil:
					src.ClusterTrustBundle.User = nil
				case src.PodCertificate != nil:
					src.PodCertificate.User = nil
				}
			}
		}
	}
}
