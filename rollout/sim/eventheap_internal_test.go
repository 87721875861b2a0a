package sim

import (
	"container/heap"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// boxed is eventHeap under container/heap, the reference the typed heap
// replaces.
type boxed struct{ eventHeap }

func (h *boxed) Len() int   { return len(h.eventHeap) }
func (h *boxed) Push(x any) { h.eventHeap = append(h.eventHeap, x.(event)) }
func (h *boxed) Pop() (x any) {
	x, h.eventHeap = h.eventHeap[len(h.eventHeap)-1], h.eventHeap[:len(h.eventHeap)-1]
	return x
}

// TestEventHeapProperties: any sequence of pushes, pops and removals at
// an index gives the same events, in the same order, as container/heap
// over the same Less, and every pop is the least event queued (by time,
// then class, then seq).
func TestEventHeapProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var typed eventHeap
		ref := &boxed{}
		var seq uint64
		for i := range rapid.IntRange(0, 200).Draw(t, "ops") {
			if len(typed) > 0 && rapid.Bool().Draw(t, "pop") {
				got, want := typed.pop(), heap.Pop(ref).(event)
				if got != want {
					t.Fatalf("op %d: pop() = %+v, container/heap pops %+v", i, got, want)
				}
				for _, e := range typed {
					if (eventHeap{e, got}).Less(0, 1) {
						t.Fatalf("op %d: popped %+v before %+v", i, got, e)
					}
				}
				continue
			}
			if len(typed) > 0 && rapid.IntRange(0, 3).Draw(t, "remove") == 0 {
				at := rapid.IntRange(0, len(typed)-1).Draw(t, "index")
				got, want := typed.remove(at), heap.Remove(ref, at).(event)
				if got != want {
					t.Fatalf("op %d: remove(%d) = %+v, container/heap removes %+v", i, at, got, want)
				}
				continue
			}
			seq++
			e := event{at: t0.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "at")) * time.Second),
				class: rapid.IntRange(0, 1).Draw(t, "class"), seq: seq, kind: evKind(rapid.IntRange(0, int(evChange)).Draw(t, "kind"))}
			typed.push(e)
			heap.Push(ref, e)
		}
		if len(typed) != len(ref.eventHeap) {
			t.Fatalf("%d events left, container/heap has %d", len(typed), len(ref.eventHeap))
		}
	})
}
