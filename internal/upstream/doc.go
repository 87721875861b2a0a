// Package upstream is rolloutmath's bench beside the real Kubernetes code
// (k8s.io/kubernetes v1.36.3). It is a module of its own, so that nothing in
// the main module depends on Kubernetes: it holds the generators of the
// main module's generated files, the differential tests that compare
// rolloutmath with the code it reproduces, side-by-side benchmarks, and
// realsim, which runs the real Deployment and ReplicaSet controllers
// together in virtual time to measure whole rollouts.
//
// Run its tests from this directory: go test ./...
package upstream
