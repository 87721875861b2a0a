package check

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestMomentHoldsNoPointer holds a moment to what its doc says: no
// pointer (so that the collector does not scan the millions a long run
// keeps) and, on 64-bit machines, 72 bytes.
func TestMomentHoldsNoPointer(t *testing.T) {
	typ := reflect.TypeFor[moment]()
	for i := range typ.NumField() {
		switch f := typ.Field(i); f.Type.Kind() {
		case reflect.Bool, reflect.Int32, reflect.Int64:
		default:
			t.Errorf("moment.%s is a %s: a moment holds numbers and flags only", f.Name, f.Type)
		}
	}
	if n := unsafe.Sizeof(moment{}); unsafe.Sizeof(uintptr(0)) == 8 && n != 72 {
		t.Errorf("a moment takes %d bytes, want 72", n)
	}
}
