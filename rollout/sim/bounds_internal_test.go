package sim

import "testing"

// naiveRollingSteps is rollingSteps without the jump over regular pairs of
// syncs: one iteration per sync.
func naiveRollingSteps(r, surge, unavailable int64) int {
	maxTotal, minAvail := r+surge, r-unavailable
	grow := func(total, size int64) int64 {
		if total >= maxTotal {
			return size
		}
		return size + min(maxTotal-total, r-size)
	}
	old, oldAvail := r, r
	newSize, newAvail := int64(-1), int64(0)
	steps := 0
	for {
		changed := false
		if newSize < 0 {
			newSize = grow(old, 0)
			changed = newSize > 0
		}
		grew := false
		if newSize != r {
			target := r
			if newSize < r {
				target = grow(old+newSize, newSize)
			}
			if target != newSize {
				newSize, grew, changed = target, true, true
			}
		}
		if !grew && old > 0 && old+newSize-minAvail-(newSize-newAvail) > 0 {
			if avail := oldAvail + newAvail; avail > minAvail {
				old -= min(old, avail-minAvail)
				changed = true
			}
		}
		if !changed {
			return steps
		}
		steps++
		oldAvail, newAvail = old, newSize
	}
}

// TestRollingStepsJump checks the jump against one sync at a time over
// every replicas 0..300, surge 0..6 and unavailable 0..6 (clamped to
// replicas, with the both-zero rule, as rollout.Limits resolves them).
func TestRollingStepsJump(t *testing.T) {
	for r := int64(0); r <= 300; r++ {
		for s := int64(0); s <= 6; s++ {
			for u := int64(0); u <= 6; u++ {
				uu := min(u, r)
				if s == 0 && uu == 0 {
					if r == 0 {
						continue
					}
					uu = 1
				}
				if got, want := rollingSteps(r, s, uu), naiveRollingSteps(r, s, uu); got != want {
					t.Fatalf("rollingSteps(%d, %d, %d) = %d, one sync at a time %d", r, s, uu, got, want)
				}
			}
		}
	}
}
