// Package upstream is rolloutmath's bench beside the real Kubernetes code
// (k8s.io/kubernetes v1.36.3). It is a module of its own, so that nothing in
// the main module depends on Kubernetes: it holds the generators of the
// main module's generated files, the differential tests that compare
// rolloutmath with the code it reproduces, and side-by-side benchmarks.
//
// Run its tests from this directory: go test ./...
//
// # Other minors
//
// go.v135.mod and go.v137.mod are this module's file with k8s.io/kubernetes
// v1.35.4 and v1.37.2 (and the staging modules at v0.35.4, v0.37.2), made
// by replacing the versions of go.mod and running go mod tidy
// -modfile=FILE. With them, vectorgen records what that minor's create path
// stores and refuses (messages included) for the project's manifests and
// those of testdata/apiserver/versions:
//
//	go run -modfile=go.v135.mod ./cmd/vectorgen  # testdata/apiserver/vectors-1.35.json.gz
//	go run ./cmd/vectorgen                       # vectors-1.36.json.gz and vectors.json.gz
//	go run -modfile=go.v137.mod ./cmd/vectorgen  # vectors-1.37.json.gz
//
// The main module's internal/apiserver TestVersionVectors replays the three
// files, each with its minor. Only the non-test files of difftest (and
// vectorgen) build with the other minors; its tests are v1.36.3's.
package upstream
