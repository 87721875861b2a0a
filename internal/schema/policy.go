package schema

// The policy objects a rollout is checked against: their strict decoders
// and their stored forms, as for the workload types in schema.go.

// DecodeResourceQuota reads a core/v1 ResourceQuota.
func DecodeResourceQuota(data []byte, opts DecodeOptions) (*ResourceQuota, Result) {
	d := newDecoder(data, opts)
	x := new(ResourceQuota)
	d.decodeResourceQuota(x)
	d.finish()
	return x, d.result()
}

// DecodeLimitRange reads a core/v1 LimitRange.
func DecodeLimitRange(data []byte, opts DecodeOptions) (*LimitRange, Result) {
	d := newDecoder(data, opts)
	x := new(LimitRange)
	d.decodeLimitRange(x)
	d.finish()
	return x, d.result()
}

// DecodePodDisruptionBudget reads a policy/v1 PodDisruptionBudget.
func DecodePodDisruptionBudget(data []byte, opts DecodeOptions) (*PodDisruptionBudget, Result) {
	d := newDecoder(data, opts)
	x := new(PodDisruptionBudget)
	d.decodePodDisruptionBudget(x)
	d.finish()
	return x, d.result()
}

// DecodeHorizontalPodAutoscaler reads an autoscaling/v2
// HorizontalPodAutoscaler.
func DecodeHorizontalPodAutoscaler(data []byte, opts DecodeOptions) (*HorizontalPodAutoscaler, Result) {
	d := newDecoder(data, opts)
	x := new(HorizontalPodAutoscaler)
	d.decodeHorizontalPodAutoscaler(x)
	d.finish()
	return x, d.result()
}

// StoredResourceQuota is [StoredDeployment] for a ResourceQuota.
func StoredResourceQuota(x *ResourceQuota) { x.stored() }

// StoredLimitRange is [StoredDeployment] for a LimitRange.
func StoredLimitRange(x *LimitRange) { x.stored() }

// StoredPodDisruptionBudget is [StoredDeployment] for a
// PodDisruptionBudget.
func StoredPodDisruptionBudget(x *PodDisruptionBudget) { x.stored() }

// StoredHorizontalPodAutoscaler is [StoredDeployment] for a
// HorizontalPodAutoscaler.
func StoredHorizontalPodAutoscaler(x *HorizontalPodAutoscaler) { x.stored() }
