package render

import (
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// What an output says besides the numbers: the pod model that gives its
// durations their meaning, why a sync that changes nothing waits, and
// where upstream writes one object twice in a sync.

// WaitReason says why the rollout of d stands still after a sync that
// changed no ReplicaSet's size, from the counts of its ReplicaSets and the
// floor and ceiling of the moment; "" when there is nothing to wait for
// (the new ReplicaSet has every replica available and no old pod is
// left, or there is no new ReplicaSet).
//
// Under the controllers model (controllers true), a ReplicaSet's status
// lags behind its pods: the ReplicaSet controller writes it when its sync
// ends, so a new ReplicaSet short of pods is one still being created.
func WaitReason(d rollout.Deployment, st sim.Step, controllers bool) string {
	var newSet *sim.SetCount
	var oldPods, oldDesired, total, available int64
	for i, c := range st.Sets {
		total += int64(c.Desired)
		available += int64(c.Available)
		if c.New {
			newSet = &st.Sets[i]
			continue
		}
		oldPods += int64(c.Current) + int64(c.Terminating)
		oldDesired += int64(c.Desired)
	}
	replicas := int64(st.Replicas)
	done := newSet != nil && int64(newSet.Desired) == replicas && int64(newSet.Available) == replicas && oldPods == 0
	switch {
	case d.Spec.Paused:
		return "the Deployment is paused: nothing rolls out until it is resumed"
	case done:
		return ""
	case d.Spec.Strategy.Type == rollout.RecreateStrategy && oldPods > 0 && oldDesired == 0:
		return fmt.Sprintf("Recreate waits for the %d old pods to go before it scales up the new ReplicaSet", oldPods)
	case newSet == nil:
		return ""
	case int64(newSet.Desired) > int64(newSet.Current) && controllers:
		return fmt.Sprintf("the new ReplicaSet wants %s and its status shows %d: the ReplicaSet controller is creating them (it writes the status when its sync ends)", words.Plural(int(newSet.Desired), "pod"), newSet.Current)
	case int64(newSet.Desired) > int64(newSet.Current):
		return fmt.Sprintf("the new ReplicaSet wants %s and has %d: the ReplicaSet controller cannot create the rest (a quota?)", words.Plural(int(newSet.Desired), "pod"), newSet.Current)
	}
	var why []string
	if int64(newSet.Desired) < replicas && total >= st.Ceiling {
		why = append(why, fmt.Sprintf("%s, the ceiling (replicas + maxSurge) is %d, so the new ReplicaSet grows only as old pods go", podsAre(total, "wanted"), st.Ceiling))
	}
	if oldDesired > 0 && available <= int64(st.Floor) {
		why = append(why, fmt.Sprintf("%s, the floor (replicas - maxUnavailable) is %d, so no old pod may go until more new pods are available", podsAre(available, "available"), st.Floor))
	}
	if len(why) == 0 && newSet.Available < newSet.Desired {
		verb := "are"
		if newSet.Available == 1 {
			verb = "is"
		}
		why = append(why, fmt.Sprintf("%d of the %s %s available", newSet.Available, newPods(newSet.Desired), verb))
	}
	return strings.Join(why, "; ")
}

// DoubleWrite reports whether actions[i] writes an object that an earlier
// action of the same sync wrote (the same ReplicaSet, the Deployment, or
// its status): upstream's double write, which its
// fake client accepts and a real API server refuses with a Conflict, the
// object's resourceVersion having changed; the controller then syncs
// again.
func DoubleWrite(actions []rollout.Action, i int) bool {
	key := func(a rollout.Action) string {
		switch a.Type {
		case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
			return "rs/" + a.ReplicaSet
		case rollout.UpdateDeployment:
			return "deployment"
		case rollout.UpdateDeploymentStatus:
			return "deployment/status"
		}
		return ""
	}
	k := key(actions[i])
	if k == "" {
		return false
	}
	for _, a := range actions[:i] {
		if key(a) == k {
			return true
		}
	}
	return false
}

// ConflictNote is what the outputs say of a double write (see
// [DoubleWrite]).
const ConflictNote = "a second write of the same object in one sync (upstream quirk Q-2): a real API server answers it with a Conflict, as the object changed, and the controller syncs again"

// podsAre words n pods in a state: "1 pod is available", "3 pods are
// wanted".
func podsAre(n int64, state string) string {
	if n == 1 {
		return "1 pod is " + state
	}
	return fmt.Sprintf("%d pods are %s", n, state)
}

// newPods words n new pods: "1 new pod", "3 new pods".
func newPods(n int32) string {
	if n == 1 {
		return "1 new pod"
	}
	return fmt.Sprintf("%d new pods", n)
}
