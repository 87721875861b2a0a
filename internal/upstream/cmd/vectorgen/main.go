// Command vectorgen runs the project's own manifests (testdata/apiserver/
// manifests) and random Deployments through the real Kubernetes code and
// writes what it stores, refuses and hashes to
// testdata/apiserver/vectors.json.gz, which the main module's tests replay.
// Run it from internal/upstream:
//
//	go run ./cmd/vectorgen
//
// It also writes the vectors of the minor it is built with to
// testdata/apiserver/vectors-1.NN.json.gz: the project's manifests and
// those of testdata/apiserver/versions (the rules that differ between
// minors), with their messages, and those of testdata/apiserver/versions
// again with the gates whose default differs between minors set against
// their default, difftest.RandomVersionVectors random Deployments (the
// same seeds for every minor, filled from that minor's types), and the updates of testdata/apiserver/version-updates. Built with another minor's module file, it
// writes only that minor's file:
//
//	go run -modfile=go.v135.mod ./cmd/vectorgen
//	go run -modfile=go.v137.mod ./cmd/vectorgen
//
// Given a directory and a file, it writes the per-minor vectors of the
// manifests in that directory to that file and nothing else:
//
//	go run -modfile=go.v135.mod ./cmd/vectorgen ../../../shared/manifests/accepted /tmp/accepted-1.35.json.gz
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"syscall"
	"time"

	"k8s.io/kubernetes/pkg/capabilities"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/upstream/difftest"
	"github.com/rolloutmath/rolloutmath/internal/vectors"
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
	minor, err := kubernetesMinor()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if len(os.Args) == 3 {
		// vectorgen DIR OUT: the per-minor vectors of other manifests
		// (../shared/manifests/accepted, say), for the main module's
		// TestVersionVectors to replay from ROLLOUTMATH_EXTRA_VECTORS;
		// nothing in the repository is written.
		vs, err := difftest.BuildVersionVectors(os.Args[1])
		if err == nil {
			var data []byte
			if data, err = difftest.EncodeVectors(vs); err == nil {
				err = os.WriteFile(os.Args[2], data, 0o644)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d vectors of %s in %s\n", len(vs), minor.Patch(), os.Args[2])
		return
	}
	vvs, err := difftest.BuildVersionVectors(difftest.ManifestDir, difftest.VersionDir)
	if err == nil {
		var gvs []difftest.Vector
		gvs, err = difftest.BuildGateVectors(difftest.VersionDir)
		vvs = append(vvs, gvs...)
	}
	if err == nil {
		var rvs []difftest.Vector
		rvs, err = difftest.BuildRandomVersionVectors()
		vvs = append(vvs, rvs...)
	}
	if err == nil {
		var uvs []difftest.Vector
		uvs, err = difftest.BuildUpdateVectors(difftest.VersionUpdateDir)
		vvs = append(vvs, uvs...)
	}
	if err == nil {
		var data []byte
		if data, err = difftest.EncodeVectors(vvs); err == nil {
			err = os.WriteFile("../../"+vectors.VersionFile(minor), data, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d vectors of %s\n", len(vvs), minor.Patch())
	if minor != kubeversion.V1_36 {
		return // the random Deployments are v1.36's
	}
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

// kubernetesMinor is the minor of the k8s.io/kubernetes module this binary
// is built with.
func kubernetesMinor() (kubeversion.Version, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return 0, errors.New("no build information: build vectorgen in module mode")
	}
	for _, m := range info.Deps {
		if m.Path == "k8s.io/kubernetes" {
			v := m.Version
			if m.Replace != nil {
				v = m.Replace.Version
			}
			return kubeversion.Parse(v)
		}
	}
	return 0, errors.New("k8s.io/kubernetes is not a dependency of this build")
}
