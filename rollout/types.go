package rollout

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/strategicpatch"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Keys the controller reads and writes (spec §1.1).
const (
	// RevisionAnnotation holds the revision of a Deployment or ReplicaSet.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists the earlier revisions a ReplicaSet served.
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's replicas when the ReplicaSet was last sized.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is replicas + maxSurge when the ReplicaSet was last sized.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// RollbackToAnnotation requests a rollback (the deprecated rollbackTo round trip).
	RollbackToAnnotation = "deprecated.deployment.rollback.to"
	// LastAppliedAnnotation is kubectl's, never copied between Deployment and ReplicaSet.
	LastAppliedAnnotation = strategicpatch.LastAppliedAnnotation
	// PodTemplateHashLabel is the label that ties a ReplicaSet and its pods to a template.
	PodTemplateHashLabel = "pod-template-hash"
)

// StrategyType is a Deployment's spec.strategy.type.
type StrategyType string

// The strategy types the API accepts.
const (
	RollingUpdateStrategy StrategyType = "RollingUpdate"
	RecreateStrategy      StrategyType = "Recreate"
)

// RollingUpdate holds a RollingUpdate strategy's two limits.
type RollingUpdate struct {
	MaxSurge       surge.Value `json:"maxSurge"`
	MaxUnavailable surge.Value `json:"maxUnavailable"`
}

// Strategy is spec.strategy. RollingUpdate is meaningful only when Type is
// RollingUpdateStrategy and is encoded only then.
type Strategy struct {
	Type          StrategyType
	RollingUpdate RollingUpdate
}

type strategyJSON struct {
	Type          StrategyType `json:"type,omitempty"`
	RollingUpdate *struct {
		MaxSurge       *surge.Value `json:"maxSurge,omitempty"`
		MaxUnavailable *surge.Value `json:"maxUnavailable,omitempty"`
	} `json:"rollingUpdate,omitempty"`
}

// MarshalJSON encodes s as apps/v1 DeploymentStrategy.
func (s Strategy) MarshalJSON() ([]byte, error) {
	var j strategyJSON
	j.Type = s.Type
	if s.Type == RollingUpdateStrategy {
		ms, mu := s.RollingUpdate.MaxSurge, s.RollingUpdate.MaxUnavailable
		j.RollingUpdate = &struct {
			MaxSurge       *surge.Value `json:"maxSurge,omitempty"`
			MaxUnavailable *surge.Value `json:"maxUnavailable,omitempty"`
		}{&ms, &mu}
	}
	return json.Marshal(j)
}

// DefaultRollingUpdate returns the API server's default limits: 25% and 25%.
func DefaultRollingUpdate() RollingUpdate {
	return RollingUpdate{MaxSurge: surge.Percent(25), MaxUnavailable: surge.Percent(25)}
}

// API server defaults for a Deployment (spec §1.4).
const (
	DefaultReplicas                = 1
	DefaultRevisionHistoryLimit    = 10
	DefaultProgressDeadlineSeconds = 600
	// Unlimited, as revisionHistoryLimit or progressDeadlineSeconds, means
	// keep every old ReplicaSet, or no progress deadline.
	Unlimited = 1<<31 - 1
)

// DeploymentSpec is apps/v1 DeploymentSpec. Decoding applies the API
// server's defaults to absent fields (replicas 1, strategy RollingUpdate with
// 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600); this is the
// only place the library defaults anything. In a value built in Go, an absent
// RevisionHistoryLimit keeps every old ReplicaSet and an absent
// ProgressDeadlineSeconds means no deadline, as nil does upstream.
type DeploymentSpec struct {
	Replicas                int32         `json:"replicas"`
	Selector                LabelSelector `json:"selector"`
	Template                PodTemplate   `json:"template"`
	Strategy                Strategy      `json:"strategy"`
	MinReadySeconds         int32         `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    OptionalInt32 `json:"revisionHistoryLimit,omitzero"`
	Paused                  bool          `json:"paused,omitempty"`
	ProgressDeadlineSeconds OptionalInt32 `json:"progressDeadlineSeconds,omitzero"`
}

// ConditionStatus is a condition's status: True, False or Unknown.
type ConditionStatus string

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// ConditionType names a Deployment condition.
type ConditionType string

// Deployment condition types.
const (
	Progressing    ConditionType = "Progressing"
	Available      ConditionType = "Available"
	ReplicaFailure ConditionType = "ReplicaFailure"
)

// Condition is a Deployment's status condition.
type Condition struct {
	Type               ConditionType   `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastUpdateTime     time.Time       `json:"lastUpdateTime,omitzero"`
	LastTransitionTime time.Time       `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// DeploymentStatus is apps/v1 DeploymentStatus.
type DeploymentStatus struct {
	ObservedGeneration  int64         `json:"observedGeneration,omitempty"`
	Replicas            int32         `json:"replicas,omitempty"`
	UpdatedReplicas     int32         `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32         `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32         `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32         `json:"unavailableReplicas,omitempty"`
	TerminatingReplicas OptionalInt32 `json:"terminatingReplicas,omitzero"`
	Conditions          []Condition   `json:"conditions,omitempty"`
	CollisionCount      OptionalInt32 `json:"collisionCount,omitzero"`
}

func (s DeploymentStatus) clone() DeploymentStatus {
	s.Conditions = slices.Clone(s.Conditions)
	return s
}

// equal reports whether two statuses are equal field by field, timestamps
// included, as the controller's reflect.DeepEqual decides whether to write.
func (s DeploymentStatus) equal(o DeploymentStatus) bool {
	type counts struct {
		gen                                              int64
		replicas, updated, ready, available, unavailable int32
		terminating, collisions                          OptionalInt32
	}
	cs := counts{s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas, s.TerminatingReplicas, s.CollisionCount}
	co := counts{o.ObservedGeneration, o.Replicas, o.UpdatedReplicas, o.ReadyReplicas, o.AvailableReplicas, o.UnavailableReplicas, o.TerminatingReplicas, o.CollisionCount}
	c1, c2 := s.Conditions, o.Conditions
	if cs != co || len(c1) != len(c2) || (c1 == nil) != (c2 == nil) {
		return false
	}
	for i := range c1 {
		a, b := c1[i], c2[i]
		if a.Type != b.Type || a.Status != b.Status || a.Reason != b.Reason || a.Message != b.Message ||
			!a.LastUpdateTime.Equal(b.LastUpdateTime) || !a.LastTransitionTime.Equal(b.LastTransitionTime) {
			return false
		}
	}
	return true
}

// Deployment is apps/v1 Deployment.
type Deployment struct {
	ObjectMeta `json:"metadata"`
	Spec       DeploymentSpec   `json:"spec"`
	Status     DeploymentStatus `json:"status"`
}

// MarshalJSON encodes d with its apiVersion and kind.
func (d Deployment) MarshalJSON() ([]byte, error) {
	type plain Deployment
	return json.Marshal(struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		plain
	}{"apps/v1", "Deployment", plain(d)})
}

// UnmarshalJSON decodes an apps/v1 Deployment strictly and reads it as a
// client of the API server holds it: defaulted and in stored form. It is
// [DecodeOptions.Decode] with the zero options, for one Deployment.
func (d *Deployment) UnmarshalJSON(b []byte) error {
	v, err := DecodeOptions{}.decodeDeployment(b, nil)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// DeepCopy returns a copy of d that shares no maps or slices with it.
func (d Deployment) DeepCopy() Deployment {
	d.ObjectMeta = d.ObjectMeta.clone()
	d.Spec.Selector = d.Spec.Selector.clone()
	d.Spec.Template = d.Spec.Template.clone()
	d.Status = d.Status.clone()
	return d
}

// ReplicaSetSpec is apps/v1 ReplicaSetSpec. Decoding defaults an absent
// replicas to 1.
type ReplicaSetSpec struct {
	Replicas        int32         `json:"replicas"`
	MinReadySeconds int32         `json:"minReadySeconds,omitempty"`
	Selector        LabelSelector `json:"selector"`
	Template        PodTemplate   `json:"template"`
}

// ReplicaSetCondition is a ReplicaSet's status condition.
type ReplicaSetCondition struct {
	Type               ConditionType   `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastTransitionTime time.Time       `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// ReplicaSetStatus is apps/v1 ReplicaSetStatus. An absent
// TerminatingReplicas means the ReplicaSet controller does not report it.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty"`
	TerminatingReplicas  OptionalInt32         `json:"terminatingReplicas,omitzero"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSet is apps/v1 ReplicaSet.
type ReplicaSet struct {
	ObjectMeta `json:"metadata"`
	Spec       ReplicaSetSpec   `json:"spec"`
	Status     ReplicaSetStatus `json:"status"`
}

// MarshalJSON encodes rs with its apiVersion and kind.
func (rs ReplicaSet) MarshalJSON() ([]byte, error) {
	type plain ReplicaSet
	return json.Marshal(struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		plain
	}{"apps/v1", "ReplicaSet", plain(rs)})
}

// withOwnAnnotations returns a copy of rs that shares everything with it but
// the annotations: what the planner changes in a ReplicaSet it writes.
func (rs *ReplicaSet) withOwnAnnotations() ReplicaSet {
	c := *rs
	c.Annotations = maps.Clone(rs.Annotations)
	return c
}

// UnmarshalJSON decodes an apps/v1 ReplicaSet as [Deployment.UnmarshalJSON]
// decodes a Deployment.
func (rs *ReplicaSet) UnmarshalJSON(b []byte) error {
	v, err := DecodeOptions{}.decodeReplicaSet(b, nil)
	if err != nil {
		return err
	}
	*rs = v
	return nil
}

// DeepCopy returns a copy of rs that shares no maps or slices with it.
func (rs ReplicaSet) DeepCopy() ReplicaSet {
	rs.ObjectMeta = rs.ObjectMeta.clone()
	rs.Spec.Selector = rs.Spec.Selector.clone()
	rs.Spec.Template = rs.Spec.Template.clone()
	rs.Status.Conditions = slices.Clone(rs.Status.Conditions)
	return rs
}

// PodPhase is a pod's status.phase.
type PodPhase string

// Pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// Pod is the part of a core/v1 Pod the controller reads: which ReplicaSet
// owns it and its phase (Recreate waits for old pods to stop).
type Pod struct {
	ObjectMeta
	Phase PodPhase
}

type podJSON struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata"`
	Status     struct {
		Phase PodPhase `json:"phase,omitempty"`
	} `json:"status"`
}

// MarshalJSON encodes p as a core/v1 Pod with metadata and status.phase.
func (p Pod) MarshalJSON() ([]byte, error) {
	j := podJSON{APIVersion: "v1", Kind: "Pod", Metadata: p.ObjectMeta}
	j.Status.Phase = p.Phase
	return json.Marshal(j)
}

// UnmarshalJSON decodes a core/v1 Pod strictly, keeping its metadata and
// status.phase.
func (p *Pod) UnmarshalJSON(b []byte) error {
	v, err := DecodeOptions{}.decodePod(b, nil)
	if err != nil {
		return err
	}
	*p = v
	return nil
}
