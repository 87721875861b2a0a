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
// controllers race; for a run that went on past its progress deadline,
// each followed by the figure up to the deadline, Summary.UpToDeadline,
// by which check judges the syncs up to it: "; up to the progress
// deadline: 12 (12 to 13 as the controllers race; ceiling 12)"), time
// below the floor, and failed creates (when some). The first line always
// starts "outcome:".
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
	peak, low := peakWords(sm.Extremes()), availableWords(sm.Extremes())
	if sm.AfterDeadline != "" {
		// The whole run's figures go on past the progress deadline, as
		// the controllers do; check judges the syncs up to it by those
		// up to it.
		peak += "; " + upToDeadlineLead + peakWords(sm.UpToDeadline)
		low += "; " + upToDeadlineLead + availableWords(sm.UpToDeadline)
	}
	fmt.Fprintf(tw, "peak pods:\t%s\n", peak)
	fmt.Fprintf(tw, "min available:\t%s\n", low)
	fmt.Fprintf(tw, "below floor:\t%s\n", words.Duration(sm.BelowFloor))
	if sm.FailedCreates > 0 {
		fmt.Fprintf(tw, "failed creates:\t%d\n", sm.FailedCreates)
	}
	tw.Flush()
}

// upToDeadlineLead starts the figure up to the progress deadline on the
// peak pods and min available lines of a run that went on past it.
const upToDeadlineLead = "up to the progress deadline: "

// peakWords words the peak of e against its ceiling, with its range when
// the controllers race: "12 (12 to 14 as the controllers race; ceiling
// 12)".
func peakWords(e sim.Extremes) string {
	if e.PeakPodsLow != e.PeakPodsHigh {
		return fmt.Sprintf("%d (%d to %d as the controllers race; ceiling %d)", e.PeakPods, e.PeakPodsLow, e.PeakPodsHigh, e.Ceiling)
	}
	return fmt.Sprintf("%d (ceiling %d)", e.PeakPods, e.Ceiling)
}

// availableWords words the fewest available of e against its floor, with
// its range when the controllers race: "9 (9 to 10 as the controllers
// race; floor 9)".
func availableWords(e sim.Extremes) string {
	if e.MinAvailableHigh != e.MinAvailable {
		return fmt.Sprintf("%d (%d to %d as the controllers race; floor %d)", e.MinAvailable, e.MinAvailable, e.MinAvailableHigh, e.Floor)
	}
	return fmt.Sprintf("%d (floor %d)", e.MinAvailable, e.Floor)
}
