package difftest

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// quantityEdges are amounts whose arithmetic overflows the int64 form.
var quantityEdges = []string{
	"999999999999999999", "9223372036854775807", "-9223372036854775808", "9223372036854775807m",
	"922337203685477580", "92233720368547758", "1e18", "1e19", "1e10", "123456789e5", "-999999999999999999",
	"0.000000001", "1e-3", "2e-10", "1.5", "-1.5", "1Ei", "7Ei", "hugepages", "12345678901234567890123.5",
}

// TestPodQuantityArithmetic: schema.Quantity's Add and ScaledValue
// give upstream's results (value, canonical form) for every pair and
// scale of the quantity pools, overflow included.
func TestPodQuantityArithmetic(t *testing.T) {
	var texts []string
	for _, s := range append(append([]string{}, podQuantities...), quantityEdges...) {
		if _, err := resource.ParseQuantity(s); err == nil {
			texts = append(texts, s)
		}
	}
	for _, a := range texts {
		up := resource.MustParse(a)
		ours := schema.MustParseQuantity(a)
		for _, scale := range []int32{-20, -19, -10, -9, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 9, 10, 19, 20} {
			if want, got := up.ScaledValue(resource.Scale(scale)), ours.ScaledValue(scale); got != want {
				t.Errorf("%s scaled to %d: upstream %d, ours %d", a, scale, want, got)
			}
		}
		for _, b := range texts {
			upSum := up.DeepCopy()
			upSum.Add(resource.MustParse(b))
			sum := ours
			sum.Add(schema.MustParseQuantity(b))
			if sum.String() != upSum.String() {
				t.Errorf("%s + %s: upstream %s, ours %s", a, b, upSum.String(), sum.String())
			}
			// The exact sums, in the format that does not round.
			upCopy := upSum.DeepCopy()
			upExact, exact := resource.NewDecimalQuantity(*upCopy.AsDec(), resource.DecimalExponent), sum
			exact.Format = schema.DecimalExponent
			if exact.String() != upExact.String() {
				t.Errorf("%s + %s exactly: upstream %s, ours %s", a, b, upExact.String(), exact.String())
			}
			if want, got := upSum.MilliValue(), sum.ScaledValue(-3); got != want {
				t.Errorf("%s + %s in milli units: upstream %d, ours %d", a, b, want, got)
			}
		}
	}
}
