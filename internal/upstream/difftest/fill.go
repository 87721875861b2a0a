package difftest

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// quantityTexts are spellings of quantities in every format and size:
// canonical and not, fractional, exponents, binary, huge and tiny.
var quantityTexts = []string{
	"0", "1", "100m", "0.5", "1.5", "250m", "1000m", "1Gi", "1.5Gi", "512Mi", "1536Mi", "1024Mi",
	"2k", "2000", "1e3", "1E3", "3e-2", "0.1", "1n", "0.0000000001", "1234567890123456789",
	"12345678901234567890123", "1Ei", "8Ei", "9Ei", "1.1Ki", "0.5Ki", "123Mi", "-1", "-100m",
	"1u", "1000000000000000000000", "5Pi", "7T", "1000E", "1e21", "999999999999999999",
	".5", "5.", "+3", "00012", "1.000", "1e-9", "2e-10", "3.14159265358979323846264338",
}

// filler returns a random-value generator for API types whose special
// values (quantities, int-or-strings, times, raw fields) are valid.
func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.4).NumElements(0, 3).MaxDepth(12).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantityTexts[c.Intn(len(quantityTexts))])
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31n(70000) - 100)
			} else {
				*v = intstr.FromString(c.String(8))
			}
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(3) == 0 {
				*t = metav1.Time{}
				return
			}
			*t = metav1.NewTime(time.Unix(c.Int63n(4e9), 0).Local())
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			//lint:ignore SA1019 SetRawBytes is not in k8s.io/apimachinery v0.35.4, which this file builds with too
			f.Raw = []byte(fmt.Sprintf(`{"f:x%d":{}}`, c.Intn(1000)))
		},
		func(s *v1.ResourceList, c randfill.Continue) {
			if c.Intn(3) == 0 {
				*s = nil
				return
			}
			*s = v1.ResourceList{}
			for range c.Intn(4) {
				var q resource.Quantity
				c.Fill(&q)
				(*s)[v1.ResourceName([]string{"cpu", "memory", "ephemeral-storage", "example.com/gpu"}[c.Intn(4)])] = q
			}
		},
	)
}
