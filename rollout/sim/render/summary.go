package render

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// StrategyLine names the Deployment's replicas and strategy, with the
// resolved maxSurge and maxUnavailable in parentheses: "replicas 10,
// maxSurge 25% (3), maxUnavailable 25% (2)", or "replicas 3, strategy
// Recreate".
func StrategyLine(d rollout.Deployment) string {
	st := d.Spec.Strategy
	if st.Type == rollout.RecreateStrategy {
		return fmt.Sprintf("replicas %d, strategy Recreate", d.Spec.Replicas)
	}
	l := rollout.Limits(d)
	return fmt.Sprintf("replicas %d, maxSurge %s (%d), maxUnavailable %s (%d)", d.Spec.Replicas,
		st.RollingUpdate.MaxSurge, l.Surge, st.RollingUpdate.MaxUnavailable, rollout.MaxUnavailable(d))
}

// Summary prints the summary of a run, a "key: value" line each with the
// values aligned: outcome (with the Detail after a colon), duration and
// syncs, when a run past its progress deadline completed (when it did),
// last change (when it is not the duration), peak pods against the
// ceiling, min available against the floor (each with the range when the
// controllers race), time below the floor, and failed creates (when
// some). The first line always starts "outcome:".
func Summary(w io.Writer, sm sim.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	outcome := string(sm.Outcome)
	if sm.Detail != "" {
		outcome += ": " + sm.Detail
	}
	fmt.Fprintf(tw, "outcome:\t%s\n", outcome)
	fmt.Fprintf(tw, "duration:\t%s (%s)\n", words.Duration(sm.Duration), words.Plural(sm.Syncs, "sync"))
	if sm.CompleteAfterDeadline > 0 {
		fmt.Fprintf(tw, "complete after:\t%s (past the progress deadline, exceeded at %s)\n", words.Duration(sm.CompleteAfterDeadline), words.Duration(sm.DeadlineExceededAt))
	}
	if sm.LastChange != sm.Duration {
		fmt.Fprintf(tw, "last change:\t%s\n", words.Duration(sm.LastChange))
	}
	if sm.PeakPodsLow != sm.PeakPodsHigh {
		fmt.Fprintf(tw, "peak pods:\t%d (%d to %d as the controllers race; ceiling %d)\n", sm.PeakPods, sm.PeakPodsLow, sm.PeakPodsHigh, sm.Ceiling)
	} else {
		fmt.Fprintf(tw, "peak pods:\t%d (ceiling %d)\n", sm.PeakPods, sm.Ceiling)
	}
	if sm.MinAvailableHigh != sm.MinAvailable {
		fmt.Fprintf(tw, "min available:\t%d (%d to %d as the controllers race; floor %d)\n", sm.MinAvailable, sm.MinAvailable, sm.MinAvailableHigh, sm.Floor)
	} else {
		fmt.Fprintf(tw, "min available:\t%d (floor %d)\n", sm.MinAvailable, sm.Floor)
	}
	fmt.Fprintf(tw, "below floor:\t%s\n", words.Duration(sm.BelowFloor))
	if sm.FailedCreates > 0 {
		fmt.Fprintf(tw, "failed creates:\t%d\n", sm.FailedCreates)
	}
	tw.Flush()
}
