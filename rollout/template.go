package rollout

import (
	"encoding/json"
	"fmt"
	"maps"
)

// PodTemplate is a pod template: its labels, annotations and spec, which
// is kept as canonical JSON so that two templates compare and hash by
// content. Other template metadata is not kept.
type PodTemplate struct {
	Labels      map[string]string
	Annotations map[string]string
	Spec        PodSpec
}

type templateJSON struct {
	Metadata struct {
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Spec json.RawMessage `json:"spec,omitempty"`
}

// MarshalJSON encodes t as a core/v1 PodTemplateSpec.
func (t PodTemplate) MarshalJSON() ([]byte, error) {
	var j templateJSON
	j.Metadata.Labels = t.Labels
	j.Metadata.Annotations = t.Annotations
	j.Spec = t.Spec.JSON()
	return json.Marshal(j)
}

// UnmarshalJSON decodes a core/v1 PodTemplateSpec, applying the API
// server's defaults to the pod spec.
func (t *PodTemplate) UnmarshalJSON(b []byte) error {
	var j templateJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	spec, err := defaultPodSpec(j.Spec)
	if err != nil {
		return fmt.Errorf("template.spec: %w", err)
	}
	*t = PodTemplate{Labels: nilIfEmpty(j.Metadata.Labels), Annotations: nilIfEmpty(j.Metadata.Annotations), Spec: spec}
	return nil
}

// DeepCopy returns a copy of t that shares no maps or slices with it.
func (t PodTemplate) DeepCopy() PodTemplate { return t.clone() }

func (t PodTemplate) clone() PodTemplate {
	t.Labels = maps.Clone(t.Labels)
	t.Annotations = maps.Clone(t.Annotations)
	return t // a PodSpec is never modified: it may be shared
}

// defaultTemplate gives an absent template the defaulted empty pod spec,
// as decoding a present one without a spec does.
func defaultTemplate(t *PodTemplate) error {
	if !t.Spec.IsZero() {
		return nil
	}
	spec, err := defaultPodSpec(nil)
	t.Spec = spec
	return err
}
