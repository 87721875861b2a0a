// Package upstream is rolloutmath's bench beside the real Kubernetes code
// (k8s.io/kubernetes v1.36.3). It is a module of its own, so that nothing in
// the main module depends on Kubernetes: it holds the generators of the
// main module's generated files, the differential tests that compare
// rolloutmath with the code it reproduces, side-by-side benchmarks, and
// realsim, which runs the real Deployment and ReplicaSet controllers
// together in virtual time to measure whole rollouts.
//
// Run its tests from this directory: go test ./...
//
// # The other minors
//
// go.mod is Kubernetes 1.36. The module files go.v135.mod and go.v137.mod
// hold the same module on k8s.io/kubernetes v1.35.4 and v1.37.2 (and the
// staging modules of the same patch), made by replacing the versions of
// go.mod and running go mod tidy -modfile=FILE, for the packages that
// build with every minor: schemagen (each minor's model of the API types),
// hashdiff (the pod-template-hash against each minor's
// controller.ComputeHash) and vectorgen (what that minor's create path
// stores and refuses, messages included, and the ReplicaSet name, for the
// project's manifests, those of testdata/apiserver/versions and
// difftest.RandomVersionVectors (300) random Deployments: seeds 0 to 299 of
// difftest's random template generator (randfill, sparser than the one of
// vectors.json.gz so that each file stays near 600 KB gzipped), the same
// seeds for every minor, each filled from that minor's own types; most are
// refused, so the refusals' messages are compared as well as what is
// stored). Their tests, and their
// generators:
//
//	go test -modfile=go.v135.mod ./schemagen ./hashdiff
//	go test -modfile=go.v137.mod ./schemagen ./hashdiff
//	go run -modfile=go.v13N.mod ./cmd/schemagen -dump   # the minor's model
//	go run ./cmd/schemagen                              # merge, write internal/schema
//	go run -modfile=go.v13N.mod ./cmd/hashvectors       # its hash vectors
//	go run -modfile=go.v13N.mod ./cmd/vectorgen         # testdata/apiserver/vectors-1.3N.json.gz
//
// (without -modfile for 1.36, where vectorgen also writes vectors.json.gz).
// Each vectorgen run takes about 30 seconds once k8s.io/kubernetes is in
// the build cache. The replay is
//
//	go test ./internal/apiserver -run TestVersionVectors   # from the main module
//
// The main module's internal/schema and internal/apiserver tests replay the
// vectors, each with its minor. Only the non-test files of difftest build
// with the other minors; its tests are v1.36.3's.
package upstream
