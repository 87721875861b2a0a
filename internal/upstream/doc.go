// Package upstream is rolloutmath's bench beside the real Kubernetes code
// (k8s.io/kubernetes v1.36.3). It is a module of its own, so that nothing in
// the main module depends on Kubernetes: it holds the generators of the
// main module's generated files, the differential tests that compare
// rolloutmath with the code it reproduces, and side-by-side benchmarks.
//
// Run its tests from this directory: go test ./...
//
// # The other minors
//
// go.mod is Kubernetes 1.36. The module files go.v135.mod and go.v137.mod
// hold the same module on k8s.io/kubernetes v1.35.4 and v1.37.2 (and the
// staging modules of the same patch), for the packages that build with
// every minor: schemagen (each minor's model of the API types) and
// hashdiff (the pod-template-hash against each minor's
// controller.ComputeHash). Their tests, and their generators:
//
//	go test -modfile=go.v135.mod ./schemagen ./hashdiff
//	go test -modfile=go.v137.mod ./schemagen ./hashdiff
//	go run -modfile=go.v13N.mod ./cmd/schemagen -dump   # the minor's model
//	go run -modfile=go.v13N.mod ./cmd/hashvectors       # its hash vectors
//	go run ./cmd/schemagen                              # merge, write internal/schema
//
// (without -modfile for 1.36). The rest of the module (difftest, the
// vectors of internal/apiserver) is 1.36's.
package upstream
