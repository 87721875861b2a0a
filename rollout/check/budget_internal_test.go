package check

import (
	"fmt"
	"maps"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// wavesOf simulates the restart rollout of the only Deployment of in, as
// check does under cfg, with progressDeadlineSeconds set to deadline, and
// returns its waves and whether the deadline stopped it.
func wavesOf(t *rapid.T, in *Input, cfg sim.Config, deadline int32) ([]wave, bool) {
	d := in.objs.Deployments[0]
	d.Spec.ProgressDeadlineSeconds = rollout.Int32(deadline)
	s, _, err := start(in, d, nil, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err = sim.WithTemplateChange(s, func(p *rollout.PodTemplate) error {
		p.Annotations = maps.Clone(p.Annotations)
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[RestartAnnotation] = "now"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pods, _, err := PodTimes(d, cfg.Pods, false, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Pods = pods
	var moments []moment
	cfg.OmitSteps = true
	cfg.Observe = func(st sim.Step) { moments = append(moments, momentOf(st, s.Now)) }
	res, err := sim.Run(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return waves(moments), res.Summary.Outcome == sim.OutcomeDeadlineExceeded
}

// TestWavesAgainstTheDeadline checks the waves that check reads from the
// Progressing condition against the simulated controller's own progress
// check (upstream's DeploymentTimedOut at a sync): a rollout whose
// longest wave, run without a binding deadline, is longer than
// progressDeadlineSeconds by more than the controller's one-second
// re-check delay exceeds it, and one whose longest wave fits does not.
// The waves cover the rollout: they follow each other without a gap.
// Under syncs every Interval it does not hold (see the comment below).
func TestWavesAgainstTheDeadline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 6).Draw(t, "replicas")
		maxSurge := rapid.SampledFrom([]string{"0", "1", "50%"}).Draw(t, "maxSurge")
		maxUnavailable := rapid.SampledFrom([]string{"0", "1", "50%"}).Draw(t, "maxUnavailable")
		if maxSurge == "0" && maxUnavailable == "0" {
			maxSurge = "1"
		}
		ready := rapid.IntRange(0, 240).Draw(t, "readyAfter")
		deadline := int32(rapid.IntRange(10, 300).Draw(t, "progressDeadlineSeconds"))
		model := rapid.SampledFrom([]sim.Model{sim.ModelSimple, sim.ModelControllers}).Draw(t, "model")
		// Event-driven syncs, as the controller's (ModelSimple without an
		// Interval): with syncs every Interval, the controller only finds
		// the deadline exceeded at a sync that sees no progress, and a
		// wave that ends at the first sync after the deadline passes.
		cfg := sim.Config{Model: model}
		src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  strategy: {rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:1
        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: %d, periodSeconds: 1}
`, replicas, maxSurge, maxUnavailable, ready)
		docs, err := manifest.Parse("in.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		in := Load("in.yaml", docs, LoadOptions{})
		free, stopped := wavesOf(t, in, cfg, 1<<20)
		if stopped {
			t.Fatalf("a deadline of 2^20s exceeded")
		}
		for i := 1; i < len(free); i++ {
			if free[i].from != free[i-1].to || free[i].n != i+1 {
				t.Fatalf("waves %+v do not follow each other", free)
			}
		}
		w, _ := longest(free)
		limit := time.Duration(deadline) * time.Second
		_, exceeded := wavesOf(t, in, cfg, deadline)
		switch {
		case w.length() > limit+time.Second && !exceeded:
			t.Fatalf("wave %+v (%s) longer than the deadline %s, not exceeded", w, w.length(), limit)
		case w.length() <= limit && exceeded:
			t.Fatalf("longest wave %+v (%s) within the deadline %s, exceeded", w, w.length(), limit)
		}
	})
}
