package realsim

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Version is the Kubernetes release whose controllers Run runs.
const Version = "v1.36.3"

// A File is what the real controllers did on families of cases, as the
// main module keeps it in testdata/realsim/v1.36.3.json for rollout/sim's
// tests to compare with, without Kubernetes. It is JSON:
//
//	{
//	  "kubernetes": "v1.36.3",
//	  "cases": [
//	    {
//	      "family": "scale",
//	      "case": {"name": "scale/100", "replicas": 100, "maxSurge": "25%", "maxUnavailable": "25%",
//	               "readyAfterSeconds": 5, ...},
//	      "runs": 8, "completed": 8, "deadlineExceeded": 0,
//	      "completeSeconds":   {"min": 16.3, "median": 16.5, "max": 16.75},
//	      "lastChangeSeconds": {"min": 16.3, "median": 16.5, "max": 16.75},
//	      "peakPods":          {"min": 125, "median": 126, "max": 127},
//	      "minAvailable":      {"min": 75, "median": 75, "max": 75},
//	      "refused":           {"min": 0, "median": 0, "max": 0}
//	    }, ...
//	  ]
//	}
//
// Cases come in the order of their families, and in each family in the
// order it lists them; names are unique. A case's fields are those of
// [Case] with durations in seconds (see [CaseJSON]); a field left out is
// the Case's zero value: maxSurge and maxUnavailable are written out for
// RollingUpdate. Times are seconds from the image change, as float64.
// completeSeconds and lastChangeSeconds, rounded to the millisecond, are
// over the runs that completed;
// the other ranges over all runs. A median of an even number of runs is
// the mean of the middle two.
type File struct {
	Kubernetes string   `json:"kubernetes"`
	Cases      []Record `json:"cases"`
}

// A Record is the runs of one case: how many, how many completed, how many
// exceeded the progress deadline on the way (kubectl rollout status
// fails there, even if the rollout completes later), and the range of
// each figure of their Measurements.
type Record struct {
	Family            string   `json:"family"`
	Case              CaseJSON `json:"case"`
	Runs              int      `json:"runs"`
	Completed         int      `json:"completed"`
	DeadlineExceeded  int      `json:"deadlineExceeded"`
	CompleteSeconds   Range    `json:"completeSeconds"`
	LastChangeSeconds Range    `json:"lastChangeSeconds"`
	PeakPods          Range    `json:"peakPods"`
	MinAvailable      Range    `json:"minAvailable"`
	Refused           Range    `json:"refused"`
}

// A Range is the smallest, median and largest of a figure over runs; all
// zero over no runs.
type Range struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// String formats r as "min–max (median m)", or one number when all runs
// agree.
func (r Range) String() string {
	if r.Min == r.Max {
		return fmt.Sprintf("%g", r.Min)
	}
	return fmt.Sprintf("%g–%g (median %g)", r.Min, r.Max, r.Median)
}

// RangeOf is the Range of xs. It does not modify xs.
func RangeOf(xs []float64) Range {
	if len(xs) == 0 {
		return Range{}
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Range{Min: s[0], Median: med, Max: s[n-1]}
}

// rounded is r to the millisecond: the rate limiters' float arithmetic
// leaves times a nanosecond off (101.199999999 s).
func (r Range) rounded() Range {
	ms := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	return Range{Min: ms(r.Min), Median: ms(r.Median), Max: ms(r.Max)}
}

// CaseJSON is a Case as a File writes it: durations in seconds.
type CaseJSON struct {
	Name                    string  `json:"name"`
	Replicas                int32   `json:"replicas"`
	Recreate                bool    `json:"recreate,omitempty"`
	MaxSurge                string  `json:"maxSurge,omitempty"`
	MaxUnavailable          string  `json:"maxUnavailable,omitempty"`
	MinReadySeconds         int32   `json:"minReadySeconds,omitempty"`
	ProgressDeadlineSeconds int32   `json:"progressDeadlineSeconds,omitempty"`
	ReadyAfterSeconds       float64 `json:"readyAfterSeconds,omitempty"`
	TerminatingSeconds      float64 `json:"terminatingSeconds,omitempty"`
	MaxPods                 int32   `json:"maxPods,omitempty"`
	QPS                     float32 `json:"qps,omitempty"`
	Burst                   int     `json:"burst,omitempty"`
}

// JSON is c as a File writes it, with MaxSurge and MaxUnavailable written
// out ("25%" for an empty one) unless c is Recreate.
func (c Case) JSON() CaseJSON {
	j := CaseJSON{
		Name: c.Name, Replicas: c.Replicas, Recreate: c.Recreate,
		MinReadySeconds: c.MinReadySeconds, ProgressDeadlineSeconds: c.ProgressDeadlineSeconds,
		ReadyAfterSeconds: c.ReadyAfter.Seconds(), TerminatingSeconds: c.Terminating.Seconds(),
		MaxPods: c.MaxPods, QPS: c.QPS, Burst: c.Burst,
	}
	if !c.Recreate {
		j.MaxSurge, j.MaxUnavailable = or(c.MaxSurge, "25%"), or(c.MaxUnavailable, "25%")
	}
	return j
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Case is the Case j describes; Case(c.JSON()) is c but for MaxTime and
// Timeline, and for MaxSurge and MaxUnavailable written out.
func (j CaseJSON) Case() Case {
	return Case{
		Name: j.Name, Replicas: j.Replicas, Recreate: j.Recreate,
		MaxSurge: j.MaxSurge, MaxUnavailable: j.MaxUnavailable,
		MinReadySeconds: j.MinReadySeconds, ProgressDeadlineSeconds: j.ProgressDeadlineSeconds,
		ReadyAfter:  time.Duration(j.ReadyAfterSeconds * float64(time.Second)),
		Terminating: time.Duration(j.TerminatingSeconds * float64(time.Second)),
		MaxPods:     j.MaxPods, QPS: j.QPS, Burst: j.Burst,
	}
}

// Summarize is the Record of runs of c in family.
func Summarize(family string, c Case, runs []Measurement) Record {
	r := Record{Family: family, Case: c.JSON(), Runs: len(runs)}
	var complete, last, peak, avail, refused []float64
	for _, m := range runs {
		if m.DeadlineExceeded {
			r.DeadlineExceeded++
		}
		if m.Completed {
			r.Completed++
			complete = append(complete, m.Complete.Seconds())
			last = append(last, m.LastChange.Seconds())
		}
		peak = append(peak, float64(m.PeakPods))
		avail = append(avail, float64(m.MinAvailable))
		refused = append(refused, float64(m.Refused))
	}
	r.CompleteSeconds, r.LastChangeSeconds = RangeOf(complete).rounded(), RangeOf(last).rounded()
	r.PeakPods, r.MinAvailable, r.Refused = RangeOf(peak), RangeOf(avail), RangeOf(refused)
	return r
}
