package rollout_test

import (
	"fmt"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestTraceRollingUpdate is vectors E-A: RollingUpdate of 10 replicas with
// 25%/25%, pods available at once.
func TestTraceRollingUpdate(t *testing.T) {
	v1, v2 := traceName("img:v1"), traceName("img:v2")
	a1 := func(desired, max int) string { return fmt.Sprintf("ann{rev=1 desired=%d max=%d}", desired, max) }
	a2 := func(desired, max int) string { return fmt.Sprintf("ann{rev=2 desired=%d max=%d}", desired, max) }
	steps := append(rollout10(v1), []traceStep{
		{
			name: "new image: create v2, scale v1 down", change: newImage("img:v2"),
			want: []string{
				createLine(v2, 3, a2(10, 13)),
				statusWrite("{1 10 10 10 10 0 0}", avTrue+" "+prCreated, "ann{rev=2}"),
				scaleLine(v1, 10, 8, a1(10, 13)),
				statusWrite("{2 10 0 10 10 3 0}", avTrue+" "+prCreated, "ann{rev=2}"),
			},
		},
		{
			name: "v2 up",
			want: []string{scaleLine(v2, 3, 5, a2(10, 13)), statusWrite("{2 11 3 11 11 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")},
			msg:  fmt.Sprintf("ReplicaSet %q is progressing.", v2),
		},
		{name: "v1 down", want: []string{scaleLine(v1, 8, 3, a1(10, 13)), statusWrite("{2 13 5 13 13 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "v2 up", want: []string{scaleLine(v2, 5, 10, a2(10, 13)), statusWrite("{2 8 5 8 8 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "v1 down", want: []string{scaleLine(v1, 3, 0, a1(10, 13)), statusWrite("{2 13 10 13 13 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{
			name: "complete",
			want: []string{statusWrite("{2 10 10 10 10 0 0}", avTrue+" "+prAvailable, "ann{rev=2}")},
			msg:  fmt.Sprintf("ReplicaSet %q has successfully progressed.", v2),
		},
		{name: "no writes"},
	}...)
	runTrace(t, traceWeb(10, traceRolling), "", steps)
}

// TestTraceStuckScaleRollback is vectors E-B: the v2 pods never become
// available; the Deployment is scaled to 20 (proportional scaling), then
// rolled back to the previous revision. Upstream's trace runs against a fake
// clientset that does not bump the generation when the rollback rewrites the
// template; Apply does, as the API server does, so from sync 12 on the
// observed generation is 5 where the trace has 4.
func TestTraceStuckScaleRollback(t *testing.T) {
	v1, v2 := traceName("img:v1"), traceName("img:v2")
	a1 := func(desired, max int) string { return fmt.Sprintf("ann{rev=1 desired=%d max=%d}", desired, max) }
	a2 := func(desired, max int) string { return fmt.Sprintf("ann{rev=2 desired=%d max=%d}", desired, max) }
	a3 := "ann{rev=3 hist=1 desired=20 max=25}"
	steps := append(rollout10(v1), []traceStep{
		{
			name: "new image: create v2, scale v1 down", change: newImage("img:v2"),
			want: []string{
				createLine(v2, 3, a2(10, 13)),
				statusWrite("{1 10 10 10 10 0 0}", avTrue+" "+prCreated, "ann{rev=2}"),
				scaleLine(v1, 10, 8, a1(10, 13)),
				statusWrite("{2 10 0 10 10 3 0}", avTrue+" "+prCreated, "ann{rev=2}"),
			},
		},
		{name: "v2 up", want: []string{scaleLine(v2, 3, 5, a2(10, 13)), statusWrite("{2 11 3 8 8 3 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "surge full, nothing to scale down", want: []string{statusWrite("{2 13 5 8 8 5 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "stalled"},
		{
			name: "scaled to 20: proportional", change: scaleTo(20),
			want: []string{
				scaleLine(v1, 8, 15, a1(20, 25)),
				scaleLine(v2, 5, 10, a2(20, 25)),
				statusWrite("{3 13 5 8 8 5 0}", prUpdated+" "+avFalse, "ann{rev=2}"),
			},
		},
		{name: "status", want: []string{statusWrite("{3 25 10 15 15 10 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "stalled"},
		{
			name: "rollback to revision 0",
			change: func(s *rollout.State) {
				s.Deployment.Annotations[rollout.RollbackToAnnotation] = "0"
				s.Deployment.Generation++
			},
			want: []string{
				"update deployment ann{rev=2} template " + traceSpec("img:v1").String() +
					` | Normal DeploymentRollback Rolled back deployment "web" to revision 1`,
			},
		},
		{
			name: "v1 is new again: revision 3 written twice (Q-2), v2 cleaned up",
			want: []string{
				updateLine(v1, 15, a3),
				updateLine(v1, 15, a3),
				scaleLine(v2, 10, 0, a2(20, 25)),
				statusWrite("{5 25 15 15 15 10 0}", avTrue+" "+prUpdated, "ann{rev=2}"),
			},
			msg: fmt.Sprintf("ReplicaSet %q is progressing.", v1),
		},
		{
			name: "revision 3, v1 up",
			want: []string{
				statusWrite("{5 25 15 15 15 10 0}", avTrue+" "+prUpdated, "ann{rev=3}"),
				scaleLine(v1, 15, 20, a3),
				statusWrite("{5 15 15 15 15 0 0}", avTrue+" "+prUpdated, "ann{rev=3}"),
			},
		},
		{name: "complete", want: []string{statusWrite("{5 20 20 20 20 0 0}", avTrue+" "+prAvailable, "ann{rev=3}")}},
		{name: "no writes"},
	}...)
	runTrace(t, traceWeb(10, traceRolling), "img:v2", steps)
}

// TestTraceRecreate is vectors E-C: Recreate of 3 replicas.
func TestTraceRecreate(t *testing.T) {
	v1, v2 := traceName("img:v1"), traceName("img:v2")
	steps := []traceStep{
		{
			name: "create",
			want: []string{
				createLine(v1, 3, "ann{rev=1 desired=3 max=3}"),
				statusWrite("{0 0 0 0 0 0 -}", prCreated, "ann{rev=1}"),
				statusWrite("{1 0 0 0 0 3 0}", prCreated+" "+avFalse, "ann{rev=1}"),
			},
		},
		{name: "complete", want: []string{statusWrite("{1 3 3 3 3 0 0}", avTrue+" "+prAvailable, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "new image: v1 to 0", change: newImage("img:v2"),
			want: []string{
				scaleLine(v1, 3, 0, "ann{rev=1 desired=3 max=3}"),
				statusWrite("{2 3 0 3 3 0 0}", avTrue+" "+prAvailable, "ann{rev=1}"),
			},
		},
		{
			name: "old pods gone: create v2",
			want: []string{
				createLine(v2, 3, "ann{rev=2 desired=3 max=3}"),
				statusWrite("{2 3 0 3 3 0 0}", avTrue+" "+prCreated, "ann{rev=2}"),
				statusWrite("{2 0 0 0 0 3 0}", avFalse+" "+prUpdated, "ann{rev=2}"),
			},
		},
		{name: "complete", want: []string{statusWrite("{2 3 3 3 3 0 0}", avTrue+" "+prAvailable, "ann{rev=2}")}},
		{name: "no writes"},
	}
	runTrace(t, traceWeb(3, rollout.Strategy{Type: rollout.RecreateStrategy}), "", steps)
}
