package difftest

import (
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/randfill"
)

// The randomized differential test of the pod-level area: valid
// Deployments whose pod-level fields (and the container fields those
// rules read) are drawn from small pools of good and bad values, run
// through the real create path and ours.

// podStrings are the plain strings the generator draws: label keys and
// values, names, IP addresses, DNS names, paths, sysctls, Windows user
// names, each in good and bad forms and at their limits.
var podStrings = []string{
	"", "a", "app", "web", "v1", "example.com/key", "kubernetes.io/hostname", "topology.kubernetes.io/zone",
	"pod-template-hash", "metadata.name", "a/b/c", "-bad", "bad value", "Bad_Key", strings.Repeat("k", 63), strings.Repeat("k", 64),
	"1.2.3.4", "::1", "010.1.1.1", "::ffff:1.2.3.4", "00001::", "1.2.3", "fe80::1%eth0", "0001.2.3.4", "2001:db8::1",
	"example.com", "ok.", ".", "a_b", "_srv._tcp.example.com", "Example.com", "a..b", strings.Repeat("d", 63) + "." + strings.Repeat("e", 63),
	"a.json", "/abs/profile", "../up", "a/../b", " padded", "profile",
	"net.core.somaxconn", "kernel.shm_rmid_forced", "fs.mqueue.msg_max", "net/ipv4/ip_forward", "kernel.msgmax", "kernel.shmmax", "Bad.Sysctl", "kernel.x",
	`NT AUTHORITY\NETWORK SERVICE`, `a\b\c`, "..", "ContainerUser", "ndots", "node-1", "Node_1", "claim", "gpu", "t1",
}

// podInt32s and podInt64s are numbers at and around the limits.
var (
	podInt32s = []int32{-1, 0, 1, 2, 3, 50, 100, 101, math.MaxInt32, math.MinInt32}
	podInt64s = []int64{-1, 0, 1, 5, 1000, math.MaxInt32, math.MaxInt32 + 1, math.MaxInt64, math.MinInt64}
)

// podResourceNames are resource names for pod-level resources, overhead
// and containers.
var podResourceNames = []string{
	"cpu", "memory", "hugepages-2Mi", "hugepages-1Gi", "hugepages-x", "ephemeral-storage", "example.com/gpu", "pods",
	"foo", "kubernetes.io/x", "requests.cpu", "a/b/c",
}

// podQuantities are amounts, with whole hugepages among them.
var podQuantities = append([]string{"2Mi", "4Mi", "6Mi", "1Gi", "3Mi", "1", "500m", "2"}, quantityTexts...)

// The tame pools hold values valid nearly everywhere: "1.2.3.4" is at
// once an IP address, a label key and value, a DNS subdomain, a sysctl
// and a relative path.
var (
	tameStrings       = []string{"1.2.3.4", "10.0.0.1", "192.168.0.1"}
	tameInt32s        = []int32{1, 2, 50, 100}
	tameInt64s        = []int64{1, 5, 1000}
	tameResourceNames = []string{"cpu", "memory"}
	tameQuantities    = []string{"1", "2", "500m", "1Gi", "100Mi"}
)

// draw picks one of pool, or (rarely, unless tame) a random string.
func draw[T ~string](pool []string, tame bool, c randfill.Continue) T {
	if !tame && c.Intn(20) == 0 {
		return T(c.String(6))
	}
	return T(pool[c.Intn(len(pool))])
}

// enum is a randfill function drawing a named string type from its
// values, and (unless tame) a bad one or none.
func enum[T ~string](tame bool, values ...string) func(*T, randfill.Continue) {
	if !tame {
		values = append(values, "Bad", "")
	}
	return func(s *T, c randfill.Continue) { *s = draw[T](values, tame, c) }
}

// either returns tame's pool when tame is set, else wild's.
func either[T any](tame bool, tamePool, wild []T) []T {
	if tame {
		return tamePool
	}
	return wild
}

// podFiller fills pod-level structures from the pools: the wild ones, or
// the tame ones, whose structures the server mostly accepts, so that what
// is stored gets compared too.
func podFiller(seed int64, tame bool) *randfill.Filler {
	strs, i32s, i64s := either(tame, tameStrings, podStrings), either(tame, tameInt32s, podInt32s), either(tame, tameInt64s, podInt64s)
	names, quantities := either(tame, tameResourceNames, podResourceNames), either(tame, tameQuantities, podQuantities)
	return filler(seed).NilChance(0.35).NumElements(0, 3).Funcs(
		func(s *string, c randfill.Continue) { *s = draw[string](strs, tame, c) },
		func(i *int32, c randfill.Continue) { *i = i32s[c.Intn(len(i32s))] },
		func(i *int64, c randfill.Continue) { *i = i64s[c.Intn(len(i64s))] },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(l *v1.ResourceList, c randfill.Continue) {
			if c.Intn(4) == 0 {
				*l = nil
				return
			}
			*l = v1.ResourceList{}
			for range 1 + c.Intn(3) {
				var q resource.Quantity
				c.Fill(&q)
				(*l)[v1.ResourceName(names[c.Intn(len(names))])] = q
			}
		},
		enum[v1.NodeSelectorOperator](tame, "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"),
		enum[metav1.LabelSelectorOperator](tame, "In", "NotIn", "Exists", "DoesNotExist"),
		enum[v1.TolerationOperator](tame, "Equal", "Exists", "Lt", "Gt"),
		enum[v1.TaintEffect](tame, "NoSchedule", "PreferNoSchedule", "NoExecute"),
		enum[v1.UnsatisfiableConstraintAction](tame, "DoNotSchedule", "ScheduleAnyway"),
		enum[v1.NodeInclusionPolicy](tame, "Honor", "Ignore"),
		enum[v1.SeccompProfileType](tame, "Localhost", "RuntimeDefault", "Unconfined"),
		enum[v1.AppArmorProfileType](tame, "Localhost", "RuntimeDefault", "Unconfined"),
		enum[v1.PodFSGroupChangePolicy](tame, "Always", "OnRootMismatch"),
		enum[v1.SupplementalGroupsPolicy](tame, "Merge", "Strict"),
		// MountOption is left out until validate.go's createPodOptions
		// refuses it as the real server does (SELinuxMount is off).
		enum[v1.PodSELinuxChangePolicy](tame, "Recursive", "MountOption"),
		enum[v1.OSName](tame, "linux", "windows"),
		enum[v1.DNSPolicy](tame, "ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"),
		enum[v1.PreemptionPolicy](tame, "PreemptLowerPriority", "Never"),
		enum[v1.ProcMountType](tame, "Default"),
		enum[v1.PodConditionType](tame, "ready", "example.com/gate"),
	)
}

// podGen builds the random Deployments.
type podGen struct {
	r    *rand.Rand
	f    *randfill.Filler
	tame bool // draw the hand-rolled parts from valid values only
}

// pool returns tame's values when the generator is tame, else all.
func (g *podGen) pool(tame []string, wild ...string) []string {
	if g.tame {
		return tame
	}
	return append(tame, wild...)
}

func (g *podGen) chance(n int) bool { return g.r.Intn(n) == 0 }

func (g *podGen) oneOf(pool ...string) string { return pool[g.r.Intn(len(pool))] }

// fill fills v (a pointer) with probability 1/n.
func (g *podGen) fill(n int, v any) {
	if g.chance(n) {
		g.f.Fill(v)
	}
}

// template changes a valid template's pod-level fields at random.
func (g *podGen) template(t *v1.PodTemplateSpec) {
	s := &t.Spec
	g.fill(3, &s.Affinity)
	g.fill(4, &s.Tolerations)
	g.fill(4, &s.TopologySpreadConstraints)
	g.fill(5, &s.DNSConfig)
	g.fill(5, &s.DNSPolicy)
	g.fill(6, &s.HostAliases)
	g.fill(3, &s.SecurityContext)
	g.fill(6, &s.OS)
	g.fill(8, &s.Overhead)
	g.fill(4, &s.Resources)
	g.fill(6, &s.ResourceClaims)
	g.fill(10, &s.SchedulingGroup)
	g.fill(8, &s.HostnameOverride)
	g.fill(8, &s.SetHostnameAsFQDN)
	g.fill(5, &s.HostUsers)
	g.fill(8, &s.ShareProcessNamespace)
	g.fill(10, &s.NodeSelector)
	g.fill(12, &s.ReadinessGates)
	g.fill(12, &s.SchedulingGates)
	g.fill(12, &s.PreemptionPolicy)
	g.fill(15, &s.ActiveDeadlineSeconds)
	for _, f := range []*string{&s.ServiceAccountName, &s.NodeName, &s.Hostname, &s.Subdomain, &s.PriorityClassName} {
		g.fill(15, f)
	}
	g.fill(15, &s.RuntimeClassName)
	s.HostNetwork, s.HostPID, s.HostIPC = g.chance(4), g.chance(5), g.chance(5)
	g.containers(s)
	g.annotations(t)
}

// containers sets what the pod-level rules read of containers: their
// security contexts, file-backed environment variables, volume devices,
// host ports and resources, with sidecars among the init containers.
func (g *podGen) containers(s *v1.PodSpec) {
	s.Volumes = []v1.Volume{
		{Name: "files", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
		{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}},
		{Name: "dev", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "dev"}}},
	}
	s.Containers = nil
	for i := range 1 + g.r.Intn(2) {
		s.Containers = append(s.Containers, g.container("app"+strconv.Itoa(i)))
	}
	s.InitContainers = nil
	for i := range g.r.Intn(3) {
		c := g.container("init" + strconv.Itoa(i))
		if g.chance(2) {
			c.RestartPolicy = new(v1.ContainerRestartPolicyAlways)
		}
		s.InitContainers = append(s.InitContainers, c)
	}
	s.EphemeralContainers = nil
	if !g.tame && g.chance(15) {
		c := g.container("debug")
		c.Ports, c.Resources = nil, v1.ResourceRequirements{}
		s.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon(c)}}
	}
}

func (g *podGen) container(name string) v1.Container {
	c := v1.Container{Name: name, Image: "nginx:1.29"}
	if g.chance(2) {
		sc := &v1.SecurityContext{}
		if g.chance(2) {
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{}
			if !g.chance(3) {
				sc.WindowsOptions.HostProcess = new(g.chance(2))
			}
		}
		if g.chance(3) {
			sc.SeccompProfile = g.seccomp()
		}
		if g.chance(3) {
			sc.AppArmorProfile = g.appArmor()
		}
		if g.chance(6) {
			sc.RunAsUser = new(int64(1000))
		}
		if g.chance(6) {
			sc.ReadOnlyRootFilesystem = new(true)
		}
		if g.chance(8) {
			sc.Capabilities = &v1.Capabilities{}
		}
		if g.chance(8) {
			sc.SELinuxOptions = &v1.SELinuxOptions{Level: "s0"}
		}
		c.SecurityContext = sc
	}
	if g.chance(5) {
		c.Env = []v1.EnvVar{{Name: "FROM_FILE", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{VolumeName: g.oneOf(g.pool([]string{"files"}, "cfg", "nope")...), Path: "env", Key: "K"}}}}
	}
	if g.chance(8) {
		c.VolumeDevices = []v1.VolumeDevice{{Name: "dev", DevicePath: "/dev/xvda"}}
	}
	if g.chance(4) {
		port := v1.ContainerPort{ContainerPort: 8080}
		if !g.chance(3) {
			port.HostPort = int32(g.oneOf2(8080, 9090))
		}
		c.Ports = []v1.ContainerPort{port}
	}
	if g.chance(3) {
		g.f.Fill(&c.Resources.Requests)
		if !g.tame {
			g.f.Fill(&c.Resources.Limits)
		}
	}
	return c
}

func (g *podGen) oneOf2(a, b int) int {
	if g.chance(2) {
		return a
	}
	return b
}

func (g *podGen) seccomp() *v1.SeccompProfile {
	p := &v1.SeccompProfile{Type: v1.SeccompProfileType(g.oneOf("Localhost", "RuntimeDefault", "Unconfined"))}
	if p.Type == "Localhost" || !g.tame && g.chance(6) {
		p.LocalhostProfile = new(g.oneOf("a.json", "b.json"))
	}
	return p
}

func (g *podGen) appArmor() *v1.AppArmorProfile {
	p := &v1.AppArmorProfile{Type: v1.AppArmorProfileType(g.oneOf("Localhost", "RuntimeDefault", "Unconfined"))}
	if p.Type == "Localhost" || !g.tame && g.chance(6) {
		p.LocalhostProfile = new(g.oneOf("a", "b"))
	}
	return p
}

// annotations sets the template's pod-specific annotations: mirror,
// tolerations, deletion cost, seccomp and AppArmor, naming the template's
// containers (and one that is not there).
func (g *podGen) annotations(t *v1.PodTemplateSpec) {
	a := map[string]string{}
	if !g.tame && g.chance(10) {
		a["kubernetes.io/config.mirror"] = "x"
	}
	if g.chance(6) {
		var ts []v1.Toleration
		g.f.Fill(&ts)
		b, _ := json.Marshal(ts)
		a["scheduler.alpha.kubernetes.io/tolerations"] = g.oneOf(g.pool([]string{string(b), `[{"KEY":"a","operator":"Exists"}]`, "null", ""},
			string(b), "[{", `{"key":"a"}`, `[{"tolerationSeconds":"5"}]`)...)
	}
	if g.chance(6) {
		a["controller.kubernetes.io/pod-deletion-cost"] = g.oneOf(g.pool([]string{"0", "-5", "2147483647", "-2147483648"}, "+5", "007", "2147483648", "-2147483649", "1e3", "")...)
	}
	containers := g.pool([]string{"app0"}, "app1", "init0", "debug", "ghost")
	seccomp := g.pool([]string{"runtime/default", "docker/default", "unconfined", "localhost/a.json", "localhost/b.json"}, "localhost//abs", "localhost/../x", "bogus")
	if g.chance(4) {
		a["seccomp.security.alpha.kubernetes.io/pod"] = g.oneOf(seccomp...)
	}
	if g.chance(4) {
		a["container.seccomp.security.alpha.kubernetes.io/"+g.oneOf(containers...)] = g.oneOf(seccomp...)
	}
	if g.chance(3) {
		a["container.apparmor.security.beta.kubernetes.io/"+g.oneOf(containers...)] = g.oneOf(g.pool([]string{"runtime/default", "unconfined", "localhost/a", "localhost/b", ""}, "bogus")...)
	}
	if len(a) > 0 {
		t.Annotations = a
	}
}

// podRandCases is how many random Deployments TestPodRandomized runs:
// $PODSPEC_CASES, or 3000.
func podRandCases(t *testing.T) int {
	if v := os.Getenv("PODSPEC_CASES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("PODSPEC_CASES=%q: %v", v, err)
		}
		return n
	}
	return 3000
}

// indexRE finds list indexes and map keys in a field path.
var indexRE = regexp.MustCompile(`\[[^\]]*\]`)

// TestPodRandomized runs random templates through both create paths and
// requires the same problems in the pod-level area, and the same stored
// Deployment when both accept. Differences that lie only outside the area
// are counted, not failed (other areas are ported separately). Set
// PODSPEC_CASES for a longer run.
func TestPodRandomized(t *testing.T) {
	n := podRandCases(t)
	start := time.Now()
	failures, accepted, outside := 0, 0, 0
	rules := map[string]bool{}
	for i := range n {
		seed := int64(i)
		tame := i%2 == 0
		g := &podGen{r: rand.New(rand.NewSource(seed)), f: podFiller(seed, tame), tame: tame}
		d := podBase()
		g.template(&d.Spec.Template)
		data := podJSON(d, nil)
		out, err := compareCreateIn(data, inPodArea)
		if err != nil {
			failures++
			t.Errorf("seed %d: %v\n%s", seed, err, data)
			if failures >= 5 {
				t.Fatal("stopping after 5 differences")
			}
			continue
		}
		if out.OutsideOnly {
			outside++
		}
		if !out.Real.Refused() {
			accepted++
		}
		for _, p := range filterProblems(out.Real.Problems, inPodArea) {
			rules[indexRE.ReplaceAllString(p.Field, "[*]")+": "+p.Type] = true
		}
	}
	t.Logf("%d cases in %v: %d accepted, %d differ only outside the area; %d distinct area problems seen",
		n, time.Since(start).Round(time.Millisecond), accepted, outside, len(rules))
}
