package rollout_test

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// cluster stands in for an API server and the ReplicaSet controller: calls
// change its state as rollout.Apply does, and it refuses one call, as an
// API server refuses a write made from a stale object.
type cluster struct {
	state  rollout.State
	refuse rollout.ActionType // the next call of this type fails once
}

// do carries out one API call.
func (c *cluster) do(a rollout.Action) error {
	if a.Type == c.refuse {
		c.refuse = ""
		return errors.New("the object has been modified; please apply your changes to the latest version")
	}
	c.state = rollout.Apply(c.state, []rollout.Action{a})
	return nil
}

// podsReady is the ReplicaSet controller and the kubelet: every ReplicaSet
// gets its pods, all available at once.
func (c *cluster) podsReady() {
	for i := range c.state.ReplicaSets {
		rs := &c.state.ReplicaSets[i]
		n := rs.Spec.Replicas
		rs.Status = rollout.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n,
			TerminatingReplicas: rollout.Int32(0), ObservedGeneration: rs.Generation}
	}
}

// A minimal controller loop: plan a sync, carry out its actions in order,
// record each event once its call succeeded, stop at the first call that
// fails, and plan again at the next event. A failed call (here a conflict
// on the second sync's scale-up) costs a retry, not a wrong state: the next
// plan starts from what the server holds. The loop ends when a sync has
// nothing left to do.
func Example_controllerLoop() {
	c := &cluster{state: exNginx()}
	now := c.state.Now
	for sync := 1; sync <= 10; sync++ {
		s := c.state // what the controller's cache shows
		s.Now = now
		actions, err := rollout.Plan(s)
		calls, failed := 0, false
		for _, a := range actions {
			if a.Type == rollout.RecheckProgress {
				fmt.Printf("%d: check progress again in %s\n", sync, a.At.Sub(now))
				continue
			}
			if a.IsAPICall() {
				if err := c.do(a); err != nil {
					fmt.Printf("%d: %s %s failed: %v\n", sync, a.Type, a.ReplicaSet, err)
					failed = true
					break // later actions assumed this one succeeded
				}
				calls++
				fmt.Printf("%d: %s\n", sync, strings.TrimSpace(string(a.Type)+" "+a.ReplicaSet))
			}
			if !a.Event.IsZero() {
				fmt.Printf("%d:   event %s: %s\n", sync, a.Event.Reason, a.Event.Message)
			}
		}
		if err != nil {
			fmt.Printf("%d: sync failed: %v\n", sync, err) // requeue with backoff
		}
		if calls == 0 && !failed && err == nil {
			fmt.Printf("%d: nothing to do\n", sync)
			break
		}
		if sync == 1 {
			c.refuse = rollout.ScaleReplicaSet // a conflict in the next sync
		}
		c.podsReady()
		now = now.Add(30 * time.Second) // the next event: pods became ready
	}
	d := c.state.Deployment
	fmt.Println("revision", d.Annotations[rollout.RevisionAnnotation], "complete", rollout.DeploymentComplete(d, d.Status))
	// Output:
	// 1: CreateReplicaSet nginx-deployment-845999d97f
	// 1:   event ScalingReplicaSet: Scaled up replica set nginx-deployment-845999d97f from 0 to 3
	// 1: UpdateDeploymentStatus
	// 1: ScaleReplicaSet nginx-deployment-1564180365
	// 1:   event ScalingReplicaSet: Scaled down replica set nginx-deployment-1564180365 from 10 to 8
	// 1: UpdateDeploymentStatus
	// 2: ScaleReplicaSet nginx-deployment-845999d97f failed: the object has been modified; please apply your changes to the latest version
	// 3: ScaleReplicaSet nginx-deployment-845999d97f
	// 3:   event ScalingReplicaSet: Scaled up replica set nginx-deployment-845999d97f from 3 to 5
	// 3: UpdateDeploymentStatus
	// 4: ScaleReplicaSet nginx-deployment-1564180365
	// 4:   event ScalingReplicaSet: Scaled down replica set nginx-deployment-1564180365 from 8 to 3
	// 4: UpdateDeploymentStatus
	// 5: ScaleReplicaSet nginx-deployment-845999d97f
	// 5:   event ScalingReplicaSet: Scaled up replica set nginx-deployment-845999d97f from 5 to 10
	// 5: UpdateDeploymentStatus
	// 6: ScaleReplicaSet nginx-deployment-1564180365
	// 6:   event ScalingReplicaSet: Scaled down replica set nginx-deployment-1564180365 from 3 to 0
	// 6: UpdateDeploymentStatus
	// 7: UpdateDeploymentStatus
	// 8: nothing to do
	// revision 2 complete true
}
