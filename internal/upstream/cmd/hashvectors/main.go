// Command hashvectors writes the real pod-template-hashes of the project's
// manifests and of random templates, for the Kubernetes minor it is built
// with, to the main module's testdata/hash (see package hashdiff). Run it
// from internal/upstream once per minor:
//
//	go run -modfile=go.v135.mod ./cmd/hashvectors
//	go run ./cmd/hashvectors
//	go run -modfile=go.v137.mod ./cmd/hashvectors
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rolloutmath/rolloutmath/internal/upstream/hashdiff"
	"github.com/rolloutmath/rolloutmath/internal/upstream/schemagen"
)

func main() {
	if err := run("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(root string) error {
	v, err := hashdiff.Minor(schemagen.ModelsDir)
	if err != nil {
		return err
	}
	vs, err := hashdiff.Build(root)
	if err != nil {
		return err
	}
	data, err := hashdiff.Encode(vs)
	if err != nil {
		return err
	}
	path := filepath.Join(root, hashdiff.File(v))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	fmt.Printf("Kubernetes %s: %d vectors in %s\n", v, len(vs), path)
	return nil
}
