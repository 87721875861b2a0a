package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// simJSON is simulate's -o json: a stable shape built from sim.Result, so
// that it does not change with the library's internal types.
//
//	{
//	  "title": "nginx-deployment: fully rolled out on its template, then image nginx=nginx:1.9.3",
//	  "kubernetes": "Kubernetes 1.37", "podModel": "pods ready at once, ...",
//	  "podTimes": ["ready at once: ...", "terminating at once: ..."], "policy": [...],
//	  "deployment": "nginx-deployment", "namespace": "default",
//	  "start": "2026-01-01T00:00:00Z",
//	  "initial": the state before the first sync, as a step without actions,
//	  "steps": [{
//	    "at": RFC3339 time, "offsetSeconds": 30, "replicas": 10, "floor": 8, "ceiling": 13,
//	    "sets": [{"name", "revision", "new", "desired", "current", "ready", "available", "terminating", "pending" (when some wait for a place)}],
//	    "actions": [{"type", "replicaSet", "from", "to", "event", "reason"}],
//	    "conditions": [{"type", "status", "reason", "message", ...}],
//	    "error": "only when the sync failed"
//	  }],
//	  "stepsLeftOut": only when the run has more syncs than --max-steps: those not in steps,
//	  "summary": {"outcome", "detail", "durationSeconds", "lastChangeSeconds", "syncs", "fastForwarded",
//	              "deadlineExceededSeconds" and "completeAfterDeadlineSeconds": only when
//	                the progress deadline was exceeded, the latter when the run went on
//	                past it and the rollout completed,
//	              "peakDesired", "peakPods", "peakPodsAtSeconds", "ceiling", "minAvailable",
//	              "minAvailableAtSeconds", "peakPodsLow", "peakPodsHigh", "minAvailableHigh",
//	              "floor", "belowFloorSeconds", "failedCreates",
//	              "projection": only for a run stopped at --max-work under the
//	                controllers model: {"steppedSeconds", "creates", "deletes",
//	                "durationAtLeastSeconds" (proved), "durationEstimateSeconds",
//	                "minAvailableAtLeast" (proved; 0 when nothing better is),
//	                "peakPodsAtMost" (proved; left out where no bound is)},
//	              "upToDeadline": only for a run that went on past its progress
//	                deadline: the peak and fewest available figures above up to it}
//	}
type simJSON struct {
	Title      string    `json:"title"`
	Kubernetes string    `json:"kubernetes"`
	PodModel   string    `json:"podModel"`
	PodTimes   []string  `json:"podTimes,omitempty"`
	Policy     []string  `json:"policy,omitempty"`
	Deployment string    `json:"deployment"`
	Namespace  string    `json:"namespace"`
	Start      time.Time `json:"start"`
	Initial    stepJSON  `json:"initial"`
	Steps      stepList  `json:"steps"`
	// StepsLeftOut is the number of the run's syncs after those in
	// Steps, left out at --max-steps (absent when none is).
	StepsLeftOut int         `json:"stepsLeftOut,omitempty"`
	Summary      summaryJSON `json:"summary"`
}

// stepList is a run's steps in a data report: an array of stepJSON,
// made one step at a time as it is written. A 100,000-replica rollout has
// 200,000 steps, over a gigabyte of JSON; encodeJSON writes them to the
// report one by one (hole) instead of building the whole document.
type stepList struct {
	steps []sim.Step
	now   time.Time
	// hole, when set, is what the list marshals as (a JSON string),
	// for encodeJSON to put the steps in its place.
	hole string
}

// MarshalJSON gives the steps as an array of stepJSON, or the list's hole.
func (l stepList) MarshalJSON() ([]byte, error) {
	if l.hole != "" {
		return json.Marshal(l.hole)
	}
	out := make([]stepJSON, 0, len(l.steps))
	for _, st := range l.steps {
		out = append(out, newStepJSON(st, l.now))
	}
	return json.Marshal(out)
}

type stepJSON struct {
	At         time.Time           `json:"at"`
	Offset     float64             `json:"offsetSeconds"`
	Replicas   int32               `json:"replicas"`
	Floor      int32               `json:"floor"`
	Ceiling    int64               `json:"ceiling"`
	Sets       []setJSON           `json:"sets"`
	Actions    []actionJSON        `json:"actions"`
	Conditions []rollout.Condition `json:"conditions"`
	Error      string              `json:"error,omitempty"`
}

// setJSON is one ReplicaSet of a step: sim.SetCount with JSON names.
type setJSON struct {
	Name        string `json:"name"`
	Revision    string `json:"revision"`
	New         bool   `json:"new"`
	Desired     int32  `json:"desired"`
	Current     int32  `json:"current"`
	Ready       int32  `json:"ready"`
	Available   int32  `json:"available"`
	Terminating int32  `json:"terminating"`
	// Pending are the pods of current waiting for a place on the nodes;
	// left out when none.
	Pending int32 `json:"pending,omitempty"`
}

// actionJSON is one action of a step; from and to only for a ReplicaSet
// create, scale or update.
type actionJSON struct {
	Type       rollout.ActionType `json:"type"`
	ReplicaSet string             `json:"replicaSet,omitempty"`
	From       *int32             `json:"from,omitempty"`
	To         *int32             `json:"to,omitempty"`
	Event      string             `json:"event,omitempty"`
	Reason     string             `json:"reason,omitempty"`
}

type summaryJSON struct {
	Outcome    string  `json:"outcome"`
	Detail     string  `json:"detail"`
	Duration   float64 `json:"durationSeconds"`
	LastChange float64 `json:"lastChangeSeconds"`
	// DeadlineExceeded and CompleteAfterDeadline are
	// sim.Summary.DeadlineExceededAt and CompleteAfterDeadline, when
	// not zero.
	DeadlineExceeded      float64 `json:"deadlineExceededSeconds,omitempty"`
	CompleteAfterDeadline float64 `json:"completeAfterDeadlineSeconds,omitempty"`
	Syncs                 int     `json:"syncs"`
	FastForwarded         int     `json:"fastForwarded"`
	PeakDesired           int64   `json:"peakDesired"`
	PeakPods              int64   `json:"peakPods"`
	PeakPodsAt            float64 `json:"peakPodsAtSeconds"`
	Ceiling               int64   `json:"ceiling"`
	MinAvailable          int64   `json:"minAvailable"`
	MinAvailableAt        float64 `json:"minAvailableAtSeconds"`
	PeakPodsLow           int64   `json:"peakPodsLow"`
	PeakPodsHigh          int64   `json:"peakPodsHigh"`
	MinAvailHigh          int64   `json:"minAvailableHigh"`
	Floor                 int32   `json:"floor"`
	BelowFloor            float64 `json:"belowFloorSeconds"`
	FailedCreates         int     `json:"failedCreates"`
	// Projection is sim.Summary.Projection, when one was made.
	Projection *projectionJSON `json:"projection,omitempty"`
	// UpToDeadline is sim.Summary.UpToDeadline, for a run that went on
	// past its progress deadline (left out otherwise).
	UpToDeadline *extremesJSON `json:"upToDeadline,omitempty"`
}

// extremesJSON is a sim.Extremes in seconds, its fields named as the
// summary's.
type extremesJSON struct {
	PeakPods       int64   `json:"peakPods"`
	PeakPodsAt     float64 `json:"peakPodsAtSeconds"`
	Ceiling        int64   `json:"ceiling"`
	MinAvailable   int64   `json:"minAvailable"`
	MinAvailableAt float64 `json:"minAvailableAtSeconds"`
	PeakPodsLow    int64   `json:"peakPodsLow"`
	PeakPodsHigh   int64   `json:"peakPodsHigh"`
	MinAvailHigh   int64   `json:"minAvailableHigh"`
	Floor          int32   `json:"floor"`
}

// projectionJSON is a sim.Projection in seconds.
type projectionJSON struct {
	Stepped          float64 `json:"steppedSeconds"`
	Creates          int64   `json:"creates"`
	Deletes          int64   `json:"deletes"`
	DurationAtLeast  float64 `json:"durationAtLeastSeconds"`
	DurationEstimate float64 `json:"durationEstimateSeconds"`
	MinAvailable     int64   `json:"minAvailableAtLeast"`
	// PeakPods is sim.Projection.PeakPodsAtMost, left out where no
	// bound is proved.
	PeakPods *int64 `json:"peakPodsAtMost,omitempty"`
}

func newStepJSON(st sim.Step, start time.Time) stepJSON {
	j := stepJSON{At: st.At, Offset: st.At.Sub(start).Seconds(), Replicas: st.Replicas, Floor: st.Floor, Ceiling: st.Ceiling,
		Sets: []setJSON{}, Actions: []actionJSON{}, Conditions: st.Conditions}
	if st.Err != nil {
		j.Error = st.Err.Error()
	}
	if j.Conditions == nil {
		j.Conditions = []rollout.Condition{}
	}
	for _, c := range st.Sets {
		j.Sets = append(j.Sets, setJSON{Name: c.Name, Revision: c.Revision, New: c.New, Desired: c.Desired,
			Current: c.Current, Ready: c.Ready, Available: c.Available, Terminating: c.Terminating, Pending: c.Pending})
	}
	for _, a := range st.Actions {
		if a.Type == rollout.RecheckProgress {
			continue
		}
		aj := actionJSON{Type: a.Type, ReplicaSet: a.ReplicaSet, Reason: a.Reason}
		switch a.Type {
		case rollout.CreateReplicaSet, rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
			aj.From, aj.To = &a.From, &a.To
		}
		if !a.Event.IsZero() {
			aj.Event = a.Event.String()
		}
		j.Actions = append(j.Actions, aj)
	}
	return j
}

func newSimJSON(title string, s rollout.State, res sim.Result) simJSON {
	out := simJSON{
		Title: title, Deployment: s.Deployment.Name, Namespace: s.Deployment.Namespace, Start: s.Now,
		Initial: newStepJSON(res.Start, s.Now), Steps: stepList{steps: res.Steps, now: s.Now},
	}
	sm := res.Summary
	out.Summary = summaryJSON{
		Outcome: string(sm.Outcome), Detail: flagNames(sm.Detail), Duration: sm.Duration.Seconds(),
		LastChange: sm.LastChange.Seconds(), Syncs: sm.Syncs,
		DeadlineExceeded: sm.DeadlineExceededAt.Seconds(), CompleteAfterDeadline: sm.CompleteAfterDeadline.Seconds(),
		FastForwarded: sm.FastForwarded, PeakDesired: sm.PeakDesired,
		PeakPods: sm.PeakPods, PeakPodsAt: sm.PeakPodsAt.Seconds(), Ceiling: sm.Ceiling,
		MinAvailable: sm.MinAvailable, MinAvailableAt: sm.MinAvailableAt.Seconds(), Floor: sm.Floor,
		PeakPodsLow: sm.PeakPodsLow, PeakPodsHigh: sm.PeakPodsHigh, MinAvailHigh: sm.MinAvailableHigh,
		BelowFloor: sm.BelowFloor.Seconds(), FailedCreates: sm.FailedCreates,
	}
	if sm.AfterDeadline != "" {
		e := sm.UpToDeadline
		out.Summary.UpToDeadline = &extremesJSON{PeakPods: e.PeakPods, PeakPodsAt: e.PeakPodsAt.Seconds(), Ceiling: e.Ceiling,
			MinAvailable: e.MinAvailable, MinAvailableAt: e.MinAvailableAt.Seconds(), PeakPodsLow: e.PeakPodsLow, PeakPodsHigh: e.PeakPodsHigh,
			MinAvailHigh: e.MinAvailableHigh, Floor: e.Floor}
	}
	if p := sm.Projection; p.Made {
		out.Summary.Projection = &projectionJSON{Stepped: p.Stepped.Seconds(), Creates: p.Creates, Deletes: p.Deletes,
			DurationAtLeast: p.DurationAtLeast.Seconds(), DurationEstimate: p.DurationEstimate.Seconds(), MinAvailable: p.MinAvailableAtLeast}
		if p.PeakPodsAtMost < math.MaxInt64 {
			out.Summary.Projection.PeakPods = &p.PeakPodsAtMost
		}
	}
	return out
}

// flagNames rewrites the names of sim.Config's limits in a run's detail
// as the flags that set them.
func flagNames(detail string) string {
	return strings.ReplaceAll(detail, "(MaxWork)", "(--max-work)")
}

// progress reports on a writer how far a long task got: one line at each
// tenth, when the task has more than threshold parts.
type progress struct {
	w                  io.Writer
	prefix, unit       string
	done, total, shown int64
	on                 bool
}

func newProgress(w io.Writer, prefix, unit string, total, threshold int64) *progress {
	return &progress{w: w, prefix: prefix, unit: unit, total: total, on: total > threshold}
}

// add counts n more parts done.
func (p *progress) add(n int64) {
	if !p.on {
		return
	}
	p.done += n
	if tenth := p.done * 10 / p.total; tenth > p.shown {
		p.shown = tenth
		fmt.Fprintf(p.w, "%s %d%% (%d of %d %s)\n", p.prefix, p.done*100/p.total, p.done, p.total, p.unit)
	}
}

// after writes line on stderr after d, if stderr is a terminal and stop
// (the function it returns) was not called by then; stop reports whether
// the line was written.
func (e *env) after(d time.Duration, line string) (stop func() bool) {
	if !e.stderrTerminal {
		return func() bool { return false }
	}
	done := make(chan struct{})
	fired := make(chan bool, 1)
	go func() {
		select {
		case <-time.After(d):
			fmt.Fprintln(e.stderr, line)
			fired <- true
		case <-done:
			fired <- false
		}
	}()
	return func() bool {
		close(done)
		return <-fired
	}
}
