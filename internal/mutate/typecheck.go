package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A checker type-checks a package's non-test files, with the packages it
// imports read from the export data the go command builds for them. It
// tells the mutants that compile from those that do not without running
// the compiler, and gives the types of expressions for the schemata.
type checker struct {
	fset  *token.FileSet
	path  string               // the package's import path
	names []string             // the files, relative to the module root, in order
	files map[string]*ast.File // parsed from the original sources
	imp   types.Importer
}

// newChecker loads the package in dir (relative to root) whose files are
// sources (by path relative to root).
func newChecker(ctx context.Context, root, dir string, sources map[string][]byte) (*checker, error) {
	// os and strconv are what the schemata add (schemaDecl).
	cmd := exec.CommandContext(ctx, "go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Dir}}", ".", "os", "strconv")
	cmd.Dir = filepath.Join(root, dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	exports := map[string]string{}
	var self string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("go list -export in %s: unexpected line %q", dir, sc.Text())
		}
		exports[f[0]] = f[1]
		if f[2] == cmd.Dir {
			self = f[0]
		}
	}
	c := &checker{fset: token.NewFileSet(), path: self, files: map[string]*ast.File{}}
	c.imp = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	for name := range sources {
		c.names = append(c.names, name)
	}
	slices.Sort(c.names)
	for _, name := range c.names {
		f, err := parser.ParseFile(c.fset, name, sources[name], parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, err
		}
		c.files[name] = f
	}
	return c, nil
}

// check type-checks the package with the file name replaced by src (none
// when name is ""), and returns the first error, or the types of its
// expressions when info is not nil.
func (c *checker) check(name string, src []byte, info *types.Info) error {
	files := make([]*ast.File, 0, len(c.names))
	for _, n := range c.names {
		f := c.files[n]
		if n == name {
			var err error
			if f, err = parser.ParseFile(c.fset, n, src, parser.SkipObjectResolution); err != nil {
				return err
			}
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: c.imp}
	_, err := conf.Check(c.path, c.fset, files, info)
	return err
}

// checkAll type-checks the package with the files of srcs replacing
// theirs and extra added, and returns every error it finds.
func (c *checker) checkAll(srcs map[string][]byte, extra []byte) ([]types.Error, error) {
	fset := c.fset
	var files []*ast.File
	for _, n := range c.names {
		f := c.files[n]
		if src, ok := srcs[n]; ok {
			var err error
			if f, err = parser.ParseFile(fset, n, src, parser.SkipObjectResolution); err != nil {
				return nil, fmt.Errorf("the schemata of %s do not parse: %v", n, err)
			}
		}
		files = append(files, f)
	}
	f, err := parser.ParseFile(fset, "zz_mutant.go", extra, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	files = append(files, f)
	var errs []types.Error
	conf := types.Config{Importer: c.imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			errs = append(errs, te)
		}
	}}
	conf.Check(c.path, fset, files, nil) // the errors are in errs
	return errs, nil
}
