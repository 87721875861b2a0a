package rollout_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// why returns each action of a plan as "<type> [<ReplicaSet> <from>-><to>]
// | <reason>".
func why(actions []rollout.Action) []string {
	var out []string
	for _, a := range actions {
		what := string(a.Type)
		switch a.Type {
		case rollout.CreateReplicaSet, rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
			what = fmt.Sprintf("%s %s %d->%d", a.Type, a.ReplicaSet, a.From, a.To)
		case rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet, rollout.DeleteReplicaSet:
			what = fmt.Sprintf("%s %s", a.Type, a.ReplicaSet)
		}
		out = append(out, what+" | "+a.Reason)
	}
	return out
}

// reasonCases are one sync of each step the planner explains.
func reasonCases() map[string]rollout.State {
	rs := func(name, image string, size, available int32, rev int, minute int) rollout.ReplicaSet {
		r := rollout.WebReplicaSet(name, image, size, rev, rollout.WebEpoch.Add(time.Duration(minute)*time.Minute))
		r.Status.AvailableReplicas, r.Status.ReadyReplicas = available, available
		return r
	}
	ru := rollout.DefaultRollingUpdate() // 10 replicas: surge 3, unavailable 2
	cases := map[string]rollout.State{}
	cases["rolling: create and scale down"] = rollout.WebState(10, ru, "v2", rs("web-v1", "v1", 10, 10, 1, 0))
	cases["rolling: new above replicas"] = rollout.WebState(10, ru, "v2", rs("web-v1", "v1", 0, 0, 1, 0), rs("web-v2", "v2", 12, 12, 2, 1))
	cases["rolling: new scaled up"] = rollout.WebState(10, ru, "v2", rs("web-v1", "v1", 8, 8, 1, 0), rs("web-v2", "v2", 3, 3, 2, 1))
	cases["rolling: unhealthy cleanup"] = rollout.WebState(10, rollout.RollingUpdate{MaxSurge: surge.Count(0), MaxUnavailable: surge.Count(3)}, "v2",
		rs("web-v1", "v1", 10, 8, 1, 0), rs("web-v2", "v2", 0, 0, 2, 1))
	recreate := rollout.WebState(3, ru, "v2", rs("web-v1", "v1", 3, 3, 1, 0))
	recreate.Deployment.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
	cases["recreate: old to 0"] = recreate
	recreated := rollout.DeepCopyState(recreate)
	recreated.ReplicaSets[0] = rs("web-v1", "v1", 0, 0, 1, 0)
	cases["recreate: create"] = recreated
	recreateUp := rollout.DeepCopyState(recreate)
	recreateUp.ReplicaSets = append(recreateUp.ReplicaSets, rs("web-v2", "v2", 1, 1, 2, 1))
	recreateUp.ReplicaSets[0] = rs("web-v1", "v1", 0, 0, 1, 0)
	cases["recreate: new scaled up"] = recreateUp

	// Scaling, one active ReplicaSet: replicas 10 -> 12.
	scaled := rollout.WebState(12, ru, "v1", rs("web-v1", "v1", 10, 10, 1, 0))
	scaled.ReplicaSets[0].Annotations[rollout.DesiredReplicasAnnotation] = "10"
	cases["scaling: the only active one"] = scaled
	// the only active ReplicaSet has the size, its annotations do not.
	stale := rollout.WebState(10, ru, "v2", rs("web-v1", "v1", 10, 10, 1, 0))
	stale.ReplicaSets[0].Annotations[rollout.DesiredReplicasAnnotation] = "8"
	stale.Options.RefreshStaleAnnotations = true
	cases["scaling: stale annotations refreshed (Q-1 fix)"] = stale
	// Saturated new ReplicaSet while paused: the old one goes.
	saturated := rollout.WebState(10, ru, "v2", rs("web-v1", "v1", 2, 2, 1, 0), rs("web-v2", "v2", 10, 10, 2, 1))
	saturated.ReplicaSets[1].Annotations[rollout.DesiredReplicasAnnotation] = "10"
	saturated.Deployment.Spec.Paused = true
	cases["scaling: saturated"] = saturated
	// Proportional: 8 old and 5 new annotated for 10 (max 13), now 20.
	prop := rollout.WebState(20, ru, "v2", rs("web-v1", "v1", 8, 8, 1, 0), rs("web-v2", "v2", 5, 5, 2, 1))
	for i := range prop.ReplicaSets {
		prop.ReplicaSets[i].Annotations[rollout.DesiredReplicasAnnotation] = "10"
		prop.ReplicaSets[i].Annotations[rollout.MaxReplicasAnnotation] = "13"
	}
	cases["scaling: proportional"] = prop

	// Complete, with history beyond the limit of 1.
	history := rollout.WebState(3, ru, "v3", rs("web-v1", "v1", 0, 0, 1, 0), rs("web-v2", "v2", 0, 0, 2, 1), rs("web-v3", "v3", 3, 3, 3, 2))
	history.Deployment.Spec.RevisionHistoryLimit = rollout.Int32(1)
	history.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "3"}
	history.Deployment.Status = rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}
	cases["cleanup"] = history

	// The new ReplicaSet's name is taken by another template.
	collide := rollout.WebState(3, ru, "v2")
	collide.ReplicaSets = []rollout.ReplicaSet{rs(collide.Deployment.Name+"-"+rollout.PodTemplateHashFor(collide.Deployment, rollout.V1_36), "other", 1, 1, 1, 0)}
	cases["collision"] = collide

	// The new ReplicaSet lags: minReadySeconds and revision.
	lag := rollout.WebState(3, ru, "v2", rs("web-v2", "v2", 3, 3, 1, 0))
	lag.Deployment.Spec.MinReadySeconds = 5
	lag.ReplicaSets = append(lag.ReplicaSets, rs("web-v1", "v1", 0, 0, 2, 1))
	cases["new ReplicaSet brought up to date"] = lag

	empty := rollout.WebState(3, ru, "v1", rs("web-v1", "v1", 3, 3, 1, 0))
	empty.Deployment.Spec.Selector = rollout.LabelSelector{}
	empty.Options.SkipValidation = true
	cases["empty selector"] = empty

	rollback := rollout.WebState(3, ru, "v2", rs("web-v1", "v1", 0, 0, 1, 0), rs("web-v2", "v2", 3, 3, 2, 1))
	rollback.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2", rollout.RollbackToAnnotation: "1"}
	cases["rollback"] = rollback
	noRevision := rollout.DeepCopyState(rollback)
	noRevision.Deployment.Annotations[rollout.RollbackToAnnotation] = "7"
	cases["rollback to a revision that does not exist"] = noRevision

	paused := rollout.WebState(3, ru, "v1", rs("web-v1", "v1", 3, 3, 1, 0))
	paused.Deployment.Spec.Paused = true
	cases["paused"] = paused

	// Progressing since the epoch, deadline 600s: nothing to do but wait.
	waiting := rollout.WebState(3, ru, "v2", rs("web-v1", "v1", 1, 1, 1, 0), rs("web-v2", "v2", 3, 0, 2, 1))
	waiting.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}
	waiting.Now = rollout.WebEpoch.Add(5 * time.Minute)
	p := rollout.Pointers(waiting.ReplicaSets)
	st, _ := rollout.CalculateStatus(&waiting.Deployment, p, p[1], waiting.Now, waiting.Options)
	st.Conditions = append(st.Conditions, rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "m", rollout.WebEpoch))
	waiting.Deployment.Status = st
	cases["waiting for progress"] = waiting

	claims := rollout.WebState(3, ru, "v1", rs("web-v1", "v1", 3, 3, 1, 0), rs("orphan", "v0", 0, 0, 0, 0), rs("stray", "v9", 0, 0, 0, 0))
	claims.ReplicaSets[1].OwnerReferences = nil
	claims.ReplicaSets[2].Labels = map[string]string{"app": "other"}
	cases["adopt and release"] = claims

	// Two unhealthy old ReplicaSets: the second may lose what the first left.
	cases["rolling: two unhealthy cleanups"] = rollout.WebState(10, rollout.RollingUpdate{MaxSurge: surge.Count(0), MaxUnavailable: surge.Count(3)}, "v2",
		rs("web-v0", "v0", 5, 4, 1, 0), rs("web-v1", "v1", 5, 3, 2, 1), rs("web-v2", "v2", 0, 0, 3, 2))
	// Proportional scaling to no replicas, and to one, with a count surge.
	toZero := rollout.WebState(0, rollout.RollingUpdate{MaxSurge: surge.Count(3), MaxUnavailable: surge.Count(1)}, "v2",
		rs("web-v1", "v1", 4, 4, 1, 0), rs("web-v2", "v2", 2, 2, 2, 1))
	for i := range toZero.ReplicaSets {
		toZero.ReplicaSets[i].Annotations[rollout.DesiredReplicasAnnotation] = "6"
		toZero.ReplicaSets[i].Annotations[rollout.MaxReplicasAnnotation] = "9"
	}
	cases["scaling: proportional to 0"] = toZero
	toOne := rollout.DeepCopyState(toZero)
	toOne.Deployment.Spec.Replicas = 1
	cases["scaling: proportional to 1"] = toOne
	// Without a progress deadline the status carries no Progressing.
	noDeadline := rollout.WebState(10, ru, "v2", rs("web-v1", "v1", 8, 8, 1, 0), rs("web-v2", "v2", 3, 3, 2, 1))
	noDeadline.Deployment.Spec.ProgressDeadlineSeconds = rollout.OptionalInt32{}
	cases["rolling: no progress deadline"] = noDeadline

	deleting := rollout.WebState(3, ru, "v1", rs("web-v1", "v1", 3, 3, 1, 0))
	deleting.Deployment.DeletionTimestamp = deleting.Now
	cases["deleting"] = deleting
	return cases
}

// TestActionReasons pins the reason Plan gives each action, the numbers
// behind it included, for one sync of each step the planner explains:
// rolling and Recreate steps, scaling (one active ReplicaSet, the Q-1 fix,
// saturation, proportional shares), history cleanup, a collision, a new
// ReplicaSet brought up to date (written twice, Q-2), an empty selector,
// rollbacks, a pause, a progress re-check, adoption and release, and a
// Deployment being deleted. Events and errors are checked elsewhere.
func TestActionReasons(t *testing.T) {
	want := map[string][]string{
		"adopt and release": {
			"AdoptReplicaSet orphan | orphan ReplicaSet matches the selector",
			"ReleaseReplicaSet stray | controlled ReplicaSet no longer matches the selector",
			"UpdateDeploymentStatus | revision annotation 1 of the new ReplicaSet recorded",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: NewReplicaSetAvailable",
		},
		"cleanup": {
			"UpdateDeploymentStatus | revision annotation 3 of the new ReplicaSet recorded",
			"DeleteReplicaSet web-v1 | 2 old ReplicaSets, revisionHistoryLimit 1: the lowest idle revision goes",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: NewReplicaSetAvailable",
		},
		"collision": {
			"UpdateDeploymentStatus | hash collision: ReplicaSet web-684fcfd499 exists with another template; collisionCount 1 gives the next name",
		},
		"deleting": {
			"UpdateDeploymentStatus | revision annotation 1 of the new ReplicaSet recorded",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"empty selector": {
			"RecordEvent | ",
			"UpdateDeploymentStatus | empty selector: only the observed generation is recorded",
		},
		"new ReplicaSet brought up to date": {
			"UpdateReplicaSet web-v2 3->3 | new ReplicaSet's annotations (revision 3) and minReadySeconds brought up to date",
			"UpdateReplicaSet web-v2 3->3 | new ReplicaSet's annotations (revision 3) and minReadySeconds brought up to date",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: NewReplicaSetAvailable",
		},
		"paused": {
			"UpdateDeploymentStatus | Progressing records the pause or resume",
			"UpdateDeploymentStatus | revision annotation 1 of the new ReplicaSet recorded",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"recreate: create": {
			"CreateReplicaSet web-684fcfd499 0->3 | new ReplicaSet for the new template at replicas 3: no old pod is left",
			"UpdateDeploymentStatus | revision 2 and the Progressing condition recorded",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: NewReplicaSetCreated",
		},
		"recreate: new scaled up": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v2 1->3 | Recreate: the new ReplicaSet takes all 3 replicas",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"recreate: old to 0": {
			"ScaleReplicaSet web-v1 3->0 | Recreate: every old ReplicaSet goes to 0 before the new one starts",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"rollback": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"UpdateDeployment | rollback: the template of the requested revision restored, the request cleared",
		},
		"rollback to a revision that does not exist": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"RecordEvent | ",
			"UpdateDeployment | rollback request cleared: nothing to roll back to",
		},
		"rolling: create and scale down": {
			"CreateReplicaSet web-684fcfd499 0->3 | new ReplicaSet for the new template at 3: replicas 10 + maxSurge 3 - current total 10, at most replicas",
			"UpdateDeploymentStatus | revision 2 and the Progressing condition recorded",
			"ScaleReplicaSet web-v1 10->8 | old ReplicaSet -2: available 10 - minAvailable 8 (replicas 10 - maxUnavailable 2) allows -2 in all",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"rolling: new above replicas": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v2 12->10 | new ReplicaSet above replicas 10",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"rolling: new scaled up": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v2 3->5 | new ReplicaSet +2: replicas 10 + maxSurge 3 - current total 11, at most replicas",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"rolling: two unhealthy cleanups": {
			"UpdateDeploymentStatus | revision annotation 3 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v0 5->4 | old ReplicaSet -1 unavailable replicas, which cost no availability (at most 3 may go)",
			"ScaleReplicaSet web-v1 5->3 | old ReplicaSet -2 unavailable replicas, which cost no availability (at most 2 may go)",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"rolling: no progress deadline": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v2 3->5 | new ReplicaSet +2: replicas 10 + maxSurge 3 - current total 11, at most replicas",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"scaling: proportional to 0": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v1 4->0 | proportional scaling of -6 (replicas 0 + maxSurge 3 - active total 6): this ReplicaSet's share",
			"ScaleReplicaSet web-v2 2->0 | proportional scaling of -6 (replicas 0 + maxSurge 3 - active total 6): this ReplicaSet's share",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"scaling: proportional to 1": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v1 4->2 | proportional scaling of -2 (replicas 1 + maxSurge 3 - active total 6): this ReplicaSet's share",
			"UpdateReplicaSet web-v2 2->2 | proportional scaling of -2 (replicas 1 + maxSurge 3 - active total 6): this ReplicaSet's share",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"rolling: unhealthy cleanup": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v1 10->8 | old ReplicaSet -2 unavailable replicas, which cost no availability (at most 3 may go)",
			"ScaleReplicaSet web-v1 8->7 | old ReplicaSet -1: available 8 - minAvailable 7 (replicas 10 - maxUnavailable 3) allows -1 in all",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets; Progressing: ReplicaSetUpdated",
		},
		"scaling: proportional": {
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v1 8->15 | proportional scaling of +12 (replicas 20 + maxSurge 5 - active total 13): this ReplicaSet's share",
			"ScaleReplicaSet web-v2 5->10 | proportional scaling of +12 (replicas 20 + maxSurge 5 - active total 13): this ReplicaSet's share",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"scaling: saturated": {
			"UpdateDeploymentStatus | Progressing records the pause or resume",
			"UpdateDeploymentStatus | revision annotation 2 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v1 2->0 | the new ReplicaSet is saturated (10 available): old ReplicaSets go to 0",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"scaling: stale annotations refreshed (Q-1 fix)": {
			"UpdateReplicaSet web-v1 10->10 | the only active ReplicaSet has the right size but stale replica annotations (Q-1 fix)",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"scaling: the only active one": {
			"UpdateDeploymentStatus | revision annotation 1 of the new ReplicaSet recorded",
			"ScaleReplicaSet web-v1 10->12 | replicas changed to 12: the only active ReplicaSet takes them all",
			"UpdateDeploymentStatus | status recomputed from the ReplicaSets",
		},
		"waiting for progress": {
			"RecheckProgress | no progress yet: the deadline of 600s runs out at 2026-01-01T00:10:00Z",
		},
	}
	cases := reasonCases()
	if len(cases) != len(want) {
		t.Errorf("%d cases, %d expectations", len(cases), len(want))
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			s.Options.Version = rollout.V1_36 // the names below are a v1.36 controller's
			actions, _ := rollout.Plan(s)
			if diff := cmp.Diff(want[name], why(actions)); diff != "" {
				t.Errorf("reasons mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
