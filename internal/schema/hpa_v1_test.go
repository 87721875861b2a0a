package schema

import (
	"slices"
	"testing"
)

// TestDecodeHorizontalPodAutoscalerV1: an autoscaling/v1 HPA becomes the
// autoscaling/v2 one upstream's conversion makes
// (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler:
// the CPU target becomes a Utilization metric, the current CPU a current
// metric, the round-trip annotations go), and the fields only
// autoscaling/v2 has are unknown.
func TestDecodeHorizontalPodAutoscalerV1(t *testing.T) {
	h, res := DecodeHorizontalPodAutoscalerV1([]byte(`{"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
		"metadata": {"name": "web", "annotations": {"autoscaling.alpha.kubernetes.io/conditions": "[]", "team": "a"}},
		"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "minReplicas": 2, "maxReplicas": 9, "targetCPUUtilizationPercentage": 70},
		"status": {"currentReplicas": 3, "desiredReplicas": 4, "currentCPUUtilizationPercentage": 41}}`), DecodeOptions{})
	if len(res.Errs) > 0 {
		t.Fatalf("DecodeHorizontalPodAutoscalerV1: %v", res.Errs)
	}
	if h.APIVersion != "autoscaling/v2" || h.Spec.ScaleTargetRef.Name != "web" || *h.Spec.MinReplicas != 2 || h.Spec.MaxReplicas != 9 {
		t.Errorf("HPA %+v", h)
	}
	if m := h.Spec.Metrics; len(m) != 1 || m[0].Type != "Resource" || m[0].Resource.Name != "cpu" || m[0].Resource.Target.Type != "Utilization" || *m[0].Resource.Target.AverageUtilization != 70 {
		t.Errorf("spec.metrics %+v, want a CPU Utilization target of 70", m)
	}
	if m := h.Status.CurrentMetrics; len(m) != 1 || m[0].Resource.Name != "cpu" || *m[0].Resource.Current.AverageUtilization != 41 {
		t.Errorf("status.currentMetrics %+v, want a CPU utilization of 41", m)
	}
	if h.Status.CurrentReplicas != 3 || h.Status.DesiredReplicas != 4 {
		t.Errorf("status %+v", h.Status)
	}
	if len(h.Annotations) != 1 || h.Annotations["team"] != "a" {
		t.Errorf("annotations %v, want the round-trip one dropped", h.Annotations)
	}

	none, res := DecodeHorizontalPodAutoscalerV1([]byte(`{"apiVersion": "autoscaling/v1", "spec": {"maxReplicas": 3}}`), DecodeOptions{})
	if len(res.Errs) > 0 || none.Spec.Metrics != nil {
		t.Errorf("without a CPU target: metrics %+v, %v; want none (reading adds the default)", none.Spec.Metrics, res.Errs)
	}

	_, res = DecodeHorizontalPodAutoscalerV1([]byte(`{"spec": {"metrics": [], "behavior": {}, "maxReplicas": 1, "maxReplicas": 2, "targetCPUUtilizationPercentage": "70"},
		"status": {"conditions": [], "currentMetrics": []}}`), DecodeOptions{})
	var got []string
	for _, e := range res.Errs {
		got = append(got, e.Field+": "+string(e.Type))
	}
	want := []string{"spec.metrics: unknown field", "spec.behavior: unknown field", "spec.maxReplicas: duplicate field",
		"spec.targetCPUUtilizationPercentage: Invalid value", "status.conditions: unknown field", "status.currentMetrics: unknown field"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}
