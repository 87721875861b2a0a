package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
)

// The soft memory limit the command sets before it reads its inputs (see
// memoryLimit): the heap a check or a load holds at its peak is under
// twice the input (the objects decoded compactly, the input's text
// packed), and the garbage collector, left to its default (GOGC=100),
// lets the heap grow to twice what it holds, which would be four times
// the input and more. With the limit it collects sooner instead, so the
// process stays near limitPerInputByte times its input. The library sets
// no limit: it is the program's to choose, and a program that embeds
// rollout/check may have other memory to account for.
const (
	limitPerInputByte = 3.5
	// limitFloor keeps small inputs, whose simulations may hold more than
	// their input, clear of the limit.
	limitFloor = 128 << 20
)

// memoryLimit returns the soft memory limit for inputs of size bytes:
// limitPerInputByte times size, and at least limitFloor.
func memoryLimit(size int64) int64 {
	return max(int64(float64(size)*limitPerInputByte), limitFloor)
}

// setMemoryLimit sets the soft memory limit of the process for inputs of
// size bytes (see memoryLimit), unless the GOMEMLIMIT environment
// variable sets one. It is what main gives env.setMemoryLimit.
func setMemoryLimit(size int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	debug.SetMemoryLimit(memoryLimit(size))
}

// inputSize returns the bytes the named files hold, and the regular files
// under the named directories; false when a name is standard input ("-")
// or cannot be read, whose size is not known before reading it.
func inputSize(names []string) (int64, bool) {
	var total int64
	for _, name := range names {
		if name == "-" {
			return 0, false
		}
		err := filepath.WalkDir(name, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				info, err := d.Info()
				if err != nil {
					return err
				}
				total += info.Size()
			}
			return nil
		})
		if err != nil {
			return 0, false
		}
	}
	return total, true
}
