// Command schemagen writes the generated files of rolloutmath's
// internal/schema package from k8s.io/api v0.36.3. Run it from
// internal/upstream:
//
//	go run ./cmd/schemagen
//
// A test in package schemagen fails when the files in the repository
// differ from what it writes.
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
	flag.Parse()
	m, err := schemagen.Upstream()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	files, err := m.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(*dir, name), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
