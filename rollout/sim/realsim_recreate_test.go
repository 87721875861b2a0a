package sim_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/realfig"
)

// recreateLarge are real Recreate rollouts of 300 to 2,000 replicas, kept
// outside the recorded file (whose Recreate cases stop at 100): the real
// v1.36.3 Deployment and ReplicaSet controllers
// (internal/upstream/realsim, 20 QPS, burst 30), 5 runs of each case,
// measured on 2026-11-29 at a load average under 3, pods ready at once,
// or ready after 5s and terminating for 30s.
//
// They pin a difference of the model's: upstream's Deployment controller,
// on each pod of a Recreate Deployment deleted (deletePod), lists the
// ReplicaSets through its rate-limited client and syncs only once no pod
// is left, where the model syncs the Deployment at each granted deletion
// and takes no token for the list. At these sizes the lists do not move
// the rollout: the ReplicaSet controller's own deletions and creations,
// one token each, set the pace, and the model completes within 0.6s of
// every real median (0.3%).
var recreateLarge = []holdoutRow{
	{realfig.Case{Name: "recreate-large/300/ready-0s", Replicas: 300, Recreate: true}, 5, 5, 0, realfig.Range{Min: 29.15, Median: 29.2, Max: 29.2}, realfig.Range{Min: 300, Median: 300, Max: 300}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "recreate-large/300/ready-5s/terminating-30s", Replicas: 300, Recreate: true, ReadyAfterSeconds: 5, TerminatingSeconds: 30}, 5, 5, 0, realfig.Range{Min: 62.9, Median: 63.05, Max: 63.1}, realfig.Range{Min: 300, Median: 300, Max: 300}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "recreate-large/1000/ready-0s", Replicas: 1000, Recreate: true}, 5, 5, 0, realfig.Range{Min: 99.75, Median: 99.75, Max: 99.85}, realfig.Range{Min: 1000, Median: 1000, Max: 1000}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "recreate-large/1000/ready-5s/terminating-30s", Replicas: 1000, Recreate: true, ReadyAfterSeconds: 5, TerminatingSeconds: 30}, 5, 5, 0, realfig.Range{Min: 134.5, Median: 134.55, Max: 134.6}, realfig.Range{Min: 1000, Median: 1000, Max: 1000}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "recreate-large/2000/ready-0s", Replicas: 2000, Recreate: true}, 5, 5, 0, realfig.Range{Min: 200.25, Median: 200.25, Max: 200.25}, realfig.Range{Min: 2000, Median: 2000, Max: 2000}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
	{realfig.Case{Name: "recreate-large/2000/ready-5s/terminating-30s", Replicas: 2000, Recreate: true, ReadyAfterSeconds: 5, TerminatingSeconds: 30}, 5, 5, 0, realfig.Range{Min: 235.1, Median: 235.1, Max: 235.1}, realfig.Range{Min: 2000, Median: 2000, Max: 2000}, realfig.Range{Min: 0, Median: 0, Max: 0}, nil, nil},
}

// TestControllersAgainstRealRecreateLarge holds the model to recreateLarge:
// each case within issue 23's rule and realfig.Bounds.
func TestControllersAgainstRealRecreateLarge(t *testing.T) {
	judgeHoldout(t, recreateLarge)
}
