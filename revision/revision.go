package revision

import (
	"errors"
	"math"
	"strconv"
)

// A Rev is a parsed revision annotation.
//
// The zero Rev is invalid (N 0, Valid false); a missing annotation is
// Of("", false), which is revision 0 and valid.
type Rev struct {
	N     int64 // the revision; 0 when Valid is false
	Valid bool  // false when the annotation is present but does not parse
}

// Of reads a revision annotation (R-REV-1). An absent annotation (present
// false) is Rev{0, true}: upstream treats a missing revision as revision 0.
// A present value is parsed with [Parse]; on error Of returns Rev{0, false}.
//
// A present but empty value is invalid, so [Max], [Last], [Prune] and
// [Rollback] treat it as unparsable, as upstream's Revision does (the history
// update in R-ANN-5 reads "" as 0 instead ).
func Of(value string, present bool) Rev {
	if !present {
		return Rev{N: 0, Valid: true}
	}
	n, err := Parse(value)
	if err != nil {
		return Rev{}
	}
	return Rev{N: n, Valid: true}
}

// ErrSyntax reports that a value is not a base-10 integer.
var ErrSyntax = errors.New("invalid syntax")

// ErrRange reports that a value is outside the int64 range.
var ErrRange = errors.New("value out of range")

// ErrOverflow reports that [Next] has no revision to give: the largest
// revision is already math.MaxInt64.
var ErrOverflow = errors.New("revision: next revision overflows int64")

// A ParseError records a failed [Parse], like strconv.NumError.
type ParseError struct {
	Input string // the value that failed to parse
	Err   error  // ErrSyntax or ErrRange
}

// Error returns `revision: parsing "<input>": <reason>`, for example
// `revision: parsing "1.5": invalid syntax`.
func (e *ParseError) Error() string {
	return "revision: parsing " + strconv.Quote(e.Input) + ": " + e.Err.Error()
}

// Unwrap returns [ErrSyntax] or [ErrRange], for errors.Is.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse parses a revision exactly as strconv.ParseInt(s, 10, 64) does
// (R-REV-1): an optional '+' or '-' followed by one or more ASCII digits;
// leading zeros are allowed, spaces and underscores are not, and "" is an
// error. On error Parse returns 0 and a *[ParseError] wrapping [ErrSyntax] or
// [ErrRange] (strconv would return the clamped value for a range error).
// For every int64 n, Parse(strconv.FormatInt(n, 10)) == n.
func Parse(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err == nil {
		return n, nil
	}
	reason := ErrSyntax
	if errors.Is(err, strconv.ErrRange) {
		reason = ErrRange
	}
	return 0, &ParseError{Input: s, Err: reason}
}

// Max returns the largest valid revision in revs, starting from 0, so it is
// never negative and an empty list gives 0 (R-REV-2). Invalid revisions are
// skipped. Max(revs) >= r.N for every valid r in revs.
func Max(revs []Rev) int64 {
	m := int64(0)
	for _, r := range revs {
		if r.Valid && r.N > m {
			m = r.N
		}
	}
	return m
}

// Last returns the revision a rollback to "the previous revision" targets
// (R-REV-3): the second-largest of the valid revisions counted with
// multiplicity, or 0 if that is negative or there are fewer than two.
// Duplicates of the maximum return the maximum: [2,2] gives 2;
// [3,1,2] gives 2; [invalid,5] gives 0. Always 0 <= Last(revs) <= Max(revs).
func Last(revs []Rev) int64 {
	largest, second := int64(0), int64(0)
	for _, r := range revs {
		switch {
		case !r.Valid:
		case r.N >= largest:
			second, largest = largest, r.N
		case r.N > second:
			second = r.N
		}
	}
	return second
}

// Next returns the revision for a new or re-promoted ReplicaSet:
// Max(revs)+1, which is at least 1 and greater than every valid revision in
// revs. If Max(revs) is math.MaxInt64 it returns 0 and [ErrOverflow] (upstream
// wraps to a negative revision).
func Next(revs []Rev) (int64, error) {
	m := Max(revs)
	if m == math.MaxInt64 {
		return 0, ErrOverflow
	}
	return m + 1, nil
}
