package sim

// The controllers model's event queue as a binary heap of event values:
// container/heap's algorithm, without boxing every event pushed and popped
// in an interface (two allocations an event).

// push adds e to the heap.
func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	for j := len(q) - 1; j > 0; {
		i := (j - 1) / 2 // parent
		if !q.Less(j, i) {
			break
		}
		q.Swap(i, j)
		j = i
	}
}

// pop removes and returns the least event (see eventHeap.Less); the heap
// must not be empty.
func (h *eventHeap) pop() event {
	q := *h
	n := len(q) - 1
	q.Swap(0, n)
	for i := 0; ; {
		j := 2*i + 1 // left child
		if j >= n {
			break
		}
		if r := j + 1; r < n && q.Less(r, j) {
			j = r
		}
		if !q.Less(j, i) {
			break
		}
		q.Swap(i, j)
		i = j
	}
	e := q[n]
	*h = q[:n]
	return e
}
