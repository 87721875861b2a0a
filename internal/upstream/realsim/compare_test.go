package realsim_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// simFigures is what the simulator says of a case.
type simFigures struct {
	Completed    bool
	Complete     time.Duration
	PeakPods     int64
	MinAvailable int64
	Model        string
}

// simulate runs rollout/sim on c. It is the one place that knows the
// simulator's API: to compare another model, change this function.
//
// Today it is the event-driven mode (sim.Config with no Interval), with
// pods ready ReadyAfter after their creation, terminating for
// Terminating, and the quota; it has no client rate limit, so the QPS
// cases are compared with an unlimited model.
func simulate(c realsim.CaseJSON) (simFigures, error) {
	d, err := manifest(c)
	if err != nil {
		return simFigures{}, err
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st, err := sim.WithImage(sim.FromDeployment(d, start), "app", realsim.NewImage)
	if err != nil {
		return simFigures{}, err
	}
	res, err := sim.Run(st, sim.Config{OmitSteps: true, Pods: sim.PodModel{
		ReadyAfter:  time.Duration(c.ReadyAfterSeconds * float64(time.Second)),
		Terminating: time.Duration(c.TerminatingSeconds * float64(time.Second)),
		MaxPods:     c.MaxPods,
	}})
	if err != nil {
		return simFigures{}, err
	}
	sum := res.Summary
	return simFigures{
		Completed: sum.Outcome == sim.OutcomeComplete, Complete: sum.Duration,
		PeakPods: sum.PeakPods, MinAvailable: sum.MinAvailable, Model: "event driven",
	}, nil
}

// manifest is c's Deployment with the old image, decoded by rollout.
func manifest(c realsim.CaseJSON) (rollout.Deployment, error) {
	strategy := map[string]any{"type": "Recreate"}
	if !c.Recreate {
		strategy = map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{
			"maxSurge": intOrString(c.MaxSurge), "maxUnavailable": intOrString(c.MaxUnavailable)}}
	}
	spec := map[string]any{
		"replicas": c.Replicas, "minReadySeconds": c.MinReadySeconds, "strategy": strategy,
		"selector": map[string]any{"matchLabels": map[string]string{"app": "app"}},
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]string{"app": "app"}},
			"spec": map[string]any{
				"terminationGracePeriodSeconds": int64(math.Ceil(c.TerminatingSeconds)),
				"containers":                    []map[string]string{{"name": "app", "image": realsim.OldImage}},
			},
		},
	}
	if c.ProgressDeadlineSeconds > 0 {
		spec["progressDeadlineSeconds"] = c.ProgressDeadlineSeconds
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "app", "namespace": "default"}, "spec": spec})
	if err != nil {
		return rollout.Deployment{}, err
	}
	objs, err := rollout.Decode(data)
	if err != nil {
		return rollout.Deployment{}, err
	}
	if len(objs.Deployments) != 1 {
		return rollout.Deployment{}, fmt.Errorf("decoded %d Deployments", len(objs.Deployments))
	}
	return objs.Deployments[0], nil
}

func intOrString(v string) any {
	var n int
	if _, err := fmt.Sscanf(v, "%d", &n); err == nil && fmt.Sprint(n) == v {
		return n
	}
	return v
}

// verdict applies the acceptance rule to one case: completion
// within max(0.5 s, 10%) of the real median; the peak within the real
// range or at most 10% above the highest seen; the fewest available within
// the real range. It returns what failed, or nothing.
func verdict(r realsim.Record, f simFigures) []string {
	var bad []string
	if r.Completed > 0 {
		med := r.CompleteSeconds.Median
		if !f.Completed {
			bad = append(bad, "not complete")
		} else if got := f.Complete.Seconds(); math.Abs(got-med) > max(0.5, 0.1*med) {
			bad = append(bad, "complete")
		}
	} else if f.Completed {
		bad = append(bad, "complete (real runs did not)")
	}
	if p := float64(f.PeakPods); p < r.PeakPods.Min || p > max(r.PeakPods.Max, math.Floor(1.1*r.PeakPods.Max)) {
		bad = append(bad, "peak")
	}
	if !r.MinAvailable.Contains(float64(f.MinAvailable)) {
		bad = append(bad, "minAvailable")
	}
	return bad
}

// TestCompareSim compares the simulator with the recorded measurements of
// the real controllers, case by case, and logs a table; with -strict, a
// case outside the acceptance rule (see verdict) fails the test.
func TestCompareSim(t *testing.T) {
	file := readRecord(t)
	var b strings.Builder
	fmt.Fprintf(&b, "%-44s %-28s %-9s %-14s %-5s %-12s %-5s %s\n", "case", "real complete (s)", "sim", "real peak", "sim", "real minAv", "sim", "outside")
	pass := 0
	for _, r := range file.Cases {
		f, err := simulate(r.Case)
		if err != nil {
			t.Errorf("%s: %v", r.Case.Name, err)
			continue
		}
		bad := verdict(r, f)
		if len(bad) == 0 {
			pass++
		} else if *strict {
			t.Errorf("%s: outside the real range: %s", r.Case.Name, strings.Join(bad, ", "))
		}
		simComplete := "-"
		if f.Completed {
			simComplete = fmt.Sprintf("%g", f.Complete.Seconds())
		}
		fmt.Fprintf(&b, "%-44s %-28s %-9s %-14s %-5d %-12s %-5d %s\n", r.Case.Name, r.CompleteSeconds, simComplete,
			r.PeakPods, f.PeakPods, r.MinAvailable, f.MinAvailable, strings.Join(bad, ","))
	}
	t.Logf("rollout/sim (%s) against the real %s controllers: %d of %d cases within the rule\n%s",
		"event driven", file.Kubernetes, pass, len(file.Cases), b.String())
}
