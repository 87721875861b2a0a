package difftest

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/dump"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// randomQuantity writes a string in (and around) the quantity grammar:
// signs, leading zeros, fractions, every suffix, exponents, garbage.
func randomQuantity(r *rand.Rand) string {
	var b strings.Builder
	switch r.Intn(6) {
	case 0:
		b.WriteByte('-')
	case 1:
		b.WriteByte('+')
	}
	for range r.Intn(3) {
		b.WriteByte('0')
	}
	digits := []int{0, 1, 1, 2, 3, 5, 9, 18, 19, 25}[r.Intn(10)]
	for range digits {
		b.WriteByte(byte('0' + r.Intn(10)))
	}
	if r.Intn(3) == 0 {
		b.WriteByte('.')
		for range r.Intn(12) {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
	}
	suffixes := []string{"", "", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
		"e3", "E3", "e-3", "e+2", "e0", "e18", "e-9", "e-12", "e40", "e-40", "K", "i", "mi", "x", "e", "e-", "Gb"}
	b.WriteString(suffixes[r.Intn(len(suffixes))])
	return b.String()
}

// TestQuantityAgainstUpstream parses random quantities both ways and
// compares the error, the canonical form, the hash rendering of the parsed
// value and of its canonical form parsed again, rounding up to milli
// units, and comparisons.
func TestQuantityAgainstUpstream(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	var prevUp resource.Quantity
	var prevOurs schema.Quantity
	for i := range n {
		s := randomQuantity(r)
		up, upErr := resource.ParseQuantity(s)
		ours, ourErr := schema.ParseQuantity(s)
		if (upErr == nil) != (ourErr == nil) {
			t.Fatalf("%q: upstream err %v, ours %v", s, upErr, ourErr)
		}
		if upErr != nil {
			if upErr.Error() != ourErr.Error() {
				t.Fatalf("%q: upstream err %q, ours %q", s, upErr, ourErr)
			}
			continue
		}
		if got, want := spewOf(&ours), dump.ForHash(up); got != want {
			t.Fatalf("%q: parsed renderings differ:\n got %s\nwant %s", s, got, want)
		}
		if got, want := ours.String(), up.String(); got != want {
			t.Fatalf("%q: String() = %q, upstream %q", s, got, want)
		}
		upC := resource.MustParse(up.String())
		if got, want := spewOf(ptrTo(ours.Canonical())), dump.ForHash(upC); got != want {
			t.Fatalf("%q: canonical renderings differ:\n got %s\nwant %s", s, got, want)
		}
		upR, oursR := up.DeepCopy(), ours
		if a, b := upR.RoundUp(-3), oursR.RoundUp(-3); a != b || upR.String() != oursR.String() {
			t.Fatalf("%q: RoundUp(-3) = %v %q, upstream %v %q", s, b, oursR.String(), a, upR.String())
		}
		if got, want := oursR.Cmp(prevOurs), upR.Cmp(prevUp); got != want {
			t.Fatalf("%q vs %q: Cmp = %d, upstream %d", s, prevOurs.String(), got, want)
		}
		if got, want := ours.MilliValue(), up.MilliValue(); got != want && i >= 0 {
			t.Fatalf("%q: MilliValue = %d, upstream %d", s, got, want)
		}
		prevUp, prevOurs = up.DeepCopy(), ours
	}
}

func ptrTo[T any](v T) *T { return &v }

// spewOf renders a quantity as upstream's dump renders a
// resource.Quantity value.
func spewOf(q *schema.Quantity) string {
	return fmt.Sprint(schema.SpewQuantityText(q))
}
