package main

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// The soft memory limit the command sets while it loads its inputs, and
// check and bounds while they run (see memoryLimiter): the heap a load,
// and then a check, holds is under three times the input (the objects
// decoded compactly, the input's text packed), and the garbage collector,
// left to its default (GOGC=100), lets the heap grow to twice what it
// holds, which would be four times the input and more. With the limit it
// collects sooner instead, so the process stays near limitPerInputByte
// times its input. The library sets no limit: it is the program's to
// choose, and a program that embeds rollout/check may have other memory
// to account for.
const (
	limitPerInputByte = 3.5
	// limitFloor keeps small inputs, whose simulations may hold more than
	// their input, clear of the limit.
	limitFloor = 128 << 20
	// noMemoryLimit is the runtime's setting for no soft memory limit.
	noMemoryLimit = math.MaxInt64
)

// memoryLimit returns the soft memory limit for inputs of size bytes:
// limitPerInputByte times size, and at least limitFloor.
func memoryLimit(size int64) int64 {
	return max(int64(float64(size)*limitPerInputByte), limitFloor)
}

// A memoryLimiter sets the process's soft memory limit from the size of
// its input: while the input loads, then for a check or bounds, whose
// memory follows their input. What a check's simulations hold may outgrow
// its input (a wide replica range, rollouts that share nothing): follow
// then removes the limit, so that the collector works as it does by
// default (GOGC) rather than all the time: measured on 20,000 rollouts
// that share nothing, a limit raised to twice the live heap still took
// twice the CPU.
// Its methods do nothing on a nil memoryLimiter, which tests, running
// commands inside the test process, use.
type memoryLimiter struct {
	mu    sync.Mutex        // follow and the watch's calls of it
	set   func(int64) int64 // debug.SetMemoryLimit, or a test's
	live  func() int64      // the live heap after the last collection
	base  int64             // the input's limit; 0 when its size is unknown
	limit int64             // the limit set
	calls int
}

// newMemoryLimiter returns the memoryLimiter of the process.
func newMemoryLimiter() *memoryLimiter {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	return &memoryLimiter{set: debug.SetMemoryLimit, live: func() int64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[0].Value.Uint64())
	}}
}

// setTo sets the limit.
func (m *memoryLimiter) setTo(limit int64) {
	m.limit = limit
	m.set(limit)
}

// load sets the limit for loading inputs of size bytes.
func (m *memoryLimiter) load(size int64) {
	if m != nil {
		m.base = memoryLimit(size)
		m.setTo(m.base)
	}
}

// release removes the limit, once loaded, for the commands whose memory
// does not follow their input (a simulation of many replicas).
func (m *memoryLimiter) release() {
	if m != nil && m.limit != noMemoryLimit {
		m.setTo(noMemoryLimit)
	}
}

// keep sets the input's limit again, once loaded, for check and bounds.
func (m *memoryLimiter) keep() {
	if m != nil && m.base > 0 {
		m.setTo(m.base)
	}
}

// follow removes the limit once the live heap is more than three
// quarters of it, which would leave the collector too little room to
// work in: it is called as a check progresses, and reads the heap every
// 16 calls.
func (m *memoryLimiter) follow() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.calls++; m.calls%16 != 1 {
		return
	}
	m.lift()
}

// lift removes the limit if the live heap is more than three quarters of
// it. m.mu is held.
func (m *memoryLimiter) lift() {
	if m.limit != noMemoryLimit && m.limit != 0 && m.live() > m.limit/4*3 {
		m.setTo(noMemoryLimit)
	}
}

// watchEvery is how often watch reads the live heap.
const watchEvery = 200 * time.Millisecond

// watch reads the live heap every watchEvery, and removes the limit as
// follow does, until the function it returns is called: a check calls
// follow after each rollout, but one simulation may outgrow the limit
// by itself (a check of 1,000,000 replicas one pod at a time keeps a
// moment of each of its nine million syncs, 700 MB), and would run with
// the collector working all the time (60 s against 25 s).
func (m *memoryLimiter) watch() (stop func()) {
	if m == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				m.mu.Lock()
				m.lift()
				m.mu.Unlock()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
