package realfig

import (
	"fmt"
	"slices"
	"strings"
)

// A Known miss is a case where the model misses the rule for a reason we
// understand: Why says it, Misses are the exact sentences [Judge] returns.
type Known struct {
	Why    string
	Misses []string
}

// KnownMisses returns the cases of testdata/realsim/v1.36.3.json where
// [sim.ModelControllers] misses issue 23's rule, by case name. Each call
// returns a new map.
func KnownMisses() map[string]Known {
	// floor: MinAvailable is the fewest available of the likelier orders.
	// From 15 replicas and a step (maxSurge + maxUnavailable) of 10 pods
	// on, the deletes-first order lets the first creation of a sync go
	// before the deletions of its instant (sim's leadsDeletions): the
	// real Deployment controller writes the new ReplicaSet before it
	// scales the old one down, so the new one's first creation asks for
	// a token first, and the next batch starts only after the deletions
	// have asked for theirs (a real 100-replica timeline: one creation at
	// 8 s, 25 deletions from 8.05 to 9.25 s, the second batch at 9.3 s).
	// With pods ready at once that is the floor plus one, as the real
	// runs have it (100 replicas at 25%/25%: 76 in every run; 1,000: 751;
	// 200: 151 in 19 of 20 runs, 150 once). The cases left are those whose
	// pods take time to become ready, where the first new pod is not yet
	// available when the deletions go and the model stays at the floor
	// (or one above it) while the recorded runs stay up to 31 pods above
	// it: the deletions trail the new pods' availability there. Re-run on
	// 2026-11-27, 1,000 replicas ready after 5 s reached 781 in 6 of 8
	// runs but 756 and 758 in the other two, so those recorded ranges are
	// samples of a wider race; 500 replicas gave 377 to 406 (6 runs), as
	// recorded. Letting the first sync of a new ReplicaSet chain its
	// slow-start batches through the client's burst before the deletions
	// (as the real 1,000-replica runs mostly do: 31 pods ahead) puts all
	// six within the rule (tried on 2026-11-28), but the gate's figure
	// then goes above the real lowest at 500 replicas (406 against 377,
	// a run with 2 creations ahead) and on the 25%/25% ready-at-once
	// cases (78 against 76 at 100): how many creations go ahead is a race
	// of the two syncs' CPU time, and the gate keeps the low end.
	const floor = "fewest available is the floor (desired - maxUnavailable) or one above it; the real runs' deletions trail the new pods' availability"
	return map[string]Known{
		"scale/500":           {Why: floor, Misses: []string{"fewest available 375 (high 406); real 377 to 406"}},
		"scale/1000":          {Why: floor, Misses: []string{"fewest available 751 (high 781); real 781 to 781"}},
		"scale/2000":          {Why: floor, Misses: []string{"fewest available 1501 (high 1531); real 1531 to 1531"}},
		"readiness/1000/1s":   {Why: floor, Misses: []string{"fewest available 751 (high 770); real 770 to 781"}},
		"readiness/1000/5s":   {Why: floor, Misses: []string{"fewest available 751 (high 781); real 781 to 781"}},
		"readiness/1000/1m0s": {Why: "the recorded real deletions trail the new pods by 13 to 15 pods when pods take 60 s to become ready; the model deletes in step (PeakPodsHigh, 1,268, is above the recorded range, within the rule's 10%). Re-run on 2026-11-27, five real runs peaked at 1,251 (four; the model's figure until the Deployment controller's refused status writes, 1,253 since) and 1,260, and on 2026-11-28 eight more at 1,251 to 1,266: the recorded 1,264 to 1,266 is a sample of a wider race", Misses: []string{"peak 1253 pods (high 1268); real 1264 to 1266"}},
		// The quota cases with pods terminating for 30 s. The model's
		// retry path is the real one since 2026-11-28 (rollout/sim
		// finishSet and addRateLimited: a refused sync pauses 1 ms in the
		// error handler, then is re-added after the longer of the
		// per-item backoff, 5 ms doubling to 1,000 s, and the overall
		// bucket, 10 a second, burst 100; the queue keeps the earliest
		// pending add; the sync after one that created pods finds its
		// expectations unmet and forgets the failures; the ReplicaFailure
		// condition is kept while syncs keep failing, so a failed sync
		// writes no status). Before, the model retried every refused sync
		// it scheduled, with no pause, and completed at 1m29.845s and
		// 2m53.84s.
		"quota/10/max-12/terminating-30s":   {Why: "the real runs fail more syncs than the model's before the terminating pods free the quota, and each failure doubles the wait: in traced real runs of 10 replicas at quota 13 the last refusal before the long wait had 14 to 16 failures before it (the model 14), 1 or 2 of them v1.36's stale-informer check at the change, which the model, whose informers see every write at once, does not have, the others as many refusals as the syncs that one instant's events start", Misses: []string{"completes at 2m59.073s; real 255.805s to 993.086s, median 463.149s"}},
		"quota/100/max-110/terminating-30s": {Why: "the real retries of the quota-refused creations back off past the progress deadline (600 s) and complete after it (1 of 8 runs within 30 minutes); the model's run ends at the deadline", Misses: []string{"does not complete; real median 1259.69s"}},
		"qps/1000/5-10":                     {Why: floor, Misses: []string{"fewest available 751 (high 765); real 757 to 765"}},
	}
}

// Check judges f against r and the known misses: it returns the reason of
// a known miss that happened exactly as recorded ("" when f is within the
// rule), and an error for any other miss, for a known miss whose figures
// changed, and for a known miss that no longer happens (so the list stays
// true).
func Check(r Record, f Figures, known map[string]Known) (string, error) {
	misses := Judge(r, f)
	k, ok := known[r.Case.Name]
	switch {
	case !ok && len(misses) == 0:
		return "", nil
	case !ok:
		return "", fmt.Errorf("%s: %s", r.Case.Name, strings.Join(misses, "; "))
	case len(misses) == 0:
		return "", fmt.Errorf("%s: listed as a known miss (%s) but now within the rule: remove it from KnownMisses", r.Case.Name, k.Why)
	case !slices.Equal(misses, k.Misses):
		return "", fmt.Errorf("%s: known miss changed: now %s; listed %s", r.Case.Name, strings.Join(misses, "; "), strings.Join(k.Misses, "; "))
	}
	return k.Why, nil
}
