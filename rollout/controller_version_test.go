package rollout_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// recreateState is a Recreate rollout from v1 to v2 whose old ReplicaSet
// is already at 0 with no pods in its status, so that the sync waits for,
// or goes on past, exactly the pods given.
func recreateState(v rollout.Version, pods ...rollout.Pod) rollout.State {
	old := rollout.WebReplicaSet("web-v1", "v1", 0, 1, rollout.WebEpoch)
	s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", old)
	s.Deployment.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
	s.Pods = pods
	s.Options.Version = v
	return s
}

// createsNewReplicaSet reports whether a plan creates a ReplicaSet.
func createsNewReplicaSet(actions []rollout.Action) bool {
	for _, a := range actions {
		if a.Type == rollout.CreateReplicaSet {
			return true
		}
	}
	return false
}

// TestRecreateOldPodsByVersion: the pods a Recreate rollout waits
// for (VERSIONS.md C1). v1.35's getPodMapForDeployment lists the pods its
// selector matches and groups them by their controller reference's UID;
// v1.36's and v1.37's pod index (FilterPodsByOwner) keys them by the
// reference's kind, name and UID, whatever their labels.
func TestRecreateOldPodsByControllerVersion(t *testing.T) {
	ref := func(kind, name, uid string) []rollout.OwnerReference {
		return []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: true}}
	}
	labels := map[string]string{"app": "web", rollout.PodTemplateHashLabel: "web-v1"}
	pod := func(ns string, labels map[string]string, refs []rollout.OwnerReference) rollout.Pod {
		return rollout.Pod{ObjectMeta: rollout.ObjectMeta{Name: "web-v1-abcde", Namespace: ns, Labels: labels, OwnerReferences: refs}, Phase: rollout.PodRunning}
	}
	for _, tc := range []struct {
		name string
		pod  rollout.Pod
		// waits is whether the sync waits for the pod (creates no new
		// ReplicaSet), for 1.35, 1.36 and 1.37.
		waits [3]bool
	}{
		{"owned by the old ReplicaSet", pod("default", labels, ref("ReplicaSet", "web-v1", "uid-web-v1")), [3]bool{true, true, true}},
		{"its UID under another name", pod("default", labels, ref("ReplicaSet", "web-v0", "uid-web-v1")), [3]bool{true, false, false}},
		{"its UID under another kind", pod("default", labels, ref("StatefulSet", "web-v1", "uid-web-v1")), [3]bool{true, false, false}},
		{"owned, labels the selector does not match", pod("default", map[string]string{"app": "other"}, ref("ReplicaSet", "web-v1", "uid-web-v1")), [3]bool{false, true, true}},
		{"owned, no labels", pod("default", nil, ref("ReplicaSet", "web-v1", "uid-web-v1")), [3]bool{false, true, true}},
		{"owned, in another namespace", pod("other", labels, ref("ReplicaSet", "web-v1", "uid-web-v1")), [3]bool{false, false, false}},
		{"no controller reference", pod("default", labels, nil), [3]bool{false, false, false}},
	} {
		for i, v := range []rollout.Version{rollout.V1_35, rollout.V1_36, rollout.V1_37} {
			actions, err := rollout.Plan(recreateState(v, tc.pod))
			if err != nil {
				t.Fatalf("%s at %s: %v", tc.name, v, err)
			}
			if waits := !createsNewReplicaSet(actions); waits != tc.waits[i] {
				t.Errorf("%s at %s: the sync waits %v, want %v (plan %v)", tc.name, v, waits, tc.waits[i], actions)
			}
		}
	}
	// Latest is v1.37.
	p := recreateState(rollout.Latest, pod("default", labels, ref("ReplicaSet", "web-v0", "uid-web-v1")))
	if actions, err := rollout.Plan(p); err != nil || !createsNewReplicaSet(actions) {
		t.Errorf("Latest: %v, %v; want v1.37's plan, which does not wait", actions, err)
	}
}

// TestPodMapFailureByVersion: a controlled ReplicaSet without a
// UID fails the pod lookup from v1.36 (FilterPodsByOwner); v1.37 looks pods
// up only for a Recreate Deployment (syncDeployment), so a RollingUpdate
// sync goes on (VERSIONS.md C1, C2).
func TestPodMapFailureByControllerVersion(t *testing.T) {
	const fail = "no owner uid provided"
	for _, tc := range []struct {
		strategy rollout.StrategyType
		want     [3]string // the error at 1.35, 1.36, 1.37
	}{
		{rollout.RollingUpdateStrategy, [3]string{"", fail, ""}},
		{rollout.RecreateStrategy, [3]string{"", fail, fail}},
	} {
		for i, v := range []rollout.Version{rollout.V1_35, rollout.V1_36, rollout.V1_37} {
			s := recreateState(v)
			s.Deployment.Spec.Strategy.Type = tc.strategy
			s.ReplicaSets[0].UID = ""
			s.Options.SkipValidation = true
			_, err := rollout.Plan(s)
			if got := errString(err); got != tc.want[i] {
				t.Errorf("%s at %s: Plan() error %q, want %q", tc.strategy, v, got, tc.want[i])
			}
		}
	}
}

// TestPlanRefusesUnsupportedControllerVersion: Plan fails, with no
// actions, for a Version that is not Valid.
func TestPlanRefusesUnsupportedControllerVersion(t *testing.T) {
	s := recreateState(rollout.Version(9))
	actions, err := rollout.Plan(s)
	if err == nil || actions != nil {
		t.Errorf("Plan() = %v, %v; want no actions and an error", actions, err)
	}
}
