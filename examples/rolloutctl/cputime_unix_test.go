//go:build unix

package main

import "syscall"

// cpuSeconds returns the CPU time (user and system) the process has used
// so far, in seconds: what a benchmark on a shared machine reports beside
// its wall-clock time.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return float64(u.Utime.Sec+u.Stime.Sec) + float64(u.Utime.Usec+u.Stime.Usec)/1e6
}
