// Command schemagen writes the generated files of rolloutmath's
// internal/schema package from the models of every supported Kubernetes
// minor, and writes those models. Run it from internal/upstream.
//
// Each minor's model is what reflection sees of that minor's k8s.io/api
// (and the OpenAPI list types of k8s.io/kubernetes of the same patch).
// One module can hold one version, so each minor has its module file
// (go.mod for 1.36, go.v135.mod, go.v137.mod), and the generator run under
// it writes that minor's model with -dump:
//
//	go run -modfile=go.v135.mod ./cmd/schemagen -dump
//	go run ./cmd/schemagen -dump
//	go run -modfile=go.v137.mod ./cmd/schemagen -dump
//
// Without -dump it merges the models in schemagen/testdata/models (see
// schemagen.Merge) and writes the schema package's files:
//
//	go run ./cmd/schemagen
//
// Tests in package schemagen fail when a model differs from what its
// minor's k8s.io/api gives (go test -modfile=go.v13N.mod ./schemagen for
// the others), or when the generated files differ from the merge.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rolloutmath/rolloutmath/internal/upstream/schemagen"
)

func main() {
	dir := flag.String("dir", "../schema", "the directory of package schema")
	dump := flag.Bool("dump", false, "write the model of this build's k8s.io/api to "+schemagen.ModelsDir+" instead")
	flag.Parse()
	if err := run(*dir, *dump); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(dir string, dump bool) error {
	if dump {
		m, err := schemagen.Upstream()
		if err != nil {
			return err
		}
		api, err := schemagen.APIVersion()
		if err != nil {
			return err
		}
		data, err := m.Dump(api)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(schemagen.ModelsDir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(schemagen.ModelsDir, schemagen.ModelFile(api)), data, 0o644)
	}
	m, err := schemagen.Merged(schemagen.ModelsDir)
	if err != nil {
		return err
	}
	files, err := m.Files()
	if err != nil {
		return err
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}
