package schemagen

import (
	"bytes"
	"fmt"
	"strings"
)

// The renderings for the pod-template-hash: for every struct reachable
// from PodTemplateSpec, a function that writes go-spew's "%#v" rendering
// of the value (dump.ForHash's configuration) into the spewer.
//
// Every constant piece of text is a numbered segment (segmentTexts), which
// the spewer hashes in one step (hash.Segment) when it is long enough.
// Consecutive fields whose rendering is constant when they are zero (nil
// pointers, lists and maps, empty strings, zero numbers, false) are
// grouped: for each group the generated code first checks whether all of
// it is zero and then writes one segment for all of it, else halves the
// group and tries again, down to single fields. A template whose fields are
// mostly unset is so hashed in a few dozen steps instead of byte by byte.

// spewGen writes the spew functions and collects their segments.
type spewGen struct {
	b     *bytes.Buffer
	ids   map[string]int
	texts []string
}

// seg returns the statement that writes s, registering s as a segment.
func (g *spewGen) seg(s string) string {
	if s == "" {
		return ""
	}
	id, ok := g.ids[s]
	if !ok {
		id = len(g.texts)
		g.ids[s] = id
		g.texts = append(g.texts, s)
	}
	return fmt.Sprintf("w.lit(%d) // %s", id, strings.ReplaceAll(s, "\n", " "))
}

func (g *spewGen) line(format string, args ...any) {
	fmt.Fprintf(g.b, format+"\n", args...)
}

// templateClosure returns the structs reachable from PodTemplateSpec.
func (m *Model) templateClosure() []*Struct {
	var root *Struct
	for _, s := range m.Structs {
		if s.Name == "PodTemplateSpec" {
			root = s
		}
	}
	seen := map[*Struct]bool{}
	var out []*Struct
	var walk func(t *Type)
	var visit func(s *Struct)
	visit = func(s *Struct) {
		if seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		for _, f := range s.Fields {
			walk(f.Type)
		}
	}
	walk = func(t *Type) {
		switch t.Kind {
		case KStruct:
			visit(t.Struct)
		case KPtr, KSlice, KMap:
			walk(t.Elem)
		}
	}
	visit(root)
	return out
}

// zeroable reports whether a field's rendering is constant when it is
// zero, and returns the test of zero and the rendering of the value then.
func zeroable(t *Type, at string) (cond, text string, ok bool) {
	switch t.Kind {
	case KPtr, KSlice, KMap:
		return at + " == nil", "<nil>", true
	case KString:
		return at + ` == ""`, "", true
	case KBool:
		return "!" + at, "false", true
	case KInt32, KInt64:
		return at + " == 0", "0", true
	case KTime:
		return at + ".IsZero()", "{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}", true
	case KIntOrString:
		return at + " == (IntOrString{})", "{Type:(intstr.Type)0 IntVal:(int32)0 StrVal:(string)}", true
	}
	return "", "", false
}

// value writes the statements that render a non-zero value of type t at
// the expression at, whose type the caller has written (or that is not
// shown, inside lists and maps).
func (g *spewGen) value(t *Type, at string) {
	switch t.Kind {
	case KString:
		g.line("w.str(%s)", at)
	case KBool:
		g.line("w.boolean(%s)", at)
	case KInt32:
		g.line("w.i64(int64(%s))", at)
	case KInt64:
		g.line("w.i64(%s)", at)
	case KStruct:
		g.line("w.spew%s(&%s)", mangle(t), at)
	case KQuantity, KIntOrString, KTime, KFieldsV1:
		g.line("w.%s(&%s)", scalarFunc(t.Kind), at)
	case KPtr:
		switch t.Elem.Kind {
		case KStruct:
			g.line("w.spew%s(%s)", mangle(t.Elem), at)
		case KQuantity, KIntOrString, KTime, KFieldsV1:
			g.line("w.%s(%s)", scalarFunc(t.Elem.Kind), at)
		default:
			g.value(t.Elem, "(*"+at+")")
		}
	case KSlice, KMap:
		g.line("w.spew%s(%s)", mangle(t), at)
	}
}

// fieldText is a field's name and type as spew writes them, after sep.
func fieldText(sep string, f *Field) string {
	return sep + f.Go + ":(" + f.Type.Spew + ")"
}

// emitStruct writes the rendering of a struct's fields.
func (g *spewGen) emitStruct(s *Struct) {
	g.line("func (w *spewer) spew%s(x *%s) {", s.Name, s.Name)
	pending := "{"
	fields := s.Fields
	for i := 0; i < len(fields); {
		sep := " "
		if i == 0 {
			sep = ""
		}
		if _, _, ok := zeroable(fields[i].Type, "x."+fields[i].Go); !ok {
			if st := g.seg(pending + fieldText(sep, fields[i])); st != "" {
				g.line("%s", st)
			}
			g.value(fields[i].Type, "x."+fields[i].Go)
			pending = ""
			i++
			continue
		}
		j := i
		for j < len(fields) {
			if _, _, ok := zeroable(fields[j].Type, "x."+fields[j].Go); !ok {
				break
			}
			j++
		}
		g.emitRange(fields, i, j, pending)
		pending = ""
		i = j
	}
	g.line("%s", g.seg(pending+"}"))
	g.line("}\n")
}

// emitRange writes fields lo..hi-1, all zeroable, after the pending text:
// one segment when all are zero, else each half in turn.
func (g *spewGen) emitRange(fields []*Field, lo, hi int, pending string) {
	sep := func(i int) string {
		if i == 0 {
			return ""
		}
		return " "
	}
	var conds []string
	text := pending
	for i := lo; i < hi; i++ {
		cond, zero, _ := zeroable(fields[i].Type, "x."+fields[i].Go)
		conds = append(conds, cond)
		text += fieldText(sep(i), fields[i]) + zero
	}
	g.line("if %s {", strings.Join(conds, " && "))
	g.line("%s", g.seg(text))
	g.line("} else {")
	if hi-lo == 1 {
		f := fields[lo]
		g.line("%s", g.seg(pending+fieldText(sep(lo), f)))
		g.value(f.Type, "x."+f.Go)
	} else {
		mid := (lo + hi) / 2
		g.emitRange(fields, lo, mid, pending)
		g.emitRange(fields, mid, hi, "")
	}
	g.line("}")
}

// emitComposite writes the rendering of a list or map type: <nil>, or its
// elements without their type, separated by spaces.
func (g *spewGen) emitComposite(t *Type) {
	name := mangle(t)
	switch t.Kind {
	case KSlice:
		g.line("func (w *spewer) spew%s(s %s) {", name, t.GoType())
		g.line("if s == nil {\n%s\nreturn\n}", g.seg("<nil>"))
		g.line("%s", g.seg("["))
		g.line("for i := range s {\nif i > 0 {\n%s\n}", g.seg(" "))
		g.element(t.Elem, "s[i]")
		g.line("}\n%s\n}\n", g.seg("]"))
	case KMap:
		g.line("func (w *spewer) spew%s(m %s) {", name, t.GoType())
		g.line("if m == nil {\n%s\nreturn\n}", g.seg("<nil>"))
		g.line("var buf [16]string\n%s", g.seg("map["))
		g.line("for i, k := range keys(m, buf[:]) {\nif i > 0 {\n%s\n}", g.seg(" "))
		g.line("w.str(k)\n%s\nv := m[k]", g.seg(":"))
		g.element(t.Elem, "v")
		g.line("}\n%s\n}\n", g.seg("]"))
	}
}

// element writes one element of a list or map, without its type.
func (g *spewGen) element(t *Type, at string) {
	switch t.Kind {
	case KStruct:
		g.line("w.spew%s(&%s)", mangle(t), at)
	case KQuantity, KIntOrString, KTime, KFieldsV1:
		g.line("w.%s(&%s)", scalarFunc(t.Kind), at)
	default:
		g.value(t, at)
	}
}

// emitSpecials writes the renderings of the API's hand-written value
// types, from their Go layouts in k8s.io/apimachinery v0.36.3 (and the
// time package, gopkg.in/inf.v0 and math/big below them).
func (g *spewGen) emitSpecials() {
	g.line(`// quantity writes resource.Quantity's fields: its int64 amount, its
// decimal amount (an *inf.Dec holding a big.Int), the cached string and the
// format.
func (w *spewer) quantity(q *Quantity) {
%s
w.i64(q.i.value)
%s
w.i64(int64(q.i.scale))
if q.d == nil {
%s
} else {
%s
w.boolean(q.d.unscaled.Sign() < 0)
%s
w.nat(&q.d.unscaled)
%s
w.i64(int64(q.d.scale))
%s
}
w.str(q.s)
%s
w.str(q.Format)
%s
}
`, g.seg("{i:(resource.int64Amount){value:(int64)"), g.seg(" scale:(resource.Scale)"),
		g.seg("} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)"),
		g.seg("} d:(resource.infDecAmount){Dec:(*inf.Dec){unscaled:(big.Int){neg:(bool)"), g.seg(" abs:(big.nat)"),
		g.seg("} scale:(inf.Scale)"), g.seg("}} s:(string)"), g.seg(" Format:(resource.Format)"), g.seg("}"))
	g.line(`// intOrString writes intstr.IntOrString's fields.
func (w *spewer) intOrString(v *IntOrString) {
%s
w.i64(v.Type)
%s
w.i64(int64(v.IntVal))
%s
w.str(v.StrVal)
%s
}
`, g.seg("{Type:(intstr.Type)"), g.seg(" IntVal:(int32)"), g.seg(" StrVal:(string)"), g.seg("}"))
	g.line(`// time writes a metav1.Time as the controller holds one read from the API
// server: whole seconds, in the controller's local time zone, which is UTC
// in the kube-controller-manager image (a Location named UTC with no
// zones).
func (w *spewer) time(t *Time) {
if t.IsZero() {
%s
return
}
%s
w.u64(uint64(t.Nanosecond()))
%s
w.i64(t.Unix() + unixToInternal)
%s
}
`, g.seg("{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}"), g.seg("{Time:(time.Time){wall:(uint64)"), g.seg(" ext:(int64)"),
		g.seg(" loc:(*time.Location){name:(string)UTC zone:([]time.zone)<nil> tx:([]time.zoneTrans)<nil> extend:(string) cacheStart:(int64)0 cacheEnd:(int64)0 cacheZone:(*time.zone)<nil>}}}"))
	g.line(`// fieldsV1 writes metav1.FieldsV1: its raw bytes as a []uint8.
func (w *spewer) fieldsV1(f *FieldsV1) {
if f.Raw == nil {
%s
return
}
%s
for i, b := range f.Raw {
if i > 0 {
%s
}
w.u64(uint64(b))
}
%s
}
`, g.seg("{Raw:([]uint8)<nil>}"), g.seg("{Raw:([]uint8)["), g.seg(" "), g.seg("]}"))
	for _, t := range []string{"String", "Int32", "Int64"} {
		conv := map[string]string{"String": "w.str(v)", "Int32": "w.i64(int64(v))", "Int64": "w.i64(v)"}[t]
		g.line("func (w *spewer) spewSlice%s(s []%s) {\nif s == nil {\n%s\nreturn\n}\n%s\nfor i, v := range s {\nif i > 0 {\n%s\n}\n%s\n}\n%s\n}\n",
			t, strings.ToLower(t), g.seg("<nil>"), g.seg("["), g.seg(" "), conv, g.seg("]"))
	}
	for _, t := range []struct{ name, goType, elem string }{{"MapString", "string", "w.str(m[k])"}, {"MapQuantity", "Quantity", "v := m[k]\nw.quantity(&v)"}} {
		g.line("func (w *spewer) spew%s(m map[string]%s) {\nif m == nil {\n%s\nreturn\n}\nvar buf [16]string\n%s\nfor i, k := range keys(m, buf[:]) {\nif i > 0 {\n%s\n}\nw.str(k)\n%s\n%s\n}\n%s\n}\n",
			t.name, t.goType, g.seg("<nil>"), g.seg("map["), g.seg(" "), g.seg(":"), t.elem, g.seg("]"))
	}
}

// emitSpew writes the renderings of every struct reachable from
// PodTemplateSpec, the lists and maps they hold, the special types, and
// the table of segments.
func (m *Model) emitSpew(b *bytes.Buffer) {
	g := &spewGen{b: b, ids: map[string]int{}}
	closure := m.templateClosure()
	g.emitSpecials()
	in := map[*Struct]bool{}
	for _, s := range closure {
		in[s] = true
		g.emitStruct(s)
	}
	seen := map[string]bool{}
	for _, t := range m.composites() {
		if seen[mangle(t)] || (t.Elem.Kind == KStruct && !in[t.Elem.Struct]) || !m.usedInClosure(t, in) {
			continue
		}
		seen[mangle(t)] = true
		g.emitComposite(t)
	}
	b.WriteString("// segmentTexts are the constant pieces of the renderings, by number.\nvar segmentTexts = [...]string{\n")
	for _, s := range g.texts {
		fmt.Fprintf(b, "\t%q,\n", s)
	}
	b.WriteString("}\n")
}

// usedInClosure reports whether some field of a struct in the closure has
// type t.
func (m *Model) usedInClosure(t *Type, in map[*Struct]bool) bool {
	for s := range in {
		for _, f := range s.Fields {
			if mangle(f.Type) == mangle(t) {
				return true
			}
		}
	}
	return false
}
