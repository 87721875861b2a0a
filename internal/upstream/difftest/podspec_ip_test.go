package difftest

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	kfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// randomIP builds an IP-like string: dotted quads with octets of one to
// four digits, IPv6 groups of up to five hex digits with or without "::",
// an embedded IPv4 tail, a zone, and sometimes a character dropped or
// doubled.
func randomIP(r *rand.Rand) string {
	digits := func(n int, set string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[r.Intn(len(set))]
		}
		return string(b)
	}
	v4 := func() string {
		parts := make([]string, 3+r.Intn(3)/2)
		for i := range parts {
			parts[i] = digits(1+r.Intn(4)*r.Intn(2), "0012569")
		}
		return strings.Join(parts, ".")
	}
	var s string
	if r.Intn(3) == 0 {
		s = v4()
	} else {
		groups := make([]string, 1+r.Intn(8))
		for i := range groups {
			groups[i] = digits(r.Intn(5)+r.Intn(2), "0001fF9a")
		}
		if r.Intn(3) == 0 {
			groups[len(groups)-1] = v4()
		}
		s = strings.Join(groups, ":")
		if r.Intn(2) == 0 {
			at := r.Intn(len(s) + 1)
			s = s[:at] + "::" + s[at:]
		}
		if r.Intn(10) == 0 {
			s += "%eth0"
		}
	}
	if s != "" && r.Intn(6) == 0 {
		at := r.Intn(len(s))
		if r.Intn(2) == 0 {
			s = s[:at] + s[at+1:]
		} else {
			s = s[:at] + s[at:at+1] + s[at:]
		}
	}
	return s
}

// TestPodRandomIPs compares the legacy IP checks (host aliases and DNS
// nameservers) on random IP-like strings, which probe the corners of
// ParseIPSloppy: leading zeros, long hex groups, "::", embedded IPv4,
// zones.
func TestPodRandomIPs(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	valid, total := 0, 0
	for i := range 300 {
		d := podBase()
		s := &d.Spec.Template.Spec
		for range 20 {
			s.HostAliases = append(s.HostAliases, v1.HostAlias{IP: randomIP(r)})
		}
		s.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{randomIP(r), randomIP(r), randomIP(r)}}
		out, err := compareCreateIn(podJSON(d, nil), inPodArea)
		if err != nil {
			t.Fatalf("case %d: %v\n%v %v", i, err, s.HostAliases, s.DNSConfig.Nameservers)
		}
		total += 23
		valid += 23 - len(out.Real.Problems)
		// The problems' details too: which of ParseIPSloppy's refusal,
		// leading zeros and IPv4-mapped IPv6 each address has.
		data := podJSON(d, nil)
		ours, _ := schema.DecodeDeployment(data, schema.DecodeOptions{})
		got := map[string][]string{}
		for _, e := range apiserver.CreateDeployment(ours, v136) {
			got[e.Field] = append(got[e.Field], e.Detail)
		}
		for j, a := range s.HostAliases {
			var want []string
			for _, e := range validation.IsValidIPForLegacyField(kfield.NewPath("x"), a.IP, nil) {
				want = append(want, e.Detail)
			}
			if f := fmt.Sprintf("spec.template.spec.hostAliases[%d].ip", j); !slices.Equal(got[f], want) {
				t.Fatalf("%q: upstream %q, ours %q", a.IP, want, got[f])
			}
		}
	}
	t.Logf("%d of %d addresses valid", valid, total)
}
