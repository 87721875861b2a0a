package sim

// The controllers model's event queue as a binary heap of event values:
// container/heap's algorithm, without boxing every event pushed and popped
// in an interface (two allocations an event), and moving each event along
// its path once rather than swapping it at every level (an event is 80
// bytes).

// before reports whether a goes before b: by time, then class, then seq
// (eventHeap.Less).
func before(a, b *event) bool {
	if c := a.at.Compare(b.at); c != 0 {
		return c < 0
	}
	if a.class != b.class {
		return a.class < b.class
	}
	return a.seq < b.seq
}

// push adds e to the heap.
func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	q[up(q, len(q)-1, &e)] = e
}

// pop removes and returns the least event (see eventHeap.Less); the heap
// must not be empty.
func (h *eventHeap) pop() event {
	q := *h
	n := len(q) - 1
	top, last := q[0], q[n]
	if n > 0 {
		q[down(q[:n], 0, &last)] = last
	}
	q[n] = event{} // holds no name for the garbage collector
	*h = q[:n]
	return top
}

// remove removes and returns the event at index i of the heap.
func (h *eventHeap) remove(i int) event {
	q := *h
	n := len(q) - 1
	out := q[i]
	if i != n {
		q[i] = q[n]
	}
	q[n] = event{}
	*h = q[:n]
	if i < n {
		h.fix(i)
	}
	return out
}

// fix restores the heap's order after the event at index i changed.
func (h *eventHeap) fix(i int) {
	q := *h
	e := q[i]
	j := up(q, i, &e)
	if j == i {
		j = down(q, i, &e)
	}
	q[j] = e
}

// up moves the hole at j of q toward the root, past the parents e goes
// before, and returns where e belongs.
func up(q eventHeap, j int, e *event) int {
	for j > 0 {
		p := (j - 1) / 2
		if !before(e, &q[p]) {
			break
		}
		q[j] = q[p]
		j = p
	}
	return j
}

// down moves the hole at i of q toward the leaves, past the least child
// while it goes before e, and returns where e belongs.
func down(q eventHeap, i int, e *event) int {
	n := len(q)
	for {
		c := 2*i + 1 // left child
		if c >= n {
			return i
		}
		if r := c + 1; r < n && before(&q[r], &q[c]) {
			c = r
		}
		if !before(&q[c], e) {
			return i
		}
		q[i] = q[c]
		i = c
	}
}
