package rollout_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestGetReplicaCountForReplicaSets ports upstream's test of the same name
// (B.4), including the terminating count that is unknown once a synced
// ReplicaSet does not report it.
func TestGetReplicaCountForReplicaSets(t *testing.T) {
	mk := func(name string, obsGen int64, spec, status int32, terminating rollout.OptionalInt32) rollout.ReplicaSet {
		rs := rollout.UpstreamGenerateRS(rollout.UpstreamGenerateDeployment(name), name, "uid-"+name)
		rs.Status.ObservedGeneration = obsGen
		rs.Spec.Replicas = spec
		rs.Status.Replicas = status
		rs.Status.TerminatingReplicas = terminating
		return rs
	}
	rs1 := mk("foo-rs", 1, 1, 2, rollout.Int32(3))
	rs2 := mk("bar-rs", 0, 2, 3, rollout.Int32(1)) // upstream sets rs1's generation twice
	rs3 := mk("unsynced-rs", 0, 3, 0, rollout.OptionalInt32{})
	rs4 := mk("dropped-rs", 1, 1, 1, rollout.OptionalInt32{})

	type counts struct {
		Spec, Status     int64
		Terminating      int64
		TerminatingKnown bool
	}
	tests := []struct {
		name string
		sets []rollout.ReplicaSet
		want counts
	}{
		{name: "scaling down rs1", sets: []rollout.ReplicaSet{rs1}, want: counts{1, 2, 3, true}},
		{name: "scaling down rs1 and rs2", sets: []rollout.ReplicaSet{rs1, rs2}, want: counts{3, 5, 4, true}},
		{name: "scaling up rs3", sets: []rollout.ReplicaSet{rs3}, want: counts{3, 0, 0, true}},
		{name: "scaling down rs1 and rs2 and scaling up rs3", sets: []rollout.ReplicaSet{rs1, rs2, rs3}, want: counts{6, 5, 4, true}},
		{name: "invalid/unknown terminating status for rs4", sets: []rollout.ReplicaSet{rs4}, want: counts{1, 1, 0, false}},
		{name: "invalid/unknown terminating status for rs4 with rs1, rs2 and rs3", sets: []rollout.ReplicaSet{rs1, rs2, rs3, rs4}, want: counts{7, 6, 0, false}},
		// Not upstream: the unknown count stays unknown whatever follows.
		{name: "rs4 first", sets: []rollout.ReplicaSet{rs4, rs1}, want: counts{2, 3, 0, false}},
		{name: "no sets", want: counts{0, 0, 0, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := rollout.DeepCopies(tt.sets)
			sets := rollout.Pointers(tt.sets)
			term, known := rollout.GetTerminatingReplicaCountForReplicaSets(sets)
			got := counts{
				Spec:             rollout.GetReplicaCountForReplicaSets(sets),
				Status:           rollout.GetActualReplicaCountForReplicaSets(sets),
				Terminating:      term,
				TerminatingKnown: known,
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Get*ReplicaCountForReplicaSets() mismatch (-want +got):\n%s", diff)
			}
			c := rollout.Count(sets)
			if diff := cmp.Diff(tt.want, counts{c.Spec, c.Replicas, c.Terminating, c.TerminatingKnown}); diff != "" {
				t.Errorf("Count() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("Count() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestCountReadyAvailable checks the two sums upstream's count test does
// not cover.
func TestCountReadyAvailable(t *testing.T) {
	sets := []*rollout.ReplicaSet{
		{Status: rollout.ReplicaSetStatus{ReadyReplicas: 2, AvailableReplicas: 1}},
		nil, // skipped, as upstream skips it
		{Status: rollout.ReplicaSetStatus{ReadyReplicas: math.MaxInt32, AvailableReplicas: math.MaxInt32}},
	}
	got := []int64{rollout.GetReadyReplicaCountForReplicaSets(sets), rollout.GetAvailableReplicaCountForReplicaSets(sets)}
	want := []int64{math.MaxInt32 + 2, math.MaxInt32 + 1} // int64 sums do not wrap
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get{Ready,Available}ReplicaCountForReplicaSets() mismatch (-want +got):\n%s", diff)
	}
}

// TestCountSkipsNil: every sum skips nil entries, the terminating count
// too, as upstream's helpers do.
func TestCountSkipsNil(t *testing.T) {
	rs := rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch)
	rs.Status.TerminatingReplicas = rollout.Int32(2)
	got := rollout.Count([]*rollout.ReplicaSet{nil, &rs, nil})
	want := rollout.Counts{Spec: 3, Replicas: 3, Ready: 3, Available: 3, Terminating: 2, TerminatingKnown: true}
	if got != want {
		t.Errorf("Count() = %+v, want %+v", got, want)
	}
}
