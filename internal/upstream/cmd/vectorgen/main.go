// Command vectorgen runs the project's own manifests (testdata/apiserver/
// manifests) and random Deployments through the real Kubernetes code and
// writes what it stores, refuses and hashes to
// testdata/apiserver/vectors.json.gz, which the main module's tests replay.
// Run it from internal/upstream:
//
//	go run ./cmd/vectorgen
package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"k8s.io/kubernetes/pkg/capabilities"

	"github.com/rolloutmath/rolloutmath/internal/upstream/difftest"
)

func main() {
	// The controller's time zone, as in the kube-controller-manager image:
	// re-run with TZ=UTC if the zone was loaded before main could set it.
	if os.Getenv("TZ") != "UTC" {
		os.Setenv("TZ", "UTC")
		exe, err := os.Executable()
		if err == nil {
			err = syscall.Exec(exe, os.Args, os.Environ())
		}
		fmt.Fprintln(os.Stderr, "re-running with TZ=UTC:", err)
		os.Exit(1)
	}
	if time.Local.String() != "UTC" {
		fmt.Fprintln(os.Stderr, "TZ=UTC did not take")
		os.Exit(1)
	}
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: true})
	vs, err := difftest.BuildVectors(difftest.ManifestDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	data, err := difftest.EncodeVectors(vs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(difftest.VectorFile, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d vectors\n", len(vs))
}
