package apiserver

import (
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Unit tests of the pod-level area. Each case names the upstream rule it
// carries and lists the problems ("path: type") upstream reports; the
// differential tests in internal/upstream/difftest check the same rules
// against the real code.

var specPath = field.NewPath("spec", "template", "spec")

func problems(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		f := strings.TrimPrefix(e.Field, "spec.template.spec.")
		if e.Field == "spec.template.spec" {
			f = "(spec)"
		}
		out = append(out, f+": "+string(e.Type))
	}
	slices.Sort(out)
	return out
}

func checkProblems(t *testing.T, name string, errs field.ErrorList, want ...string) {
	t.Helper()
	got := problems(errs)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", name, got, want)
	}
}

func quantities(kv ...string) schema.ResourceList {
	m := map[string]schema.Quantity{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = schema.MustParseQuantity(kv[i+1])
	}
	return schema.MakeResourceList(m)
}

// TestPodSpecAreaRules runs one spec per upstream rule through
// validatePodSpec and checks the problems it reports.
func TestPodSpecAreaRules(t *testing.T) {
	opts := createPodOptions(v136)
	sidecar := "Always"
	cases := []struct {
		name string
		edit func(s *schema.PodSpec)
		want []string
	}{
		{"sysctls: a net sysctl with hostNetwork, in either spelling", func(s *schema.PodSpec) {
			s.HostNetwork = true
			s.SecurityContext.Sysctls = []schema.Sysctl{{Name: "net.core.somaxconn"}, {Name: "net/ipv4/ip_forward"}, {Name: "kernel.shm_rmid_forced"}}
		}, []string{"securityContext.sysctls[0].name: Invalid value", "securityContext.sysctls[1].name: Invalid value"}},
		{"shareProcessNamespace: reported under securityContext", func(s *schema.PodSpec) {
			s.HostPID, s.ShareProcessNamespace = true, ptr(true)
		}, []string{"securityContext.shareProcessNamespace: Invalid value"}},
		{"pod affinity: a matchLabelKeys key twice in the selector, reported at the term's index", func(s *schema.PodSpec) {
			s.Affinity = &schema.Affinity{PodAffinity: &schema.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []schema.PodAffinityTerm{{
				TopologyKey: "zone", MatchLabelKeys: []string{"x", "a"},
				LabelSelector: &schema.LabelSelector{MatchLabels: map[string]string{"a": "1"}, MatchExpressions: []schema.LabelSelectorRequirement{{Key: "a", Operator: "Exists"}}},
			}}}}
		}, []string{"affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][1]: Invalid value"}},
		{"pod affinity: namespaces reported as namespace", func(s *schema.PodSpec) {
			s.Affinity = &schema.Affinity{PodAntiAffinity: &schema.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []schema.PodAffinityTerm{{
				TopologyKey: "zone", Namespaces: []string{"Bad"}}}}}
		}, []string{"affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value"}},
		{"tolerations: a bad value reported under operator", func(s *schema.PodSpec) {
			s.Tolerations = []schema.Toleration{{Key: "k", Value: "a b"}, {Operator: "Exists", TolerationSeconds: ptr(int64(1))}}
		}, []string{"tolerations[0].operator: Invalid value", "tolerations[1].effect: Invalid value"}},
		{"topology spread: each of a repeated pair is a duplicate but the last", func(s *schema.PodSpec) {
			c := schema.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: "DoNotSchedule"}
			s.TopologySpreadConstraints = []schema.TopologySpreadConstraint{c, c, c}
		}, []string{"topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value", "topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: Duplicate value"}},
		{"dns: relaxed searches allow '_' and a lone dot", func(s *schema.PodSpec) {
			s.DNSConfig = &schema.PodDNSConfig{Searches: []string{"_srv._tcp.example.com", ".", "Bad"}}
		}, []string{"dnsConfig.searches[2]: Invalid value"}},
		{"host aliases: strict legacy IPs", func(s *schema.PodSpec) {
			s.HostAliases = []schema.HostAlias{{IP: "010.1.1.1"}, {IP: "::ffff:1.2.3.4"}, {IP: "0001.2.3.4"}, {IP: "1.2.3.4"}}
		}, []string{"hostAliases[0].ip: Invalid value", "hostAliases[1].ip: Invalid value", "hostAliases[2].ip: Invalid value"}},
		{"pod resources: requests cover containers and sidecars, limits each container", func(s *schema.PodSpec) {
			s.Resources = &schema.ResourceRequirements{Requests: quantities("cpu", "1"), Limits: quantities("memory", "1Gi")}
			s.Containers[0].Resources = schema.ResourceRequirements{Requests: quantities("cpu", "600m"), Limits: quantities("memory", "2Gi")}
			s.InitContainers = []schema.Container{{Name: "side", Image: "x", RestartPolicy: &sidecar, Resources: schema.ResourceRequirements{Requests: quantities("cpu", "500m")}}}
		}, []string{"resources.requests[cpu]: Invalid value", "resources.containers[0][memory].limits: Invalid value"}},
		{"pod resources: hugepages whose page size overflows are an internal error, not a panic", func(s *schema.PodSpec) {
			s.Resources = &schema.ResourceRequirements{Limits: quantities("hugepages-1e19", "2", "cpu", "1"), Requests: quantities("hugepages-1e19", "2")}
		}, []string{"resources.limits[hugepages-1e19]: Internal error", "resources.requests[hugepages-1e19]: Internal error"}},
		{"overhead: checked as container limits", func(s *schema.PodSpec) {
			s.Overhead = quantities("foo", "1", "example.com/gpu", "500m")
		}, []string{"overhead.limits[foo]: Invalid value", "overhead.limits[foo]: Invalid value", "overhead.limits[example.com/gpu]: Invalid value"}},
		{"hostUsers false: host namespaces with upstream's capitals", func(s *schema.PodSpec) {
			s.HostUsers, s.HostNetwork, s.HostPID, s.HostIPC = ptr(false), true, true, true
		}, []string{"hostNetwork: Forbidden", "HostPID: Forbidden", "HostIPC: Forbidden"}},
		{"windows: host fields and the security context", func(s *schema.PodSpec) {
			s.OS = &schema.PodOS{Name: "windows"}
			s.HostPID, s.SecurityContext.RunAsUser = true, ptr(int64(0))
		}, []string{"hostPID: Forbidden", "securityContext.runAsUser: Forbidden"}},
		{"os: an unknown name is reported on os", func(s *schema.PodSpec) { s.OS = &schema.PodOS{Name: "plan9"} }, []string{"os: Unsupported value"}},
		{"host process: every container, with hostNetwork", func(s *schema.PodSpec) {
			s.Containers = append(s.Containers, schema.Container{Name: "b", Image: "x",
				SecurityContext: &schema.SecurityContext{WindowsOptions: &schema.WindowsSecurityContextOptions{HostProcess: ptr(true)}}})
		}, []string{"(spec): Invalid value", "hostNetwork: Invalid value"}},
	}
	for _, c := range cases {
		s := &schema.PodSpec{
			Containers: []schema.Container{{Name: "app", Image: "nginx", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"}}, RestartPolicy: "Always", DNSPolicy: "ClusterFirst",
			TerminationGracePeriodSeconds: ptr(int64(30)), SecurityContext: &schema.PodSecurityContext{},
		}
		c.edit(s)
		defaultPodSpecObject(s, v136) // as the API server does before it validates
		checkProblems(t, c.name, validatePodSpec(s, nil, specPath, opts), c.want...)
	}
}

// TestPodAnnotationAreaRules: the annotations that carry pod settings.
func TestPodAnnotationAreaRules(t *testing.T) {
	p := field.NewPath("spec", "template", "annotations")
	s := &schema.PodSpec{Containers: []schema.Container{{Name: "app"}}}
	opts := createPodOptions(v136)
	cases := []struct {
		name string
		a    map[string]string
		want []string
	}{
		{"tolerations: keys match in any case", map[string]string{tolerationsAnnotation: `[{"KEY":"a","Operator":"Exists","unknown":1}]`}, nil},
		{"tolerations: a type error", map[string]string{tolerationsAnnotation: `[{"tolerationSeconds":"5"}]`}, []string{"spec.template.annotations: Invalid value"}},
		{"tolerations: validated under the annotation's name", map[string]string{tolerationsAnnotation: `[{"effect":"Never","operator":"Exists"}]`},
			[]string{"spec.template.annotations.scheduler.alpha.kubernetes.io/tolerations[0].effect: Unsupported value"}},
		{"deletion cost: an int32 without '+' or leading zeros", map[string]string{podDeletionCostAnnotation: "+1"},
			[]string{"spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value"}},
		{"seccomp: container annotations named as fields", map[string]string{seccompContainerAnnotation + "x": "localhost/../a"},
			[]string{"spec.template.annotations.container.seccomp.security.alpha.kubernetes.io/x: Invalid value"}},
		{"apparmor: a container of the pod", map[string]string{appArmorContainerAnnotation + "app": "runtime/default", appArmorContainerAnnotation + "x": "unconfined"},
			[]string{"spec.template.annotations[container.apparmor.security.beta.kubernetes.io/x]: Invalid value"}},
	}
	for _, c := range cases {
		checkProblems(t, c.name, validatePodSpecificAnnotations(c.a, s, p, opts), c.want...)
	}
}

// TestParseIPSloppy: the forms k8s.io/utils' ParseIPSloppy accepts and
// those it refuses.
func TestParseIPSloppy(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"1.2.3.4", true}, {"001.002.003.004", true}, {"0000001.2.3.4", true}, {"256.1.1.1", false}, {"1.2.3", false}, {"1.2.3.4.", false},
		{"::", true}, {"::1", true}, {"1::", true}, {"00001::", true}, {"10000::", false}, {"1:2:3:4:5:6:7:8", true}, {"1:2:3:4:5:6:7:8:9", false},
		{"1::2::3", false}, {"::ffff:1.2.3.4", true}, {"1:2:3:4:5:6:1.2.3.4", true}, {"1:2:3:4:5:1.2.3.4", false}, {"fe80::1%eth0", false},
		{"", false}, {"a", false}, {":", false}, {"1:2:3:4:5:6:7::", true}, {"1:2:3:4:5:6:7:8::", false},
	} {
		if got := parseIPSloppy(c.in); got != c.ok {
			t.Errorf("parseIPSloppy(%q) = %v, want %v", c.in, got, c.ok)
		}
	}
}

// TestPodSpecAreaOptions: the rules that options and gates change, which
// a v1.36 create with default gates does not reach.
func TestPodSpecAreaOptions(t *testing.T) {
	base := createPodOptions(v136)
	comparisons := base
	comparisons.AllowTaintTolerationComparisonOperators = true
	onlyRecursive := base
	onlyRecursive.AllowOnlyRecursiveSELinuxChangePolicy = true
	mountOption := base
	mountOption.AllowOnlyRecursiveSELinuxChangePolicy = false
	cases := []struct {
		name string
		opts podOptions
		edit func(s *schema.PodSpec)
		want []string
	}{
		{"tolerations: Lt and Gt take canonical int64 values", comparisons, func(s *schema.PodSpec) {
			s.Tolerations = []schema.Toleration{{Key: "k", Operator: "Lt", Value: "5"}, {Key: "k", Operator: "Gt", Value: "05"},
				{Key: "k", Operator: "Gt", Value: "x"}, {Key: "k", Operator: "Lt", Value: "99999999999999999999"}, {Key: "k", Operator: "Lt", Value: "-0"}}
		}, []string{"tolerations[1].value: Invalid value", "tolerations[2].value: Invalid value", "tolerations[2].value: Invalid value",
			"tolerations[3].value: Invalid value", "tolerations[4].value: Invalid value"}},
		{"tolerations: Lt and Gt while comparison operators are off", base, func(s *schema.PodSpec) {
			s.Tolerations = []schema.Toleration{{Key: "k", Operator: "Gt", Value: "x"}}
		}, []string{"tolerations[0].operator: Unsupported value"}},
		{"seLinuxChangePolicy: only Recursive while SELinuxMount is off", onlyRecursive, func(s *schema.PodSpec) {
			s.SecurityContext.SELinuxChangePolicy = ptr("MountOption")
		}, []string{"securityContext.seLinuxChangePolicy: Unsupported value"}},
		{"seLinuxChangePolicy: MountOption once SELinuxMount is on", mountOption, func(s *schema.PodSpec) {
			s.SecurityContext.SELinuxChangePolicy = ptr("MountOption")
		}, nil},
		{"schedulingGroup: a podGroupName", base, func(s *schema.PodSpec) { s.SchedulingGroup = &schema.PodSchedulingGroup{} },
			[]string{"schedulingGroup.podGroupName: Invalid value"}},
		{"schedulingGroup: a DNS subdomain", base, func(s *schema.PodSpec) { s.SchedulingGroup = &schema.PodSchedulingGroup{PodGroupName: ptr("Group_1")} },
			[]string{"schedulingGroup.podGroupName: Invalid value"}},
	}
	for _, c := range cases {
		s := &schema.PodSpec{
			Containers: []schema.Container{{Name: "app", Image: "nginx", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"}}, RestartPolicy: "Always", DNSPolicy: "ClusterFirst",
			TerminationGracePeriodSeconds: ptr(int64(30)), SecurityContext: &schema.PodSecurityContext{},
		}
		c.edit(s)
		defaultPodSpecObject(s, v136) // as the API server does before it validates
		checkProblems(t, c.name, validatePodSpec(s, nil, specPath, c.opts), c.want...)
	}
}
