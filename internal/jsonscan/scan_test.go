package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
)

var seeds = []string{
	`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web"}},
 "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "a", "args": ["-x", "a \"quoted\" \\ arg\\\\"], "env": []}]}}}}`,
	`{"a\"b": "\\", "c\\": "\\\"", "\u00e9": [1, -2.5e+3, true, false, null, {}, [], ""]}`,
	`[1, "x", {"k": [ ]} , [[]], null]`, `"a string"`, `-0.5`, `true`, `{}`, `[]`, ` { "a" : 1 } `,
	`{"kind": "List", "items": [{"kind": "Pod"}, {"kind": "Pod", "metadata": {"name": "p\\\\"}}]}`,
}

// checkScan checks the scanner against encoding/json on valid JSON: a
// value ends where it ends, an object's members are its members (keys
// decoded) and a list's elements its elements.
func checkScan(t *testing.T, data []byte) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return
	}
	if end, err := ValueEnd(data, 0); err != nil || end != len(data) {
		t.Fatalf("ValueEnd(%s) = %d, %v, want %d", data, end, err, len(data))
	}
	switch data[0] {
	case '{':
		var want map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]json.RawMessage{} // the last of repeated keys counts, as in want
		// Members keeps a key's bytes that are not UTF-8, encoding/json
		// writes each as U+FFFD, as string([]rune(key)) does.
		if !Members(data, func(key []byte, start, end int) { got[string([]rune(string(key)))] = data[start:end] }) {
			t.Fatalf("Members(%s) = false", data)
		}
		if len(got) != len(want) {
			t.Fatalf("Members(%s) = %q, want %q", data, got, want)
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("Members(%s)[%q] = %s, want %s", data, k, got[k], v)
			}
		}
	case '[':
		var want []json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		var got []json.RawMessage
		if !Elements(data, func(_ int, v []byte) { got = append(got, v) }) {
			t.Fatalf("Elements(%s) = false", data)
		}
		if len(got) != len(want) {
			t.Fatalf("Elements(%s) = %q, want %q", data, got, want)
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("Elements(%s)[%d] = %s, want %s", data, i, got[i], want[i])
			}
		}
	}
}

// TestScanAsEncodingJSON: on valid JSON the scanner finds what
// encoding/json finds.
func TestScanAsEncodingJSON(t *testing.T) {
	for _, s := range seeds {
		if !json.Valid([]byte(s)) {
			t.Fatalf("not valid: %s", s)
		}
		checkScan(t, []byte(s))
	}
}

// FuzzScan: on any valid JSON the scanner finds what encoding/json finds;
// on anything else it returns.
func FuzzScan(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScan(t, data)
		if len(data) > 0 { // never panics nor loops on bad input
			_, _ = ValueEnd(data, 0)
			Members(data, func([]byte, int, int) {})
			MembersWhile(data, func([]byte, int, int) bool { return true })
			Elements(data, func(int, []byte) {})
		}
	})
}

// TestStringEnd: a quote preceded by an odd number of backslashes is
// escaped; a string without its closing quote has no end.
func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{`"abc"x`, 4, true}, {`""`, 1, true}, {`"a\"b"`, 5, true}, {`"a\\"b"`, 4, true},
		{`"a\\\"b"`, 7, true}, {`"\\\\"`, 5, true}, {`"abc`, 4, false}, {`"a\"`, 4, false}, {`"a\`, 3, false},
	} {
		got, ok := StringEnd([]byte(tc.in), 1)
		if got != tc.want || ok != tc.ok {
			t.Errorf("StringEnd(%s, 1) = %d, %v, want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// BenchmarkValueEnd finds the end of a List of 1,000 Deployments as
// kubectl prints them.
func BenchmarkValueEnd(b *testing.B) {
	var buf strings.Builder
	buf.WriteString(`{"kind": "List", "items": [`)
	for i := range 1000 {
		if i > 0 {
			buf.WriteString(",\n")
		}
		io.WriteString(&buf, seeds[0])
	}
	buf.WriteString("]}")
	data := []byte(buf.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if end, err := ValueEnd(data, 0); err != nil || end != len(data) {
			b.Fatal(end, err)
		}
	}
}

// TestMembersWhile: MembersWhile gives the members Members gives, in
// order, up to and including the first for which f returns false, and
// then reports true; without a stop it is Members.
func TestMembersWhile(t *testing.T) {
	type member struct {
		key        string
		start, end int
	}
	for _, s := range append(seeds, `{"a":1,"b":{"c":[2]},"a\u0062":"x"}`, `{}`, `{"a":1,`, `[1]`) {
		obj := []byte(s)
		var all []member
		okAll := Members(obj, func(key []byte, start, end int) { all = append(all, member{string(key), start, end}) })
		for stop := range len(all) + 1 {
			var got []member
			ok := MembersWhile(obj, func(key []byte, start, end int) bool {
				got = append(got, member{string(key), start, end})
				return len(got) <= stop
			})
			want, wantOK := all, okAll
			if stop < len(all) {
				want, wantOK = all[:stop+1], true
			}
			if !slices.Equal(got, want) || ok != wantOK {
				t.Errorf("MembersWhile(%.40q) stopping after %d = %v, %v; want %v, %v", s, stop, got, ok, want, wantOK)
			}
		}
	}
}
