package difftest

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func nodeAffinity(na *v1.NodeAffinity) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) { s.Affinity = &v1.Affinity{NodeAffinity: na} })
}

func required(reqs ...v1.NodeSelectorRequirement) *v1.NodeAffinity {
	return &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
		NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: reqs}}}}
}

func podAffinity(terms ...v1.PodAffinityTerm) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) {
		s.Affinity = &v1.Affinity{PodAffinity: &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}}
	})
}

func sel(labels map[string]string, exprs ...metav1.LabelSelectorRequirement) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: labels, MatchExpressions: exprs}
}

// TestPodAffinityRules: validateAffinity.
func TestPodAffinityRules(t *testing.T) {
	req := "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
	pref := "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
	pa := "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
	zone := "topology.kubernetes.io/zone"
	runPodCases(t, []podCase{
		{name: "node selector: at least one term", edit: nodeAffinity(&v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{}}),
			want: []string{req + ": Required value"}},
		{name: "node selector: empty term", edit: nodeAffinity(&v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{}}}})},
		{name: "node selector: unknown operator", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a", Operator: "Is"})),
			want: []string{req + "[0].matchExpressions[0].operator: Invalid value"}},
		{name: "node selector: In without values", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a", Operator: "In"})),
			want: []string{req + "[0].matchExpressions[0].values: Required value"}},
		{name: "node selector: Exists with values", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a", Operator: "Exists", Values: []string{"x"}})),
			want: []string{req + "[0].matchExpressions[0].values: Forbidden"}},
		{name: "node selector: Gt with two values", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a", Operator: "Gt", Values: []string{"1", "2"}})),
			want: []string{req + "[0].matchExpressions[0].values: Required value"}},
		{name: "node selector: Lt with one value", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a", Operator: "Lt", Values: []string{"1"}}))},
		{name: "node selector: bad key", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a/b/c", Operator: "Exists"})),
			want: []string{req + "[0].matchExpressions[0].key: Invalid value"}},
		{name: "node selector: required values are label values", edit: nodeAffinity(required(v1.NodeSelectorRequirement{Key: "a", Operator: "In", Values: []string{"ok", "not ok"}})),
			want: []string{req + "[0].matchExpressions[0].values[1]: Invalid value"}},
		{name: "node selector: preferred values need not be", edit: nodeAffinity(&v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{{
			Weight: 1, Preference: v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "a", Operator: "In", Values: []string{"not ok"}}}}}}})},
		{name: "node selector: preferred weight out of range", edit: nodeAffinity(&v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{{Weight: 0}, {Weight: 101}, {Weight: 100}}}),
			want: []string{pref + ".weight: Invalid value", "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].weight: Invalid value"}},
		{name: "node selector: preferred term's operator", edit: nodeAffinity(&v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{{
			Weight: 1, Preference: v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "a", Operator: "Equals"}}}}}}),
			want: []string{pref + ".preference.matchExpressions[0].operator: Invalid value"}},
		{name: "node field selector: only metadata.name", edit: nodeAffinity(&v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
			MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.namespace", Operator: "In", Values: []string{"n"}}}}}}}),
			want: []string{req + "[0].matchFields[0].key: Invalid value"}},
		{name: "node field selector: one value, In or NotIn", edit: nodeAffinity(&v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
			MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"a", "b"}}, {Key: "metadata.name", Operator: "Exists"}}}}}}),
			want: []string{req + "[0].matchFields[0].values: Required value", req + "[0].matchFields[1].operator: Invalid value"}},
		{name: "node field selector: node names", edit: nodeAffinity(&v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
			MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: "NotIn", Values: []string{"Node_1"}}}}}}}),
			want: []string{req + "[0].matchFields[0].values[0]: Invalid value"}},
		{name: "pod affinity: topologyKey required", edit: podAffinity(v1.PodAffinityTerm{}),
			want: []string{pa + ".topologyKey: Required value", pa + ".topologyKey: Invalid value", pa + ".topologyKey: Invalid value"}},
		{name: "pod affinity: topologyKey is a qualified name", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: "-zone"}), want: []string{pa + ".topologyKey: Invalid value"}},
		{name: "pod affinity: namespaces are DNS labels", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone, Namespaces: []string{"ok", "Not.OK"}}),
			want: []string{pa + ".namespace: Invalid value"}},
		{name: "pod affinity: label selector", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone, LabelSelector: sel(map[string]string{"a": "b c"})}),
			want: []string{pa + ".labelSelector.matchLabels: Invalid value"}},
		{name: "pod affinity: namespace selector", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone, NamespaceSelector: sel(nil, metav1.LabelSelectorRequirement{Key: "a", Operator: "In"})}),
			want: []string{pa + ".namespaceSelector.matchExpressions[0].values: Required value"}},
		{name: "pod affinity: matchLabelKeys need a selector", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone, MatchLabelKeys: []string{"a"}, MismatchLabelKeys: []string{"b"}}),
			want: []string{pa + ".matchLabelKeys: Forbidden", pa + ".mismatchLabelKeys: Forbidden"}},
		{name: "pod affinity: matchLabelKeys are qualified names", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone, LabelSelector: sel(nil), MatchLabelKeys: []string{"a/b/c"}, MismatchLabelKeys: []string{""}}),
			want: []string{pa + ".matchLabelKeys[0]: Invalid value", pa + ".mismatchLabelKeys[0]: Invalid value", pa + ".mismatchLabelKeys[0]: Invalid value"}},
		{name: "pod affinity: a key in both matchLabelKeys and mismatchLabelKeys", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone, LabelSelector: sel(nil), MatchLabelKeys: []string{"x", "a"}, MismatchLabelKeys: []string{"a"}}),
			want: []string{pa + ".matchLabelKeys[1]: Invalid value"}},
		{name: "pod affinity: a matchLabelKeys key twice in the selector", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone,
			LabelSelector: sel(map[string]string{"a": "1"}, metav1.LabelSelectorRequirement{Key: "a", Operator: "Exists"}), MatchLabelKeys: []string{"a"}}),
			want: []string{pa + "[0]: Invalid value"}},
		{name: "pod affinity: a matchLabelKeys key once in the selector", edit: podAffinity(v1.PodAffinityTerm{TopologyKey: zone,
			LabelSelector: sel(nil, metav1.LabelSelectorRequirement{Key: "a", Operator: "Exists"}), MatchLabelKeys: []string{"a"}})},
		{name: "pod anti-affinity: weight and term", edit: spec(func(s *v1.PodSpec) {
			s.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
				{Weight: -1, PodAffinityTerm: v1.PodAffinityTerm{TopologyKey: zone}}, {Weight: 50}}}}
		}), want: []string{"affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value",
			"affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.topologyKey: Required value",
			"affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.topologyKey: Invalid value",
			"affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.topologyKey: Invalid value"}},
	})
}

func tolerate(ts ...v1.Toleration) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) { s.Tolerations = ts })
}

// TestPodTolerationRules: ValidateTolerations.
func TestPodTolerationRules(t *testing.T) {
	tp := "tolerations[0]."
	runPodCases(t, []podCase{
		{name: "toleration: bad key", edit: tolerate(v1.Toleration{Key: "a b", Operator: "Exists"}), want: []string{tp + "key: Invalid value"}},
		{name: "toleration: empty key needs Exists", edit: tolerate(v1.Toleration{Operator: "Equal"}), want: []string{tp + "operator: Invalid value"}},
		{name: "toleration: empty key with Exists matches all", edit: tolerate(v1.Toleration{Operator: "Exists"})},
		{name: "toleration: tolerationSeconds needs NoExecute", edit: tolerate(v1.Toleration{Key: "a", TolerationSeconds: new(int64(5)), Effect: "NoSchedule"}),
			want: []string{tp + "effect: Invalid value"}},
		{name: "toleration: tolerationSeconds with NoExecute", edit: tolerate(v1.Toleration{Key: "a", TolerationSeconds: new(int64(-5)), Effect: "NoExecute"})},
		{name: "toleration: Equal value is a label value", edit: tolerate(v1.Toleration{Key: "a", Value: "a b"}), want: []string{tp + "operator: Invalid value"}},
		{name: "toleration: Exists without a value", edit: tolerate(v1.Toleration{Key: "a", Operator: "Exists", Value: "b"}), want: []string{tp + "operator: Invalid value"}},
		{name: "toleration: Lt while comparison operators are off", edit: tolerate(v1.Toleration{Key: "a", Operator: "Lt", Value: "5"}), want: []string{tp + "operator: Unsupported value"}},
		{name: "toleration: unknown operator", edit: tolerate(v1.Toleration{Key: "a", Operator: "In"}), want: []string{tp + "operator: Unsupported value"}},
		{name: "toleration: unknown effect", edit: tolerate(v1.Toleration{Key: "a", Effect: "NoScheduleNoAdmit"}), want: []string{tp + "effect: Unsupported value"}},
	})
}

func spread(cs ...v1.TopologySpreadConstraint) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) { s.TopologySpreadConstraints = cs })
}

// TestPodTopologySpreadRules: validateTopologySpreadConstraints.
func TestPodTopologySpreadRules(t *testing.T) {
	cp := "topologySpreadConstraints[0]"
	ok := v1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: v1.DoNotSchedule}
	with := func(f func(c *v1.TopologySpreadConstraint)) v1.TopologySpreadConstraint {
		c := ok
		f(&c)
		return c
	}
	runPodCases(t, []podCase{
		{name: "spread: maxSkew positive", edit: spread(with(func(c *v1.TopologySpreadConstraint) { c.MaxSkew = 0 })), want: []string{cp + ".maxSkew: Invalid value"}},
		{name: "spread: topologyKey required", edit: spread(with(func(c *v1.TopologySpreadConstraint) { c.TopologyKey = "" })), want: []string{cp + ".topologyKey: Required value"}},
		{name: "spread: topologyKey any string", edit: spread(with(func(c *v1.TopologySpreadConstraint) { c.TopologyKey = "not a label/key/" }))},
		{name: "spread: unknown whenUnsatisfiable", edit: spread(with(func(c *v1.TopologySpreadConstraint) { c.WhenUnsatisfiable = "Never" })), want: []string{cp + ".whenUnsatisfiable: Unsupported value"}},
		{name: "spread: duplicate key and action", edit: spread(ok, with(func(c *v1.TopologySpreadConstraint) { c.MaxSkew = 3 }), ok),
			want: []string{cp + ".{topologyKey, whenUnsatisfiable}: Duplicate value", "topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: Duplicate value"}},
		{name: "spread: minDomains positive", edit: spread(with(func(c *v1.TopologySpreadConstraint) { c.MinDomains = new(int32(0)) })), want: []string{cp + ".minDomains: Invalid value"}},
		{name: "spread: minDomains needs DoNotSchedule", edit: spread(with(func(c *v1.TopologySpreadConstraint) {
			c.MinDomains = new(int32(-1))
			c.WhenUnsatisfiable = v1.ScheduleAnyway
		})),
			want: []string{cp + ".minDomains: Invalid value", cp + ".minDomains: Invalid value"}},
		{name: "spread: node inclusion policies", edit: spread(with(func(c *v1.TopologySpreadConstraint) {
			c.NodeAffinityPolicy = new(v1.NodeInclusionPolicy("Always"))
			c.NodeTaintsPolicy = new(v1.NodeInclusionPolicy("honor"))
		})), want: []string{cp + ".nodeAffinityPolicy: Unsupported value", cp + ".nodeTaintsPolicy: Unsupported value"}},
		{name: "spread: matchLabelKeys need a selector", edit: spread(with(func(c *v1.TopologySpreadConstraint) { c.MatchLabelKeys = []string{"pod-template-hash"} })),
			want: []string{cp + ".matchLabelKeys: Forbidden"}},
		{name: "spread: matchLabelKeys key twice in the selector", edit: spread(with(func(c *v1.TopologySpreadConstraint) {
			c.LabelSelector = sel(nil, metav1.LabelSelectorRequirement{Key: "a", Operator: "Exists"}, metav1.LabelSelectorRequirement{Key: "a", Operator: "DoesNotExist"})
			c.MatchLabelKeys = []string{"b/c/d", "a"}
		})), want: []string{cp + "[1]: Invalid value", cp + ".matchLabelKeys[0]: Invalid value"}},
		{name: "spread: label selector", edit: spread(with(func(c *v1.TopologySpreadConstraint) {
			c.LabelSelector = sel(nil, metav1.LabelSelectorRequirement{Key: "a", Operator: "Matches"})
		})), want: []string{cp + ".labelSelector.matchExpressions[0].operator: Invalid value"}},
	})
}

func dns(policy v1.DNSPolicy, c *v1.PodDNSConfig) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) { s.DNSPolicy = policy; s.DNSConfig = c })
}

// TestPodDNSAndHostAliasRules: validatePodDNSConfig and ValidateHostAliases.
func TestPodDNSAndHostAliasRules(t *testing.T) {
	many := func(n int, f func(i int) string) []string {
		var out []string
		for i := range n {
			out = append(out, f(i))
		}
		return out
	}
	runPodCases(t, []podCase{
		{name: "dns: None needs a config", edit: dns(v1.DNSNone, nil), want: []string{"dnsConfig: Required value"}},
		{name: "dns: None needs a nameserver", edit: dns(v1.DNSNone, &v1.PodDNSConfig{Searches: []string{"bad search"}}), want: []string{"dnsConfig.nameservers: Required value"}},
		{name: "dns: None with a nameserver", edit: dns(v1.DNSNone, &v1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}})},
		{name: "dns: at most three nameservers", edit: dns(v1.DNSClusterFirst, &v1.PodDNSConfig{Nameservers: []string{"1.1.1.1", "::1", "8.8.8.8", "fe80::1"}}),
			want: []string{"dnsConfig.nameservers: Invalid value"}},
		{name: "dns: nameservers are IPs", edit: dns(v1.DNSDefault, &v1.PodDNSConfig{Nameservers: []string{"dns.local", "010.1.1.1", "::ffff:1.2.3.4"}}),
			want: []string{"dnsConfig.nameservers[0]: Invalid value", "dnsConfig.nameservers[1]: Invalid value", "dnsConfig.nameservers[2]: Invalid value"}},
		{name: "dns: at most 32 searches", edit: dns(v1.DNSClusterFirst, &v1.PodDNSConfig{Searches: many(33, func(i int) string { return fmt.Sprint("s", i) })}),
			want: []string{"dnsConfig.searches: Invalid value"}},
		{name: "dns: at most 2048 characters of searches", edit: dns(v1.DNSClusterFirst, &v1.PodDNSConfig{Searches: many(9, func(int) string { return strings.Repeat("a", 63) + "." + strings.Repeat("b", 163) })}),
			want: []string{"dnsConfig.searches: Invalid value"}},
		{name: "dns: searches are subdomains", edit: dns(v1.DNSClusterFirst, &v1.PodDNSConfig{Searches: []string{"Example.com", "a..b", "ok.", "."}}),
			want: []string{"dnsConfig.searches[0]: Invalid value", "dnsConfig.searches[1]: Invalid value"}},
		{name: "dns: searches may have underscores", edit: dns(v1.DNSClusterFirst, &v1.PodDNSConfig{Searches: []string{"_srv._tcp.example.com", "a_b"}})},
		{name: "dns: options need names", edit: dns(v1.DNSClusterFirst, &v1.PodDNSConfig{Options: []v1.PodDNSConfigOption{{Name: "ndots", Value: new("2")}, {Value: new("1")}}}),
			want: []string{"dnsConfig.options[1]: Required value"}},
		{name: "host aliases: IPs", edit: spec(func(s *v1.PodSpec) {
			s.HostAliases = []v1.HostAlias{{IP: "1.2.3.4"}, {IP: ""}, {IP: "1.2.3.04"}, {IP: "::ffff:10.0.0.1"}, {IP: "fe80::1%eth0"}, {IP: "0001.2.3.4"}, {IP: "00001::"}}
		}), want: []string{"hostAliases[1].ip: Invalid value", "hostAliases[2].ip: Invalid value", "hostAliases[3].ip: Invalid value",
			"hostAliases[4].ip: Invalid value", "hostAliases[5].ip: Invalid value", "hostAliases[6].ip: Invalid value"}},
		{name: "host aliases: hostnames", edit: spec(func(s *v1.PodSpec) {
			s.HostAliases = []v1.HostAlias{{IP: "::1", Hostnames: []string{"ok.example", "Not_OK"}}}
		}),
			want: []string{"hostAliases[0].hostnames[1]: Invalid value"}},
	})
}
