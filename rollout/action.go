package rollout

import (
	"encoding/json"
	"fmt"
	"time"
)

// ActionType names what an [Action] does.
type ActionType string

// The action types. All but RecordEvent and RecheckProgress are API calls
// the controller makes.
const (
	// AdoptReplicaSet patches an orphan ReplicaSet that matches the
	// selector to be controlled by the Deployment.
	AdoptReplicaSet ActionType = "AdoptReplicaSet"
	// ReleaseReplicaSet patches a controlled ReplicaSet that no longer
	// matches the selector to drop the Deployment's owner reference.
	ReleaseReplicaSet ActionType = "ReleaseReplicaSet"
	// CreateReplicaSet creates the new ReplicaSet (From is 0).
	CreateReplicaSet ActionType = "CreateReplicaSet"
	// ScaleReplicaSet updates a ReplicaSet whose size changes From -> To;
	// Annotations are its annotations after the update.
	ScaleReplicaSet ActionType = "ScaleReplicaSet"
	// UpdateReplicaSet updates a ReplicaSet without changing its size
	// (From == To): annotations or minReadySeconds.
	UpdateReplicaSet ActionType = "UpdateReplicaSet"
	// DeleteReplicaSet deletes an old ReplicaSet beyond the history limit.
	DeleteReplicaSet ActionType = "DeleteReplicaSet"
	// UpdateDeployment updates the Deployment's metadata and spec (a
	// rollback: its annotations and pod template).
	UpdateDeployment ActionType = "UpdateDeployment"
	// UpdateDeploymentStatus updates the Deployment's status subresource,
	// which also persists its annotations (the revision).
	UpdateDeploymentStatus ActionType = "UpdateDeploymentStatus"
	// RecordEvent records an event that comes with no API call.
	RecordEvent ActionType = "RecordEvent"
	// RecheckProgress asks to sync again at At to check the progress
	// deadline; the controller re-queues the Deployment for then. A plan
	// has at most one, always its last action.
	RecheckProgress ActionType = "RecheckProgress"
)

// Event is an event recorded on the Deployment.
type Event struct {
	Type    string // EventTypeNormal or EventTypeWarning
	Reason  string // one of the event reasons below
	Message string
}

// Event types, as core/v1 names them.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// The reasons of the events the controller records (spec §11). Upstream
// exports the rollback ones under these names from its deployment util
// package and writes the others as literals.
const (
	// ScalingReplicaSetReason comes with every size change of a ReplicaSet
	// and the creation of one with replicas: "Scaled up replica set web-1
	// from 0 to 3". Upstream: the literal "ScalingReplicaSet" in sync.go.
	ScalingReplicaSetReason = "ScalingReplicaSet"
	// SelectingAllReason warns of a Deployment with an empty selector.
	// Upstream: the literal "SelectingAll" in deployment_controller.go.
	SelectingAllReason = "SelectingAll"
	// RollbackDone reports a rollback to a revision's template.
	RollbackDone = "DeploymentRollback"
	// RollbackRevisionNotFound warns that the requested revision, or a
	// previous one, does not exist.
	RollbackRevisionNotFound = "DeploymentRollbackRevisionNotFound"
	// RollbackTemplateUnchanged warns that the requested revision has the
	// Deployment's current template.
	RollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
)

// IsZero reports whether e is no event.
func (e Event) IsZero() bool { return e == Event{} }

// String formats e as "Type Reason Message", as kubectl lists events.
func (e Event) String() string { return e.Type + " " + e.Reason + " " + e.Message }

// Action is one step of a sync: an API call the controller makes, with the
// event it records with that call, or an event or re-check alone. Which
// fields are meaningful depends on Type; the others are zero.
//
// The three large fields only one type carries are pointers, set exactly
// for that type and nil for every other: Template for UpdateDeployment,
// Status for UpdateDeploymentStatus, Created for CreateReplicaSet. (This
// keeps an Action small: a run holds one for every sync.) Each Action that
// [Plan] returns owns its pointees and its maps: no two actions of a plan,
// nor an action and the [State] planned from, share a pointer or a map, so
// a caller may write through one without changing the other.
type Action struct {
	Type ActionType
	// ReplicaSet names the target of a ReplicaSet action.
	ReplicaSet string
	// From and To are the ReplicaSet's size before and after a Create,
	// Scale or Update.
	From, To int32
	// Labels are the labels of a created ReplicaSet.
	Labels map[string]string
	// Annotations are the target's annotations after the call, for
	// ReplicaSet writes and both Deployment updates.
	Annotations map[string]string
	// Template is the Deployment's pod template after an UpdateDeployment;
	// nil for every other type.
	Template *PodTemplate
	// Status is the status an UpdateDeploymentStatus writes; nil for every
	// other type.
	Status *DeploymentStatus
	// Event is the event recorded with this call, or by a RecordEvent.
	Event Event
	// At is when a RecheckProgress is due.
	At time.Time
	// Created is the ReplicaSet a CreateReplicaSet creates, as sent to
	// the API server (no UID or creation time yet); nil for every other
	// type.
	Created *ReplicaSet
	// MinReadySeconds is the ReplicaSet's minReadySeconds after a Scale
	// or Update.
	MinReadySeconds int32
	// Reason says in words why the controller takes this action, with the
	// numbers behind it ("new ReplicaSet +2: replicas 10 + maxSurge 3 -
	// current total 11"). It is not part of the JSON contract.
	Reason string
}

// IsAPICall reports whether a is a call to the API server, as opposed to an
// event or a re-check alone.
func (a Action) IsAPICall() bool { return a.Type != RecordEvent && a.Type != RecheckProgress }

// String describes a on one line, with its event if it has one.
func (a Action) String() string {
	var s string
	switch a.Type {
	case CreateReplicaSet, ScaleReplicaSet, UpdateReplicaSet:
		s = fmt.Sprintf("%s %s %d -> %d", a.Type, a.ReplicaSet, a.From, a.To)
	case AdoptReplicaSet, ReleaseReplicaSet, DeleteReplicaSet:
		s = fmt.Sprintf("%s %s", a.Type, a.ReplicaSet)
	case RecheckProgress:
		s = fmt.Sprintf("%s at %s", a.Type, a.At.UTC().Format(time.RFC3339))
	case RecordEvent:
		return fmt.Sprintf("%s %s", a.Type, a.Event)
	default:
		s = string(a.Type)
	}
	if !a.Event.IsZero() {
		s += ": " + a.Event.String()
	}
	return s
}

type actionJSON struct {
	Type        ActionType         `json:"type"`
	ReplicaSet  string             `json:"replicaSet,omitempty"`
	From        *int32             `json:"from,omitempty"`
	To          *int32             `json:"to,omitempty"`
	Labels      map[string]string  `json:"labels,omitempty"`
	Annotations *map[string]string `json:"annotations,omitempty"`
	Template    *PodTemplate       `json:"template,omitempty"`
	Status      *DeploymentStatus  `json:"status,omitempty"`
	Event       string             `json:"event,omitempty"`
	At          *time.Time         `json:"at,omitempty"`
}

// MarshalJSON encodes a in the plan contract: the fields its type uses.
// Events recorded with API calls are listed apart, in [Report].
func (a Action) MarshalJSON() ([]byte, error) {
	j := actionJSON{Type: a.Type}
	ann := a.Annotations
	if len(ann) == 0 {
		ann = nil // encodes as null: the API server does not store an empty map
	}
	switch a.Type {
	case AdoptReplicaSet, ReleaseReplicaSet, DeleteReplicaSet:
		j.ReplicaSet = a.ReplicaSet
	case CreateReplicaSet, ScaleReplicaSet, UpdateReplicaSet:
		j.ReplicaSet, j.From, j.To, j.Annotations = a.ReplicaSet, &a.From, &a.To, &ann
		if a.Type == CreateReplicaSet {
			j.Labels = a.Labels
		}
	case UpdateDeployment:
		j.Annotations, j.Template = &ann, a.Template
		if j.Template == nil {
			j.Template = &PodTemplate{} // the zero template, as before the field was a pointer
		}
	case UpdateDeploymentStatus:
		j.Annotations, j.Status = &ann, a.Status
		if j.Status == nil {
			j.Status = &DeploymentStatus{}
		}
	case RecordEvent:
		j.Event = a.Event.String()
	case RecheckProgress:
		j.At = &a.At
	}
	return json.Marshal(j)
}

// Report is a sync's plan in the JSON contract the command prints and the
// golden tests use: the API calls, the events in the order they are
// recorded, when progress is to be checked again, and the error that ends a
// failed sync.
type Report struct {
	Now       time.Time `json:"now"`
	Actions   []Action  `json:"actions"`
	Events    []string  `json:"events"`
	RecheckAt time.Time `json:"recheckAt,omitzero"`
	Error     string    `json:"error,omitempty"`
}

// NewReport builds the Report of a sync at now from Plan's results.
func NewReport(now time.Time, actions []Action, err error) Report {
	r := Report{Now: now, Actions: []Action{}, Events: []string{}}
	for _, a := range actions {
		if !a.Event.IsZero() {
			r.Events = append(r.Events, a.Event.String())
		}
		switch {
		case a.Type == RecheckProgress:
			r.RecheckAt = a.At
		case a.IsAPICall():
			r.Actions = append(r.Actions, a)
		}
	}
	if err != nil {
		r.Error = err.Error()
	}
	return r
}
