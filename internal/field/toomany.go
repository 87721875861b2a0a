package field

import "strconv"

// TooManyItems returns a TooMany error for a list of actual items where at
// most max are allowed, worded as upstream's field.TooMany: "Too many: 21:
// must have at most 20 items".
func TooManyItems(p *Path, actual, max int) *Error {
	unit := "items"
	if max == 1 {
		unit = "item"
	}
	return &Error{Type: TooMany, Field: p.String(), Value: strconv.Itoa(actual), Detail: "must have at most " + strconv.Itoa(max) + " " + unit}
}

// NotFoundDetail returns a NotFound error that explains what was expected,
// as upstream does by setting the Detail of a field.NotFound.
func NotFoundDetail(p *Path, value, detail string) *Error {
	return &Error{Type: NotFound, Field: p.String(), Value: value, Detail: detail}
}

// InternalValue returns an Internal error: a value of a kind validation
// does not know, which decoding should have refused.
func InternalValue(p *Path, detail string) *Error {
	return &Error{Type: Internal, Field: p.String(), Detail: detail}
}
