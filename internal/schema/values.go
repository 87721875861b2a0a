package schema

import (
	"strconv"
	"time"
)

// IntOrString is intstr.IntOrString: a port number or name, or a count or
// percentage. Type is 0 for an int and 1 for a string, as upstream's.
type IntOrString struct {
	Type   int64
	IntVal int32
	StrVal string
}

// The types of an IntOrString.
const (
	IntType    int64 = 0
	StringType int64 = 1
)

// FromInt returns an IntOrString holding v.
func FromInt(v int32) IntOrString { return IntOrString{Type: IntType, IntVal: v} }

// FromString returns an IntOrString holding s.
func FromString(s string) IntOrString { return IntOrString{Type: StringType, StrVal: s} }

// String returns the value as written: the number or the string.
func (v IntOrString) String() string {
	if v.Type == StringType {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// Time is metav1.Time: a time with a resolution of one second, as the API
// serializes it (RFC 3339). The zero Time is absent.
type Time struct {
	time.Time
}

// FieldsV1 is metav1.FieldsV1: the managed-fields set, kept as the JSON
// value it was written as.
type FieldsV1 struct {
	Raw []byte
}
