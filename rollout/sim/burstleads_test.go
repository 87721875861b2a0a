package sim_test

import (
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestBurstLeadsPeak checks where the gate's peak is the order that takes
// deletions last (the package doc, Races): from 300 replicas, for a
// rolling update under a client rate limit without a pod quota,
// Summary.PeakPods equals PeakPodsHigh, with and without
// Config.PeakPodsAbove (which must then not cut that order); elsewhere
// the likelier orders' peak stays below it on these shapes.
func TestBurstLeadsPeak(t *testing.T) {
	tests := []struct {
		name     string
		replicas int32
		ms, mu   surge.Value
		ready    time.Duration
		qps      float64
		maxPods  int32
		leads    bool
	}{
		// Upstream (realsim, v1.36.3): holdout-20261134/14, 517 pods in 5 real runs of 5.
		{"486 at 0/49", 486, surge.Count(0), surge.Count(49), 0, 0, 0, true},
		// Upstream (realsim): holdout-20261131/25, 310 to 338 pods.
		{"307 at 0/66%", 307, surge.Count(0), surge.Percent(66), 0, 0, 0, true},
		// realsim TestRaceTrace peak/400/0-45: 401, 431 and 401 pods.
		{"400 at 0/45", 400, surge.Count(0), surge.Count(45), 0, 0, 0, true},
		// Upstream (realsim): readiness/1000/1m0s, 1,264 to 1,266 pods.
		{"1000 at 25%/25% ready after 60s", 1000, surge.Percent(25), surge.Percent(25), time.Minute, 0, 0, true},
		{"299 at 0/45, below 300", 299, surge.Count(0), surge.Count(45), 0, 0, 0, false},
		{"486 at 0/49 with a pod quota", 486, surge.Count(0), surge.Count(49), 0, 0, 600, false},
		// Upstream (realsim): qps/1000/-1-0, 1,250 to 1,291 pods, where
		// the deletes-last order says 1,749.
		{"1000 at 25%/25% ready after 5s, no client limit", 1000, surge.Percent(25), surge.Percent(25), 5 * time.Second, -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rollingState(t, tt.replicas, rolling(tt.ms, tt.mu))
			cfg := sim.Config{Model: sim.ModelControllers, OmitSteps: true, Controllers: sim.Controllers{QPS: tt.qps},
				Pods: sim.PodModel{ReadyAfter: tt.ready, MaxPods: tt.maxPods}}
			sm := run(t, s, cfg).Summary
			if got := sm.PeakPods == sm.PeakPodsHigh; got != tt.leads {
				t.Errorf("PeakPods %d, PeakPodsHigh %d: equal = %v, want %v", sm.PeakPods, sm.PeakPodsHigh, got, tt.leads)
			}
			cfg.PeakPodsAbove = int64(tt.replicas)
			if got := run(t, s, cfg).Summary.PeakPods; got != sm.PeakPods {
				t.Errorf("PeakPods = %d with PeakPodsAbove %d, %d without", got, cfg.PeakPodsAbove, sm.PeakPods)
			}
		})
	}
}
