package sim

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestSecondStatusWrite: the second Deployment status write of a sync is
// the one the server refuses (upstream's getNewReplicaSet drops the
// object its own status write returned), whatever comes between; a sync
// with one status write or none has nothing refused.
func TestSecondStatusWrite(t *testing.T) {
	status := rollout.Action{Type: rollout.UpdateDeploymentStatus}
	create := rollout.Action{Type: rollout.CreateReplicaSet}
	scale := rollout.Action{Type: rollout.ScaleReplicaSet}
	recheck := rollout.Action{Type: rollout.RecheckProgress}
	for _, tt := range []struct {
		name    string
		actions []rollout.Action
		want    int
	}{
		{"no actions", nil, -1},
		{"a status write alone", []rollout.Action{status}, -1},
		{"a scale and the status", []rollout.Action{scale, status}, -1},
		{"a progress re-check", []rollout.Action{recheck}, -1},
		{"the sync that creates the new ReplicaSet: create, status, scale, status", []rollout.Action{create, status, scale, status}, 3},
		{"an existing new ReplicaSet's revision, then the status", []rollout.Action{status, status}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := secondStatusWrite(tt.actions); got != tt.want {
				t.Errorf("secondStatusWrite() = %d, want %d", got, tt.want)
			}
		})
	}
}
