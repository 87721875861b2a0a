package apiserver

import "github.com/rolloutmath/rolloutmath/internal/schema"

// Defaulting, as the API server applies it whenever it decodes an object:
// the hand-written SetDefaults_* functions of pkg/apis/apps/v1 and
// pkg/apis/core/v1, called in the order of the generated
// SetObjectDefaults_Deployment, _ReplicaSet and _Pod, together with the
// declarative (+default=) defaults that the generated functions inline.

// defaultDeployment is SetObjectDefaults_Deployment.
func defaultDeployment(d *schema.Deployment, g FeatureGates) {
	setDefaultsDeployment(d)
	defaultPodSpecObject(&d.Spec.Template.Spec, g)
}

// defaultReplicaSet is SetObjectDefaults_ReplicaSet.
func defaultReplicaSet(rs *schema.ReplicaSet, g FeatureGates) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptr[int32](1)
	}
	defaultPodSpecObject(&rs.Spec.Template.Spec, g)
}

// defaultPod is SetObjectDefaults_Pod.
func defaultPod(p *schema.Pod, g FeatureGates) {
	setDefaultsPod(p)
	defaultPodSpecObject(&p.Spec, g)
}

// setDefaultsDeployment is SetDefaults_Deployment: one replica, a
// RollingUpdate strategy of 25% and 25%, ten old ReplicaSets kept and a
// progress deadline of 600 seconds.
func setDefaultsDeployment(d *schema.Deployment) {
	s := &d.Spec
	if s.Replicas == nil {
		s.Replicas = ptr[int32](1)
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = "RollingUpdate"
	}
	if s.Strategy.Type == "RollingUpdate" {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &schema.RollingUpdateDeployment{}
		}
		if s.Strategy.RollingUpdate.MaxUnavailable == nil {
			s.Strategy.RollingUpdate.MaxUnavailable = ptr(schema.FromString("25%"))
		}
		if s.Strategy.RollingUpdate.MaxSurge == nil {
			s.Strategy.RollingUpdate.MaxSurge = ptr(schema.FromString("25%"))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptr[int32](10)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = ptr[int32](600)
	}
}

// setDefaultsPod is SetDefaults_Pod, which a pod template does not get:
// requests default to limits, service links are on, and host-network pods
// get host ports. (Pod-level hugepage and request defaults, behind
// PodLevelResources, apply only to pods with pod-level resources.)
func setDefaultsPod(p *schema.Pod) {
	for _, cs := range [][]schema.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = schema.ResourceList{}
			}
			for _, e := range r.Limits {
				if !r.Requests.Has(e.Name) {
					r.Requests.Set(e.Name, e.Quantity)
				}
			}
		}
	}
	if p.Spec.EnableServiceLinks == nil {
		p.Spec.EnableServiceLinks = ptr(true)
	}
	if p.Spec.HostNetwork {
		for _, cs := range [][]schema.Container{p.Spec.Containers, p.Spec.InitContainers} {
			for i := range cs {
				for j := range cs[i].Ports {
					if cs[i].Ports[j].HostPort == 0 {
						cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
					}
				}
			}
		}
	}
}

// defaultPodSpecObject applies, in the generated order, every default of a
// pod spec and of what it holds.
func defaultPodSpecObject(s *schema.PodSpec, g FeatureGates) {
	setDefaultsPodSpec(s)
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i], g)
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		c := &s.EphemeralContainers[i].EphemeralContainerCommon
		setDefaultsContainerFields(c.Image, &c.ImagePullPolicy, &c.TerminationMessagePath, &c.TerminationMessagePolicy)
		defaultContainerParts(c.Ports, c.Env, &c.Resources, c.LivenessProbe, c.ReadinessProbe, c.StartupProbe, c.Lifecycle)
	}
	setDefaultsResourceList(s.Overhead)
	if s.Resources != nil {
		setDefaultsResourceList(s.Resources.Limits)
		setDefaultsResourceList(s.Resources.Requests)
	}
}

// setDefaultsPodSpec is SetDefaults_PodSpec.
func setDefaultsPodSpec(s *schema.PodSpec) {
	if s.DNSPolicy == "" {
		s.DNSPolicy = "ClusterFirst"
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = "Always"
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &schema.PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = ptr[int64](30)
	}
	if s.SchedulerName == "" {
		s.SchedulerName = "default-scheduler"
	}
}

// defaultVolume is SetDefaults_Volume and the defaults of its source.
func defaultVolume(v *schema.Volume, g FeatureGates) {
	src := &v.VolumeSource
	if *src == (schema.VolumeSource{}) {
		src.EmptyDir = &schema.EmptyDirVolumeSource{}
	}
	if g.enabled(gateImageVolume) && src.Image != nil && src.Image.PullPolicy == "" {
		src.Image.PullPolicy = pullPolicyFor(src.Image.Reference)
	}
	if src.HostPath != nil && src.HostPath.Type == nil {
		src.HostPath.Type = ptr("")
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = ptr[int32](0o644)
	}
	if src.ISCSI != nil && src.ISCSI.ISCSIInterface == "" {
		src.ISCSI.ISCSIInterface = "default"
	}
	if rbd := src.RBD; rbd != nil {
		if rbd.RBDPool == "" {
			rbd.RBDPool = "rbd"
		}
		if rbd.RadosUser == "" {
			rbd.RadosUser = "admin"
		}
		if rbd.Keyring == "" {
			rbd.Keyring = "/etc/ceph/keyring"
		}
	}
	if d := src.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = ptr[int32](0o644)
		}
		for i := range d.Items {
			defaultFieldRef(d.Items[i].FieldRef)
		}
	}
	if src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil {
		src.ConfigMap.DefaultMode = ptr[int32](0o644)
	}
	if a := src.AzureDisk; a != nil {
		if a.CachingMode == nil {
			a.CachingMode = ptr("ReadWrite")
		}
		if a.FSType == nil {
			a.FSType = ptr("ext4")
		}
		if a.ReadOnly == nil {
			a.ReadOnly = ptr(false)
		}
		if a.Kind == nil {
			a.Kind = ptr("Shared")
		}
	}
	if p := src.Projected; p != nil {
		if p.DefaultMode == nil {
			p.DefaultMode = ptr[int32](0o644)
		}
		for i := range p.Sources {
			s := &p.Sources[i]
			if s.DownwardAPI != nil {
				for j := range s.DownwardAPI.Items {
					defaultFieldRef(s.DownwardAPI.Items[j].FieldRef)
				}
			}
			if s.ServiceAccountToken != nil && s.ServiceAccountToken.ExpirationSeconds == nil {
				s.ServiceAccountToken.ExpirationSeconds = ptr[int64](3600)
			}
		}
	}
	if s := src.ScaleIO; s != nil {
		if s.StorageMode == "" {
			s.StorageMode = "ThinProvisioned"
		}
		if s.FSType == "" {
			s.FSType = "xfs"
		}
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		spec := &e.VolumeClaimTemplate.Spec
		if spec.VolumeMode == nil {
			spec.VolumeMode = ptr("Filesystem")
		}
		setDefaultsResourceList(spec.Resources.Limits)
		setDefaultsResourceList(spec.Resources.Requests)
	}
}

// defaultContainer is SetDefaults_Container and the defaults of what a
// container holds.
func defaultContainer(c *schema.Container) {
	setDefaultsContainerFields(c.Image, &c.ImagePullPolicy, &c.TerminationMessagePath, &c.TerminationMessagePolicy)
	defaultContainerParts(c.Ports, c.Env, &c.Resources, c.LivenessProbe, c.ReadinessProbe, c.StartupProbe, c.Lifecycle)
}

// setDefaultsContainerFields is SetDefaults_Container: the pull policy
// (Always for the latest tag, else IfNotPresent) and the termination
// message's path and policy.
func setDefaultsContainerFields(image string, pullPolicy, messagePath, messagePolicy *string) {
	if *pullPolicy == "" {
		*pullPolicy = pullPolicyFor(image)
	}
	if *messagePath == "" {
		*messagePath = "/dev/termination-log"
	}
	if *messagePolicy == "" {
		*messagePolicy = "File"
	}
}

// pullPolicyFor is the default pull policy of an image: Always when its tag
// is latest (written or implied), IfNotPresent otherwise, including for a
// reference that does not parse.
func pullPolicyFor(image string) string {
	if imageTag(image) == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// defaultContainerParts defaults the ports, environment, resources, probes
// and lifecycle hooks of a container.
func defaultContainerParts(ports []schema.ContainerPort, env []schema.EnvVar, res *schema.ResourceRequirements, probes ...any) {
	for i := range ports {
		if ports[i].Protocol == "" {
			ports[i].Protocol = "TCP"
		}
	}
	for i := range env {
		if vf := env[i].ValueFrom; vf != nil {
			defaultFieldRef(vf.FieldRef)
			if vf.FileKeyRef != nil && vf.FileKeyRef.Optional == nil {
				vf.FileKeyRef.Optional = ptr(false)
			}
		}
	}
	setDefaultsResourceList(res.Limits)
	setDefaultsResourceList(res.Requests)
	for _, p := range probes {
		switch p := p.(type) {
		case *schema.Probe:
			if p != nil {
				defaultProbe(p)
			}
		case *schema.Lifecycle:
			if p != nil {
				for _, h := range []*schema.LifecycleHandler{p.PostStart, p.PreStop} {
					if h != nil && h.HTTPGet != nil {
						setDefaultsHTTPGetAction(h.HTTPGet)
					}
				}
			}
		}
	}
}

// defaultProbe is SetDefaults_Probe and the defaults of its handler.
func defaultProbe(p *schema.Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	if p.HTTPGet != nil {
		setDefaultsHTTPGetAction(p.HTTPGet)
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptr("")
	}
}

// setDefaultsHTTPGetAction is SetDefaults_HTTPGetAction.
func setDefaultsHTTPGetAction(a *schema.HTTPGetAction) {
	if a.Path == "" {
		a.Path = "/"
	}
	if a.Scheme == "" {
		a.Scheme = "HTTP"
	}
}

// defaultFieldRef is SetDefaults_ObjectFieldSelector, for a non-nil one.
func defaultFieldRef(f *schema.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

// setDefaultsResourceList is SetDefaults_ResourceList: every quantity
// rounded up to milli units.
func setDefaultsResourceList(l schema.ResourceList) {
	for i := range l {
		if l[i].Quantity.HasScale(-3) {
			continue // most quantities are in milli units already
		}
		r := l[i].Quantity
		r.RoundUp(-3)
		if r != l[i].Quantity {
			l[i].Quantity = r
		}
	}
}

func ptr[T any](v T) *T { return &v }
