package render_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

func run(t *testing.T, replicas string, cfg sim.Config) (rollout.State, sim.Result) {
	t.Helper()
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": ` + replicas + `, "selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "app", "image": "web:1"}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), "app", "web:2")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, res
}

// Table, SVG and the summaries depend on their arguments alone and
// modify none: two calls print the same, and the result is unchanged.
func TestRenderIsPure(t *testing.T) {
	s, res := run(t, "7", sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 3 * time.Second, Terminating: 2 * time.Second}})
	_, before := run(t, "7", sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 3 * time.Second, Terminating: 2 * time.Second}})
	var a, b bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		render.Table(w, render.Head{Title: "t", Notes: []string{"n"}}, s, res)
		render.SVG(w, "<t&>", "m", s, res, 9)
		render.Summary(w, res.Summary)
		w.WriteString(render.SummaryLine(s.Deployment, res.Summary))
	}
	if a.String() != b.String() {
		t.Errorf("two renderings differ")
	}
	if diff := cmp.Diff(before.Summary, res.Summary); diff != "" {
		t.Errorf("rendering changed the result (-want +got):\n%s", diff)
	}
	if !strings.Contains(a.String(), "policy: n\n") || !strings.Contains(a.String(), "TERMINATING") {
		t.Errorf("table without its notes or terminating column:\n%s", a.String())
	}
}

// The chart is well-formed XML, with the title escaped, for small and
// for the largest Deployments.
func TestSVGWellFormed(t *testing.T) {
	for _, replicas := range []string{"1", "10", "2147483647"} {
		s, res := run(t, replicas, sim.Config{MaxWork: 2000})
		var b bytes.Buffer
		render.SVG(&b, `web <&> "x"`, "model", s, res, 0)
		dec := xml.NewDecoder(&b)
		titles := 0
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("replicas %s: not well-formed: %v", replicas, err)
			}
			if cd, ok := tok.(xml.CharData); ok && string(cd) == `web <&> "x"` {
				titles++
			}
		}
		if titles == 0 {
			t.Errorf("replicas %s: no escaped title", replicas)
		}
	}
}

// A run that completes after its progress deadline says so in the
// chart's summary line and marks the completion on the chart, as a run
// that completes in time does: pods ready after 5s, a deadline of 1s.
func TestCompleteAfterDeadlineDrawn(t *testing.T) {
	objs, err := rollout.Decode([]byte(`{"kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"replicas": 3, "progressDeadlineSeconds": 1, "selector": {"matchLabels": {"app": "web"}},
			"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "app", "image": "web:1"}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.WithImage(sim.FromDeployment(objs.Deployments[0], time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), "app", "web:2")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(s, sim.Config{Model: sim.ModelControllers, Pods: sim.PodModel{ReadyAfter: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	sm := res.Summary
	if sm.Outcome != sim.OutcomeDeadlineExceeded || sm.CompleteAfterDeadline == 0 {
		t.Fatalf("summary %+v: want the deadline exceeded, then complete", sm)
	}
	line := render.SummaryLine(s.Deployment, sm)
	if want := "progress deadline exceeded, complete after 15.002s"; !strings.Contains(line, want) {
		t.Errorf("SummaryLine() = %q, want it to say %q", line, want)
	}
	var b bytes.Buffer
	render.SVG(&b, "web", "model", s, res, 0)
	for _, want := range []string{">deadline exceeded</text>", ">complete</text>"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the chart has no %q", want)
		}
	}
}

// TestWaitReasonCountsOne gives WaitReason steps with one pod where a
// count is worded: "wants 1 pod", "1 pod is available", never "1 pods".
func TestWaitReasonCountsOne(t *testing.T) {
	var d rollout.Deployment
	d.Spec.Replicas = 1
	for _, tt := range []struct {
		name        string
		step        sim.Step
		controllers bool
		want        string
	}{
		{"new ReplicaSet being created", sim.Step{Replicas: 1, Floor: 1, Ceiling: 2, Sets: []sim.SetCount{
			{Name: "old", Desired: 1, Current: 1, Ready: 1, Available: 1},
			{Name: "new", New: true, Desired: 1},
		}}, true, "the new ReplicaSet wants 1 pod and its status shows 0:"},
		{"new ReplicaSet short of pods", sim.Step{Replicas: 1, Floor: 1, Ceiling: 2, Sets: []sim.SetCount{
			{Name: "old", Desired: 1, Current: 1, Ready: 1, Available: 1},
			{Name: "new", New: true, Desired: 1},
		}}, false, "the new ReplicaSet wants 1 pod and has 0:"},
		{"at the floor", sim.Step{Replicas: 1, Floor: 1, Ceiling: 1, Sets: []sim.SetCount{
			{Name: "old", Desired: 1, Current: 1, Ready: 1, Available: 1},
			{Name: "new", New: true},
		}}, false, "1 pod is available, the floor (replicas - maxUnavailable) is 1"},
		{"new pods not yet available", sim.Step{Replicas: 3, Floor: 0, Ceiling: 3, Sets: []sim.SetCount{
			{Name: "new", New: true, Desired: 3, Current: 3, Ready: 1, Available: 1},
		}}, false, "1 of the 3 new pods is available"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := render.WaitReason(d, tt.step, tt.controllers)
			if !strings.Contains(got, tt.want) || strings.Contains(got, " 1 pods") {
				t.Errorf("WaitReason() = %q, want it to say %q and no %q", got, tt.want, "1 pods")
			}
		})
	}
}

// TestSummaryUpToDeadline prints the summary of runs that did and did
// not go on past their progress deadline: the one that did says, on its
// peak pods and min available lines, the figures up to the deadline
// (Summary.UpToDeadline, by which check judges the syncs up to it) after
// the whole run's; the other says nothing of a deadline.
func TestSummaryUpToDeadline(t *testing.T) {
	whole := sim.Summary{Outcome: sim.OutcomeDeadlineExceeded, AfterDeadline: sim.OutcomeComplete,
		PeakPods: 12, PeakPodsLow: 12, PeakPodsHigh: 14, Ceiling: 12, MinAvailable: 7, MinAvailableHigh: 7, Floor: 9,
		UpToDeadline: sim.Extremes{PeakPods: 12, PeakPodsLow: 12, PeakPodsHigh: 13, Ceiling: 12, MinAvailable: 8, MinAvailableHigh: 9, Floor: 9}}
	stopped := whole
	stopped.AfterDeadline, stopped.UpToDeadline = "", sim.Extremes{}
	for _, tt := range []struct {
		name string
		sm   sim.Summary
		want []string
	}{
		{"went on past the deadline", whole, []string{
			"peak pods:     12 (12 to 14 as the controllers race; ceiling 12); up to the progress deadline: 12 (12 to 13 as the controllers race; ceiling 12)\n",
			"min available: 7 (floor 9); up to the progress deadline: 8 (8 to 9 as the controllers race; floor 9)\n",
		}},
		{"stopped at the deadline", stopped, []string{
			"peak pods:     12 (12 to 14 as the controllers race; ceiling 12)\n",
			"min available: 7 (floor 9)\n",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			render.Summary(&b, tt.sm)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("summary does not say %q:\n%s", w, b.String())
				}
			}
		})
	}
}
