package main

import (
	"io"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestMemoryLimitScalesWithTheInput pins the soft memory limit the
// command sets from its input: 3.5 times its size, at least 128 MiB;
// none for standard input or a name that cannot be read, whose size is
// not known in advance. The limit holds while the input loads, and then
// only for check and bounds; a check removes it when its simulations hold
// more than three quarters of it.
func TestMemoryLimitScalesWithTheInput(t *testing.T) {
	for _, tt := range []struct {
		size, want int64
	}{
		{0, 128 << 20},
		{1 << 20, 128 << 20},
		{44_675_560, 156_364_460}, // the benchmark's YAML
		{1 << 30, 3758096384},
	} {
		if got := memoryLimit(tt.size); got != tt.want {
			t.Errorf("memoryLimit(%d) = %d, want %d", tt.size, got, tt.want)
		}
	}
	dir := writeRepo(t, map[string]string{"a.yaml": deploymentYAML("web", 2, ""), "sub/b.yaml": "123", ".hidden/c.yaml": "1", "sub/notes.txt": "12345"})
	a := int64(len(deploymentYAML("web", 2, "")))
	for _, tt := range []struct {
		names []string
		size  int64
		known bool
	}{
		{[]string{dir}, a + 3, true}, // not .hidden/c.yaml, not notes.txt
		{[]string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "sub")}, a + 3, true},
		{[]string{dir, filepath.Join(dir, "a.yaml")}, a + 3, true}, // read once
		{[]string{filepath.Join(dir, ".hidden")}, 1, true},         // named, so read
		{[]string{dir, "-"}, 0, false},
		{[]string{filepath.Join(dir, "missing.yaml")}, 0, false},
	} {
		size, known := manifest.Size(manifest.Options{}, tt.names...)
		if size != tt.size || known != tt.known {
			t.Errorf("manifest.Size(%q) = %d, %v; want %d, %v", tt.names, size, known, tt.size, tt.known)
		}
	}

	var set []int64
	live := int64(0)
	limiter := func() *memoryLimiter {
		set = nil
		return &memoryLimiter{set: func(n int64) int64 { set = append(set, n); return 0 }, live: func() int64 { return live }}
	}
	file := filepath.Join(dir, "a.yaml")
	e := &env{stdout: io.Discard, stderr: io.Discard, memory: limiter()}
	if code := e.run([]string{"plan", "-f", file}); code != exitOK {
		t.Fatalf("plan = %d", code)
	}
	if want := []int64{128 << 20, noMemoryLimit}; !slices.Equal(set, want) {
		t.Errorf("plan set the limits %v, want %v: the input's while loading, then none", set, want)
	}
	e.memory = limiter()
	if code := e.run([]string{"check", "-f", file}); code != exitOK {
		t.Fatalf("check = %d", code)
	}
	if want := []int64{128 << 20, noMemoryLimit, 128 << 20}; !slices.Equal(set, want) {
		t.Errorf("check set the limits %v, want %v: the input's while loading, and again to check", set, want)
	}
	// A check whose live heap grows past three quarters of the limit
	// removes it.
	m := limiter()
	m.load(1 << 20)
	live = 96 << 20 // three quarters
	m.follow()
	live = 97 << 20
	for range 16 {
		m.follow() // the heap is read again at the 17th
	}
	if want := []int64{128 << 20, noMemoryLimit}; !slices.Equal(set, want) {
		t.Errorf("limits %v, want %v: removed", set, want)
	}
	var nilLimiter *memoryLimiter
	nilLimiter.load(1)
	nilLimiter.keep()
	nilLimiter.follow()
	nilLimiter.release()
}

// TestMemoryWatchLiftsTheLimit: while a check runs, the limiter reads the
// live heap every watchEvery, not only after each rollout, and removes
// the limit once the heap passes three quarters of it, so that one
// simulation that outgrows its input does not run with the collector
// working all the time; below three quarters the limit stays. After
// stop returns, it reads nothing more.
func TestMemoryWatchLiftsTheLimit(t *testing.T) {
	var live atomic.Int64
	var mu sync.Mutex
	var set []int64
	m := &memoryLimiter{set: func(n int64) int64 { mu.Lock(); set = append(set, n); mu.Unlock(); return 0 }, live: func() int64 { return live.Load() }}
	m.load(1 << 20) // 128 MiB
	limit := func() int64 {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.limit
	}

	live.Store(96 << 20) // three quarters
	stop := m.watch()
	time.Sleep(3 * watchEvery)
	stop()
	if got := limit(); got != 128<<20 {
		t.Fatalf("the heap at three quarters of the limit: the limit is %d, want 128 MiB kept", got)
	}

	live.Store(97 << 20)
	stop = m.watch()
	for start := time.Now(); limit() != noMemoryLimit && time.Since(start) < time.Minute; {
		time.Sleep(watchEvery / 4)
	}
	stop()
	if got := limit(); got != noMemoryLimit {
		t.Fatalf("the heap past three quarters of the limit: the limit is %d, want none", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []int64{128 << 20, noMemoryLimit}; !slices.Equal(set, want) {
		t.Errorf("set the limits %v, want %v", set, want)
	}
	var nilLimiter *memoryLimiter
	nilLimiter.watch()() // tests run commands with none
}
