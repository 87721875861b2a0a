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
	// floor: MinAvailable is the fewest available of the likelier orders,
	// desired minus maxUnavailable, where the real deletions trail the new
	// pods' availability and the real runs stay a little above it. The
	// range the model reports, MinAvailable to MinAvailableHigh ("high"),
	// holds the real range's nearest end in all 9 (and overlaps the real
	// range in all 81 cases); the high end alone is within the real range
	// in 6 of the 9. In the real 1,000-replica runs the new ReplicaSet's
	// first slow-start batches (31 pods, within the client's burst) are
	// created before the old ReplicaSet's deletions, where the
	// deletes-first order lets the deletions take the burst. Letting a new
	// ReplicaSet's first sync go before the deletions of its instant (tried
	// on 2026-11-27) puts 5 of the 9 within the rule, but makes the gate's
	// figure optimistic (above the real lowest, realfig.Bounds) in 15
	// cases where real runs did reach the floor (10 replicas at 25%/25%,
	// ready at once: 10 against a real 8): which order wins is a race
	// whose odds the model does not know, and the gate keeps the floor.
	// Letting only the first slow-start batch (one pod) of a creating sync
	// go before the deletions of its instant, from 15 replicas on (tried
	// on 2026-11-27, as the real timelines show it) gives the floor plus
	// one that every real run of 15 to 1,000 replicas at 25%/25% ready at
	// once had (15, 20, 25, 50, 200 replicas 5 runs each; 100 in every
	// run of 20; 1,000 in every run of 14; 300 at 50 QPS in 4 of 4) and
	// puts 3 of the 9 within the rule, but is optimistic on a case outside
	// the file: 30 replicas at maxSurge 2, maxUnavailable 3, ready at
	// once, where 2 of 4 real runs reached the floor (27) and the model
	// said 28; so it is not kept.
	// Re-run on 2026-11-27 (realsim, same code): 1,000 replicas ready
	// after 5 s reached 781 in 6 of 8 runs but 756 and 758 in the other
	// two, below the recorded 781 to 781, so the recorded ranges of the
	// 1,000-replica cases are samples of a wider race and the floor is
	// not far from what a real run can do; 500 replicas gave 377 to 406
	// (6 runs), as recorded. Ready at once, the fewest available is the
	// floor plus one in every run (100 replicas: 76 in 6 of 6; 1,000:
	// 751 in 4 of 4; after 1 s: 770 in 4 of 4), at a later step, not the
	// first: in a real 100-replica timeline the first step's 25 creations
	// all took their tokens (0 to 0.5 s) before the old ReplicaSet's 25
	// deletions (0.55 to 2.05 s), while at the step of 5.3 s one creation
	// (the first slow-start batch, 5.35 s) went before the 25 deletions
	// (5.4 to 6.6 s, one per 50 ms token) and the next batch after them.
	// The model's in-order run has 7 creations ahead at that step (82,
	// the creations of the step before still in flight at 4.45 s; in the
	// real timeline the new ReplicaSet, scaled to 75 at 3.75 s, created
	// nothing before 5.35 s), the deletes-first run none (75).
	const floor = "fewest available is the floor (desired - maxUnavailable); the real runs' deletions trail the new pods' availability"
	return map[string]Known{
		"scale/500":                     {Why: floor, Misses: []string{"fewest available 375 (high 406); real 377 to 406"}},
		"scale/1000":                    {Why: floor, Misses: []string{"fewest available 750 (high 781); real 781 to 781"}},
		"scale/2000":                    {Why: floor, Misses: []string{"fewest available 1500 (high 1531); real 1531 to 1531"}},
		"strategy/25%-25%/100/ready-0s": {Why: floor, Misses: []string{"fewest available 75 (high 76); real 76 to 76"}},
		"readiness/100/0s":              {Why: floor, Misses: []string{"fewest available 75 (high 76); real 76 to 76"}},
		"readiness/1000/0s":             {Why: floor, Misses: []string{"fewest available 750 (high 751); real 751 to 751"}},
		"readiness/1000/1s":             {Why: floor, Misses: []string{"fewest available 750 (high 770); real 770 to 781"}},
		"readiness/1000/5s":             {Why: floor, Misses: []string{"fewest available 750 (high 781); real 781 to 781"}},
		"readiness/1000/1m0s":           {Why: "the recorded real deletions trail the new pods by 13 to 15 pods when pods take 60 s to become ready; the model deletes in step (PeakPodsHigh, 1,264, is within the recorded range). Re-run on 2026-11-27, five real runs peaked at 1,251 (four, the model's figure) and 1,260: the recorded 1,264 to 1,266 is a sample of a wider race", Misses: []string{"peak 1251 pods (high 1264); real 1264 to 1266"}},
		// The quota cases: the real work queue keeps one pending delayed
		// add of a ReplicaSet (the earliest asked for), the model every
		// retry it schedules. Keeping only the earliest (tried on
		// 2026-11-27) leaves quota/10/max-10 and max-11 blocked until the
		// progress deadline: their real retry once the old pods are gone
		// comes from the order of one instant's syncs, which the model
		// takes otherwise, so neither change is kept alone. Tried again on
		// 2026-11-27 with the measured figures: quota/10/max-10 stops at
		// the progress deadline (real 25 s), max-11 completes at 25 s
		// (real 20 s), and both terminating cases stop at the deadline
		// (the model ends a run there; the real runs went on and
		// completed). Two real mechanisms the model lacks decide the
		// retries: a sync whose expectations are not yet met writes only
		// the status and returns no error, which resets the per-item
		// backoff (Forget); and v1.36's stale-informer check fails a sync
		// that starts before the informer has seen the controller's own
		// last write, which counts as a failure and grows the backoff.
		"quota/10/max-12/terminating-30s":   {Why: "the real retries back off further while terminating pods hold the quota: in a real run the new ReplicaSet's per-item failure count reached 14 within 5 s (3 refused syncs within 1 ms of the change, 4 at the first readiness), so its retries waited 80 s and more; the model retries sooner", Misses: []string{"completes at 1m29.845s; real 255.805s to 993.086s, median 463.149s"}},
		"quota/100/max-110/terminating-30s": {Why: "the real run completes only once the quota backoff has grown toward 1,000 s while terminating pods hold the quota; the model retries sooner", Misses: []string{"completes at 2m53.84s; real 1259.69s to 1259.69s, median 1259.69s"}},
		"qps/1000/5-10":                     {Why: floor, Misses: []string{"fewest available 750 (high 765); real 757 to 765"}},
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
