package schemagen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
)

// gates returns the +featureGate markers of the fields of the package
// that declares t, by "Type.Field", read from the package's source: its
// directory is that of the file declaring t's DeepCopy method, which every
// API type has (the source is in the module cache, or wherever the build
// took it from).
func (m *Model) gates(t reflect.Type) (map[string][]string, error) {
	meth, ok := reflect.PointerTo(t).MethodByName("DeepCopy")
	if !ok {
		return nil, nil // not an API type of k8s.io/api (a special type)
	}
	fn := runtime.FuncForPC(meth.Func.Pointer())
	if fn == nil {
		return nil, fmt.Errorf("schemagen: no source for %s", t)
	}
	file, _ := fn.FileLine(meth.Func.Pointer())
	dir := filepath.Dir(file)
	if g, ok := m.markers[dir]; ok {
		return g, nil
	}
	g, err := readGates(dir)
	if err != nil {
		return nil, fmt.Errorf("schemagen: the feature gates of %s: %w", t.PkgPath(), err)
	}
	m.markers[dir] = g
	return g, nil
}

// readGates parses the Go files of dir and returns the gates that the
// +featureGate markers of each struct field's comment name.
func readGates(dir string) (map[string][]string, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fld := range st.Fields.List {
				gates := markerGates(fld.Doc)
				if len(gates) == 0 {
					continue
				}
				names := fld.Names
				if len(names) == 0 { // embedded: the type's name
					expr := fld.Type
					if star, ok := expr.(*ast.StarExpr); ok {
						expr = star.X
					}
					switch e := expr.(type) {
					case *ast.Ident:
						names = []*ast.Ident{e}
					case *ast.SelectorExpr:
						names = []*ast.Ident{e.Sel}
					}
				}
				for _, id := range names {
					out[ts.Name.Name+"."+id.Name] = gates
				}
			}
			return false
		})
	}
	return out, nil
}

// markerGates returns the gates that a comment's +featureGate=A,B markers
// name, in order.
func markerGates(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var out []string
	for _, c := range doc.List {
		text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if v, ok := strings.CutPrefix(text, "+featureGate="); ok {
			for _, g := range strings.Split(v, ",") {
				if g = strings.TrimSpace(g); g != "" {
					out = append(out, g)
				}
			}
		}
	}
	return out
}
