package difftest

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func podResources(r v1.ResourceRequirements, f func(s *v1.PodSpec)) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) {
		s.Resources = &r
		if f != nil {
			f(s)
		}
	})
}

func claims(cs ...v1.PodResourceClaim) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) { s.ResourceClaims = cs })
}

// TestPodResourceRules: validatePodResources, validateOverhead and
// validatePodResourceClaims.
func TestPodResourceRules(t *testing.T) {
	r := "resources."
	sidecar := v1.ContainerRestartPolicyAlways
	runPodCases(t, []podCase{
		{name: "pod resources: not on windows", edit: podResources(v1.ResourceRequirements{Limits: rl("cpu", "-1")}, func(s *v1.PodSpec) { s.OS = &v1.PodOS{Name: v1.Windows} }),
			want: []string{"resources: Forbidden"}},
		{name: "pod resources: no claims", edit: podResources(v1.ResourceRequirements{Claims: []v1.ResourceClaim{{Name: "gpu"}}}, nil),
			want: []string{r + "claims: Forbidden", r + "claims[0]: Not found"}},
		{name: "pod resources: an empty claims list", edit: podResources(v1.ResourceRequirements{Requests: rl("cpu", "1")}, nil),
			patch: func(s map[string]any) { s["resources"].(map[string]any)["claims"] = []any{} },
			want:  []string{r + "claims: Forbidden"}},
		{name: "pod resources: only cpu, memory and hugepages", edit: podResources(v1.ResourceRequirements{Requests: rl("ephemeral-storage", "1Gi", "example.com/gpu", "1")}, nil),
			want: []string{r + "requests[ephemeral-storage]: Unsupported value", r + "requests[example.com/gpu]: Unsupported value", r + "limits: Required value"}},
		{name: "pod resources: names", edit: podResources(v1.ResourceRequirements{Limits: rl("cpus", "1", "a/b/c", "1")}, nil),
			want: []string{r + "limits[cpus]: Invalid value", r + "limits[a/b/c]: Invalid value"}},
		{name: "pod resources: negative", edit: podResources(v1.ResourceRequirements{Requests: rl("memory", "-1")}, nil),
			want: []string{r + "requests[memory]: Invalid value"}},
		{name: "pod resources: request above limit", edit: podResources(v1.ResourceRequirements{Requests: rl("cpu", "2"), Limits: rl("cpu", "1")}, nil),
			want: []string{r + "requests: Invalid value"}},
		{name: "pod resources: hugepages request equals limit", edit: podResources(v1.ResourceRequirements{Requests: rl("hugepages-2Mi", "2Mi", "memory", "1Gi"), Limits: rl("hugepages-2Mi", "4Mi", "memory", "1Gi")}, nil),
			want: []string{r + "requests: Invalid value"}},
		{name: "pod resources: hugepages need a limit", edit: podResources(v1.ResourceRequirements{Requests: rl("hugepages-2Mi", "2Mi", "cpu", "1")}, nil),
			want: []string{r + "limits: Required value"}},
		{name: "pod resources: hugepages need cpu or memory", edit: podResources(v1.ResourceRequirements{Limits: rl("hugepages-1Gi", "1Gi")}, nil),
			want: []string{"resources: Forbidden"}},
		{name: "pod resources: whole hugepages", edit: podResources(v1.ResourceRequirements{Limits: rl("hugepages-2Mi", "3Mi", "hugepages-x", "1", "cpu", "1")}, nil),
			want: []string{r + "limits[hugepages-2Mi]: Invalid value", r + "limits[hugepages-x]: Invalid value"}},
		{name: "pod resources: requests cover the containers'", edit: podResources(v1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi")}, func(s *v1.PodSpec) {
			s.Containers[0].Resources.Requests = rl("cpu", "600m", "memory", "1Gi")
			s.InitContainers = []v1.Container{
				{Name: "side", Image: "x", RestartPolicy: &sidecar, Resources: v1.ResourceRequirements{Requests: rl("cpu", "500m")}},
				{Name: "init", Image: "x", Resources: v1.ResourceRequirements{Requests: rl("memory", "2Gi")}},
			}
		}), want: []string{r + "requests[cpu]: Invalid value", r + "requests[memory]: Invalid value"}},
		{name: "pod resources: limits cover each container's", edit: podResources(v1.ResourceRequirements{Limits: rl("cpu", "1", "memory", "1Gi")}, func(s *v1.PodSpec) {
			s.Containers[0].Resources.Limits = rl("cpu", "1001m", "memory", "1Gi")
		}), want: []string{r + "containers[0][cpu].limits: Invalid value"}},
		{name: "pod resources: hugepage limits cover the containers' sum", edit: podResources(v1.ResourceRequirements{Limits: rl("hugepages-2Mi", "4Mi", "memory", "1Gi"), Requests: rl("hugepages-2Mi", "4Mi")}, func(s *v1.PodSpec) {
			s.Containers[0].Resources = v1.ResourceRequirements{Limits: rl("hugepages-2Mi", "4Mi", "memory", "1Gi"), Requests: rl("hugepages-2Mi", "4Mi")}
			s.Containers = append(s.Containers, v1.Container{Name: "two", Image: "x", Resources: s.Containers[0].Resources})
		}), want: []string{r + "limits[hugepages-2Mi]: Invalid value", r + "requests[hugepages-2Mi]: Invalid value"}},
		{name: "overhead: names", edit: spec(func(s *v1.PodSpec) { s.Overhead = rl("foo", "1", "example.com/gpu", "1", "kubernetes.io/x", "1") }),
			want: []string{"overhead.limits[foo]: Invalid value", "overhead.limits[foo]: Invalid value"}},
		{name: "overhead: negative and fractional", edit: spec(func(s *v1.PodSpec) { s.Overhead = rl("cpu", "-1", "example.com/gpu", "500m") }),
			want: []string{"overhead.limits[cpu]: Invalid value", "overhead.limits[example.com/gpu]: Invalid value"}},
		{name: "overhead: hugepages need cpu or memory", edit: spec(func(s *v1.PodSpec) { s.Overhead = rl("hugepages-2Mi", "2Mi") }),
			want: []string{"overhead: Forbidden"}},
		{name: "resource claims: name required", edit: claims(v1.PodResourceClaim{ResourceClaimName: new("c")}), want: []string{"resourceClaims[0].name: Required value"}},
		{name: "resource claims: duplicate", edit: claims(v1.PodResourceClaim{Name: "a", ResourceClaimName: new("c")}, v1.PodResourceClaim{Name: "a", ResourceClaimName: new("c")}),
			want: []string{"resourceClaims[1].name: Duplicate value"}},
		{name: "resource claims: names are DNS labels", edit: claims(v1.PodResourceClaim{Name: "A.b", ResourceClaimTemplateName: new("t")}),
			want: []string{"resourceClaims[0].name: Invalid value"}},
		{name: "resource claims: one source", edit: claims(v1.PodResourceClaim{Name: "a", ResourceClaimName: new("c"), ResourceClaimTemplateName: new("t")}, v1.PodResourceClaim{Name: "b"}),
			want: []string{"resourceClaims[0]: Invalid value", "resourceClaims[1]: Invalid value"}},
		{name: "resource claims: source names", edit: claims(v1.PodResourceClaim{Name: "a", ResourceClaimName: new("C")}, v1.PodResourceClaim{Name: "b", ResourceClaimTemplateName: new("t_")}),
			want: []string{"resourceClaims[0].resourceClaimName: Invalid value", "resourceClaims[1].resourceClaimTemplateName: Invalid value"}},
	})
}

// TestPodHostAndOSRules: validateHostUsers, validatePodHostName,
// validateOS, validateLinux, validateWindows,
// validateWindowsHostProcessPod, validateSchedulingGroup and
// validateFileKeyRefVolumes.
func TestPodHostAndOSRules(t *testing.T) {
	hostProcess := func(pod *bool, containers ...*bool) func(s *v1.PodSpec) {
		return func(s *v1.PodSpec) {
			s.OS = &v1.PodOS{Name: v1.Windows}
			s.SecurityContext = &v1.PodSecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{HostProcess: pod}}
			s.Containers = nil
			for i, c := range containers {
				s.Containers = append(s.Containers, v1.Container{Name: string(rune('a' + i)), Image: "x",
					SecurityContext: &v1.SecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{HostProcess: c}}})
			}
		}
	}
	withHostNetwork := func(f func(s *v1.PodSpec)) func(s *v1.PodSpec) {
		return func(s *v1.PodSpec) { f(s); s.HostNetwork = true }
	}
	fileEnv := func(volume string) func(s *v1.PodSpec) {
		return func(s *v1.PodSpec) {
			s.Volumes = []v1.Volume{{Name: "files", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
				{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}}}
			s.Containers[0].Env = []v1.EnvVar{{Name: "A", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{VolumeName: volume, Path: "env", Key: "A"}}}}
		}
	}
	runPodCases(t, []podCase{
		{name: "hostUsers false: no host namespaces", edit: spec(func(s *v1.PodSpec) {
			s.HostUsers = new(false)
			s.HostNetwork, s.HostPID, s.HostIPC = true, true, true
		}), want: []string{"hostNetwork: Forbidden", "HostPID: Forbidden", "HostIPC: Forbidden"}},
		{name: "hostUsers false: no volume devices", edit: spec(func(s *v1.PodSpec) {
			s.HostUsers = new(false)
			s.Volumes = []v1.Volume{{Name: "dev", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "c"}}}}
			s.Containers[0].VolumeDevices = []v1.VolumeDevice{{Name: "dev", DevicePath: "/dev/x"}}
		}), want: []string{"containers[0].volumeDevices: Forbidden"}},
		{name: "hostUsers true: host namespaces allowed", edit: spec(func(s *v1.PodSpec) { s.HostUsers = new(true); s.HostPID = true })},
		{name: "hostnameOverride: not with setHostnameAsFQDN nor hostNetwork", edit: spec(func(s *v1.PodSpec) {
			s.HostnameOverride = new("web")
			s.SetHostnameAsFQDN = new(true)
			s.HostNetwork = true
		}), want: []string{"hostnameOverride: Forbidden", "hostnameOverride: Forbidden"}},
		{name: "hostnameOverride: at most 64 bytes", edit: spec(func(s *v1.PodSpec) { s.HostnameOverride = new(strings.Repeat("a", 63) + "." + "b") }),
			want: []string{"hostnameOverride: Too long"}},
		{name: "hostnameOverride: a DNS subdomain", edit: spec(func(s *v1.PodSpec) { s.HostnameOverride = new("") }),
			want: []string{"hostnameOverride: Invalid value"}},
		{name: "os: name required", edit: spec(func(s *v1.PodSpec) { s.OS = &v1.PodOS{} }), want: []string{"os.name: Required value"}},
		{name: "os: linux or windows", edit: spec(func(s *v1.PodSpec) { s.OS = &v1.PodOS{Name: "darwin"} }), want: []string{"os: Unsupported value"}},
		{name: "linux: no windows options", edit: spec(func(s *v1.PodSpec) {
			s.OS = &v1.PodOS{Name: v1.Linux}
			s.SecurityContext = &v1.PodSecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{}}
			containerSC(func(sc *v1.SecurityContext) { sc.WindowsOptions = &v1.WindowsSecurityContextOptions{} })(s)
		}), want: []string{"securityContext.windowsOptions: Forbidden", "containers[0].securityContext.windowsOptions: Forbidden"}},
		{name: "windows: no linux pod settings", edit: windows(func(s *v1.PodSpec) {
			s.HostUsers, s.HostPID, s.HostIPC, s.ShareProcessNamespace = new(true), true, true, new(false)
			s.SecurityContext = &v1.PodSecurityContext{SELinuxOptions: &v1.SELinuxOptions{}, SeccompProfile: &v1.SeccompProfile{Type: "RuntimeDefault"},
				FSGroup: new(int64(1)), FSGroupChangePolicy: new(v1.FSGroupChangeAlways), Sysctls: []v1.Sysctl{{Name: "kernel.x"}}, RunAsUser: new(int64(1)),
				RunAsGroup: new(int64(1)), SupplementalGroupsPolicy: new(v1.SupplementalGroupsPolicyMerge), SELinuxChangePolicy: new(v1.SELinuxChangePolicyRecursive)}
		}), want: []string{"hostUsers: Forbidden", "hostPID: Forbidden", "hostIPC: Forbidden", "shareProcessNamespace: Forbidden",
			"securityContext.seLinuxOptions: Forbidden", "securityContext.seccompProfile: Forbidden", "securityContext.fsGroup: Forbidden",
			"securityContext.fsGroupChangePolicy: Forbidden", "securityContext.sysctls: Forbidden", "securityContext.runAsUser: Forbidden",
			"securityContext.runAsGroup: Forbidden", "securityContext.supplementalGroupsPolicy: Forbidden", "securityContext.seLinuxChangePolicy: Forbidden"}},
		{name: "windows: an empty supplementalGroups list", edit: windows(func(s *v1.PodSpec) { s.SecurityContext = &v1.PodSecurityContext{RunAsNonRoot: new(true)} }),
			patch: func(s map[string]any) { s["securityContext"].(map[string]any)["supplementalGroups"] = []any{} },
			want:  []string{"securityContext.supplementalGroups: Forbidden"}},
		{name: "windows: no linux container settings", edit: windows(containerSC(func(sc *v1.SecurityContext) {
			sc.SELinuxOptions, sc.SeccompProfile, sc.Capabilities = &v1.SELinuxOptions{}, &v1.SeccompProfile{Type: "Unconfined"}, &v1.Capabilities{}
			sc.ReadOnlyRootFilesystem, sc.Privileged, sc.AllowPrivilegeEscalation = new(true), new(false), new(false)
			sc.ProcMount, sc.RunAsUser, sc.RunAsGroup = new(v1.DefaultProcMount), new(int64(5)), new(int64(5))
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: "Unconfined"}
		})), want: []string{"containers[0].securityContext.seLinuxOptions: Forbidden", "containers[0].securityContext.seccompProfile: Forbidden",
			"containers[0].securityContext.capabilities: Forbidden", "containers[0].securityContext.readOnlyRootFilesystem: Forbidden",
			"containers[0].securityContext.privileged: Forbidden", "containers[0].securityContext.allowPrivilegeEscalation: Forbidden",
			"containers[0].securityContext.procMount: Forbidden", "containers[0].securityContext.runAsUser: Forbidden",
			"containers[0].securityContext.runAsGroup: Forbidden", "containers[0].securityContext.appArmorProfile: Forbidden"}},
		{name: "host process: needs hostNetwork", edit: spec(hostProcess(new(true), nil)), want: []string{"hostNetwork: Invalid value"}},
		{name: "host process: with hostNetwork", edit: spec(withHostNetwork(hostProcess(new(true), nil, new(true))))},
		{name: "host process: pod and container agree", edit: spec(withHostNetwork(hostProcess(new(true), new(false)))),
			want: []string{"containers[0].securityContext.windowsOptions.hostProcess: Invalid value"}},
		{name: "host process: all containers or none", edit: spec(withHostNetwork(hostProcess(nil, new(true), nil, new(false)))),
			want: []string{"spec.template.spec: Invalid value"}},
		{name: "scheduling group: dropped while GenericWorkload is off", edit: spec(func(s *v1.PodSpec) { s.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: new("Bad_Name")} })},
		{name: "env files: volume not found", edit: spec(fileEnv("nope")), want: []string{"containers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found"}},
		{name: "env files: volume not an emptyDir", edit: spec(fileEnv("cfg")), want: []string{"containers[0].env[0].valueFrom.fileKeyRef.volumeName: Invalid value"}},
		{name: "env files: an emptyDir", edit: spec(fileEnv("files"))},
	})
}

// TestPodSimpleRules covers the lead's pod-level checks in validate.go.
func TestPodSimpleRules(t *testing.T) {
	runPodCases(t, []podCase{
		{name: "restartPolicy: unknown", edit: spec(func(s *v1.PodSpec) { s.RestartPolicy = "Sometimes" }), want: []string{"restartPolicy: Unsupported value", "restartPolicy: Unsupported value"}},
		{name: "dnsPolicy: unknown", edit: spec(func(s *v1.PodSpec) { s.DNSPolicy = "Custom" }), want: []string{"dnsPolicy: Unsupported value"}},
		{name: "preemptionPolicy: unknown and empty", edit: spec(func(s *v1.PodSpec) { s.PreemptionPolicy = new(v1.PreemptionPolicy("Always")) }), want: []string{"preemptionPolicy: Unsupported value"}},
		{name: "preemptionPolicy: empty", edit: spec(func(s *v1.PodSpec) { s.PreemptionPolicy = new(v1.PreemptionPolicy("")) }), want: []string{"preemptionPolicy: Required value"}},
		{name: "nodeSelector: labels", edit: spec(func(s *v1.PodSpec) { s.NodeSelector = map[string]string{"a b": "c", "d": "e f"} }),
			want: []string{"nodeSelector: Invalid value", "nodeSelector: Invalid value"}},
		{name: "readinessGates: qualified names", edit: spec(func(s *v1.PodSpec) { s.ReadinessGates = []v1.PodReadinessGate{{ConditionType: "a/b/c"}} }),
			want: []string{"readinessGates[0].conditionType: Invalid value"}},
		{name: "schedulingGates: qualified and unique", edit: spec(func(s *v1.PodSpec) { s.SchedulingGates = []v1.PodSchedulingGate{{Name: "a"}, {Name: "a"}, {Name: ""}} }),
			want: []string{"schedulingGates[1]: Duplicate value", "schedulingGates[2]: Invalid value", "schedulingGates[2]: Invalid value"}},
		{name: "names: service account, node, priority class, runtime class", edit: spec(func(s *v1.PodSpec) {
			s.ServiceAccountName, s.NodeName, s.PriorityClassName, s.RuntimeClassName = "A", "b_", "C", new("d..e")
		}), want: []string{"serviceAccountName: Invalid value", "nodeName: Invalid value", "priorityClassName: Invalid value", "runtimeClassName: Invalid value"}},
		{name: "activeDeadlineSeconds: 1 to MaxInt32", edit: spec(func(s *v1.PodSpec) { s.ActiveDeadlineSeconds = new(int64(0)) }),
			want: []string{"activeDeadlineSeconds: Invalid value", "activeDeadlineSeconds: Forbidden"}}, // the Forbidden is the apps group's: no deadline in a template
		{name: "activeDeadlineSeconds: past MaxInt32", edit: spec(func(s *v1.PodSpec) { s.ActiveDeadlineSeconds = new(int64(1 << 31)) }),
			want: []string{"activeDeadlineSeconds: Invalid value", "activeDeadlineSeconds: Forbidden"}},
		{name: "hostname and subdomain: DNS labels", edit: spec(func(s *v1.PodSpec) { s.Hostname, s.Subdomain = "a.b", "C" }),
			want: []string{"hostname: Invalid value", "subdomain: Invalid value"}},
		{name: "hostNetwork: host ports match container ports", edit: spec(func(s *v1.PodSpec) {
			s.HostNetwork = true
			s.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 81}, {ContainerPort: 90}}
		}), want: []string{"containers[0].ports[0].hostPort: Invalid value"}},
	})
}
