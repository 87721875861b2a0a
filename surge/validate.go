package surge

import (
	"errors"
	"strconv"
)

// The API server's detail messages for a rolling update's values (§1.4).
const (
	detailNegative = "must be greater than or equal to 0"
	detailOver100  = "must not be greater than 100%"
	detailBothZero = "may not be 0 when `maxSurge` is 0"
)

// An InvalidError reports a value the API server would refuse, in the API
// server's words.
type InvalidError struct {
	Field  string // "maxSurge" or "maxUnavailable"
	Value  Value  // the refused value
	Detail string // the API server's detail message
}

// Error returns the API server's format relative to the rollingUpdate field,
// with a percent quoted and a count bare:
//
//	maxUnavailable: Invalid value: "125%": must not be greater than 100%
//	maxSurge: Invalid value: -1: must be greater than or equal to 0
func (e *InvalidError) Error() string {
	val := e.Value.String()
	if e.Value.IsPercent() {
		val = strconv.Quote(val)
	}
	return e.Field + ": Invalid value: " + val + ": " + e.Detail
}

// Validate applies the API server's rules for a RollingUpdate's maxSurge
// and maxUnavailable (§1.4):
//
//   - each must be >= 0 ("must be greater than or equal to 0");
//   - maxUnavailable as a percent must be <= 100% ("must not be greater
//     than 100%"); maxSurge percentages are unbounded;
//   - they may not both be zero, where 0 and 0% both count as zero; this is
//     reported on maxUnavailable ("may not be 0 when `maxSurge` is 0").
//
// Validate returns nil, a single *[InvalidError], or an [errors.Join] of
// several in field order (maxSurge first). Each field has at most one error.
func Validate(maxSurge, maxUnavailable Value) error {
	var errs []error
	if maxSurge.n < 0 {
		errs = append(errs, &InvalidError{Field: "maxSurge", Value: maxSurge, Detail: detailNegative})
	}
	if d := unavailableDetail(maxSurge, maxUnavailable); d != "" {
		errs = append(errs, &InvalidError{Field: "maxUnavailable", Value: maxUnavailable, Detail: d})
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.Join(errs...)
}

// unavailableDetail returns the one rule maxUnavailable breaks, or "". The
// three rules exclude each other.
func unavailableDetail(maxSurge, maxUnavailable Value) string {
	switch {
	case maxUnavailable.n < 0:
		return detailNegative
	case maxUnavailable.IsZero() && maxSurge.IsZero():
		return detailBothZero
	case maxUnavailable.percent && maxUnavailable.n > 100:
		return detailOver100
	}
	return ""
}
