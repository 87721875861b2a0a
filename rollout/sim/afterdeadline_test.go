package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestAfterDeadline: Summary.AfterDeadline says how a run that went on
// past its progress deadline ended there, as Outcome would say it
// without the deadline; a run stopped at the deadline leaves it empty.
func TestAfterDeadline(t *testing.T) {
	// TestPastDeadline's quota case: it completes after the deadline.
	slow := rollingState(t, 56, rolling(surge.Percent(67), surge.Count(27)))
	slowPods := sim.PodModel{ReadyAfter: 6 * time.Second, Terminating: 30 * time.Second, MaxPods: 93}
	// maxUnavailable 0 under a quota of the replicas: no surge pod is
	// ever let in, so the rollout is stuck before and after the deadline.
	stuck := rollingState(t, 3, rolling(surge.Count(1), surge.Count(0)))
	stuckPods := sim.PodModel{MaxPods: 3}
	for _, tc := range []struct {
		name   string
		past   time.Duration
		pods   sim.PodModel
		stuck  bool
		want   sim.Outcome
		detail string // a part of AfterDeadlineDetail
	}{
		{name: "complete after the deadline", pods: slowPods, want: sim.OutcomeComplete},
		{name: "stopped a minute after the deadline", past: time.Minute, pods: slowPods, want: sim.OutcomeLimit, detail: "past the progress deadline (PastDeadline)"},
		{name: "stopped at the deadline", past: -1, pods: slowPods},
		{name: "blocked by the quota after the deadline", pods: stuckPods, stuck: true, want: sim.OutcomeQuota, detail: "quota"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := slow
			if tc.stuck {
				s = stuck
			}
			sm := run(t, s, sim.Config{Pods: tc.pods, PastDeadline: tc.past}).Summary
			if sm.Outcome != sim.OutcomeDeadlineExceeded {
				t.Fatalf("outcome %q, want %q", sm.Outcome, sim.OutcomeDeadlineExceeded)
			}
			if sm.AfterDeadline != tc.want || !strings.Contains(sm.AfterDeadlineDetail, tc.detail) || (tc.want == "") != (sm.AfterDeadlineDetail == "") {
				t.Errorf("after the deadline %q (%q), want %q with %q", sm.AfterDeadline, sm.AfterDeadlineDetail, tc.want, tc.detail)
			}
			if complete := sm.CompleteAfterDeadline > 0; complete != (tc.want == sim.OutcomeComplete) {
				t.Errorf("CompleteAfterDeadline %v with AfterDeadline %q", sm.CompleteAfterDeadline, sm.AfterDeadline)
			}
		})
	}
}
