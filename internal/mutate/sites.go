package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// A Mutant is one deliberate bug: spans of one source file replaced by
// other text. Its ID names it independently of line numbers, so that the
// list of equivalent mutants survives edits elsewhere in the file.
type Mutant struct {
	File string // the file's path relative to the module root, with slashes
	Func string // the enclosing function, "T.M" for a method, "-" at package level
	Line int    // the line of the first edit
	Col  int    // the byte column of the first edit in Code, from 1
	// LineCol is the byte column of the first edit in its line, from 1, as
	// coverage profiles count.
	LineCol int
	Code    string   // the line of the first edit, trimmed of surrounding blanks
	Op      string   // what changes: "< -> <=", "7 -> 8", "remove statement", ...
	Nth     int      // 2, 3, ... for the later of mutants that would have the same ID
	edits   []edit   // ascending, not overlapping
	host    ast.Node // the expression or statement the edits change, for the schemata
	// schema is false where a mutant cannot be switched on at run time:
	// in a constant declaration, or on a statement outside a block (a for
	// loop's post statement, an if's init).
	schema bool
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// ID is the mutant's stable name: file, function, column in the line, the
// change, and the line's code.
func (m Mutant) ID() string {
	op := m.Op
	if m.Nth > 1 {
		op = fmt.Sprintf("%s #%d", op, m.Nth)
	}
	return fmt.Sprintf("%s %s @%d [%s] %s", m.File, m.Func, m.Col, op, m.Code)
}

// Apply returns src with the mutant's edits made; src is not modified.
func (m Mutant) Apply(src []byte) []byte {
	var out bytes.Buffer
	at := 0
	for _, e := range m.edits {
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes()
}

// operator mutations: each binary or assignment operator and what it
// becomes. Arithmetic operators swap with their inverse; comparisons move
// their boundary (< to <=) and are negated (== to !=); && and || swap.
var binaryMutations = map[token.Token][]token.Token{
	token.ADD:  {token.SUB},
	token.SUB:  {token.ADD},
	token.MUL:  {token.QUO},
	token.QUO:  {token.MUL},
	token.REM:  {token.MUL},
	token.SHL:  {token.SHR},
	token.SHR:  {token.SHL},
	token.LSS:  {token.LEQ, token.GEQ},
	token.LEQ:  {token.LSS, token.GTR},
	token.GTR:  {token.GEQ, token.LEQ},
	token.GEQ:  {token.GTR, token.LSS},
	token.EQL:  {token.NEQ},
	token.NEQ:  {token.EQL},
	token.LAND: {token.LOR},
	token.LOR:  {token.LAND},
}

var assignMutations = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.SUB_ASSIGN,
	token.SUB_ASSIGN: token.ADD_ASSIGN,
	token.MUL_ASSIGN: token.QUO_ASSIGN,
	token.QUO_ASSIGN: token.MUL_ASSIGN,
}

// Mutants returns the mutants of one Go source file, in source order. name
// is the file's path relative to the module root. The kinds:
//
//   - arithmetic operators swapped with their inverse (+ -, * /, % to *,
//     << >>), also in +=, -=, *=, /=, and ++ with --;
//   - comparison boundaries moved (< to <=, >= to >, ...) and comparisons
//     negated (== to !=, < to >=, ...); && and || swapped;
//   - integer constants plus and minus one, and true and false swapped;
//   - if conditions negated;
//   - statements removed: calls, assignments (not declarations), ++ and --,
//     returns, break and continue.
//
// Left alone, because changing them changes no behaviour by design: string
// concatenation with a literal, and size hints (array lengths, the
// capacity argument of make and the size argument of make for a map, and
// everything in them), and declarations of imports and types.
func Mutants(fset *token.FileSet, name string, src []byte) ([]Mutant, error) {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	return fileMutants(fset, name, f, src), nil
}

// fileMutants is Mutants of the parsed file f.
func fileMutants(fset *token.FileSet, name string, f *ast.File, src []byte) []Mutant {
	c := collector{fset: fset, name: name, src: src, skip: map[ast.Node]bool{}, listed: map[ast.Stmt]bool{}}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			c.fn = funcName(d)
			if n := len(d.Body.List); n > 0 {
				if _, ok := d.Body.List[n-1].(*ast.ReturnStmt); ok {
					c.keep = d.Body.List[n-1] // removing it cannot compile
				}
			}
			ast.Inspect(d.Body, c.visit)
		case *ast.GenDecl:
			if d.Tok == token.CONST || d.Tok == token.VAR {
				c.fn = "-"
				c.inConst = d.Tok == token.CONST
				ast.Inspect(d, c.visit)
				c.inConst = false
			}
		}
	}
	slices.SortStableFunc(c.out, func(a, b Mutant) int { return a.edits[0].start - b.edits[0].start })
	seen := map[string]int{}
	for i := range c.out {
		id := c.out[i].ID()
		seen[id]++
		if seen[id] > 1 {
			c.out[i].Nth = seen[id]
		}
	}
	return c.out
}

func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if x, ok := t.(*ast.IndexExpr); ok { // a generic receiver
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

type collector struct {
	fset    *token.FileSet
	name    string
	src     []byte
	fn      string
	skip    map[ast.Node]bool // nodes whose literals are sizes, not values
	keep    ast.Stmt          // the final return of the function, never removed
	listed  map[ast.Stmt]bool // statements directly in a block or case
	inConst bool              // in a constant declaration
	out     []Mutant
}

func (c *collector) add(host ast.Node, op string, edits ...edit) {
	start := edits[0].start
	lineStart := bytes.LastIndexByte(c.src[:start], '\n') + 1
	lineEnd := len(c.src)
	if i := bytes.IndexByte(c.src[start:], '\n'); i >= 0 {
		lineEnd = start + i
	}
	line := string(c.src[lineStart:lineEnd])
	trimmed := strings.TrimLeft(line, " \t")
	col := start - lineStart - (len(line) - len(trimmed)) + 1
	c.out = append(c.out, Mutant{
		File: c.name, Func: c.fn, Line: bytes.Count(c.src[:start], []byte("\n")) + 1, Col: col, LineCol: start - lineStart + 1,
		Code: strings.TrimSpace(trimmed), Op: op, edits: edits, host: host, schema: c.schema(host),
	})
}

// schema reports whether a mutant of host can be switched on at run time.
func (c *collector) schema(host ast.Node) bool {
	if s, ok := host.(ast.Stmt); ok {
		return c.listed[s]
	}
	return !c.inConst
}

func (c *collector) off(p token.Pos) int { return c.fset.Position(p).Offset }

func (c *collector) visit(n ast.Node) bool {
	if c.skip[n] {
		return false // a size hint: nothing in it is mutated
	}
	switch n := n.(type) {
	case *ast.ArrayType:
		if n.Len != nil {
			c.skip[n.Len] = true
		}
	case *ast.CallExpr:
		if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "make" && len(n.Args) >= 2 {
			if _, isMap := n.Args[0].(*ast.MapType); isMap {
				c.skip[n.Args[1]] = true
			} else if len(n.Args) == 3 {
				c.skip[n.Args[2]] = true
			}
		}
	case *ast.BinaryExpr:
		if n.Op == token.ADD && (isString(n.X) || isString(n.Y)) {
			break
		}
		at := c.off(n.OpPos)
		for _, to := range binaryMutations[n.Op] {
			c.add(n, n.Op.String()+" -> "+to.String(), edit{at, at + len(n.Op.String()), to.String()})
		}
	case *ast.AssignStmt:
		if to, ok := assignMutations[n.Tok]; ok {
			at := c.off(n.TokPos)
			c.add(n, n.Tok.String()+" -> "+to.String(), edit{at, at + len(n.Tok.String()), to.String()})
		}
	case *ast.IncDecStmt:
		to := token.DEC
		if n.Tok == token.DEC {
			to = token.INC
		}
		at := c.off(n.TokPos)
		c.add(n, n.Tok.String()+" -> "+to.String(), edit{at, at + 2, to.String()})
	case *ast.BasicLit:
		if n.Kind != token.INT {
			break
		}
		s, e := c.off(n.Pos()), c.off(n.End())
		c.add(n, n.Value+" -> "+n.Value+"+1", edit{s, e, "(" + n.Value + "+1)"})
		c.add(n, n.Value+" -> "+n.Value+"-1", edit{s, e, "(" + n.Value + "-1)"})
	case *ast.Ident:
		if n.Name == "true" || n.Name == "false" {
			to := map[string]string{"true": "false", "false": "true"}[n.Name]
			s := c.off(n.Pos())
			c.add(n, n.Name+" -> "+to, edit{s, s + len(n.Name), to})
		}
	case *ast.IfStmt:
		s, e := c.off(n.Cond.Pos()), c.off(n.Cond.End())
		c.add(n.Cond, "negate if", edit{s, s, "!("}, edit{e, e, ")"})
	case *ast.BlockStmt:
		c.removals(n.List)
	case *ast.CaseClause:
		c.removals(n.Body)
	case *ast.CommClause:
		c.removals(n.Body)
	}
	return true
}

// removals adds a mutant removing each statement of list that does
// something by itself.
func (c *collector) removals(list []ast.Stmt) {
	for _, s := range list {
		c.listed[s] = true
		if s == c.keep {
			continue
		}
		switch s := s.(type) {
		case *ast.ExprStmt, *ast.IncDecStmt, *ast.ReturnStmt:
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				continue
			}
		case *ast.BranchStmt:
			if s.Tok != token.BREAK && s.Tok != token.CONTINUE {
				continue
			}
		default:
			continue
		}
		c.add(s, "remove statement", edit{c.off(s.Pos()), c.off(s.End()), ""})
	}
}

// isString reports whether e is a string literal, or a sum with one.
func isString(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.ParenExpr:
		return isString(e.X)
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (isString(e.X) || isString(e.Y))
	}
	return false
}
