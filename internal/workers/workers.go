// Package workers runs independent jobs on a few goroutines: the one
// worker loop of the module's library, command and tools.
package workers

import "sync"

// Each calls f(0), ..., f(n-1), each once, on up to workers goroutines
// (at least one; on the calling goroutine when one is enough), and
// returns when every call has returned. The calls run in no particular
// order; f must be safe to call concurrently.
func Each(n, workers int, f func(i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// InOrder computes f(0), ..., f(n-1) on up to workers goroutines and
// hands each result to emit in index order, as soon as it and every one
// before it are ready; emit returning false stops the work. At most a few
// results per worker wait for their turn, whatever n.
func InOrder[R any](n int64, workers int, f func(int64) R, emit func(int64, R) bool) {
	chunk := int64(max(workers, 1) * 16)
	results := make([]R, min(chunk, max(n, 0)))
	for lo := int64(0); lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		Each(int(hi-lo), workers, func(i int) { results[i] = f(lo + int64(i)) })
		for i := lo; i < hi; i++ {
			if !emit(i, results[i-lo]) {
				return
			}
		}
	}
}
