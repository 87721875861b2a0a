package strategicpatch

import (
	"bytes"
	"testing"
)

// FuzzStrategicMergePatch checks that any original and patch give a
// result or an error, never a panic, and the same answer twice.
func FuzzStrategicMergePatch(f *testing.F) {
	for _, c := range mergeCases {
		f.Add([]byte(c.original), []byte(c.patch))
	}
	s := deploymentSchema(f)
	f.Fuzz(func(t *testing.T, original, patch []byte) {
		r1, err1 := StrategicMergePatch(original, patch, s)
		r2, err2 := StrategicMergePatch(original, patch, s)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(r1, r2) {
			t.Fatalf("two runs differ: %s (%v) and %s (%v)", r1, err1, r2, err2)
		}
	})
}

// FuzzCreateThreeWayMergePatch checks that any three documents give a
// patch or an error, never a panic, the same answer twice, and a patch
// that StrategicMergePatch accepts or refuses without panicking.
func FuzzCreateThreeWayMergePatch(f *testing.F) {
	for _, c := range threeWayCases {
		f.Add([]byte(c.original), []byte(c.modified), []byte(c.current), c.overwrite)
	}
	s := deploymentSchema(f)
	f.Fuzz(func(t *testing.T, original, modified, current []byte, overwrite bool) {
		p1, err1 := CreateThreeWayMergePatch(original, modified, current, s, overwrite)
		p2, err2 := CreateThreeWayMergePatch(original, modified, current, s, overwrite)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(p1, p2) {
			t.Fatalf("two runs differ: %s (%v) and %s (%v)", p1, err1, p2, err2)
		}
		if err1 == nil {
			_, _ = StrategicMergePatch(current, p1, s)
		}
	})
}
