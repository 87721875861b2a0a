package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// A Change is one field whose stored value an apply changes.
type Change struct {
	// Path is the field in the form a reader recognizes:
	// spec.template.spec.containers[name=app].image. Elements of lists
	// that the API merges by a key are named by that key, others by index.
	Path string
	// From and To are the values before and after, as JSON; From is empty
	// for a field the apply adds, To for one it removes.
	From, To string
}

// String renders the change: "path changed: from -> to", or "path added"
// or "path removed" with the value.
func (c Change) String() string {
	switch {
	case c.From == "":
		return c.Path + " added: " + c.To
	case c.To == "":
		return c.Path + " removed: " + c.From
	}
	return c.Path + " changed: " + c.From + " -> " + c.To
}

// diff returns the changes from before to after, two stored objects of
// the schema type root, as JSON. Paths come in the order of the JSON
// members (byte order of names), lists element by element.
func diff(before, after []byte, root int) ([]Change, error) {
	var a, b any
	if err := decodeJSON(before, &a); err != nil {
		return nil, err
	}
	if err := decodeJSON(after, &b); err != nil {
		return nil, err
	}
	var out []Change
	diffValue(a, b, root, "", &out)
	return out, nil
}

func decodeJSON(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// diffValue compares a and b, the values at path; st is the index of
// their schema struct type when they are objects of one, else -1.
func diffValue(a, b any, st int, path string, out *[]Change) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(av)+len(bv))
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, ok := av[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			child, elem, mergeKey := -1, -1, ""
			if st >= 0 {
				if f, ok := schema.Structs[st].Member(k); ok {
					child = f.Elem
					if f.Kind == schema.KindSlice {
						elem, child, mergeKey = f.Elem, -1, f.PatchMergeKey
					}
				}
			}
			p := k
			switch {
			case st < 0:
				p = path + "[" + k + "]" // a map's key
			case path != "":
				p = path + "." + k
			}
			x, inA := av[k]
			y, inB := bv[k]
			switch {
			case !inA:
				*out = append(*out, Change{Path: p, To: render(y)})
			case !inB:
				*out = append(*out, Change{Path: p, From: render(x)})
			case elem >= 0 || mergeKey != "":
				diffList(x, y, elem, mergeKey, p, out)
			default:
				diffValue(x, y, child, p, out)
			}
		}
		return
	case []any:
		diffList(a, b, -1, "", path, out)
		return
	}
	if render(a) != render(b) {
		*out = append(*out, Change{Path: path, From: render(a), To: render(b)})
	}
}

// diffList compares two lists: by mergeKey when the API merges them by
// one, else element by element when they have the same length, else as
// wholes.
func diffList(a, b any, elem int, mergeKey, path string, out *[]Change) {
	al, okA := a.([]any)
	bl, okB := b.([]any)
	if !okA || !okB {
		if render(a) != render(b) {
			*out = append(*out, Change{Path: path, From: render(a), To: render(b)})
		}
		return
	}
	if mergeKey != "" && keyed(al, mergeKey) && keyed(bl, mergeKey) {
		// Elements pair by key, the n-th with a key before with the n-th
		// with that key after: lists may repeat a key (two ports of one
		// containerPort, TCP and UDP).
		key := func(v any) string { return fmt.Sprint(v.(map[string]any)[mergeKey]) }
		name := func(k string, n int) string {
			if n == 0 {
				return path + "[" + mergeKey + "=" + k + "]"
			}
			return fmt.Sprintf("%s[%s=%s #%d]", path, mergeKey, k, n+1)
		}
		after := map[string][]int{} // key -> indexes in bl
		for j, y := range bl {
			after[key(y)] = append(after[key(y)], j)
		}
		seen := map[string]int{} // key -> occurrences in al so far
		for _, x := range al {
			k := key(x)
			n := seen[k]
			seen[k]++
			if n >= len(after[k]) {
				*out = append(*out, Change{Path: name(k, n), From: render(x)})
				continue
			}
			diffValue(x, bl[after[k][n]], elem, name(k, n), out)
		}
		added := map[string]int{}
		for _, y := range bl {
			k := key(y)
			if n := added[k]; n >= seen[k] {
				*out = append(*out, Change{Path: name(k, n), To: render(y)})
			}
			added[k]++
		}
		both := map[string]bool{}
		for k := range seen {
			if len(after[k]) > 0 {
				both[k] = true
			}
		}
		if order(al, key, both) != order(bl, key, both) {
			*out = append(*out, Change{Path: path + " (order)", From: order(al, key, nil), To: order(bl, key, nil)})
		}
		return
	}
	if len(al) != len(bl) {
		*out = append(*out, Change{Path: path, From: render(a), To: render(b)})
		return
	}
	for i := range al {
		diffValue(al[i], bl[i], elem, fmt.Sprintf("%s[%d]", path, i), out)
	}
}

// keyed reports whether every element of l is an object with key k.
func keyed(l []any, k string) bool {
	for _, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// order renders the keys of l's elements in order, those in only when
// only is not nil.
func order(l []any, key func(any) string, only map[string]bool) string {
	var ks []string
	for _, x := range l {
		if k := key(x); only == nil || only[k] {
			ks = append(ks, k)
		}
	}
	return "[" + strings.Join(ks, " ") + "]"
}

// render writes a value as compact JSON.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
