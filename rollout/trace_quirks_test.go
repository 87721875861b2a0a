package rollout_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestTraceStaleDesiredReplicas is vectors E-E: a desired-replicas
// annotation that disagrees with spec.replicas makes every sync a scaling
// event, so the new image is never rolled out.
func TestTraceStaleDesiredReplicas(t *testing.T) {
	v1 := traceName("img:v1")
	steps := []traceStep{
		{
			name: "create",
			want: []string{
				createLine(v1, 3, "ann{rev=1 desired=3 max=4}"),
				statusWrite("{0 0 0 0 0 0 -}", prCreated, "ann{rev=1}"),
				statusWrite("{1 0 0 0 0 3 0}", prCreated+" "+avFalse, "ann{rev=1}"),
			},
		},
		{name: "complete", want: []string{statusWrite("{1 3 3 3 3 0 0}", avTrue+" "+prAvailable, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "stale annotation, new image: status only",
			change: func(s *rollout.State) {
				for i := range s.ReplicaSets {
					s.ReplicaSets[i].Annotations[rollout.DesiredReplicasAnnotation] = "2"
				}
				newImage("img:v2")(s)
			},
			want: []string{statusWrite("{2 3 0 3 3 0 0}", avTrue+" "+prAvailable, "ann{rev=1}")},
		},
		{name: "never rolls out"},
		{name: "never rolls out"},
	}
	runTrace(t, traceWeb(3, traceRolling), "", steps)
}

// TestTracePaused is vectors E-F: pausing, resizing and changing the image
// while paused (a resize only), then resuming.
func TestTracePaused(t *testing.T) {
	v1, v2 := traceName("img:v1"), traceName("img:v2")
	a1 := "ann{rev=1 desired=15 max=19}"
	a2 := "ann{rev=2 desired=15 max=19}"
	steps := append(rollout10(v1), []traceStep{
		{
			name: "paused",
			change: func(s *rollout.State) {
				s.Deployment.Spec.Paused = true
				s.Deployment.Generation++
			},
			want: []string{
				statusWrite("{1 10 10 10 10 0 0}", avTrue+" "+prPaused, "ann{rev=1}"),
				statusWrite("{2 10 10 10 10 0 0}", avTrue+" "+prPaused, "ann{rev=1}"),
			},
			msg: "Deployment is paused",
		},
		{name: "no writes"},
		{
			name: "new image and 15 replicas while paused: resize only",
			change: func(s *rollout.State) {
				s.Deployment.Spec.Template.Spec = traceSpec("img:v2")
				s.Deployment.Spec.Replicas = 15
				s.Deployment.Generation++
			},
			want: []string{
				scaleLine(v1, 10, 15, a1),
				statusWrite("{3 10 0 10 10 0 0}", prPaused+" "+avFalse, "ann{rev=1}"),
			},
		},
		{name: "status", want: []string{statusWrite("{3 15 0 15 15 0 0}", prPaused+" "+avTrue, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "resumed: rollout starts",
			change: func(s *rollout.State) {
				s.Deployment.Spec.Paused = false
				s.Deployment.Generation++
			},
			want: []string{
				statusWrite("{3 15 0 15 15 0 0}", avTrue+" "+prResumed, "ann{rev=1}"),
				createLine(v2, 4, a2),
				statusWrite("{3 15 0 15 15 0 0}", avTrue+" "+prCreated, "ann{rev=2}"),
				scaleLine(v1, 15, 12, a1),
				statusWrite("{4 15 0 15 15 4 0}", avTrue+" "+prCreated, "ann{rev=2}"),
			},
		},
		{name: "v2 to 7", want: []string{scaleLine(v2, 4, 7, a2), statusWrite("{4 16 4 16 16 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "v1 to 5", want: []string{scaleLine(v1, 12, 5, a1), statusWrite("{4 19 7 19 19 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "v2 to 14", want: []string{scaleLine(v2, 7, 14, a2), statusWrite("{4 12 7 12 12 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "v1 to 0", want: []string{scaleLine(v1, 5, 0, a1), statusWrite("{4 19 14 19 19 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "v2 to 15", want: []string{scaleLine(v2, 14, 15, a2), statusWrite("{4 14 14 14 14 0 0}", avTrue+" "+prUpdated, "ann{rev=2}")}},
		{name: "complete", want: []string{statusWrite("{4 15 15 15 15 0 0}", avTrue+" "+prAvailable, "ann{rev=2}")}},
		{name: "no writes"},
	}...)
	runTrace(t, traceWeb(10, traceRolling), "", steps)
}

// TestTraceAnnotationOnly is vectors E-G: an annotation added to a complete
// Deployment is copied to its ReplicaSet, by two identical writes.
func TestTraceAnnotationOnly(t *testing.T) {
	v1 := traceName("img:v1")
	steps := []traceStep{
		{
			name: "create",
			want: []string{
				createLine(v1, 2, "ann{rev=1 desired=2 max=3}"),
				statusWrite("{0 0 0 0 0 0 -}", prCreated, "ann{rev=1}"),
				statusWrite("{1 0 0 0 0 2 0}", prCreated+" "+avFalse, "ann{rev=1}"),
			},
		},
		{name: "complete", want: []string{statusWrite("{1 2 2 2 2 0 0}", avTrue+" "+prAvailable, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "annotation team=blue",
			change: func(s *rollout.State) {
				s.Deployment.Annotations["team"] = "blue"
				s.Deployment.Generation++
			},
			want: []string{
				updateLine(v1, 2, "ann{rev=1 desired=2 max=3 team=blue}"),
				updateLine(v1, 2, "ann{rev=1 desired=2 max=3 team=blue}"),
				statusWrite("{2 2 2 2 2 0 0}", avTrue+" "+prAvailable, "ann{rev=1 team=blue}"),
			},
		},
		{name: "no writes"},
	}
	runTrace(t, traceWeb(2, traceRolling), "", steps)
}

// TestTraceHashCollision is vectors E-H: a ReplicaSet owned by nobody, with
// another template, already has the new ReplicaSet's name. The sync raises
// collisionCount and fails; the next one creates the ReplicaSet under the
// name hashed with collision count 1 (upstream's names, vectors D.5).
func TestTraceHashCollision(t *testing.T) {
	taken, renamed := "web-6df65d4dc7", "web-6f7f9c7dfb"
	s := traceWeb(2, traceRolling)
	s.ReplicaSets = []rollout.ReplicaSet{{
		ObjectMeta: rollout.ObjectMeta{Name: taken, Namespace: "default", UID: "other-uid", Labels: map[string]string{"other": "x"}},
		Spec: rollout.ReplicaSetSpec{
			Replicas: 1,
			Selector: rollout.LabelSelector{MatchLabels: map[string]string{"other": "x"}},
			Template: rollout.PodTemplate{Labels: map[string]string{"other": "x"}, Spec: rollout.MustParsePodSpec(`{"containers":[{"image":"other","name":"o"}]}`)},
		},
	}}
	steps := []traceStep{
		{
			name:      "collision",
			want:      []string{statusWrite("{0 0 0 0 0 0 -} cc=1", "", "ann{}")},
			collision: taken,
		},
		{
			name: "create under the new name",
			want: []string{
				createLine(renamed, 2, "ann{rev=1 desired=2 max=3}"),
				statusWrite("{0 0 0 0 0 0 -} cc=1", prCreated, "ann{rev=1}"),
				statusWrite("{1 0 0 0 0 2 0} cc=1", prCreated+" "+avFalse, "ann{rev=1}"),
			},
		},
	}
	runTrace(t, s, "", steps)
}

// TestTraceAdoption is vectors E-I: an orphan whose labels match is
// adopted and an owned ReplicaSet whose labels do not is released, before
// anything else; the adopted one counts as an old ReplicaSet. (Upstream
// patches in cache order; Plan in name order. Sync 2 is not in the trace.)
func TestTraceAdoption(t *testing.T) {
	v1 := traceName("img:v1")
	s := traceWeb(2, traceRolling)
	s.ReplicaSets = []rollout.ReplicaSet{
		{
			ObjectMeta: rollout.ObjectMeta{Name: "owned", Namespace: "default", UID: "owned-uid", Labels: map[string]string{"app": "other"},
				OwnerReferences: []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep-uid", Controller: true, BlockOwnerDeletion: true}}},
			Spec: rollout.ReplicaSetSpec{Replicas: 1, Selector: rollout.LabelSelector{MatchLabels: map[string]string{"app": "other"}}},
		},
		{
			ObjectMeta: rollout.ObjectMeta{Name: "orphan", Namespace: "default", UID: "orphan-uid", Labels: map[string]string{"app": "web"}},
			Spec:       rollout.ReplicaSetSpec{Replicas: 1, Selector: rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		},
	}
	steps := []traceStep{
		{
			name: "adopt, release, create",
			want: []string{
				"AdoptReplicaSet orphan",
				"ReleaseReplicaSet owned",
				createLine(v1, 2, "ann{rev=1 desired=2 max=3}"),
				statusWrite("{0 0 0 0 0 0 -}", prCreated, "ann{rev=1}"),
				statusWrite("{1 0 0 0 0 3 0}", prCreated+" "+avFalse, "ann{rev=1}"),
			},
		},
		{
			name: "the adopted ReplicaSet is scaled down as an old one",
			want: []string{
				scaleLine("orphan", 1, 0, "ann{desired=2 max=3}"),
				statusWrite("{1 3 2 3 3 0 0}", avTrue+" "+prUpdated, "ann{rev=1}"),
			},
		},
	}
	runTrace(t, s, "", steps)
}
