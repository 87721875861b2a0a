package sim

import "github.com/rolloutmath/rolloutmath/rollout"

// WithoutFastForward returns cfg with fast-forward turned off, so that
// tests can compare a run computed sync by sync with one fast-forwarded.
func WithoutFastForward(cfg Config) Config {
	cfg.noFastForward = true
	return cfg
}

// WithFastForwardKeep returns cfg (ModelSimple) with its fast-forward
// pausing after keep syncs looked at without a period rather than
// ffKeep, so that tests take the pauses often.
func WithFastForwardKeep(cfg Config, keep int) Config {
	cfg.ffKeep = keep
	return cfg
}

// FFKeep is ffKeep.
const FFKeep = ffKeep

// WithEveryPod returns cfg with a Recreate Deployment's syncs given a Pod
// for every cohort of pods, not one for each ReplicaSet that has pods, so
// that tests can compare the two.
func WithEveryPod(cfg Config) Config {
	cfg.everyPod = true
	return cfg
}

// WithoutPlanCache returns cfg with the controllers model's plan cache
// turned off, so that tests can compare runs with and without it.
func WithoutPlanCache(cfg Config) Config {
	cfg.planCache = planCacheOff
	return cfg
}

// WithOrdersCopied returns cfg with each order of a ModelControllers run
// deep-copying the State, as a run with Config.Edits does, rather than
// the orders sharing one copy, so that tests can compare the two.
func WithOrdersCopied(cfg Config) Config {
	cfg.copyOrders = true
	return cfg
}

// CheckPlanCache runs s under cfg (ModelControllers) as Run does, but
// computes every plan it takes from the cache again and compares the
// two. It returns the Result, how many plans came from the cache, and the
// first that differed from a fresh Plan ("" when none did).
func CheckPlanCache(s rollout.State, cfg Config) (Result, int, string, error) {
	if err := cfg.check(); err != nil {
		return Result{}, 0, "", err
	}
	if err := validState(s); err != nil {
		return Result{}, 0, "", err
	}
	cfg.planCache = planCacheVerify
	plans := newPlanCache(cfg)
	res, _ := runRacesWith(s, cfg, plans)
	if plans == nil {
		return res, 0, "", nil
	}
	return res, plans.hits, plans.mismatch, nil
}

// JumpsRetaken runs s under cfg (ModelControllers) in order, as the
// Result's steps are run, and returns how many of its fast-forward's
// jumps took the cycle again after one period seen, with the last
// jump's moves (ctlFF.again), how many super-jumps it took (ffsuper.go)
// and how many syncs it fast-forwarded.
func JumpsRetaken(s rollout.State, cfg Config) (retaken, supers, forwarded int, err error) {
	if err := cfg.check(); err != nil {
		return 0, 0, 0, err
	}
	if err := validState(s); err != nil {
		return 0, 0, 0, err
	}
	r := newControllersRunner(s, cfg, raceFIFO, nil)
	r.runControllers()
	if r.ff.ctl != nil {
		retaken, supers = r.ff.ctl.retaken, r.ff.ctl.supers
	}
	return retaken, supers, r.sum.FastForwarded, nil
}

// CohortWalks runs s under cfg (ModelControllers) in order, as the
// Result's steps are run, and returns the work it counted, the events it
// handled and the cohorts the pod model held at each event, summed, with
// those its flattenings wrote beyond the free ones, weighed.
func CohortWalks(s rollout.State, cfg Config) (work, events int, walked int64, err error) {
	if err := cfg.check(); err != nil {
		return 0, 0, 0, err
	}
	if err := validState(s); err != nil {
		return 0, 0, 0, err
	}
	r := newControllersRunner(s, cfg, raceFIFO, nil)
	r.runControllers()
	return r.work, r.events, r.walked, nil
}

// Flattenings runs s under cfg (under ModelControllers in order) and
// returns how many states its fast-forward flattened and (under
// ModelControllers) the most cohorts one of them held.
func Flattenings(s rollout.State, cfg Config) (flattened, widest int, err error) {
	if err := cfg.check(); err != nil {
		return 0, 0, err
	}
	if err := validState(s); err != nil {
		return 0, 0, err
	}
	if cfg.Model == ModelSimple {
		r := newRunner(s, cfg)
		r.run()
		return r.ff.flattened, 0, nil
	}
	r := newControllersRunner(s, cfg, raceFIFO, nil)
	r.runControllers()
	if r.ff.ctl != nil {
		flattened, widest = r.ff.ctl.flattened, r.ff.ctl.widest
	}
	return flattened, widest, nil
}

// FreeCohorts and CohortsPerWork are freeCohorts and cohortsPerWork.
const (
	FreeCohorts    = freeCohorts
	CohortsPerWork = cohortsPerWork
)

// DeletesLastCut runs the order where deletions go last of s under cfg
// alone and reports whether Config.PeakPodsAbove ended it early (never
// where that order's peak is the gate's, burstLeads).
func DeletesLastCut(s rollout.State, cfg Config) bool {
	if burstLeads(s.Deployment, cfg) {
		return false
	}
	v := newControllersRunner(s, cfg, raceDeletesLast, nil)
	return v.runControllersBelow(cfg.PeakPodsAbove)
}
