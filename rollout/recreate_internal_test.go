package rollout

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOldPodsRunning ports upstream's TestOldPodsRunning (vectors C.9)
// through planner.getPodMapForDeployment and planner.oldPodsRunning. Upstream fills the
// pod map by hand; here the pods carry owner references to ReplicaSets the
// Deployment controls, so getPodMapForDeployment builds the same map: one entry per
// controlled ReplicaSet, with its pods whatever their phase. Upstream's rs-1
// has no UID; it gets uid-1, the key upstream's pods use.
func TestOldPodsRunning(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d := UpstreamNewDeployment("foo", 1, OptionalInt32{}, nil, nil, selector)
	owned := func(name, uid string, spec, status int32) ReplicaSet {
		return ReplicaSet{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: uid, Labels: selector,
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true}},
			},
			Spec:   ReplicaSetSpec{Replicas: spec, Selector: LabelSelector{MatchLabels: selector}},
			Status: ReplicaSetStatus{Replicas: status},
		}
	}
	rsWithUID := func(uid string) ReplicaSet { return owned("foo-"+uid, uid, 0, 0) }
	rs1 := func(status int32) ReplicaSet { return owned("rs-1", "uid-1", 0, status) }
	tests := []struct {
		name   string
		old    []ReplicaSet
		newRS  *ReplicaSet
		pods   map[string][]PodPhase // by the UID of the owning ReplicaSet
		others []string              // UIDs in pods that are not old ReplicaSets
		want   bool
	}{
		{name: "no old RSs", want: false},
		{
			name: "old RSs with running pods",
			old:  []ReplicaSet{rsWithUID("some-uid"), rsWithUID("other-uid")},
			pods: map[string][]PodPhase{"some-uid": {"", ""}, "other-uid": {"", ""}},
			want: true,
		},
		{name: "old RSs without pods but with non-zero status replicas", old: []ReplicaSet{rs1(1)}, want: true},
		{name: "old RSs without pods or non-zero status replicas", old: []ReplicaSet{rs1(0)}, want: false},
		{
			name: "old RSs with zero status replicas but pods in terminal state are present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodFailed, PodSucceeded}},
			want: false,
		},
		{
			name: "old RSs with zero status replicas but pod in unknown phase present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodUnknown}},
			want: true,
		},
		{
			name: "old RSs with zero status replicas with pending pod present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodPending}},
			want: true,
		},
		{
			name: "old RSs with zero status replicas with running pod present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodRunning}},
			want: true,
		},
		{
			name:   "old RSs with zero status replicas but pods in terminal state and pending are present",
			old:    []ReplicaSet{rs1(0)},
			pods:   map[string][]PodPhase{"uid-1": {PodFailed, PodSucceeded}, "uid-2": {}, "uid-3": {PodPending}},
			others: []string{"uid-2", "uid-3"},
			want:   true,
		},
		// Not upstream (R-REC-2): the new ReplicaSet's pods do not count.
		{
			name:  "only the new ReplicaSet's pods run",
			old:   []ReplicaSet{rs1(0)},
			newRS: func() *ReplicaSet { rs := owned("rs-new", "uid-new", 1, 1); return &rs }(),
			pods:  map[string][]PodPhase{"uid-new": {PodRunning}},
			want:  false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sets := slices.Clone(tt.old)
			for _, uid := range tt.others {
				sets = append(sets, owned("rs-"+uid, uid, 0, 0))
			}
			if tt.newRS != nil {
				sets = append(sets, *tt.newRS)
			}
			var pods []Pod
			for _, uid := range slices.Sorted(maps.Keys(tt.pods)) {
				var owner string
				for _, rs := range sets {
					if rs.UID == uid {
						owner = rs.Name
					}
				}
				for i, phase := range tt.pods[uid] {
					pods = append(pods, Pod{
						ObjectMeta: ObjectMeta{
							Name: fmt.Sprintf("%s-pod-%d", owner, i), Namespace: "default", Labels: selector,
							OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner, UID: uid, Controller: true}},
						},
						Phase: phase,
					})
				}
			}
			p := newPlanner(State{Deployment: d, ReplicaSets: sets, Now: FixtureNow})
			if err := p.getReplicaSetsForDeployment(); err != nil {
				t.Fatal(err)
			}
			if err := p.getPodMapForDeployment(pods); err != nil {
				t.Fatal(err)
			}
			var old []*ReplicaSet
			for i := range tt.old {
				old = append(old, &tt.old[i])
			}
			if diff := cmp.Diff(tt.want, p.oldPodsRunning(tt.newRS, old)); diff != "" {
				t.Errorf("oldPodsRunning() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
