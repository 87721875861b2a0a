package rollout_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// reportActions is one action of every type, with every field set, so
// that the contract shows which fields each type carries.
func reportActions() []rollout.Action {
	at := time.Date(2026, 1, 1, 0, 10, 1, 0, time.UTC)
	ann := map[string]string{"k": "v"}
	ev := rollout.Event{Type: rollout.EventTypeNormal, Reason: rollout.ScalingReplicaSetReason, Message: "Scaled up replica set web-2 from 0 to 3"}
	full := func(t rollout.ActionType) rollout.Action {
		return rollout.Action{Type: t, ReplicaSet: "web-2", From: 1, To: 3, Labels: map[string]string{"app": "web"}, Annotations: ann,
			Template: &rollout.PodTemplate{Labels: map[string]string{"app": "web"}},
			Status:   &rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 3}, At: at, MinReadySeconds: 5, Reason: "why"}
	}
	var out []rollout.Action
	for _, t := range []rollout.ActionType{rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet, rollout.CreateReplicaSet, rollout.ScaleReplicaSet,
		rollout.UpdateReplicaSet, rollout.DeleteReplicaSet, rollout.UpdateDeployment, rollout.UpdateDeploymentStatus} {
		out = append(out, full(t))
	}
	out[2].Event, out[2].From = ev, 0
	noAnnotations := full(rollout.ScaleReplicaSet)
	noAnnotations.Annotations = map[string]string{}
	out = append(out, noAnnotations)
	event := full(rollout.RecordEvent)
	event.Event = rollout.Event{Type: rollout.EventTypeWarning, Reason: rollout.SelectingAllReason, Message: "m"}
	return append(out, event, full(rollout.RecheckProgress))
}

// TestReportJSON pins the plan contract that the command prints and the
// golden replay compares: each action type carries its own fields (a
// created ReplicaSet its labels too, an empty annotation map is null),
// events recorded with calls are listed apart in order, a RecheckProgress
// becomes recheckAt, and an error its message.
func TestReportJSON(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)
	got, err := json.Marshal(rollout.NewReport(now, reportActions(), errors.New("boom")))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"now": "2026-01-01T00:00:01Z", "actions": [
	{"type": "AdoptReplicaSet", "replicaSet": "web-2"},
	{"type": "ReleaseReplicaSet", "replicaSet": "web-2"},
	{"type": "CreateReplicaSet", "replicaSet": "web-2", "from": 0, "to": 3, "labels": {"app": "web"}, "annotations": {"k": "v"}},
	{"type": "ScaleReplicaSet", "replicaSet": "web-2", "from": 1, "to": 3, "annotations": {"k": "v"}},
	{"type": "UpdateReplicaSet", "replicaSet": "web-2", "from": 1, "to": 3, "annotations": {"k": "v"}},
	{"type": "DeleteReplicaSet", "replicaSet": "web-2"},
	{"type": "UpdateDeployment", "annotations": {"k": "v"}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {}}},
	{"type": "UpdateDeploymentStatus", "annotations": {"k": "v"}, "status": {"observedGeneration": 2, "replicas": 3}},
	{"type": "ScaleReplicaSet", "replicaSet": "web-2", "from": 1, "to": 3, "annotations": null}],
 "events": ["Normal ScalingReplicaSet Scaled up replica set web-2 from 0 to 3", "Warning SelectingAll m"],
 "recheckAt": "2026-01-01T00:10:01Z",
 "error": "boom"}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(want)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(compact.String(), string(got)); diff != "" {
		t.Errorf("Report JSON mismatch (-want +got):\n%s", diff)
	}

	// Without events, a re-check or an error: empty lists, no recheckAt
	// and no error.
	got, err = json.Marshal(rollout.NewReport(now, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"now":"2026-01-01T00:00:01Z","actions":[],"events":[]}`; string(got) != want {
		t.Errorf("empty Report JSON = %s, want %s", got, want)
	}
}

// TestActionString: one line per action, naming the ReplicaSet and sizes
// where the type has them, the time of a re-check, and the event.
func TestActionString(t *testing.T) {
	want := []string{
		"AdoptReplicaSet web-2",
		"ReleaseReplicaSet web-2",
		"CreateReplicaSet web-2 0 -> 3: Normal ScalingReplicaSet Scaled up replica set web-2 from 0 to 3",
		"ScaleReplicaSet web-2 1 -> 3",
		"UpdateReplicaSet web-2 1 -> 3",
		"DeleteReplicaSet web-2",
		"UpdateDeployment",
		"UpdateDeploymentStatus",
		"ScaleReplicaSet web-2 1 -> 3",
		"RecordEvent Warning SelectingAll m",
		"RecheckProgress at 2026-01-01T00:10:01Z",
	}
	if diff := cmp.Diff(want, rollout.ActionStrings(reportActions())); diff != "" {
		t.Errorf("Action.String() mismatch (-want +got):\n%s", diff)
	}
}

// TestActionJSONAlone: an action marshalled on its own carries the fields
// of its type, an event for RecordEvent and the time for RecheckProgress,
// which a Report lists apart.
func TestActionJSONAlone(t *testing.T) {
	actions := reportActions()
	want := []string{
		`{"type":"RecordEvent","event":"Warning SelectingAll m"}`,
		`{"type":"RecheckProgress","at":"2026-01-01T00:10:01Z"}`,
	}
	for i, a := range actions[len(actions)-2:] {
		got, err := json.Marshal(a)
		if err != nil || string(got) != want[i] {
			t.Errorf("json.Marshal(%v) = %s, %v; want %s", a, got, err, want[i])
		}
	}
}
