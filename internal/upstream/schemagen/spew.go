package schemagen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// The renderings for the pod-template-hash: for every struct reachable
// from PodTemplateSpec, a function that writes go-spew's "%#v" rendering
// of the value (dump.ForHash's configuration).
//
// They come in two variants from the same emitters: the text one (methods
// of *spewer, for tests and diagnostics) and the hashing one (methods of
// *segTables, which pass the FNV-1a state along in a register). A test in
// package schema holds the two equal: the hash of the text is the hashing
// variant's state.
//
// Every constant piece of text is a numbered segment (segmentTexts), which
// the hashing functions read in one step from a prepared table
// (hash.Segment) when it is long enough. Consecutive fields whose
// rendering is constant when they are zero (nil pointers, lists and maps,
// empty strings, zero numbers, false) are grouped: for each group the
// generated code first checks whether all of it is zero and then writes
// one segment for all of it, else halves the group and tries again, down
// to single fields. Some fields hold one value in nearly every template
// that the API server has defaulted (typicalValues); the grouping treats
// that value as it treats zero, so that a defaulted container's tail is
// one segment. A quantity's scale and format and a resource list's common
// names come in prepared segments too. A template is so hashed in about a
// hundred steps and its variable text (names, images, values), instead of
// byte by byte.

// minSegment is the shortest segment that the hashing variant reads from a
// table: shorter ones are hashed byte by byte, which costs about as much.
const minSegment = 4

// typicalValues are, by struct and field, the values that the defaulters
// (of every supported minor) give fields left unset, as Go literals: what a stored
// template holds unless its author chose otherwise. Only the speed of the
// hash depends on this list.
var typicalValues = map[string]string{
	"Container.TerminationMessagePath":                  `"/dev/termination-log"`,
	"Container.TerminationMessagePolicy":                `"File"`,
	"Container.ImagePullPolicy":                         `"IfNotPresent"`,
	"EphemeralContainerCommon.TerminationMessagePath":   `"/dev/termination-log"`,
	"EphemeralContainerCommon.TerminationMessagePolicy": `"File"`,
	"EphemeralContainerCommon.ImagePullPolicy":          `"IfNotPresent"`,
	"ContainerPort.Protocol":                            `"TCP"`,
	"PodSpec.RestartPolicy":                             `"Always"`,
	"PodSpec.DNSPolicy":                                 `"ClusterFirst"`,
	"PodSpec.SchedulerName":                             `"default-scheduler"`,
	"PodSpec.TerminationGracePeriodSeconds":             `30`,
	"Probe.TimeoutSeconds":                              `1`,
	"Probe.PeriodSeconds":                               `10`,
	"Probe.SuccessThreshold":                            `1`,
	"Probe.FailureThreshold":                            `3`,
	"HTTPGetAction.Scheme":                              `"HTTP"`,
	"GRPCAction.Service":                                `""`,
	"ObjectFieldSelector.APIVersion":                    `"v1"`,
	"ConfigMapVolumeSource.DefaultMode":                 `420`,
	"SecretVolumeSource.DefaultMode":                    `420`,
	"ProjectedVolumeSource.DefaultMode":                 `420`,
	"DownwardAPIVolumeSource.DefaultMode":               `420`,
	"HostPathVolumeSource.Type":                         `""`,
}

// commonResources are the resource names that a resource list is written
// with in prepared segments.
var commonResources = []string{"cpu", "ephemeral-storage", "memory"}

// quantity texts.
const (
	qOpen     = "{i:(resource.int64Amount){value:(int64)"
	qScale    = " scale:(resource.Scale)"
	qNoDec    = "} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)"
	qFormat   = " Format:(resource.Format)"
	qMaxScale = 9 // scales -9..9 have segments of their own
)

// spewGen writes one variant of the spew functions; both variants register
// their segments in one table.
type spewGen struct {
	b     *bytes.Buffer
	ids   map[string]int
	texts *[]string
	hash  bool // the hashing variant
}

// seg returns the statement that writes s, registering s as a segment.
func (g *spewGen) seg(s string) string {
	if s == "" {
		return ""
	}
	id, ok := g.ids[s]
	if !ok {
		id = len(*g.texts)
		g.ids[s] = id
		*g.texts = append(*g.texts, s)
	}
	comment := strings.ReplaceAll(s, "\n", " ")
	switch {
	case !g.hash:
		return fmt.Sprintf("w.lit(%d) // %s", id, comment)
	case len(s) < minSegment:
		return fmt.Sprintf("h = h.WriteString(%q)", s)
	default:
		return fmt.Sprintf("h = h.WriteSegment(tb.seg[%d]) // %s", id, comment)
	}
}

// str, integer, unsigned, boolean and nat return the statements that write
// a value of that kind; call, one that writes a value by a spew function.
func (g *spewGen) str(at string) string { return g.pick("w.str(%s)", "h = h.WriteString(%s)", at) }
func (g *spewGen) integer(at string) string {
	return g.pick("w.i64(%s)", "h = hashInt(h, %s)", at)
}
func (g *spewGen) unsigned(at string) string {
	return g.pick("w.u64(%s)", "h = hashUint(h, %s)", at)
}
func (g *spewGen) boolean(at string) string {
	return g.pick("w.boolean(%s)", "h = hashBool(h, %s)", at)
}
func (g *spewGen) nat(at string) string { return g.pick("w.nat(%s)", "h = hashNat(h, %s)", at) }
func (g *spewGen) call(fn, at string) string {
	if g.hash {
		return fmt.Sprintf("h = tb.%s(h, %s)", fn, at)
	}
	return fmt.Sprintf("w.%s(%s)", fn, at)
}

func (g *spewGen) pick(text, hash, at string) string {
	if g.hash {
		return fmt.Sprintf(hash, at)
	}
	return fmt.Sprintf(text, at)
}

// fn starts a spew function with the given parameters; ret is its early
// return; end closes it.
func (g *spewGen) fn(name, params string) {
	if g.hash {
		g.line("func (tb *segTables) %s(h hash.FNV32a, %s) hash.FNV32a {", name, params)
		return
	}
	g.line("func (w *spewer) %s(%s) {", name, params)
}

func (g *spewGen) ret() string {
	if g.hash {
		return "return h"
	}
	return "return"
}

func (g *spewGen) end() {
	if g.hash {
		g.line("return h")
	}
	g.line("}\n")
}

// minor is the expression of the minor being rendered, a Minors.
func (g *spewGen) minor() string {
	if g.hash {
		return "tb.minor"
	}
	return "w.minor"
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
	visit := func(s *Struct) {
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

// constant reports whether a field has a value that the grouping takes
// for one constant rendering: its typical value if it has one, else zero.
func constant(s *Struct, f *Field, at string) (cond, text string, ok bool) {
	lit, typical := typicalValues[s.Name+"."+f.Go]
	if !typical {
		return zeroable(f.Type, at)
	}
	text = lit
	if unq, err := strconv.Unquote(lit); err == nil {
		text = unq
	}
	if f.Type.Kind == KPtr {
		return fmt.Sprintf("%s != nil && *%s == %s", at, at, lit), text, true
	}
	return fmt.Sprintf("%s == %s", at, lit), text, true
}

// checkTypical refuses typical values of fields that the model does not
// have, or of kinds that constant cannot test.
func (m *Model) checkTypical() error {
	found := map[string]bool{}
	for _, s := range m.Structs {
		for _, f := range s.Fields {
			key := s.Name + "." + f.Go
			if _, ok := typicalValues[key]; !ok {
				continue
			}
			k := f.Type.Kind
			if k == KPtr {
				k = f.Type.Elem.Kind
			}
			if k != KString && k != KInt32 && k != KInt64 {
				return fmt.Errorf("schemagen: typical value of %s, a %s", key, f.Type.GoType())
			}
			found[key] = true
		}
	}
	for key := range typicalValues {
		if !found[key] {
			return fmt.Errorf("schemagen: typical value of %s, which no struct has", key)
		}
	}
	return nil
}

// value writes the statements that render a non-zero value of type t at
// the expression at, whose type the caller has written (or that is not
// shown, inside lists and maps).
func (g *spewGen) value(t *Type, at string) {
	switch t.Kind {
	case KString:
		g.line("%s", g.str(at))
	case KBool:
		g.line("%s", g.boolean(at))
	case KInt32:
		g.line("%s", g.integer("int64("+at+")"))
	case KInt64:
		g.line("%s", g.integer(at))
	case KStruct:
		g.line("%s", g.call("spew"+mangle(t), "&"+at))
	case KQuantity, KIntOrString, KTime, KFieldsV1:
		g.line("%s", g.call(scalarFunc(t.Kind), "&"+at))
	case KPtr:
		switch t.Elem.Kind {
		case KStruct:
			g.line("%s", g.call("spew"+mangle(t.Elem), at))
		case KQuantity, KIntOrString, KTime, KFieldsV1:
			g.line("%s", g.call(scalarFunc(t.Elem.Kind), at))
		default:
			g.value(t.Elem, "(*"+at+")")
		}
	case KSlice, KMap:
		g.line("%s", g.call("spew"+mangle(t), at))
	}
}

// fieldText is a field's name and type as spew writes them, after sep.
func fieldText(sep string, f *Field) string {
	return sep + f.Go + ":(" + f.Type.Spew + ")"
}

// emitStruct writes the rendering of a struct's fields. The template, the
// top-level value, is written with its type first.
func (g *spewGen) emitStruct(s *Struct) {
	g.fn("spew"+s.Name, "x *"+s.Name)
	pending := "{"
	if s.Name == "PodTemplateSpec" {
		pending = "(" + s.Spew + "){"
	}
	fields := s.Fields
	// A field that some minors of s do not have is written alone, when
	// the minor rendered has it (check makes sure the first field is in
	// every minor, so that its separator is always a space).
	versioned := func(f *Field) bool { return f.Minors != s.Minors }
	for i := 0; i < len(fields); {
		sep := " "
		if i == 0 {
			sep = ""
		}
		if f := fields[i]; versioned(f) {
			if pending != "" {
				g.line("%s", g.seg(pending))
				pending = ""
			}
			g.line("if %s&%s != 0 {", g.minor(), f.Minors.ident())
			if _, _, ok := constant(s, f, "x."+f.Go); ok {
				g.emitRange(s, i, i+1, "", "")
			} else {
				g.line("%s", g.seg(fieldText(sep, f)))
				g.value(f.Type, "x."+f.Go)
			}
			g.line("}")
			i++
			continue
		}
		if _, _, ok := constant(s, fields[i], "x."+fields[i].Go); !ok {
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
			if _, _, ok := constant(s, fields[j], "x."+fields[j].Go); !ok || versioned(fields[j]) {
				break
			}
			j++
		}
		trail := ""
		if j == len(fields) {
			trail = "}"
		}
		g.emitRange(s, i, j, pending, trail)
		pending = ""
		i = j
		if trail != "" {
			g.end()
			return
		}
	}
	g.line("%s", g.seg(pending+"}"))
	g.end()
}

// emitRange writes fields lo..hi-1, all constant when typical or zero,
// between the pending text and the trailing one: one segment when all are
// typical or zero, else each half in turn.
func (g *spewGen) emitRange(s *Struct, lo, hi int, pending, trail string) {
	fields := s.Fields
	sep := func(i int) string {
		if i == 0 {
			return ""
		}
		return " "
	}
	var conds []string
	text := pending
	for i := lo; i < hi; i++ {
		cond, val, _ := constant(s, fields[i], "x."+fields[i].Go)
		conds = append(conds, cond)
		text += fieldText(sep(i), fields[i]) + val
	}
	g.line("if %s {", strings.Join(conds, " && "))
	g.line("%s", g.seg(text+trail))
	g.line("} else {")
	if hi-lo == 1 {
		f := fields[lo]
		at := "x." + f.Go
		// A field with a typical value gets here when it is zero too.
		_, typical := typicalValues[s.Name+"."+f.Go]
		if zc, zt, ok := zeroable(f.Type, at); typical && ok && (f.Type.Kind == KPtr || f.Type.Kind == KSlice || f.Type.Kind == KMap) {
			g.line("if %s {\n%s\n} else {", zc, g.seg(pending+fieldText(sep(lo), f)+zt+trail))
			g.line("%s", g.seg(pending+fieldText(sep(lo), f)))
			g.value(f.Type, at)
			if st := g.seg(trail); st != "" {
				g.line("%s", st)
			}
			g.line("}")
		} else {
			g.line("%s", g.seg(pending+fieldText(sep(lo), f)))
			g.value(f.Type, at)
			if st := g.seg(trail); st != "" {
				g.line("%s", st)
			}
		}
	} else {
		mid := (lo + hi) / 2
		g.emitRange(s, lo, mid, pending, "")
		g.emitRange(s, mid, hi, "", trail)
	}
	g.line("}")
}

// emitComposite writes the rendering of a list or map type: <nil>, or its
// elements without their type, separated by spaces.
func (g *spewGen) emitComposite(t *Type) {
	name := mangle(t)
	switch t.Kind {
	case KSlice:
		g.fn("spew"+name, "s "+t.GoType())
		g.line("if s == nil {\n%s\n%s\n}", g.seg("<nil>"), g.ret())
		g.line("%s", g.seg("["))
		g.line("for i := range s {\nif i > 0 {\n%s\n}", g.seg(" "))
		g.element(t.Elem, "s[i]")
		g.line("}\n%s", g.seg("]"))
		g.end()
	case KMap:
		g.fn("spew"+name, "m "+t.GoType())
		g.line("if m == nil {\n%s\n%s\n}", g.seg("<nil>"), g.ret())
		g.line("var buf [16]string\n%s", g.seg("map["))
		g.line("for i, k := range keys(m, buf[:]) {\nif i > 0 {\n%s\n}", g.seg(" "))
		g.line("%s\n%s\nv := m[k]", g.str("k"), g.seg(":"))
		g.element(t.Elem, "v")
		g.line("}\n%s", g.seg("]"))
		g.end()
	}
}

// element writes one element of a list or map, without its type.
func (g *spewGen) element(t *Type, at string) {
	switch t.Kind {
	case KStruct:
		g.line("%s", g.call("spew"+mangle(t), "&"+at))
	case KQuantity, KIntOrString, KTime, KFieldsV1:
		g.line("%s", g.call(scalarFunc(t.Kind), "&"+at))
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
// format.`)
	g.fn("quantity", "q *Quantity")
	g.line("%s\n%s", g.seg(qOpen), g.call("quantityRest", "q, false"))
	g.end()

	g.line(`// quantityRest writes a quantity after its opening text, which ends at
// the amount's value; it ends the quantity and, when last is true, the
// resource list that holds it.`)
	g.fn("quantityRest", "q *Quantity, last bool")
	g.line("%s", g.integer("q.i.value"))
	g.line("if q.d == nil {\nswitch q.i.scale {")
	for sc := -qMaxScale; sc <= qMaxScale; sc++ {
		g.line("case %d:\n%s", sc, g.seg(qScale+strconv.Itoa(sc)+qNoDec))
	}
	g.line("default:\n%s\n%s\n%s\n}", g.seg(qScale), g.integer("int64(q.i.scale)"), g.seg(qNoDec))
	g.line("} else {\n%s\n%s", g.seg(qScale), g.integer("int64(q.i.scale)"))
	g.line("%s\n%s", g.seg("} d:(resource.infDecAmount){Dec:(*inf.Dec){unscaled:(big.Int){neg:(bool)"), g.boolean("q.d.unscaled.Sign() < 0"))
	g.line("%s\n%s", g.seg(" abs:(big.nat)"), g.nat("&q.d.unscaled"))
	g.line("%s\n%s\n%s\n}", g.seg("} scale:(inf.Scale)"), g.integer("int64(q.d.scale)"), g.seg("}} s:(string)"))
	g.line("%s\nswitch q.Format {", g.str("q.s"))
	for _, f := range []string{"DecimalSI", "BinarySI", "DecimalExponent"} {
		g.line("case %q:\nif last {\n%s\n} else {\n%s\n}", f, g.seg(qFormat+f+"}]"), g.seg(qFormat+f+"}"))
	}
	g.line("default:\n%s\n%s\nif last {\n%s\n} else {\n%s\n}\n}", g.seg(qFormat), g.str("q.Format"), g.seg("}]"), g.seg("}"))
	g.end()

	g.line(`// spewResourceList writes a resource list, whose entries are in
// go-spew's order already. A common resource's name comes in one segment
// with the text around it.`)
	g.fn("spewResourceList", "l ResourceList")
	g.line("if l == nil {\n%s\n%s\n}", g.seg("<nil>"), g.ret())
	g.line("if len(l) == 0 {\n%s\n%s\n}", g.seg("map[]"), g.ret())
	g.line("for i := range l {\nswitch first := i == 0; l[i].Name {")
	for _, r := range commonResources {
		g.line("case %q:\nif first {\n%s\n} else {\n%s\n}", r, g.seg("map["+r+":"+qOpen), g.seg(" "+r+":"+qOpen))
	}
	g.line("default:\nif first {\n%s\n} else {\n%s\n}\n%s\n%s\n}", g.seg("map["), g.seg(" "), g.str("l[i].Name"), g.seg(":"+qOpen))
	g.line("%s\n}", g.call("quantityRest", "&l[i].Quantity, i == len(l)-1"))
	g.end()

	g.line(`// intOrString writes intstr.IntOrString's fields.`)
	g.fn("intOrString", "v *IntOrString")
	g.line("%s\n%s", g.seg("{Type:(intstr.Type)"), g.integer("v.Type"))
	g.line("%s\n%s", g.seg(" IntVal:(int32)"), g.integer("int64(v.IntVal)"))
	g.line("%s\n%s\n%s", g.seg(" StrVal:(string)"), g.str("v.StrVal"), g.seg("}"))
	g.end()

	g.line(`// time writes a metav1.Time as the controller holds one read from the API
// server: whole seconds, in the controller's local time zone, which is UTC
// in the kube-controller-manager image (a Location named UTC with no
// zones).`)
	g.fn("time", "t *Time")
	g.line("if t.IsZero() {\n%s\n%s\n}", g.seg("{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}"), g.ret())
	g.line("%s\n%s", g.seg("{Time:(time.Time){wall:(uint64)"), g.unsigned("uint64(t.Nanosecond())"))
	g.line("%s\n%s", g.seg(" ext:(int64)"), g.integer("t.Unix() + unixToInternal"))
	g.line("%s", g.seg(" loc:(*time.Location){name:(string)UTC zone:([]time.zone)<nil> tx:([]time.zoneTrans)<nil> extend:(string) cacheStart:(int64)0 cacheEnd:(int64)0 cacheZone:(*time.zone)<nil>}}}"))
	g.end()

	g.line(`// fieldsV1 writes metav1.FieldsV1: its raw bytes as a []uint8.`)
	g.fn("fieldsV1", "f *FieldsV1")
	g.line("if f.Raw == nil {\n%s\n%s\n}", g.seg("{Raw:([]uint8)<nil>}"), g.ret())
	g.line("%s\nfor i, b := range f.Raw {\nif i > 0 {\n%s\n}\n%s\n}\n%s", g.seg("{Raw:([]uint8)["), g.seg(" "), g.unsigned("uint64(b)"), g.seg("]}"))
	g.end()

	for _, t := range []struct{ name, elem, write string }{
		{"String", "string", g.str("v")}, {"Int32", "int32", g.integer("int64(v)")}, {"Int64", "int64", g.integer("v")},
	} {
		g.fn("spewSlice"+t.name, "s []"+t.elem)
		g.line("if s == nil {\n%s\n%s\n}", g.seg("<nil>"), g.ret())
		g.line("%s\nfor i, v := range s {\nif i > 0 {\n%s\n}\n%s\n}\n%s", g.seg("["), g.seg(" "), t.write, g.seg("]"))
		g.end()
	}
	g.fn("spewMapString", "m map[string]string")
	g.line("if m == nil {\n%s\n%s\n}", g.seg("<nil>"), g.ret())
	g.line("var buf [smallMap]entry[string]\n%s\nfor i, e := range sortedEntries(buf[:0], m) {\nif i > 0 {\n%s\n}", g.seg("map["), g.seg(" "))
	g.line("%s\n%s\n%s\n}\n%s", g.str("e.k"), g.seg(":"), g.str("e.v"), g.seg("]"))
	g.end()
}

// emitSpew writes both variants of the renderings of every struct
// reachable from PodTemplateSpec, the lists and maps they hold and the
// special types, and the table of segments.
func (m *Model) emitSpew(b *bytes.Buffer) {
	b.WriteString("import \"github.com/rolloutmath/rolloutmath/hash\"\n\n")
	fmt.Fprintf(b, "// minSegment is the shortest segment that the hashing functions read\n// from a table.\nconst minSegment = %d\n\n", minSegment)
	var texts []string
	ids := map[string]int{}
	for _, hashing := range []bool{false, true} {
		g := &spewGen{b: b, ids: ids, texts: &texts, hash: hashing}
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
	}
	b.WriteString("// segmentTexts are the constant pieces of the renderings, by number.\nvar segmentTexts = [...]string{\n")
	for _, s := range texts {
		fmt.Fprintf(b, "\t%q,\n", s)
	}
	b.WriteString("}\n\n// segTables holds the prepared segments, by number (nil for the short\n// ones), and the minor rendered: the fields of other minors are left out.\ntype segTables struct {\n\tseg   [len(segmentTexts)]*hash.Segment\n\tminor Minors\n}\n")
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
