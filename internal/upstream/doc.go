// Package upstream is rolloutmath's bench beside the real Kubernetes code
// (k8s.io/kubernetes v1.36.3 by go.mod; v1.35.4 and v1.37.2 by the module
// files go.v135.mod and go.v137.mod, for the schema generator's models and
// package hashdiff: go test -modfile=go.v135.mod ./hashdiff ./schemagen). It is a module of its own, so that nothing in
// the main module depends on Kubernetes: it holds the generators of the
// main module's generated files, the differential tests that compare
// rolloutmath with the code it reproduces, and side-by-side benchmarks.
//
// Run its tests from this directory: go test ./...
package upstream
