package sim

import (
	"github.com/rolloutmath/rolloutmath/rollout"
)

// DefaultMaxSteps is the steps a caller that shows a run keeps by
// default: `rolloutctl simulate --max-steps` and the playground. A step
// of a large rollout holds about half a kilobyte, and its line of text
// or JSON as much again.
const DefaultMaxSteps = 100_000

// RunFirst is Run keeping at most keep steps, so that a caller that
// shows a run's steps holds a bounded number of them whatever the
// rollout's size.
//
// It runs cfg first with OmitSteps, which makes no steps and so takes
// the fast-forward's longer jumps, within MaxWork. A run of at most keep
// syncs (and any run when keep is at most 0 or cfg.OmitSteps is set) is
// then Run's Result, and left is 0. A longer run keeps its first steps,
// those of Run stopped at keep syncs (Config.MaxSyncs, which no jump
// passes): keep of them, or fewer where making steps reaches MaxWork
// sooner (a run of 2,147,483,647 replicas one pod at a time, which the
// run without steps carries to its end). The rest of its Result (the
// Summary, Final and DeadlineFreeFrom) is the run's without steps: its
// Summary is the whole run's, as rollout/check computes it; left is
// the number of its syncs not kept. Config.Observe sees the kept steps,
// and ObserveDeletesFirst that order's first keep steps. The Summary of
// a run without steps differs from Run's only where the fast-forward's
// work does: its FastForwarded count and, near MaxWork, a run that the
// longer jumps carry to its end where Run stops at the limit
// (TestRunFirst).
func RunFirst(s rollout.State, cfg Config, keep int) (res Result, left int, err error) {
	if keep <= 0 || cfg.OmitSteps || (cfg.MaxSyncs > 0 && cfg.MaxSyncs <= keep) {
		res, err = Run(s, cfg)
		return res, 0, err
	}
	quiet := cfg
	quiet.OmitSteps, quiet.Observe, quiet.ObserveDeletesFirst, quiet.DeletesFirstDone = true, nil, nil, nil
	all, err := Run(s, quiet)
	if err != nil {
		return Result{}, 0, err
	}
	if all.Summary.Syncs <= keep {
		res, err = Run(s, cfg)
		return res, 0, err
	}
	first := cfg
	first.MaxSyncs = keep
	if res, err = Run(s, first); err != nil {
		return Result{}, 0, err
	}
	all.Steps = res.Steps
	return all, all.Summary.Syncs - len(res.Steps), nil
}
