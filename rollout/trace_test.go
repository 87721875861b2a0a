package rollout_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

var traceStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// traceSpec is the pod spec of the traces' template with the given image.
func traceSpec(image string) rollout.PodSpec {
	return rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"name":"c"}]}`, image))
}

// traceName is the name of the ReplicaSet Plan creates for image:
// upstream's name for the traces' template (vectors D.5).
func traceName(image string) string {
	return map[string]string{"img:v1": "web-6df65d4dc7", "img:v2": "web-84d9d7c55d"}[image]
}

// traceWeb is the traces' Deployment: "web", template {app: web} with one
// container of img:v1, revision history 10, progress deadline 600s,
// generation 1.
func traceWeb(replicas int32, strategy rollout.Strategy) rollout.State {
	return rollout.State{Options: rollout.Options{Version: rollout.V1_36}, Deployment: rollout.Deployment{
		ObjectMeta: rollout.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid", Generation: 1},
		Spec: rollout.DeploymentSpec{
			Replicas:                replicas,
			Selector:                rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:                rollout.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: traceSpec("img:v1")},
			Strategy:                strategy,
			RevisionHistoryLimit:    rollout.Int32(10),
			ProgressDeadlineSeconds: rollout.Int32(600),
		},
	}}
}

var traceRolling = rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()}

// simulateReplicaSets is the ReplicaSet controller of the traces: every ReplicaSet
// gets status.replicas = ready = available = spec (available 0 when its
// template runs the unhealthy image), observedGeneration = generation and
// terminatingReplicas = 0.
func simulateReplicaSets(s *rollout.State, unhealthy string) {
	for i := range s.ReplicaSets {
		rs := &s.ReplicaSets[i]
		avail := rs.Spec.Replicas
		if unhealthy != "" && strings.Contains(rs.Spec.Template.Spec.String(), `"`+unhealthy+`"`) {
			avail = 0
		}
		rs.Status.Replicas = rs.Spec.Replicas
		rs.Status.ReadyReplicas = avail
		rs.Status.AvailableReplicas = avail
		rs.Status.ObservedGeneration = rs.Generation
		rs.Status.TerminatingReplicas = rollout.Int32(0)
	}
}

// annotationsText prints annotations: the controller's under short names (rev, hist,
// desired, max, rollback) in that order, then the others sorted.
func annotationsText(a map[string]string) string {
	short := []struct{ key, name string }{
		{rollout.RevisionAnnotation, "rev"}, {rollout.RevisionHistoryAnnotation, "hist"},
		{rollout.DesiredReplicasAnnotation, "desired"}, {rollout.MaxReplicasAnnotation, "max"},
		{rollout.RollbackToAnnotation, "rollback"},
	}
	var parts []string
	rest := maps.Clone(a)
	for _, s := range short {
		if v, ok := a[s.key]; ok {
			parts = append(parts, s.name+"="+v)
			delete(rest, s.key)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rest)) {
		parts = append(parts, k+"="+rest[k])
	}
	return "ann{" + strings.Join(parts, " ") + "}"
}

// statusText prints a status as {observedGeneration replicas updated ready
// available unavailable terminating} [conditions], with cc=n when
// collisionCount is set; "-" is an absent terminating count.
func statusText(s rollout.DeploymentStatus) string {
	term := "-"
	if s.TerminatingReplicas.Valid {
		term = fmt.Sprint(s.TerminatingReplicas.Value)
	}
	out := fmt.Sprintf("{%d %d %d %d %d %d %s}", s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas, term)
	if s.CollisionCount.Valid {
		out += fmt.Sprintf(" cc=%d", s.CollisionCount.Value)
	}
	var conds []string
	for _, c := range s.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s/%s", c.Type, c.Status, c.Reason))
	}
	return out + " [" + strings.Join(conds, " ") + "]"
}

// summary prints one action on a line; progress re-checks are left out,
// since the traces record API calls and events only.
func summary(a rollout.Action) (string, bool) {
	var s string
	switch a.Type {
	case rollout.RecheckProgress:
		return "", false
	case rollout.CreateReplicaSet:
		s = fmt.Sprintf("create %s %d %s", a.ReplicaSet, a.To, annotationsText(a.Annotations))
	case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
		s = fmt.Sprintf("update %s %d->%d %s", a.ReplicaSet, a.From, a.To, annotationsText(a.Annotations))
	case rollout.UpdateDeploymentStatus:
		s = "status " + statusText(*a.Status) + " " + annotationsText(a.Annotations)
	case rollout.UpdateDeployment:
		s = "update deployment " + annotationsText(a.Annotations) + " template " + a.Template.Spec.String()
	case rollout.RecordEvent:
		s = "event"
	default:
		s = fmt.Sprintf("%s %s", a.Type, a.ReplicaSet)
	}
	if !a.Event.IsZero() {
		s += " | " + a.Event.String()
	}
	return s, true
}

func createLine(name string, size int32, ann string) string {
	return fmt.Sprintf("create %s %d %s | Normal ScalingReplicaSet Scaled up replica set %s from 0 to %d", name, size, ann, name, size)
}

func scaleLine(name string, from, to int32, ann string) string {
	dir := "up"
	if to < from {
		dir = "down"
	}
	return fmt.Sprintf("update %s %d->%d %s | Normal ScalingReplicaSet Scaled %s replica set %s from %d to %d", name, from, to, ann, dir, name, from, to)
}

func updateLine(name string, size int32, ann string) string {
	return fmt.Sprintf("update %s %d->%d %s", name, size, size, ann)
}

const (
	avTrue      = "Available=True/MinimumReplicasAvailable"
	avFalse     = "Available=False/MinimumReplicasUnavailable"
	prCreated   = "Progressing=True/NewReplicaSetCreated"
	prUpdated   = "Progressing=True/ReplicaSetUpdated"
	prAvailable = "Progressing=True/NewReplicaSetAvailable"
	prPaused    = "Progressing=Unknown/DeploymentPaused"
	prResumed   = "Progressing=Unknown/DeploymentResumed"
)

// statusWrite is a status write: the counts {observedGeneration replicas
// updated ready available unavailable terminating}, the conditions and the
// Deployment's annotations.
func statusWrite(counts, conds, ann string) string {
	return "status " + counts + " [" + conds + "] " + ann
}

// A traceStep is one sync of a trace.
type traceStep struct {
	name      string               // what the trace says of it
	change    func(*rollout.State) // made by the test before the sync
	want      []string
	msg       string // the Progressing message of the last status write, when checked
	collision string // the name of a *CollisionError the sync ends with
}

// runTrace plays a trace: steps are syncs 1, 2, ... at traceStart plus that many
// seconds.
func runTrace(t *testing.T, s rollout.State, unhealthy string, steps []traceStep) {
	t.Helper()
	for i, st := range steps {
		n := i + 1
		t.Run(fmt.Sprintf("sync %02d %s", n, st.name), func(t *testing.T) {
			if st.change != nil {
				st.change(&s)
			}
			s.Now = traceStart.Add(time.Duration(n) * time.Second)
			before := rollout.DeepCopyState(s)
			actions, err := rollout.Plan(s)
			if diff := cmp.Diff(before, s, rollout.StateCmp); diff != "" {
				t.Errorf("Plan() modified its state (-before +after):\n%s", diff)
			}
			if st.collision != "" {
				var ce *rollout.CollisionError
				if !errors.As(err, &ce) || ce.Name != st.collision {
					t.Errorf("Plan() error = %v, want a *rollout.CollisionError for %s", err, st.collision)
				}
			} else if err != nil {
				t.Errorf("Plan() error: %v", err)
			}
			var got []string
			var msg string
			for _, a := range actions {
				if line, ok := summary(a); ok {
					got = append(got, line)
				}
				if a.Type != rollout.UpdateDeploymentStatus {
					continue
				}
				if c, ok := rollout.GetDeploymentCondition(*a.Status, rollout.Progressing); ok {
					msg = c.Message
				}
			}
			if diff := cmp.Diff(st.want, got); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
			}
			if st.msg != "" {
				if diff := cmp.Diff(st.msg, msg); diff != "" {
					t.Errorf("Plan() Progressing message mismatch (-want +got):\n%s", diff)
				}
			}
			s = rollout.Apply(s, actions)
			simulateReplicaSets(&s, unhealthy)
		})
	}
}

// newImage changes the template's image, which bumps the generation.
func newImage(image string) func(*rollout.State) {
	return func(s *rollout.State) {
		s.Deployment.Spec.Template.Spec = traceSpec(image)
		s.Deployment.Generation++
	}
}

func scaleTo(replicas int32) func(*rollout.State) {
	return func(s *rollout.State) {
		s.Deployment.Spec.Replicas = replicas
		s.Deployment.Generation++
	}
}

// rollout10 are syncs 1 to 3 of E-A: a rollout of 10 replicas.
func rollout10(v1 string) []traceStep {
	return []traceStep{
		{
			name: "create",
			want: []string{
				createLine(v1, 10, "ann{rev=1 desired=10 max=13}"),
				statusWrite("{0 0 0 0 0 0 -}", prCreated, "ann{rev=1}"),
				statusWrite("{1 0 0 0 0 10 0}", prCreated+" "+avFalse, "ann{rev=1}"),
			},
			msg: fmt.Sprintf("Created new replica set %q", v1),
		},
		{
			name: "complete",
			want: []string{statusWrite("{1 10 10 10 10 0 0}", avTrue+" "+prAvailable, "ann{rev=1}")},
			msg:  fmt.Sprintf("ReplicaSet %q has successfully progressed.", v1),
		},
		{name: "no writes"},
	}
}
