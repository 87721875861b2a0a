package apiserver

import (
	"strings"
	"testing"
)

const sequenceDeployment = `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"%s},
 "spec": {"replicas": %s, "selector": {"matchLabels": {"app": "web"}},
  "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "web:1"}]}}}}`

// TestSequence holds the per-kind sequence (decode, namespace, read,
// drop, validate) to each of its steps: which one an error comes from,
// the namespace an object without one is put in, and validation only
// when asked.
func TestSequence(t *testing.T) {
	for _, tt := range []struct {
		name, meta, replicas string
		o                    SequenceOptions
		namespace            string
		decoded              bool
		errField             string // "" for none
	}{
		{"a valid manifest", ``, `3`, SequenceOptions{Validate: true}, "default", true, ""},
		{"the namespace of the options", ``, `3`, SequenceOptions{Validate: true, Namespace: "prod"}, "prod", true, ""},
		{"its own namespace", `, "namespace": "shop"`, `3`, SequenceOptions{Namespace: "prod"}, "shop", true, ""},
		{"refused by validation", ``, `-1`, SequenceOptions{Validate: true}, "default", true, "spec.replicas"},
		{"not validated unless asked", ``, `-1`, SequenceOptions{}, "default", true, ""},
		{"refused by the decoder", ``, `"3"`, SequenceOptions{Validate: true}, "", false, "spec.replicas"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(strings.Replace(strings.Replace(sequenceDeployment, "%s", tt.meta, 1), "%s", tt.replicas, 1))
			d, res := DecodeDeployment(data, tt.o)
			if res.Decoded != tt.decoded {
				t.Errorf("Decoded = %v, want %v (errors %v)", res.Decoded, tt.decoded, res.Errs)
			}
			if d.Namespace != tt.namespace {
				t.Errorf("namespace %q, want %q", d.Namespace, tt.namespace)
			}
			switch {
			case tt.errField == "" && len(res.Errs) > 0:
				t.Errorf("errors %v, want none", res.Errs)
			case tt.errField != "" && (len(res.Errs) != 1 || res.Errs[0].Field != tt.errField):
				t.Errorf("errors %v, want one at %s", res.Errs, tt.errField)
			}
		})
	}
}

// TestSequenceOfPolicyKinds: the policy kinds go through the same steps,
// an autoscaling/v1 HPA converted to v2 first.
func TestSequenceOfPolicyKinds(t *testing.T) {
	o := SequenceOptions{Validate: true, Namespace: "prod"}
	q, res := DecodeResourceQuota([]byte(`{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q"}, "spec": {"hard": {"pods": "-1"}}}`), o)
	if q.Namespace != "prod" || len(res.Errs) != 1 || !res.Decoded {
		t.Errorf("ResourceQuota: namespace %q, errors %v, decoded %v; want prod, one error from validation", q.Namespace, res.Errs, res.Decoded)
	}
	h, res := DecodeHorizontalPodAutoscaler([]byte(`{"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h"},
		"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 4, "targetCPUUtilizationPercentage": 80}}`), o)
	if len(res.Errs) > 0 || h.Spec.MinReplicas == nil || *h.Spec.MinReplicas != 1 || len(h.Spec.Metrics) != 1 {
		t.Errorf("autoscaling/v1 HPA: errors %v, spec %+v; want minReplicas defaulted to 1 and the CPU target as a metric", res.Errs, h.Spec)
	}
}
