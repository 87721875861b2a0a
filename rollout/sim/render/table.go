package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// A Head is what a simulation's table says before its syncs: the
// rollout (Title), the Kubernetes minors modelled (Version), the pod model
// (Model), where the pods' times come from (Times, each printed after
// "pod times: ") and what the policy objects changed (Notes, each after
// "policy: "). A zero Head prints four empty lines and the strategy.
type Head struct {
	Title, Version, Model string
	Times, Notes          []string
}

// Table prints a simulation like `kubectl get rs -w`: head's lines and
// the Deployment's strategy, then for each sync its number, its time
// after the start and each ReplicaSet's counts (when they changed since
// the sync before), then the actions that change ReplicaSets or the
// Deployment, each with its reason, why a sync that changes nothing waits
// (see [WaitReason]), and a note on each double write (see
// [DoubleWrite]); then the summary (see [Summary]). Status writes are
// shown as the conditions they change. Old ReplicaSets that stay at zero
// are left out, and runs of two or more syncs that change nothing and say
// nothing new fold into one line. The output depends on its arguments
// alone; Table modifies neither s nor res.
func Table(w io.Writer, head Head, s rollout.State, res sim.Result) {
	fmt.Fprintf(w, "%s\n%s\n%s\n%s\n", head.Title, head.Version, StrategyLine(s.Deployment), head.Model)
	for _, t := range head.Times {
		fmt.Fprintf(w, "pod times: %s\n", t)
	}
	for _, n := range head.Notes {
		fmt.Fprintf(w, "policy: %s\n", n)
	}
	fmt.Fprintln(w)
	terminating, pending := false, false
	for _, st := range res.Steps {
		for _, c := range st.Sets {
			terminating = terminating || c.Terminating > 0
			pending = pending || c.Pending > 0
		}
	}
	header := []string{"SYNC", "TIME", "REPLICASET", "REV", "DESIRED", "CURRENT", "READY", "AVAILABLE"}
	if terminating {
		header = append(header, "TERMINATING")
	}
	if pending {
		header = append(header, "PENDING")
	}
	blocks := tableBlocks(s, res, terminating, pending)
	widths := make([]int, len(header))
	measure := func(cells []string) {
		for k, c := range cells {
			if k < len(cells)-1 || len(cells) == len(header) {
				widths[k] = max(widths[k], len(c))
			}
		}
	}
	measure(header)
	for _, b := range blocks {
		for _, r := range b.rows {
			measure(r)
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for k, c := range cells {
			b.WriteString(c)
			if k < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[k]-len(c)+2))
			}
		}
		fmt.Fprintln(w, b.String())
	}
	indent := strings.Repeat(" ", widths[0]+2+widths[1]+2)
	line(header)
	for _, b := range blocks {
		for _, r := range b.rows {
			line(r)
		}
		for _, l := range b.lines {
			fmt.Fprintf(w, "%s%s\n", indent, l)
		}
	}
	fmt.Fprintln(w)
	Summary(w, res.Summary)
}

// A tableBlock is what the table shows of a sync, or of a run of quiet
// syncs: its rows and the lines under them.
type tableBlock struct {
	rows  [][]string
	lines []string
	quiet bool // no change, nothing to say: it may fold into the next
	first int  // the first sync, from 0
}

// tableBlocks lays out the syncs of a run.
func tableBlocks(s rollout.State, res sim.Result, terminating, pending bool) []tableBlock {
	prevConds := map[rollout.ConditionType]string{}
	for _, c := range s.Deployment.Status.Conditions {
		prevConds[c.Type] = c.Reason
	}
	zero := func(c sim.SetCount) bool {
		return !c.New && c.Desired == 0 && c.Current == 0 && c.Ready == 0 && c.Available == 0 && c.Terminating == 0
	}
	wasZero := map[string]bool{}
	for _, c := range res.Start.Sets {
		wasZero[c.Name] = zero(c)
	}
	var blocks []tableBlock
	var prev []sim.SetCount
	lastWait := ""
	for i, st := range res.Steps {
		first := []string{fmt.Sprint(i + 1), "+" + words.Duration(st.At.Sub(s.Now))}
		b := tableBlock{first: i}
		changed := i == 0 || !slices.Equal(prev, st.Sets)
		if changed {
			for _, c := range st.Sets {
				if zero(c) && wasZero[c.Name] {
					continue // an old ReplicaSet that stays at zero
				}
				name := c.Name
				if c.New {
					name += " (new)"
				}
				row := []string{"", "", name, c.Revision, fmt.Sprint(c.Desired), fmt.Sprint(c.Current), fmt.Sprint(c.Ready), fmt.Sprint(c.Available)}
				if terminating {
					row = append(row, fmt.Sprint(c.Terminating))
				}
				if pending {
					row = append(row, fmt.Sprint(c.Pending))
				}
				b.rows = append(b.rows, row)
			}
			if len(b.rows) == 0 {
				b.rows = [][]string{{"", "", "(no ReplicaSets)"}}
			}
			copy(b.rows[0], first)
		} else {
			b.rows = [][]string{append(first, "(no change)")}
		}
		for _, c := range st.Sets {
			wasZero[c.Name] = zero(c)
		}
		prev = st.Sets
		scaled := false
		for k, a := range st.Actions {
			if text := actionLine(a); text != "" {
				b.lines = append(b.lines, text)
				if a.Reason != "" {
					b.lines = append(b.lines, "  why: "+a.Reason)
				}
				if DoubleWrite(st.Actions, k) {
					b.lines = append(b.lines, "  note: "+ConflictNote)
				}
			}
			scaled = scaled || a.Type == rollout.CreateReplicaSet || a.Type == rollout.ScaleReplicaSet
		}
		for _, c := range st.Conditions {
			if prevConds[c.Type] != c.Reason {
				b.lines = append(b.lines, fmt.Sprintf("condition %s=%s %s: %s", c.Type, c.Status, c.Reason, c.Message))
				prevConds[c.Type] = c.Reason
			}
		}
		if st.Err != nil {
			b.lines = append(b.lines, "error: "+st.Err.Error())
		}
		wait := ""
		if !scaled && st.Err == nil {
			wait = WaitReason(s.Deployment, st, strings.HasPrefix(res.Model, "controllers"))
		}
		if wait != "" && wait != lastWait {
			b.lines = append(b.lines, "waits: "+wait)
		}
		lastWait = wait
		b.quiet = !changed && len(b.lines) == 0
		blocks = append(blocks, b)
	}
	return foldQuiet(blocks, res, s)
}

// foldQuiet folds each run of two or more quiet syncs into one line.
func foldQuiet(blocks []tableBlock, res sim.Result, s rollout.State) []tableBlock {
	var out []tableBlock
	for i := 0; i < len(blocks); {
		j := i
		for j < len(blocks) && blocks[j].quiet {
			j++
		}
		if j-i < 2 {
			out = append(out, blocks[i])
			i++
			continue
		}
		a, z := res.Steps[i], res.Steps[j-1]
		out = append(out, tableBlock{rows: [][]string{{
			fmt.Sprintf("%d..%d", i+1, j), fmt.Sprintf("+%s..+%s", words.Duration(a.At.Sub(s.Now)), words.Duration(z.At.Sub(s.Now))),
			fmt.Sprintf("(no change, %d syncs)", j-i)}}})
		i = j
	}
	return out
}

// actionLine describes an action for the table, without its event when
// the action says the same, and "" for status writes and re-checks.
func actionLine(a rollout.Action) string {
	switch a.Type {
	case rollout.UpdateDeploymentStatus, rollout.RecheckProgress:
		return ""
	case rollout.CreateReplicaSet, rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
		return fmt.Sprintf("%s %s %d -> %d", a.Type, a.ReplicaSet, a.From, a.To)
	}
	return a.String()
}
