package hash_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/hash"
)

// A jsonObject is a JSON object with distinct keys in a fixed order; the
// encoder below writes its members in a drawn order.
type jsonObject []jsonMember

type jsonMember struct {
	key   string
	value any
}

// labelText draws label keys and values, small enough to collide often.
var labelText = rapid.OneOf(
	rapid.SampledFrom([]string{"", "a", "b", "ab", "app", "web", "c=d", hash.Label, "é", "x\x00y"}),
	rapid.String(),
)

// jsonString draws strings that exercise every escaping rule.
var jsonString = rapid.OneOf(
	rapid.SampledFrom([]string{"", "a", "b", "<>&", "\"", "\\", "/", "\n\t\b\f\r", "\x00\x1f\x7f", "\u2028\u2029", "é", "😀", "\uFFFD", "img:v1"}),
	rapid.String(),
)

// jsonNumber draws number literals; their text must be kept.
var jsonNumber = rapid.SampledFrom([]string{"0", "-0", "1", "-17", "1.50", "1e3", "1E+3", "2.5e-3", "12345678901234567890123"})

// jsonValue draws a JSON value as nil, bool, json.Number, string, []any or
// jsonObject, nested at most depth levels.
func jsonValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kind := 4
		if depth > 0 {
			kind = 6
		}
		switch rapid.IntRange(0, kind-1).Draw(t, "kind") {
		case 0:
			return nil
		case 1:
			return rapid.Bool().Draw(t, "bool")
		case 2:
			return json.Number(jsonNumber.Draw(t, "number"))
		case 3:
			return jsonString.Draw(t, "string")
		case 4:
			return rapid.SliceOfN(jsonValue(depth-1), 0, 4).Draw(t, "array")
		default:
			keys := rapid.SliceOfNDistinct(jsonString, 0, 5, rapid.ID).Draw(t, "keys")
			obj := jsonObject{}
			for _, k := range keys {
				obj = append(obj, jsonMember{k, jsonValue(depth-1).Draw(t, "member")})
			}
			return obj
		}
	})
}

// encode writes v as JSON with drawn member order, whitespace and string
// escaping, so that two encodings of one value usually differ in text.
func encode(t *rapid.T, v any) []byte {
	var b bytes.Buffer
	var write func(v any)
	space := func() {
		b.WriteString(rapid.SampledFrom([]string{"", "", " ", "\n  ", "\t"}).Draw(t, "whitespace"))
	}
	write = func(v any) {
		space()
		switch v := v.(type) {
		case nil:
			b.WriteString("null")
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case json.Number:
			b.WriteString(string(v))
		case string:
			b.Write(quote(t, v))
		case []any:
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			space()
			b.WriteByte(']')
		case jsonObject:
			b.WriteByte('{')
			for i, m := range rapid.Permutation(v).Draw(t, "member order") {
				if i > 0 {
					b.WriteByte(',')
				}
				space()
				b.Write(quote(t, m.key))
				space()
				b.WriteByte(':')
				write(m.value)
			}
			space()
			b.WriteByte('}')
		default:
			panic(fmt.Sprintf("encode: unexpected %T", v))
		}
		space()
	}
	write(v)
	return b.Bytes()
}

// quote writes s as a JSON string in a drawn style.
func quote(t *rapid.T, s string) []byte {
	switch rapid.IntRange(0, 2).Draw(t, "quoting") {
	case 0: // encoding/json with HTML escaping
		b, _ := json.Marshal(s)
		return b
	case 1: // encoding/json without HTML escaping
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	default: // every character as \uXXXX (upper-case hex, surrogate pairs)
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range s {
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04X`, u)
			}
		}
		b.WriteByte('"')
		return []byte(b.String())
	}
}

// labels draws a map and builds it twice, inserting keys in two drawn orders.
// Up to 24 keys: more than Sum sorts without allocating.
func labels(t *rapid.T, name string) (map[string]string, map[string]string) {
	keys := rapid.SliceOfNDistinct(labelText, 0, 24, rapid.ID).Draw(t, name+" keys")
	values := map[string]string{}
	for _, k := range keys {
		values[k] = labelText.Draw(t, name+" value")
	}
	build := func(order []string) map[string]string {
		if len(order) == 0 && rapid.Bool().Draw(t, name+" nil") {
			return nil
		}
		m := make(map[string]string)
		for _, k := range order {
			m[k] = values[k]
		}
		return m
	}
	return build(rapid.Permutation(keys).Draw(t, name+" order a")), build(rapid.Permutation(keys).Draw(t, name+" order b"))
}

// twoTemplates draws one template written two ways: maps built in different
// orders, the spec encoded with different key order, whitespace and escaping.
func twoTemplates(t *rapid.T) (hash.Template, hash.Template) {
	la, lb := labels(t, "labels")
	aa, ab := labels(t, "annotations")
	v := jsonValue(3).Draw(t, "spec")
	return hash.Template{Labels: la, Annotations: aa, Spec: encode(t, v)},
		hash.Template{Labels: lb, Annotations: ab, Spec: encode(t, v)}
}

func withoutHashLabel(t hash.Template) hash.Template {
	t.Labels = maps.Clone(t.Labels)
	delete(t.Labels, hash.Label)
	return t
}

func checkAlphabet(t *rapid.T, h string) {
	if len(h) < 1 || len(h) > 10 || strings.Trim(h, "456789bcdf") != "" {
		t.Fatalf("hash %q: want 1 to 10 characters from 456789bcdf", h)
	}
}

func TestSumProperties(t *testing.T) {
	t.Run("independent of representation", rapid.MakeCheck(func(t *rapid.T) {
		a, b := twoTemplates(t)
		if sa, sb := hash.Sum(a), hash.Sum(b); sa != sb {
			t.Fatalf("Sum(%q) = %q, Sum(%q) = %q, want equal", a.Spec, sa, b.Spec, sb)
		}
		count := rapid.Int32().Draw(t, "count")
		if sa, sb := hash.SumCollisions(a, count), hash.SumCollisions(b, count); sa != sb {
			t.Fatalf("SumCollisions(%q, %d) = %q, SumCollisions(%q, %d) = %q, want equal", a.Spec, count, sa, b.Spec, count, sb)
		}
		ca, errA := hash.Canonical(nil, a.Spec)
		cb, errB := hash.Canonical(nil, b.Spec)
		if errA != nil || errB != nil || !bytes.Equal(ca, cb) {
			t.Fatalf("Canonical(%q) = %q, %v; Canonical(%q) = %q, %v; want equal", a.Spec, ca, errA, b.Spec, cb, errB)
		}
	}))
	t.Run("changes with the collision count", rapid.MakeCheck(func(t *rapid.T) {
		a, _ := twoTemplates(t)
		c1 := rapid.Int32().Draw(t, "count 1")
		c2 := rapid.Int32().Filter(func(c int32) bool { return c != c1 }).Draw(t, "count 2")
		if h := hash.SumCollisions(a, c1); h == hash.SumCollisions(a, c2) || h == hash.Sum(a) {
			t.Fatalf("SumCollisions(t, %d) = %q equals SumCollisions(t, %d) or Sum(t)", c1, h, c2)
		}
	}))
	t.Run("alphabet and length", rapid.MakeCheck(func(t *rapid.T) {
		a, _ := twoTemplates(t)
		checkAlphabet(t, hash.Sum(a))
		checkAlphabet(t, hash.SumCollisions(a, rapid.Int32().Draw(t, "count")))
	}))
	t.Run("never panics on arbitrary spec bytes", rapid.MakeCheck(func(t *rapid.T) {
		a := hash.Template{Spec: rapid.SliceOf(rapid.Byte()).Draw(t, "spec")}
		checkAlphabet(t, hash.Sum(a))
		if !hash.Equal(a, a) {
			t.Fatalf("Equal(t, t) = false for spec %q", a.Spec)
		}
	}))
}

func TestEncodeProperties(t *testing.T) {
	t.Run("decimal digits mapped", rapid.MakeCheck(func(t *rapid.T) {
		sum := rapid.Uint32().Draw(t, "sum")
		got := hash.Encode(sum)
		checkAlphabet(t, got)
		// Map back and parse: Encode is the decimal rendering, digit by digit.
		back := strings.Map(func(r rune) rune { return rune('0' + strings.IndexRune("456789bcdf", r)) }, got)
		if n, err := strconv.ParseUint(back, 10, 32); err != nil || uint32(n) != sum || back != strconv.FormatUint(uint64(sum), 10) {
			t.Fatalf("Encode(%d) = %q, which decodes to %q", sum, got, back)
		}
	}))
}

func TestEqualProperties(t *testing.T) {
	t.Run("reflexive and symmetric", rapid.MakeCheck(func(t *rapid.T) {
		a, _ := twoTemplates(t)
		b, _ := twoTemplates(t)
		if !hash.Equal(a, a) {
			t.Fatalf("Equal(a, a) = false for %+v", a)
		}
		if hash.Equal(a, b) != hash.Equal(b, a) {
			t.Fatalf("Equal(a, b) = %v but Equal(b, a) = %v", hash.Equal(a, b), hash.Equal(b, a))
		}
	}))
	t.Run("representations are equal", rapid.MakeCheck(func(t *rapid.T) {
		a, b := twoTemplates(t)
		if !hash.Equal(a, b) {
			t.Fatalf("Equal(%q, %q) = false", a.Spec, b.Spec)
		}
	}))
	t.Run("ignores the hash label", rapid.MakeCheck(func(t *rapid.T) {
		a, _ := twoTemplates(t)
		b := withoutHashLabel(a)
		if rapid.Bool().Draw(t, "set label") {
			b.Labels = maps.Clone(b.Labels)
			if b.Labels == nil {
				b.Labels = map[string]string{}
			}
			b.Labels[hash.Label] = labelText.Draw(t, "label value")
		}
		if !hash.Equal(a, b) || !hash.Equal(b, a) {
			t.Fatalf("Equal(%v, %v) = false, want true", a.Labels, b.Labels)
		}
	}))
	t.Run("equal templates hash alike without the label", rapid.MakeCheck(func(t *rapid.T) {
		a, b := twoTemplates(t)
		if rapid.Bool().Draw(t, "unrelated b") {
			b, _ = twoTemplates(t)
		}
		sa, sb := hash.Sum(withoutHashLabel(a)), hash.Sum(withoutHashLabel(b))
		if hash.Equal(a, b) != (sa == sb) {
			t.Fatalf("Equal(a, b) = %v but hashes without the label are %q and %q\na = %+v\nb = %+v", hash.Equal(a, b), sa, sb, a, b)
		}
	}))
}

func TestCanonicalProperties(t *testing.T) {
	t.Run("decodes like the input", rapid.MakeCheck(func(t *rapid.T) {
		src := encode(t, jsonValue(4).Draw(t, "value"))
		got, err := hash.Canonical(nil, src)
		if err != nil {
			t.Fatalf("Canonical(%q) error: %v", src, err)
		}
		if diff := cmp.Diff(semantic(src), semantic(got)); diff != "" {
			t.Fatalf("Canonical(%q) = %q decodes differently (-want +got):\n%s", src, got, diff)
		}
		if !hash.IsCanonical(got) {
			t.Fatalf("IsCanonical(Canonical(%q) = %q) = false", src, got)
		}
	}))
}
