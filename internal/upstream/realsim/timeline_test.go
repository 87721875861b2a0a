package realsim_test

import (
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// The timeline agrees with the figures of its Measurement: it starts at
// the change with every old pod ready, is in time order, reaches the peak
// and ends with the new pods alone, by the last change (the controllers'
// status writes come after the last pod's).
func TestTimeline(t *testing.T) {
	c := realsim.Case{Name: "timeline", Replicas: 10, ReadyAfter: 5 * time.Second, Terminating: 5 * time.Second, Timeline: true}
	m, err := realsim.Run(t, c)
	if err != nil {
		t.Fatal(err)
	}
	tl := m.Timeline
	if len(tl) < 2 {
		t.Fatalf("timeline of %d samples", len(tl))
	}
	if first := tl[0]; first.At != 0 || first.Pods != 10 || first.NewPods != 0 || first.Ready != 10 || first.Terminating != 0 || first.OldSpec != 10 || first.NewSpec != 0 {
		t.Errorf("first sample %+v, want 10 old pods ready at 0s", first)
	}
	var peak int32
	for i, s := range tl {
		if i > 0 && s.At < tl[i-1].At {
			t.Errorf("sample %d at %v, before %v", i, s.At, tl[i-1].At)
		}
		if s.Terminating > s.Pods || s.Ready > s.Pods-s.Terminating {
			t.Errorf("sample %d inconsistent: %+v", i, s)
		}
		peak = max(peak, s.Pods)
		// maxSurge bounds the ReplicaSets' sizes, not the pods.
		if s.NewSpec+s.OldSpec > 13 {
			t.Errorf("sample %d: sizes %d + %d over replicas + maxSurge = 13", i, s.NewSpec, s.OldSpec)
		}
	}
	if peak != m.PeakPods {
		t.Errorf("timeline peak %d, measurement %d", peak, m.PeakPods)
	}
	if last := tl[len(tl)-1]; last.Pods != 10 || last.NewPods != 10 || last.Ready != 10 || last.NewStatus != 10 || last.OldSpec != 0 || last.At > m.LastChange {
		t.Errorf("last sample %+v, want 10 pods ready by the last change %v", last, m.LastChange)
	}
}
