package check_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// FuzzParseAllocatable checks that ParseAllocatable never panics, and
// that what it takes round-trips through String.
func FuzzParseAllocatable(f *testing.F) {
	for _, s := range []string{"", "cpu=4", "cpu=4,memory=16Gi,pods=110", "cpu=500m", "nvidia.com/gpu=1", "cpu=4,cpu=5",
		"cpu=-1", "cpu", "=4", "cpu=4,", "memory=1e3", "pods=2147483648", "cpu=0.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := check.ParseAllocatable(s)
		if err != nil {
			return
		}
		again, err := check.ParseAllocatable(a.String())
		if err != nil {
			t.Fatalf("ParseAllocatable(%q).String() = %q, which does not parse: %v", s, a.String(), err)
		}
		if again.String() != a.String() {
			t.Fatalf("round trip of %q: %q, then %q", s, a.String(), again.String())
		}
	})
}
