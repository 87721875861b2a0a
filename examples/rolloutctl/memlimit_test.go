package main

import (
	"path/filepath"
	"testing"
)

// TestMemoryLimitScalesWithTheInput pins the soft memory limit the
// command sets before reading its inputs: 3.5 times their size, at least
// 128 MiB; none for standard input or a name that cannot be read, whose
// size is not known in advance.
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
	dir := writeRepo(t, map[string]string{"a.yaml": "12345", "sub/b.yaml": "123", ".hidden/c": "1"})
	for _, tt := range []struct {
		names []string
		size  int64
		known bool
	}{
		{[]string{dir}, 9, true},
		{[]string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "sub")}, 8, true},
		{[]string{dir, "-"}, 0, false},
		{[]string{filepath.Join(dir, "missing.yaml")}, 0, false},
	} {
		size, known := inputSize(tt.names)
		if size != tt.size || known != tt.known {
			t.Errorf("inputSize(%q) = %d, %v; want %d, %v", tt.names, size, known, tt.size, tt.known)
		}
	}
	var got []int64
	e := &env{setMemoryLimit: func(n int64) { got = append(got, n) }}
	f := inputFlags{files: listFlag{filepath.Join(dir, "a.yaml")}}
	if _, err := f.gather(e, "check", false); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != 5 {
		t.Errorf("gather set the memory limit for %v bytes, want once for 5", got)
	}
}
