// Package realfig holds rollout/sim to the figures the real Kubernetes
// controllers were measured at, so that the main module's tests and the
// differential harness in internal/upstream judge the same model by the
// same rule.
//
// The figures are testdata/realsim/<version>.json, written by
// internal/upstream/realsim (its File type and TestRecord -update). [Read]
// decodes such a file, [Simulate] runs [sim.ModelControllers] on one of
// its cases and [Judge] applies issue 23's rule to the result. A case may
// miss the rule for a known reason: [KnownMisses] names each such case with
// the exact misses [Judge] reports for it, so a test can fail on any other
// miss and on a known one that changed or went away. [Bounds] checks what
// the gate's fewest available promises beyond the rule: never above the
// real runs' lowest, and a range that meets the real one.
package realfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// A File is the measurements of one Kubernetes version's controllers.
type File struct {
	Kubernetes string   `json:"kubernetes"`
	Cases      []Record `json:"cases"`
}

// A Record is what the real controllers did on one case over several runs.
// Completed is how many runs completed; the ranges are over those runs.
type Record struct {
	Family          string `json:"family"`
	Case            Case   `json:"case"`
	Runs            int    `json:"runs"`
	Completed       int    `json:"completed"`
	CompleteSeconds Range  `json:"completeSeconds"`
	PeakPods        Range  `json:"peakPods"`
	MinAvailable    Range  `json:"minAvailable"`
}

// A Range is the smallest, median and largest of a figure over runs.
type Range struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// A Case is one recorded rollout: a Deployment of Replicas pods moving from
// one image to another, with the pods' readiness and termination times,
// a pod quota (MaxPods, 0 for none) and the controllers' client limits
// (QPS 0: the default; negative: no limit; Burst 0: the default).
type Case struct {
	Name                    string  `json:"name"`
	Replicas                int32   `json:"replicas"`
	Recreate                bool    `json:"recreate"`
	MaxSurge                string  `json:"maxSurge"`
	MaxUnavailable          string  `json:"maxUnavailable"`
	MinReadySeconds         int32   `json:"minReadySeconds"`
	ProgressDeadlineSeconds int32   `json:"progressDeadlineSeconds"`
	ReadyAfterSeconds       float64 `json:"readyAfterSeconds"`
	TerminatingSeconds      float64 `json:"terminatingSeconds"`
	MaxPods                 int32   `json:"maxPods"`
	QPS                     float64 `json:"qps"`
	Burst                   int     `json:"burst"`
}

// Read decodes the measurements file at path. It returns an error if the
// file cannot be read or decoded, or holds no case.
func Read(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("realfig: %s: %w", path, err)
	}
	if len(f.Cases) == 0 {
		return File{}, fmt.Errorf("realfig: %s: no cases", path)
	}
	return f, nil
}

// Figures is what the simulator says of a case.
type Figures struct {
	Completed    bool
	Complete     time.Duration // when the status first became complete
	PeakPods     int64         // the peak the gate judges
	MinAvailable int64         // the fewest available pods the gate judges
	// PeakPodsHigh and MinAvailableHigh are the other ends of the ranges
	// (see sim.Summary); Judge quotes them in its misses and judges only
	// the figures above.
	PeakPodsHigh, MinAvailableHigh int64
}

// Simulate runs c under [sim.ModelControllers], the model every command
// runs by default: the Deployment's template changes from one image to
// another, pods become ready ReadyAfterSeconds after their creation and
// terminate for TerminatingSeconds, within the quota and client limits of
// c, from an old ReplicaSet created 10 s before the change, as the
// harness leaves it (its pods' creation events have spent its event
// budget). It returns an error for a case the decoder or the simulator rejects.
func Simulate(c Case) (Figures, error) {
	d, err := deployment(c)
	if err != nil {
		return Figures{}, fmt.Errorf("realfig: %s: %w", c.Name, err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st, err := sim.WithImage(sim.FromDeployment(d, start), "app", "example.com/app:2")
	if err != nil {
		return Figures{}, fmt.Errorf("realfig: %s: %w", c.Name, err)
	}
	// The harness changes the image once the first rollout is complete
	// and nothing has been written for 10 s: the old ReplicaSet was
	// created that much before the start at least, its pods' creation
	// events within the last 5 minutes (see sim's spentBudgets).
	for i := range st.ReplicaSets {
		st.ReplicaSets[i].CreationTimestamp = start.Add(-harnessSettle)
	}
	res, err := sim.Run(st, sim.Config{
		Model:       sim.ModelControllers,
		Controllers: sim.Controllers{QPS: c.QPS, Burst: c.Burst},
		OmitSteps:   true,
		Pods: sim.PodModel{
			ReadyAfter:  seconds(c.ReadyAfterSeconds),
			Terminating: seconds(c.TerminatingSeconds),
			MaxPods:     c.MaxPods,
		},
	})
	if err != nil {
		return Figures{}, fmt.Errorf("realfig: %s: %w", c.Name, err)
	}
	sm := res.Summary
	completed, complete := sm.Outcome == sim.OutcomeComplete, sm.Duration
	if after := sm.CompleteAfterDeadline; after > 0 && after <= harnessMaxTime {
		// The real runs go on past the deadline too, and count as
		// complete when they complete within the harness's time.
		completed, complete = true, after
	}
	return Figures{
		Completed: completed, Complete: complete,
		PeakPods: sm.PeakPods, MinAvailable: sm.MinAvailable,
		PeakPodsHigh: sm.PeakPodsHigh, MinAvailableHigh: sm.MinAvailableHigh,
	}, nil
}

// harnessSettle is how long the harness waits, with nothing written,
// between the first rollout and the change (internal/upstream/realsim's
// settle).
const harnessSettle = 10 * time.Second

// harnessMaxTime is how long the harness runs a case at most
// (internal/upstream/realsim's DefaultMaxTime): a run that completes later,
// past its progress deadline, counts as not completed.
const harnessMaxTime = 30 * time.Minute

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// deployment is c's Deployment on the old image, decoded and defaulted as
// the API server would.
func deployment(c Case) (rollout.Deployment, error) {
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
				"containers":                    []map[string]string{{"name": "app", "image": "example.com/app:1"}},
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
		return rollout.Deployment{}, errors.New("the case decodes to no single Deployment")
	}
	return objs.Deployments[0], nil
}

// intOrString is v as an intOrString field of a manifest: a number unless
// it ends in "%".
func intOrString(v string) any {
	if strings.HasSuffix(v, "%") {
		return v
	}
	return json.Number(v)
}

// Judge applies issue 23's rule to the simulator's figures f for the
// recorded case r, and returns each miss as a sentence with the simulated
// and the real figures, in the order completion, peak, fewest available;
// nil when f is within the rule. The rule:
//   - completion: if any real run completed, f completes within
//     max(0.5 s, 10%) of the real median; if none did, f does not complete;
//   - peak pods: at least the lowest real peak and at most the highest, or
//     10% above it rounded down;
//   - fewest available: within the real runs' lowest and highest.
func Judge(r Record, f Figures) []string {
	var misses []string
	switch med := r.CompleteSeconds.Median; {
	case r.Completed > 0 && !f.Completed:
		misses = append(misses, fmt.Sprintf("does not complete; real median %gs", med))
	case r.Completed > 0 && math.Abs(f.Complete.Seconds()-med) > max(0.5, 0.1*med):
		misses = append(misses, fmt.Sprintf("completes at %v; real %gs to %gs, median %gs",
			f.Complete, r.CompleteSeconds.Min, r.CompleteSeconds.Max, med))
	case r.Completed == 0 && f.Completed:
		misses = append(misses, fmt.Sprintf("completes at %v; no real run completed", f.Complete))
	}
	if p := float64(f.PeakPods); p < r.PeakPods.Min || p > max(r.PeakPods.Max, math.Floor(1.1*r.PeakPods.Max)) {
		misses = append(misses, fmt.Sprintf("peak %d pods (high %d); real %g to %g", f.PeakPods, f.PeakPodsHigh, r.PeakPods.Min, r.PeakPods.Max))
	}
	if a := float64(f.MinAvailable); a < r.MinAvailable.Min || a > r.MinAvailable.Max {
		misses = append(misses, fmt.Sprintf("fewest available %d (high %d); real %g to %g", f.MinAvailable, f.MinAvailableHigh, r.MinAvailable.Min, r.MinAvailable.Max))
	}
	return misses
}

// Bounds checks what the gate's fewest available promises beyond [Judge]'s
// rule, and returns each breach as a sentence; nil when both hold:
//   - the gate is never optimistic: MinAvailable is at most the fewest
//     available any real run had;
//   - the model's range, MinAvailable to MinAvailableHigh, meets the real
//     runs' range.
func Bounds(r Record, f Figures) []string {
	var breaches []string
	if a := float64(f.MinAvailable); a > r.MinAvailable.Min {
		breaches = append(breaches, fmt.Sprintf("fewest available %d above the real runs' lowest %g", f.MinAvailable, r.MinAvailable.Min))
	}
	if float64(f.MinAvailableHigh) < r.MinAvailable.Min || float64(f.MinAvailable) > r.MinAvailable.Max {
		breaches = append(breaches, fmt.Sprintf("fewest available %d to %d does not meet the real %g to %g",
			f.MinAvailable, f.MinAvailableHigh, r.MinAvailable.Min, r.MinAvailable.Max))
	}
	return breaches
}
