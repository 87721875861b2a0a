package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// Mutant schemata: instead of compiling one test binary per mutant, the
// tool compiles the package once with every mutant in it, each behind a
// test of the package-level variable schemaVar, which the test binary
// reads from the environment variable schemaEnv. An expression with
// mutants becomes a function literal called in place,
//
//	func() T { if zzMutateActive == 7 { return a - b }; return a + b }()
//
// and a statement an if chain. With no mutant switched on (-1) the
// package behaves as written; the tool checks that its tests pass so
// before it trusts a run.
const (
	schemaVar = "zzMutateActive"
	schemaEnv = "ROLLOUTMATH_MUTANT"
)

// schemaDecl is the file the schemata add to package pkg.
func schemaDecl(pkg string) []byte {
	return fmt.Appendf(nil, `package %s

import (
	zzos "os"
	zzstrconv "strconv"
)

var %s = func() int {
	n, err := zzstrconv.Atoi(zzos.Getenv(%q))
	if err != nil {
		return -1
	}
	return n
}()
`, pkg, schemaVar, schemaEnv)
}

// A host is an expression or statement that mutants change.
type host struct {
	node       ast.Node
	start, end int
	typ        string // an expression's type as the file names it; "" for a statement
	mutants    []int  // indices in the package's mutants
	children   []*host
}

// A span is where a host's schema landed in a generated file.
type span struct {
	start, end int
	mutants    []int
}

// fileSchemata returns src, the source of f, with the mutants
// ms[i] for i in use switched by schemaVar, where each is switched by its
// index i. It returns the mutants whose expression's type cannot be named
// in the file (they are left out), and the spans of the others.
func fileSchemata(f *ast.File, src []byte, info *types.Info, self string, ms []Mutant, use []int) ([]byte, []span, []int) {
	imports := map[string]string{} // package path -> name in this file
	for _, spec := range f.Imports {
		if pn := info.PkgNameOf(spec); pn != nil {
			imports[pn.Imported().Path()] = pn.Name()
		}
	}
	hosts := map[ast.Node]*host{}
	var rejected []int
	for _, i := range use {
		m := ms[i]
		h := hosts[m.host]
		if h == nil {
			h = &host{node: m.host}
			h.start, h.end = offsets(f, m.host)
			if e, ok := m.host.(ast.Expr); ok {
				h.typ = typeName(info.TypeOf(e), self, imports)
			}
			if isUntypedConstant(info, m.host) {
				// A part of a constant expression: its type is only
				// known for the whole, so it is built on its own.
				h.typ = ""
			}
			hosts[m.host] = h
		}
		if _, isExpr := m.host.(ast.Expr); isExpr && h.typ == "" {
			rejected = append(rejected, i)
			continue
		}
		h.mutants = append(h.mutants, i)
	}
	var list []*host
	for _, h := range hosts {
		if len(h.mutants) > 0 {
			list = append(list, h)
		}
	}
	slices.SortFunc(list, func(a, b *host) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var roots, stack []*host
	for _, h := range list {
		for len(stack) > 0 && stack[len(stack)-1].end <= h.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, h)
		} else {
			p := stack[len(stack)-1]
			p.children = append(p.children, h)
		}
		stack = append(stack, h)
	}
	var out strings.Builder
	var spans []span
	at := 0
	for _, r := range roots {
		out.Write(src[at:r.start])
		text, sub := render(r, src, ms)
		for _, s := range sub {
			spans = append(spans, span{s.start + out.Len(), s.end + out.Len(), s.mutants})
		}
		out.WriteString(text)
		at = r.end
	}
	out.Write(src[at:])
	return []byte(out.String()), spans, rejected
}

// offsets is the span of n in src.
func offsets(f *ast.File, n ast.Node) (int, int) {
	base := int(f.FileStart)
	return int(n.Pos()) - base, int(n.End()) - base
}

// isUntypedConstant reports whether n is an expression whose value is an
// untyped constant.
func isUntypedConstant(info *types.Info, n ast.Node) bool {
	e, ok := n.(ast.Expr)
	if !ok {
		return false
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	b, ok := tv.Type.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// typeName names t as the file can, or "" when it cannot.
func typeName(t types.Type, self string, imports map[string]string) string {
	if t == nil {
		return ""
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		if b.Kind() == types.UntypedNil {
			return ""
		}
		t = types.Default(t)
	}
	ok := true
	name := types.TypeString(t, func(p *types.Package) string {
		if p.Path() == self {
			return ""
		}
		n, found := imports[p.Path()]
		ok = ok && found
		return n
	})
	if !ok {
		return ""
	}
	return name
}

// A segment of a host's text: original source, or a child's schema.
type segment struct {
	start, end int // in the original source
	text       string
	child      bool
	spans      []span // of a child, relative to its text
}

// render returns h's schema and the spans of the schemata in it, relative
// to its start.
func render(h *host, src []byte, ms []Mutant) (string, []span) {
	var segs []segment
	at := h.start
	for _, c := range h.children {
		segs = append(segs, segment{start: at, end: c.start, text: string(src[at:c.start])})
		text, spans := render(c, src, ms)
		segs = append(segs, segment{start: c.start, end: c.end, text: text, child: true, spans: spans})
		at = c.end
	}
	segs = append(segs, segment{start: at, end: h.end, text: string(src[at:h.end])})

	var b strings.Builder
	var spans []span
	// put writes segs with the edits of one alternative (none for the
	// original), recording the children's spans once.
	put := func(edits []edit, record bool) {
		if len(edits) == 1 && edits[0].start <= h.start && edits[0].end >= h.end {
			b.WriteString(edits[0].text) // the whole host replaced
			return
		}
		done := make([]bool, len(edits))
		for _, s := range segs {
			if s.child {
				if record {
					for _, sp := range s.spans {
						spans = append(spans, span{sp.start + b.Len(), sp.end + b.Len(), sp.mutants})
					}
				}
				b.WriteString(s.text)
				continue
			}
			pos := s.start
			for i, e := range edits {
				if done[i] || e.start < s.start || e.end > s.end {
					continue
				}
				b.WriteString(string(src[pos:e.start]))
				b.WriteString(e.text)
				pos, done[i] = e.end, true
			}
			b.WriteString(string(src[pos:s.end]))
		}
	}
	start := b.Len()
	if h.typ != "" {
		fmt.Fprintf(&b, "func() %s {\n", h.typ)
		for _, i := range h.mutants {
			fmt.Fprintf(&b, "if %s == %d {\nreturn ", schemaVar, i)
			put(ms[i].edits, false)
			b.WriteString("\n}\n")
		}
		b.WriteString("return ")
		put(nil, true)
		b.WriteString("\n}()")
	} else {
		for _, i := range h.mutants {
			fmt.Fprintf(&b, "if %s == %d {\n", schemaVar, i)
			put(ms[i].edits, false)
			b.WriteString("\n} else ")
		}
		b.WriteString("{\n")
		put(nil, true)
		b.WriteString("\n}")
	}
	spans = append(spans, span{start, b.Len(), h.mutants})
	return b.String(), spans
}

// innermost returns the mutants of the innermost span holding offset, or
// nil.
func innermost(spans []span, offset int) []int {
	var best *span
	for i := range spans {
		s := &spans[i]
		if s.start <= offset && offset < s.end && (best == nil || s.end-s.start < best.end-best.start) {
			best = s
		}
	}
	if best == nil {
		return nil
	}
	return best.mutants
}
