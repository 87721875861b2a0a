package revision

import "errors"

// ErrNoPrevious reports a rollback to the previous revision when there is
// none (R-RB-2 step 3).
var ErrNoPrevious = errors.New("unable to find last revision")

// ErrNotFound reports a rollback to a revision no ReplicaSet has (R-RB-2
// step 5).
var ErrNotFound = errors.New("unable to find the revision to rollback to")

// Rollback selects the ReplicaSet a rollback request restores (R-RB-2 steps
// 3-5). revs are the ReplicaSets' revisions in the controller's order: old
// ReplicaSets oldest first, then the new one. to is the requested revision; 0
// means the previous revision, Last(revs).
//
// On success revs[index] is the first valid Rev whose N equals target, and
// target is to, or Last(revs) when to is 0. Otherwise index is -1 and err is
// exactly [ErrNoPrevious] (to is 0 and Last(revs) is 0; target is 0) or
// [ErrNotFound] (no valid Rev equals target). Invalid revisions never match.
func Rollback(revs []Rev, to int64) (index int, target int64, err error) {
	target = to
	if target == 0 {
		if target = Last(revs); target == 0 {
			return -1, 0, ErrNoPrevious
		}
	}
	for i, r := range revs {
		if r.Valid && r.N == target {
			return i, target, nil
		}
	}
	return -1, target, ErrNotFound
}

// ParseRollbackTo reads the deprecated.deployment.rollback.to annotation
// (R-RB-1). ok is false, meaning no rollback request, when value is "" or does
// not parse with [Parse]; otherwise to is the parsed value. 0 requests the
// previous revision; a negative value is a request that [Rollback] can match
// only if some ReplicaSet carries that negative revision.
func ParseRollbackTo(value string) (to int64, ok bool) {
	if value == "" {
		return 0, false
	}
	n, err := Parse(value)
	if err != nil {
		return 0, false
	}
	return n, true
}
