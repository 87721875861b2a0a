package main

import "sync"

// inOrder computes f(0), ..., f(n-1) on up to workers goroutines and
// hands each result to emit in index order, as soon as it and every one
// before it are ready; emit returning false stops the work. At most a few
// results per worker wait for their turn, whatever n.
func inOrder[R any](n int64, workers int, f func(int64) R, emit func(int64, R) bool) {
	chunk := int64(max(workers, 1) * 16)
	results := make([]R, min(chunk, max(n, 0)))
	for lo := int64(0); lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		if workers <= 1 || hi-lo == 1 {
			for i := lo; i < hi; i++ {
				results[i-lo] = f(i)
			}
		} else {
			var wg sync.WaitGroup
			var mu sync.Mutex
			next := lo
			for range min(int64(workers), hi-lo) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						mu.Lock()
						i := next
						next++
						mu.Unlock()
						if i >= hi {
							return
						}
						results[i-lo] = f(i)
					}
				}()
			}
			wg.Wait()
		}
		for i := lo; i < hi; i++ {
			if !emit(i, results[i-lo]) {
				return
			}
		}
	}
}
