package check

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// pastBudgetDeployment exceeds its progress deadline under a quota of 93
// pods and completes after it (sim's TestPastDeadline).
const pastBudgetDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 56
  strategy:
    rollingUpdate: {maxSurge: 67%, maxUnavailable: 27}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`

// TestPastDeadlineWork: the work budget counts the run past the progress
// deadline, and nothing else: a check of a rollout that exceeds its
// deadline computes what the simulator's one run of it costs
// (sim.RunCost, the time past the deadline included), more than the run
// stopped at the deadline costs; with a budget between the two, the run
// stops at its work limit past the deadline, which RuleLimit and
// RuleDeadline's message say.
func TestPastDeadlineWork(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(pastBudgetDeployment))
	if err != nil {
		t.Fatal(err)
	}
	in := Load("deploy.yaml", docs, LoadOptions{})
	d, err := in.pick("")
	if err != nil {
		t.Fatal(err)
	}
	pods := sim.PodModel{ReadyAfter: 6 * time.Second, Terminating: 30 * time.Second, MaxPods: 93}
	config := func(maxWork int) Config {
		return Config{QuotaPods: 93, NeverReady: []string{"never-used:0"}, ReadyAfterFixed: true, TerminatingFixed: true,
			Sim: sim.Config{Pods: pods, MaxWork: maxWork}, Workers: 1}
	}
	// The rollout check runs: to the marker image, without validation.
	s, _, err := start(in, d, []Image{{Image: MarkerImage}}, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Options.SkipValidation = true
	cost := func(past time.Duration) (sim.Summary, sim.Cost) {
		p := pods
		p.NeverReady = []string{"never-used:0"}
		res, c, err := sim.RunCost(s, sim.Config{Pods: p, PastDeadline: past})
		if err != nil {
			t.Fatal(err)
		}
		return res.Summary, c
	}
	sm, whole := cost(0)
	_, stopped := cost(-1)
	if sm.CompleteAfterDeadline == 0 || whole.Limited || stopped.Work >= whole.Work {
		t.Fatalf("the simulator's run: %+v, cost %+v (%+v stopped at the deadline): want a completion past the deadline that costs more", sm, whole, stopped)
	}

	f := newChecker(config(0))
	report, _ := f.run(in)
	if got := f.worked.Load(); got != int64(whole.Work) {
		t.Errorf("check computed %d units of work, the simulator's run %d", got, whole.Work)
	}
	if len(ruleFindings(report, RuleLimit)) > 0 {
		t.Errorf("a limit finding with the default budget: %+v", report.Findings)
	}

	t.Logf("the run costs %d units of work, %d of them to the deadline", whole.Work, stopped.Work)
	budget := (stopped.Work + whole.Work) / 2
	f = newChecker(config(budget))
	report, _ = f.run(in)
	if got := f.worked.Load(); got > int64(budget)+16*2 {
		t.Errorf("check computed %d units of work, budget %d", got, budget)
	}
	limits, deadlines := ruleFindings(report, RuleLimit), ruleFindings(report, RuleDeadline)
	if len(limits) != 1 || len(deadlines) != 1 || limits[0].At <= deadlines[0].At ||
		!strings.Contains(deadlines[0].Message, "but the simulation stops at its work limit") {
		t.Errorf("with a budget of %d (the run to the deadline costs %d, the whole run %d): limit %+v, deadline %+v; want the run stopped at its limit past the deadline",
			budget, stopped.Work, whole.Work, limits, deadlines)
	}
}

// ruleFindings returns the findings of a rule, in report order.
func ruleFindings(r Report, rule string) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}
