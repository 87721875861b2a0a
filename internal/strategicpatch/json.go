package strategicpatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// Documents are held as upstream holds them: map[string]any for objects,
// []any for arrays, string, bool, nil, and numbers as int64 when they are
// written without a '.' and fit, float64 otherwise (the "preserve ints"
// decoding of k8s.io/apimachinery/pkg/util/json). Marshalling them with
// encoding/json gives upstream's bytes exactly: sorted keys, the same
// escapes, the same number forms.

// decodeObject reads a JSON object as upstream's util/json.Unmarshal reads
// it into a map: "null" is a nil map; anything but an object is
// ErrBadJSONDoc. Duplicate keys keep the last value.
func decodeObject(data []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, ErrBadJSONDoc
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, ErrBadJSONDoc
	}
	switch t := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		if err := convertNumbers(t); err != nil {
			return nil, ErrBadJSONDoc
		}
		return t, nil
	}
	return nil, ErrBadJSONDoc
}

// convertNumbers replaces, in place, every json.Number under v by an int64
// or a float64 as upstream's decoder makes them.
func convertNumbers(v any) error {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if n, ok := x.(json.Number); ok {
				c, err := number(n)
				if err != nil {
					return err
				}
				t[k] = c
			} else if err := convertNumbers(x); err != nil {
				return err
			}
		}
	case []any:
		for i, x := range t {
			if n, ok := x.(json.Number); ok {
				c, err := number(n)
				if err != nil {
					return err
				}
				t[i] = c
			} else if err := convertNumbers(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// number is an int64 when s has no '.' and parses as one, else a float64;
// a number out of float64's range is an error.
func number(n json.Number) (any, error) {
	s := string(n)
	if !strings.Contains(s, ".") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("number %s out of range", s)
	}
	return f, nil
}

// marshal writes a document as upstream does (encoding/json.Marshal).
func marshal(v any) ([]byte, error) { return json.Marshal(v) }

// kind is the dynamic type of a decoded value.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindInt
	kindFloat
	kindString
	kindMap
	kindSlice
	kindOther // never produced by decoding
)

func kindOf(v any) kind {
	switch v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBool
	case int64:
		return kindInt
	case float64:
		return kindFloat
	case string:
		return kindString
	case map[string]any:
		return kindMap
	case []any:
		return kindSlice
	}
	return kindOther
}

// typeName names a value's Go type as reflect does, for error messages.
func typeName(v any) string {
	if v == nil {
		return "%!s(<nil>)"
	}
	return reflect.TypeOf(v).String()
}

// deepEqual is reflect.DeepEqual, upstream's comparison of values.
func deepEqual(a, b any) bool { return reflect.DeepEqual(a, b) }

// A failure is an error raised where upstream's code panics: comparing or
// hashing a JSON object or array, which Go cannot. It is raised with panic
// inside the package and turned back into an error by [recoverFailure] at
// every exported entry point.
type failure struct{ err error }

// recoverFailure turns a failure raised below into *err; other panics go
// on.
func recoverFailure(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}

// uncomparable reports whether Go's == panics on a and b: both hold the
// same uncomparable dynamic type.
func uncomparable(a, b any) bool {
	ka, kb := kindOf(a), kindOf(b)
	return ka == kb && (ka == kindMap || ka == kindSlice)
}

// same is a == b on interface values, as upstream compares merge key
// values and list elements.
func same(a, b any) bool {
	if uncomparable(a, b) {
		panic(failure{fmt.Errorf("cannot compare %s values: %v and %v", typeName(a), a, b)})
	}
	return a == b
}

// hashable returns v, for use as a map key, as upstream uses list elements
// as keys of a map[interface{}]...
func hashable(v any) any {
	if k := kindOf(v); k == kindMap || k == kindSlice {
		panic(failure{fmt.Errorf("cannot use a %s as a set element: %v", typeName(v), v)})
	}
	return v
}

// str is fmt's %v of a value: how upstream orders scalars and merge keys.
func str(v any) string { return fmt.Sprintf("%v", v) }
