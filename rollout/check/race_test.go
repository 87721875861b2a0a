package check_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestMaxPodsWarnsOfTheRacingPeak: under the controllers model the
// max-pods rule is broken (an error) by the peak of the likelier orders
// of the controllers' racing work, and warned of when only the order that
// defers every deletion of an instant passes the limit (issue 23: real
// runs of 10 replicas at 25%/25% peaked at 13 to 18 pods).
func TestMaxPodsWarnsOfTheRacingPeak(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: web:1.0}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	cfg := check.Config{Sim: sim.Config{Model: sim.ModelControllers}}
	base := check.Run(in, cfg)
	if len(base.Deployments) != 1 {
		t.Fatalf("report: %+v", base)
	}
	peak := base.Deployments[0].PeakPods
	high := peak
	for _, m := range []int{int(peak), int(peak) - 1} {
		cfg.MaxPods = m
		r := check.Run(in, cfg)
		var severities []string
		for _, f := range r.Findings {
			if f.Rule == check.RuleMaxPods {
				severities = append(severities, string(f.Severity))
				if f.Severity == check.SeverityWarning && !strings.Contains(f.Message, "can exist if the ReplicaSet controller deletes old pods after creating new ones") {
					t.Errorf("max-pods %d: warning %q", m, f.Message)
				}
			}
		}
		switch {
		case m == int(peak) && len(severities) == 1 && severities[0] == string(check.SeverityWarning):
			if !r.OK {
				t.Errorf("max-pods %d: a warning alone makes the report not OK", m)
			}
			high = peak + 1 // the racing peak is above the judged one
		case m == int(peak) && len(severities) == 0:
		case m == int(peak)-1 && len(severities) == 1 && severities[0] == string(check.SeverityError):
			if r.OK {
				t.Errorf("max-pods %d: an error leaves the report OK", m)
			}
		default:
			t.Errorf("max-pods %d (judged peak %d): findings of max-pods %v", m, peak, severities)
		}
	}
	if high == peak {
		t.Errorf("the racing peak of 10 replicas at 25%%/25%% is the judged peak %d: no warning was tested", peak)
	}
}

// TestZeroConfigIsControllers checks Config's zero value: its rollouts run
// under sim.ModelControllers with kube-controller-manager's client
// defaults, the report names that model, and the report is the one of
// that model spelt out.
func TestZeroConfigIsControllers(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: web:1.0}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	zero := check.Run(in, check.Config{})
	if want := "the Deployment and ReplicaSet controllers as they run (kube-api-qps 20, kube-api-burst 30)"; !strings.HasSuffix(zero.PodModel, want) {
		t.Errorf("Run(Config{}).PodModel = %q, want it to end in %q", zero.PodModel, want)
	}
	spelt := check.Run(in, check.Config{Sim: sim.Config{Model: sim.ModelControllers, Controllers: sim.Controllers{QPS: sim.DefaultQPS, Burst: sim.DefaultBurst}}})
	if diff := cmp.Diff(spelt, zero); diff != "" {
		t.Errorf("Run(Config{}) differs from the controllers model spelt out (-want +got):\n%s", diff)
	}
	interval := check.Run(in, check.Config{Sim: sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second}})
	if !strings.HasSuffix(interval.PodModel, ", a sync every 30s") {
		t.Errorf("the interval model's report names %q", interval.PodModel)
	}
}
