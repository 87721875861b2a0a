package apiserver

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// podAreaStrings are strings that mean something to some rule of the
// area; the generators mix them with arbitrary ones.
var podAreaStrings = []string{
	"", "a", "app", "example.com/k", "a/b/c", "1.2.3.4", "::1", "010.1.1.1", "::ffff:1.2.3.4", ".", "_a.b", "Bad",
	"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Equal", "NoExecute", "NoSchedule", "DoNotSchedule", "ScheduleAnyway",
	"Honor", "Ignore", "Localhost", "RuntimeDefault", "Unconfined", "linux", "windows", "net.core.somaxconn", "kernel.shm",
	"metadata.name", "localhost/a", "runtime/default", `a\b`, "cpu", "memory", "hugepages-2Mi", "hugepages-1e19", "example.com/gpu",
}

var podAreaQuantities = []string{"0", "1", "-1", "500m", "2Mi", "1Gi", "999999999999999999", "1e21", "0.000000001"}

func anyString() *rapid.Generator[string] {
	return rapid.OneOf(rapid.SampledFrom(podAreaStrings), rapid.String())
}

func maybe[T any](t *rapid.T, g *rapid.Generator[T], label string) *T {
	if !rapid.Bool().Draw(t, label+"?") {
		return nil
	}
	v := g.Draw(t, label)
	return &v
}

func quantityMap(t *rapid.T, label string) schema.ResourceList {
	names := rapid.SliceOfN(anyString(), 0, 3).Draw(t, label)
	if len(names) == 0 {
		return nil
	}
	m := map[string]schema.Quantity{}
	for _, n := range names {
		m[n] = schema.MustParseQuantity(rapid.SampledFrom(podAreaQuantities).Draw(t, label+"q"))
	}
	return schema.MakeResourceList(m)
}

// podAreaSpec draws a template whose pod-level fields are random.
func podAreaSpec(t *rapid.T) *schema.PodTemplateSpec {
	s := anyString()
	i64 := rapid.Int64Range(-3, 1<<32)
	i32 := rapid.Int32Range(-2, 102)
	req := func(label string) []schema.NodeSelectorRequirement {
		var out []schema.NodeSelectorRequirement
		for range rapid.IntRange(0, 2).Draw(t, label) {
			out = append(out, schema.NodeSelectorRequirement{Key: s.Draw(t, "key"), Operator: s.Draw(t, "op"), Values: rapid.SliceOfN(s, 0, 2).Draw(t, "values")})
		}
		return out
	}
	sel := func() *schema.LabelSelector {
		if !rapid.Bool().Draw(t, "selector?") {
			return nil
		}
		return &schema.LabelSelector{MatchLabels: rapid.MapOfN(s, s, 0, 2).Draw(t, "labels"),
			MatchExpressions: []schema.LabelSelectorRequirement{{Key: s.Draw(t, "k"), Operator: s.Draw(t, "o"), Values: rapid.SliceOfN(s, 0, 2).Draw(t, "v")}}}
	}
	hostProcess := maybe(t, rapid.Bool(), "hostProcess")
	spec := schema.PodSpec{
		Containers: []schema.Container{{Name: s.Draw(t, "name"), Image: "x", SecurityContext: &schema.SecurityContext{
			WindowsOptions: &schema.WindowsSecurityContextOptions{HostProcess: hostProcess, RunAsUserName: maybe(t, s, "user")},
			SeccompProfile: &schema.SeccompProfile{Type: s.Draw(t, "seccomp"), LocalhostProfile: maybe(t, s, "profile")}},
			Resources: schema.ResourceRequirements{Requests: quantityMap(t, "creq"), Limits: quantityMap(t, "clim")},
			Env:       []schema.EnvVar{{Name: "E", ValueFrom: &schema.EnvVarSource{FileKeyRef: &schema.FileKeySelector{VolumeName: s.Draw(t, "volume")}}}},
		}},
		HostNetwork: rapid.Bool().Draw(t, "hostNetwork"), HostPID: rapid.Bool().Draw(t, "hostPID"), HostIPC: rapid.Bool().Draw(t, "hostIPC"),
		HostUsers: maybe(t, rapid.Bool(), "hostUsers"), ShareProcessNamespace: maybe(t, rapid.Bool(), "share"),
		SecurityContext: &schema.PodSecurityContext{
			RunAsUser: maybe(t, i64, "uid"), FSGroup: maybe(t, i64, "fsGroup"), SupplementalGroups: rapid.SliceOfN(i64, 0, 2).Draw(t, "groups"),
			Sysctls:             []schema.Sysctl{{Name: s.Draw(t, "sysctl")}, {Name: s.Draw(t, "sysctl")}},
			SeccompProfile:      &schema.SeccompProfile{Type: s.Draw(t, "podSeccomp"), LocalhostProfile: maybe(t, s, "podProfile")},
			AppArmorProfile:     &schema.AppArmorProfile{Type: s.Draw(t, "apparmor"), LocalhostProfile: maybe(t, s, "apparmorProfile")},
			WindowsOptions:      &schema.WindowsSecurityContextOptions{RunAsUserName: maybe(t, s, "podUser"), HostProcess: maybe(t, rapid.Bool(), "podHostProcess")},
			SELinuxChangePolicy: maybe(t, s, "selinux"), FSGroupChangePolicy: maybe(t, s, "fsPolicy"),
		},
		Affinity: &schema.Affinity{
			NodeAffinity: &schema.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution:  &schema.NodeSelector{NodeSelectorTerms: []schema.NodeSelectorTerm{{MatchExpressions: req("exprs"), MatchFields: req("fields")}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []schema.PreferredSchedulingTerm{{Weight: i32.Draw(t, "weight"), Preference: schema.NodeSelectorTerm{MatchExpressions: req("pexprs")}}},
			},
			PodAffinity: &schema.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []schema.PodAffinityTerm{{
				LabelSelector: sel(), NamespaceSelector: sel(), TopologyKey: s.Draw(t, "topologyKey"), Namespaces: rapid.SliceOfN(s, 0, 2).Draw(t, "ns"),
				MatchLabelKeys: rapid.SliceOfN(s, 0, 2).Draw(t, "mlk"), MismatchLabelKeys: rapid.SliceOfN(s, 0, 2).Draw(t, "mmlk")}}},
		},
		Tolerations: []schema.Toleration{{Key: s.Draw(t, "tkey"), Operator: s.Draw(t, "top"), Value: s.Draw(t, "tvalue"), Effect: s.Draw(t, "teffect"), TolerationSeconds: maybe(t, i64, "tsec")}},
		TopologySpreadConstraints: []schema.TopologySpreadConstraint{{MaxSkew: i32.Draw(t, "skew"), TopologyKey: s.Draw(t, "tk"), WhenUnsatisfiable: s.Draw(t, "when"),
			LabelSelector: sel(), MinDomains: maybe(t, i32, "minDomains"), NodeAffinityPolicy: maybe(t, s, "nap"), MatchLabelKeys: rapid.SliceOfN(s, 0, 2).Draw(t, "tmlk")}},
		DNSPolicy: s.Draw(t, "dnsPolicy"),
		DNSConfig: &schema.PodDNSConfig{Nameservers: rapid.SliceOfN(s, 0, 4).Draw(t, "nameservers"), Searches: rapid.SliceOfN(s, 0, 3).Draw(t, "searches"),
			Options: []schema.PodDNSConfigOption{{Name: s.Draw(t, "option")}}},
		HostAliases:      []schema.HostAlias{{IP: s.Draw(t, "ip"), Hostnames: rapid.SliceOfN(s, 0, 2).Draw(t, "hostnames")}},
		OS:               &schema.PodOS{Name: s.Draw(t, "os")},
		Overhead:         quantityMap(t, "overhead"),
		Resources:        &schema.ResourceRequirements{Requests: quantityMap(t, "req"), Limits: quantityMap(t, "lim"), Claims: []schema.ResourceClaim{{Name: s.Draw(t, "claim"), Request: s.Draw(t, "request")}}},
		ResourceClaims:   []schema.PodResourceClaim{{Name: s.Draw(t, "pclaim"), ResourceClaimName: maybe(t, s, "rcn"), ResourceClaimTemplateName: maybe(t, s, "rctn")}},
		HostnameOverride: maybe(t, s, "hostnameOverride"), SetHostnameAsFQDN: maybe(t, rapid.Bool(), "fqdn"),
		SchedulingGroup: &schema.PodSchedulingGroup{PodGroupName: maybe(t, s, "group")},
		RestartPolicy:   "Always", TerminationGracePeriodSeconds: ptr(int64(30)),
	}
	annotations := rapid.MapOfN(rapid.SampledFrom([]string{mirrorPodAnnotation, tolerationsAnnotation, podDeletionCostAnnotation, seccompPodAnnotation,
		seccompContainerAnnotation + "x", appArmorContainerAnnotation + "x", "a"}), anyString(), 0, 4).Draw(t, "annotations")
	return &schema.PodTemplateSpec{ObjectMeta: schema.ObjectMeta{Annotations: annotations}, Spec: spec}
}

// TestPodAreaProperties: whatever the pod-level fields hold, validation
// does not panic, reports every problem under the template, gives the
// same problems in the same order every time (maps are walked in key
// order), and leaves the template as it was.
func TestPodAreaProperties(t *testing.T) {
	opts := createPodOptions(v136)
	p := field.NewPath("spec", "template")
	rapid.Check(t, func(t *rapid.T) {
		tmpl := podAreaSpec(t)
		before := schema.AppendPodTemplateSpec(nil, tmpl, schema.Stored)
		first := validatePodTemplateSpec(tmpl, p, opts)
		second := validatePodTemplateSpec(tmpl, p, opts)
		if after := schema.AppendPodTemplateSpec(nil, tmpl, schema.Stored); !bytes.Equal(before, after) {
			t.Fatalf("validation changed the template:\n%s\n%s", before, after)
		}
		render := func(errs field.ErrorList) []string {
			var out []string
			for _, e := range errs {
				out = append(out, e.Error())
			}
			return out
		}
		if a, b := render(first), render(second); !slices.Equal(a, b) {
			t.Fatalf("two runs differ:\n%q\n%q", a, b)
		}
		for _, e := range first {
			if !strings.HasPrefix(e.Field, "spec.template.") {
				t.Fatalf("problem outside the template: %s", e.Error())
			}
		}
	})
}
