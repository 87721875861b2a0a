package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/vectors"
)

// relayout writes the JSON text data again, token by token (so keeping the
// order of members and repeated ones): indented when indent is true, and
// with the first character of every key escaped as \u00XX when escape is
// true, but inside fieldsV1, which the API keeps as written.
func relayout(data []byte, indent, escape bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out bytes.Buffer
	type frame struct {
		object bool
		n      int    // tokens written in this frame
		key    string // the last key written in this object
		raw    bool   // inside fieldsV1
	}
	var stack []frame
	newline := func() {
		if indent {
			out.WriteString("\n" + strings.Repeat("  ", len(stack)))
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		top := -1
		if len(stack) > 0 {
			top = len(stack) - 1
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:top]
			newline()
			out.WriteByte(byte(d))
			if top > 0 {
				stack[top-1].n++
			}
			continue
		}
		key := top >= 0 && stack[top].object && stack[top].n%2 == 0
		if top >= 0 {
			switch {
			case key && stack[top].n > 0:
				out.WriteByte(',')
				newline()
			case key:
				newline()
			case stack[top].object:
				out.WriteString(": ")
			case stack[top].n > 0:
				out.WriteByte(',')
				newline()
			default:
				newline()
			}
		}
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			raw := top >= 0 && (stack[top].raw || stack[top].key == "fieldsV1")
			stack = append(stack, frame{object: v == '{', raw: raw})
			continue
		case string:
			b, _ := json.Marshal(v)
			if key && escape && len(v) > 0 && v[0] < 0x80 && v[0] != '\\' && b[1] == v[0] && !stack[top].raw {
				b = append([]byte(fmt.Sprintf(`"\u%04x`, v[0])), b[2:]...)
			}
			if key {
				stack[top].key = v
			}
			out.Write(b)
		case nil:
			out.WriteString("null")
		default:
			fmt.Fprint(&out, v)
		}
		if top >= 0 {
			stack[top].n++
		}
	}
}

// problems renders what a decoding found, but for the values of type
// errors, which quote the input as written.
func problems(res Result) []string {
	var out []string
	for _, e := range res.Errs {
		out = append(out, e.Field+": "+string(e.Type)+": "+e.Detail)
	}
	return append(out, res.Warnings...)
}

// TestDecodeLayoutIndependent: the decoders' fast paths (compact JSON, keys
// compared whole, strings read word by word) decode exactly what the slow
// paths decode: the API-server vectors and documents with every kind of
// problem decode to the same objects and problems when indented, with
// their keys escaped, or both.
func TestDecodeLayoutIndependent(t *testing.T) {
	vs := vectors.Load(t, "../..")
	docs := [][]byte{
		[]byte(`{"spec":{"replicas":"3","paused":1,"template":{"spec":{"containers":[{"name":"a","imagee":"x","ports":[{"containerPort":"80"}],"Name":"b","name":"c"}]}}},"unknown":{"a":[1,{"b":null}]}}`),
		[]byte(`{"metadata":{"labels":{"a":"b","a":"c"},"name":"x"},"metadata":{"annotations":{}},"spec":{"template":{"spec":{"containers":[{"resources":{"limits":{"memory":"1Gi","cpu":"x","cpu":"2"},"requests":{}}}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"volumes":[{"name":"v","configMap":{"name":"c","items":[{"key":"k","path":"p","mode":"x"}]}}],"tolerations":[{"key":"k","operator":"Exists","tolerationSeconds":1e3}]}}}}`),
		[]byte(`{"spec":{"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":0}},"selector":{"matchLabels":{"app":"\u00e9\ud800"}}}}`),
	}
	for _, v := range vs {
		docs = append(docs, v.Input)
	}
	for _, doc := range docs {
		want, wantRes := DecodeDeployment(doc, DecodeOptions{})
		if wantRes.Malformed {
			continue
		}
		wantJSON := AppendDeployment(nil, want, Stored)
		for _, variant := range []struct{ indent, escape bool }{{true, false}, {false, true}, {true, true}} {
			re, err := relayout(doc, variant.indent, variant.escape)
			if err != nil {
				t.Fatalf("relayout: %v\n%s", err, doc)
			}
			got, res := DecodeDeployment(re, DecodeOptions{})
			if !slices.Equal(problems(res), problems(wantRes)) {
				t.Fatalf("%+v: problems\n%q\nwant\n%q\n%s", variant, problems(res), problems(wantRes), re)
			}
			if gotJSON := AppendDeployment(nil, got, Stored); !bytes.Equal(gotJSON, wantJSON) {
				t.Fatalf("%+v: decodes to\n%s\nwant\n%s\nfrom\n%s", variant, gotJSON, wantJSON, re)
			}
			// Lenient decoding too.
			_, lres := DecodeDeployment(re, DecodeOptions{Lenient: true})
			_, lwant := DecodeDeployment(doc, DecodeOptions{Lenient: true})
			if !slices.Equal(problems(lres), problems(lwant)) {
				t.Fatalf("%+v: lenient problems\n%q\nwant\n%q", variant, problems(lres), problems(lwant))
			}
		}
	}
}

// TestDecodeKeepsNoInputBytes: a decoded object holds none of the caller's
// bytes (its strings point into the decoder's own copy, or are copies): it
// writes the same JSON after the input has been overwritten, for the
// API-server vectors (every field kind and spelling, quantities in every
// form, escaped strings) and for the same documents indented.
func TestDecodeKeepsNoInputBytes(t *testing.T) {
	vs := vectors.Load(t, "../..")
	checked := 0
	for _, v := range vs {
		indented, err := relayout(v.Input, true, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range [][]byte{v.Input, indented} {
			in := slices.Clone(doc)
			x, res := DecodeDeployment(in, DecodeOptions{})
			if res.Malformed {
				continue
			}
			before := AppendDeployment(nil, x, Stored)
			for i := range in {
				in[i] = 'x'
			}
			if after := AppendDeployment(nil, x, Stored); !bytes.Equal(after, before) {
				t.Fatalf("overwriting the input changed the object:\n%s\nwas\n%s", after, before)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d documents checked", checked)
	}
}
