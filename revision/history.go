package revision

import "strings"

// HistoryLimit is the controller's limit, in bytes, for the value of the
// revision-history annotation (about 100 entries).
const HistoryLimit = 2000

// AppendHistory returns the revision-history annotation value after a
// ReplicaSet whose revision was old is promoted to a newer revision (R-ANN-5
// step 6). The caller applies it only when the ReplicaSet already had a
// revision annotation and the new revision is larger.
//
// history is split on ",". Then:
//
//   - If the first piece is empty (history is "" or starts with ","), the
//     result is old alone, whatever its length and limit.
//   - Otherwise the result is the longest string
//     join(pieces[s:] + [old], ",") with s in [0, len(pieces)] whose length is
//     at most limit; pieces are dropped from the front. If even old alone
//     (s = len(pieces)) is longer than limit, the result is history unchanged
//     and old is lost.
//
// So, outside the first case, len(result) <= limit or result == history, and
// result == history only when len(old) > limit or the appended value happens
// to equal history. An empty old is appended as an empty entry. Example with
// limit 5 and promotions 11→12→13→14: "" → "11" → "11,12" → "12,13".
func AppendHistory(history, old string, limit int) string {
	pieces := strings.Split(history, ",")
	if pieces[0] == "" {
		return old
	}
	total := len(history) + len(old) + 1
	start := 0
	for total > limit && start < len(pieces) {
		total -= len(pieces[start]) + 1
		start++
	}
	if total > limit {
		return history
	}
	if start == len(pieces) {
		return old
	}
	return strings.Join(pieces[start:], ",") + "," + old
}
