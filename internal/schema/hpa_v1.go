package schema

// autoscaling/v1, which the API server still serves beside autoscaling/v2:
// a HorizontalPodAutoscaler of that version decoded as strictly as the
// others, into the autoscaling/v2 type, converted as upstream's
// pkg/apis/autoscaling/v1/conversion.go converts it.

// The annotations by which autoscaling/v1 objects round-trip what only
// autoscaling/v2 has; the conversion drops them.
var hpaRoundTripAnnotations = []string{
	"autoscaling.alpha.kubernetes.io/metrics",
	"autoscaling.alpha.kubernetes.io/current-metrics",
	"autoscaling.alpha.kubernetes.io/conditions",
	"autoscaling.alpha.kubernetes.io/behavior",
}

// DecodeHorizontalPodAutoscalerV1 reads an autoscaling/v1
// HorizontalPodAutoscaler into the autoscaling/v2 type: its
// spec.targetCPUUtilizationPercentage becomes a CPU Utilization metric,
// its status.currentCPUUtilizationPercentage the current CPU metric, and
// its apiVersion autoscaling/v2. The fields that only autoscaling/v2 has
// (spec.metrics, spec.behavior, status.conditions, status.currentMetrics)
// are unknown fields here, as for the API server. Unlike upstream it does
// not read the other metrics, the behavior and the conditions that the
// round-trip annotations (autoscaling.alpha.kubernetes.io/...) may hold:
// it drops those annotations, as upstream does once it has read them.
func DecodeHorizontalPodAutoscalerV1(data []byte, opts DecodeOptions) (*HorizontalPodAutoscaler, Result) {
	d := newDecoder(data, opts)
	x := new(HorizontalPodAutoscaler)
	d.decodeHorizontalPodAutoscalerV1(x)
	d.finish()
	if x.TypeMeta.APIVersion == "autoscaling/v1" {
		x.TypeMeta.APIVersion = "autoscaling/v2"
	}
	for _, k := range hpaRoundTripAnnotations {
		delete(x.Annotations, k)
	}
	return x, d.result()
}

func (d *decoder) decodeHorizontalPodAutoscalerV1(x *HorizontalPodAutoscaler) {
	if !d.beginObject() {
		return
	}
	var seen [1]uint64
	for d.nextKey() {
		switch string(d.key()) {
		case "apiVersion":
			d.member(seen[:], 0)
			d.str(&x.TypeMeta.APIVersion)
		case "kind":
			d.member(seen[:], 1)
			d.str(&x.TypeMeta.Kind)
		case "metadata":
			d.member(seen[:], 2)
			d.decodeObjectMeta(&x.ObjectMeta)
		case "spec":
			d.member(seen[:], 3)
			d.decodeHorizontalPodAutoscalerSpecV1(&x.Spec)
		case "status":
			d.member(seen[:], 4)
			d.decodeHorizontalPodAutoscalerStatusV1(&x.Status)
		default:
			d.unknown([]string{"apiVersion", "kind", "metadata", "spec", "status"})
		}
	}
}

func (d *decoder) decodeHorizontalPodAutoscalerSpecV1(x *HorizontalPodAutoscalerSpec) {
	if !d.beginObject() {
		return
	}
	var (
		seen   [1]uint64
		target *int32
	)
	for d.nextKey() {
		switch string(d.key()) {
		case "scaleTargetRef":
			d.member(seen[:], 0)
			d.decodeCrossVersionObjectReference(&x.ScaleTargetRef)
		case "minReplicas":
			d.member(seen[:], 1)
			d.decodePtrInt32(&x.MinReplicas)
		case "maxReplicas":
			d.member(seen[:], 2)
			d.int32(&x.MaxReplicas)
		case "targetCPUUtilizationPercentage":
			d.member(seen[:], 3)
			d.decodePtrInt32(&target)
		default:
			d.unknown([]string{"scaleTargetRef", "minReplicas", "maxReplicas", "targetCPUUtilizationPercentage"})
		}
	}
	if target != nil {
		x.Metrics = []MetricSpec{{Type: "Resource", Resource: &ResourceMetricSource{
			Name: "cpu", Target: MetricTarget{Type: "Utilization", AverageUtilization: target}}}}
	}
}

func (d *decoder) decodeHorizontalPodAutoscalerStatusV1(x *HorizontalPodAutoscalerStatus) {
	if !d.beginObject() {
		return
	}
	var (
		seen    [1]uint64
		current *int32
	)
	for d.nextKey() {
		switch string(d.key()) {
		case "observedGeneration":
			d.member(seen[:], 0)
			d.decodePtrInt64(&x.ObservedGeneration)
		case "lastScaleTime":
			d.member(seen[:], 1)
			d.decodePtrTime(&x.LastScaleTime)
		case "currentReplicas":
			d.member(seen[:], 2)
			d.int32(&x.CurrentReplicas)
		case "desiredReplicas":
			d.member(seen[:], 3)
			d.int32(&x.DesiredReplicas)
		case "currentCPUUtilizationPercentage":
			d.member(seen[:], 4)
			d.decodePtrInt32(&current)
		default:
			d.unknown([]string{"observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas", "currentCPUUtilizationPercentage"})
		}
	}
	if current != nil {
		x.CurrentMetrics = []MetricStatus{{Type: "Resource", Resource: &ResourceMetricStatus{
			Name: "cpu", Current: MetricValueStatus{AverageUtilization: current}}}}
	}
}
