package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The API server's sequence for each kind that rolloutmath reads from a
// manifest or from `kubectl get` output, written once: decode (strictly,
// unless Lenient), put an object without a namespace in one, default and
// convert as reading it back from storage does, drop the fields of
// disabled gates from a manifest, validate once (when asked), and leave
// the object in stored form. rollout.Decode and the policy objects of
// rollout/check call these and nothing else of this package's reading.

// SequenceOptions are the options of a sequence.
type SequenceOptions struct {
	// Lenient drops unknown and duplicate fields with a warning, as
	// kubectl's --validate=false; the default refuses them.
	Lenient bool
	// Validate validates the object as the API server does on create.
	Validate bool
	// Namespace is that of an object that names none ("" for "default").
	Namespace string
	// Gates are the API server's minor, which decodes (a field of another
	// minor is unknown), defaults, drops and validates, and its feature
	// gates; the zero value is the newest minor with its defaults.
	Gates FeatureGates
	// Strings, if not nil, holds the strings of the objects decoded (see
	// schema.StringTable).
	Strings *schema.StringTable
}

// schema returns the decoder's options for o.
func (o SequenceOptions) schema() schema.DecodeOptions {
	return schema.DecodeOptions{Lenient: o.Lenient, Version: o.Gates.Version, Strings: o.Strings}
}

// A SequenceResult is what a sequence says besides the object: the
// decoder's warnings and those of the fields dropped, every error (the
// decoder's, or else the server's), and Malformed when the input is not
// JSON. The object is usable only when Errs is empty.
type SequenceResult struct {
	Warnings  []string
	Errs      field.ErrorList
	Malformed bool
	// Decoded is set when decoding succeeded: Errs, if any, are the
	// server's, and the object's metadata is what the input says.
	Decoded bool
}

// sequence runs the steps after decoding: the namespace, read (defaults,
// conversions, stored form), the drop for a manifest, and validate.
func sequence[T any](obj T, res schema.Result, meta *schema.ObjectMeta, o SequenceOptions,
	read func(T) field.ErrorList, template *schema.PodSpec, validate func(T) field.ErrorList) SequenceResult {
	out := SequenceResult{Warnings: res.Warnings, Errs: res.Errs, Malformed: res.Malformed}
	if len(out.Errs) > 0 || out.Malformed {
		return out
	}
	out.Decoded = true
	if meta.Namespace == "" {
		meta.Namespace = o.Namespace
		if meta.Namespace == "" {
			meta.Namespace = "default"
		}
	}
	if out.Errs = read(obj); len(out.Errs) > 0 {
		return out
	}
	if o.Validate {
		if template != nil && meta.ResourceVersion == "" { // a manifest, not an object the server stores
			for _, g := range dropDisabledFields(template, nil, o.Gates) {
				out.Warnings = append(out.Warnings, "spec.template.spec: the API server drops the fields of feature gate "+g+", which is off")
			}
		}
		out.Errs = validate(obj)
	}
	return out
}

// DecodeDeployment is the sequence of a Deployment.
func DecodeDeployment(data []byte, o SequenceOptions) (*schema.Deployment, SequenceResult) {
	d, res := schema.DecodeDeployment(data, o.schema())
	return d, sequence(d, res, &d.ObjectMeta, o,
		func(d *schema.Deployment) field.ErrorList { return ReadDeployment(d, o.Gates) }, &d.Spec.Template.Spec,
		func(d *schema.Deployment) field.ErrorList { return ValidateDeployment(d, o.Gates) })
}

// DecodeReplicaSet is the sequence of a ReplicaSet.
func DecodeReplicaSet(data []byte, o SequenceOptions) (*schema.ReplicaSet, SequenceResult) {
	rs, res := schema.DecodeReplicaSet(data, o.schema())
	return rs, sequence(rs, res, &rs.ObjectMeta, o,
		func(rs *schema.ReplicaSet) field.ErrorList { return ReadReplicaSet(rs, o.Gates) }, &rs.Spec.Template.Spec,
		func(rs *schema.ReplicaSet) field.ErrorList { return ValidateReplicaSet(rs, o.Gates) })
}

// DecodePod is the sequence of a Pod, which rolloutmath only reads (no
// validation: pods come from the cluster).
func DecodePod(data []byte, o SequenceOptions) (*schema.Pod, SequenceResult) {
	p, res := schema.DecodePod(data, o.schema())
	o.Validate = false
	return p, sequence(p, res, &p.ObjectMeta, o,
		func(p *schema.Pod) field.ErrorList { return ReadPod(p, o.Gates) }, nil, nil)
}

// DecodeResourceQuota is the sequence of a ResourceQuota.
func DecodeResourceQuota(data []byte, o SequenceOptions) (*schema.ResourceQuota, SequenceResult) {
	q, res := schema.DecodeResourceQuota(data, o.schema())
	return q, sequence(q, res, &q.ObjectMeta, o, ReadResourceQuota, nil,
		func(q *schema.ResourceQuota) field.ErrorList { return ValidateResourceQuota(q, o.Gates) })
}

// DecodeLimitRange is the sequence of a LimitRange.
func DecodeLimitRange(data []byte, o SequenceOptions) (*schema.LimitRange, SequenceResult) {
	l, res := schema.DecodeLimitRange(data, o.schema())
	return l, sequence(l, res, &l.ObjectMeta, o, ReadLimitRange, nil,
		func(l *schema.LimitRange) field.ErrorList { return ValidateLimitRange(l, o.Gates) })
}

// DecodePodDisruptionBudget is the sequence of a PodDisruptionBudget.
func DecodePodDisruptionBudget(data []byte, o SequenceOptions) (*schema.PodDisruptionBudget, SequenceResult) {
	b, res := schema.DecodePodDisruptionBudget(data, o.schema())
	return b, sequence(b, res, &b.ObjectMeta, o, ReadPodDisruptionBudget, nil,
		func(b *schema.PodDisruptionBudget) field.ErrorList { return ValidatePodDisruptionBudget(b, o.Gates) })
}

// DecodeHorizontalPodAutoscaler is the sequence of a
// HorizontalPodAutoscaler: autoscaling/v2, or autoscaling/v1 converted to
// it as the API server converts it.
func DecodeHorizontalPodAutoscaler(data []byte, o SequenceOptions) (*schema.HorizontalPodAutoscaler, SequenceResult) {
	h, res := schema.DecodeHorizontalPodAutoscaler(data, o.schema())
	if h.APIVersion == "autoscaling/v1" { // still served, and common
		h, res = schema.DecodeHorizontalPodAutoscalerV1(data, o.schema())
	}
	return h, sequence(h, res, &h.ObjectMeta, o, ReadHorizontalPodAutoscaler, nil,
		func(h *schema.HorizontalPodAutoscaler) field.ErrorList {
			return ValidateHorizontalPodAutoscaler(h, o.Gates)
		})
}
