package apiserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// policyErrors decodes one policy object strictly, reads it as a client
// of the server would and returns what create validation says.
func policyErrors(t *testing.T, kind, spec string) field.ErrorList {
	t.Helper()
	data := []byte(`{"metadata": {"name": "abc", "namespace": "foo"}, "spec": ` + spec + `}`)
	var res schema.Result
	var errs field.ErrorList
	switch kind {
	case "ResourceQuota":
		var q *schema.ResourceQuota
		q, res = schema.DecodeResourceQuota(data, schema.DecodeOptions{})
		errs = append(ReadResourceQuota(q), ValidateResourceQuota(q, v136)...)
	case "LimitRange":
		var l *schema.LimitRange
		l, res = schema.DecodeLimitRange(data, schema.DecodeOptions{})
		errs = append(ReadLimitRange(l), ValidateLimitRange(l, v136)...)
	case "PodDisruptionBudget":
		var p *schema.PodDisruptionBudget
		p, res = schema.DecodePodDisruptionBudget(data, schema.DecodeOptions{})
		errs = append(ReadPodDisruptionBudget(p), ValidatePodDisruptionBudget(p, v136)...)
	case "HorizontalPodAutoscaler":
		var h *schema.HorizontalPodAutoscaler
		h, res = schema.DecodeHorizontalPodAutoscaler(data, schema.DecodeOptions{})
		errs = append(ReadHorizontalPodAutoscaler(h), ValidateHorizontalPodAutoscaler(h, v136)...)
	}
	if len(res.Errs) > 0 {
		t.Fatalf("decoding %s: %v", spec, res.Errs)
	}
	return errs
}

// TestValidatePolicyObjects carries cases of upstream's
// TestValidateResourceQuota, TestValidateLimitRange,
// TestValidatePodDisruptionBudgetSpec and
// TestValidateHorizontalPodAutoscaler, by their names: each error case
// gives among its errors the one upstream's does (its field and words),
// each valid case none.
func TestValidatePolicyObjects(t *testing.T) {
	tests := []struct {
		kind, name, spec string
		want             string // in the first error; "" for none
	}{
		{"ResourceQuota", "no-scope", `{"hard": {"cpu": "100", "memory": "10000", "requests.cpu": "100", "pods": "10", "services": "0", "count/replicasets.apps": "20"}}`, ""},
		{"ResourceQuota", "terminating-spec", `{"hard": {"cpu": "100", "limits.cpu": "200"}, "scopes": ["Terminating"]}`, ""},
		{"ResourceQuota", "scope-selector-spec", `{"scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "In", "values": ["cluster-services"]}]}}`, ""},
		{"ResourceQuota", "negative-limits", `{"hard": {"cpu": "-100"}}`, `spec.hard[cpu]: Invalid value: "-100": must be greater than or equal to 0`},
		{"ResourceQuota", "fractional-api-resource", `{"hard": {"pods": ".1"}}`, `spec.hard[pods]: Invalid value: "100m": must be an integer`},
		{"ResourceQuota", "invalid-quota-resource", `{"hard": {"storage": "10"}}`, `spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota`},
		{"ResourceQuota", "invalid-quota-terminating-pair", `{"hard": {"cpu": "100"}, "scopes": ["Terminating", "NotTerminating"]}`, "conflicting scopes"},
		{"ResourceQuota", "invalid-quota-besteffort-pair", `{"hard": {"pods": "100"}, "scopes": ["BestEffort", "NotBestEffort"]}`, "conflicting scopes"},
		{"ResourceQuota", "invalid-quota-scope-name", `{"hard": {"cpu": "100"}, "scopes": ["foo"]}`, "unsupported scope"},
		{"ResourceQuota", "invalid-cross-namespace-affinity", `{"scopeSelector": {"matchExpressions": [{"scopeName": "CrossNamespacePodAffinity", "operator": "In", "values": ["cluster-services"]}]}}`, "must be 'Exists'"},
		{"ResourceQuota", "best-effort with cpu", `{"hard": {"cpu": "100"}, "scopes": ["BestEffort"]}`, "unsupported scope applied to resource"},
		{"LimitRange", "valid", `{"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"cpu": "100m"}, "default": {"cpu": "500m"}}]}`, ""},
		{"LimitRange", "duplicate-limit-type", `{"limits": [{"type": "Pod", "max": {"cpu": "1"}}, {"type": "Pod", "min": {"cpu": "1m"}}]}`, `spec.limits[1].type: Duplicate value: "Pod"`},
		{"LimitRange", "default-limit-type-pod", `{"limits": [{"type": "Pod", "default": {"cpu": "1"}}]}`, "may not be specified when `type` is 'Pod'"},
		{"LimitRange", "min value 100m is greater than max value 10m", `{"limits": [{"type": "Pod", "max": {"cpu": "10m"}, "min": {"cpu": "100m"}}]}`, "min value 100m is greater than max value 10m"},
		{"LimitRange", "invalid spec default outside range", `{"limits": [{"type": "Container", "max": {"cpu": "1"}, "min": {"cpu": "100m"}, "default": {"cpu": "2000m"}}]}`, "default value 2 is greater than max value 1"},
		{"LimitRange", "invalid spec default request more than default", `{"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"cpu": "100m"}, "default": {"cpu": "500m"}, "defaultRequest": {"cpu": "800m"}}]}`,
			"default request value 800m is greater than default limit value 500m"},
		{"LimitRange", "invalid spec maxLimitRequestRatio less than 1", `{"limits": [{"type": "Pod", "maxLimitRequestRatio": {"cpu": "800m"}}]}`, "ratio 800m is less than 1"},
		{"LimitRange", "invalid spec maxLimitRequestRatio greater than max/min", `{"limits": [{"type": "Container", "max": {"memory": "2Gi"}, "min": {"memory": "512Mi"}, "maxLimitRequestRatio": {"memory": "10"}}]}`,
			"ratio 10 is greater than max/min = 4.000000"},
		{"LimitRange", "invalid non standard limit type", `{"limits": [{"type": "foo", "max": {"storage": "10000T"}}]}`, "must be a standard limit type or fully qualified"},
		{"LimitRange", "min and max values missing, one required", `{"limits": [{"type": "PersistentVolumeClaim"}]}`, "either minimum or maximum storage value is required"},
		{"PodDisruptionBudget", "valid minAvailable", `{"minAvailable": "90%", "selector": {"matchLabels": {"app": "web"}}}`, ""},
		{"PodDisruptionBudget", "both set", `{"minAvailable": 1, "maxUnavailable": 1}`, "minAvailable and maxUnavailable cannot be both set"},
		{"PodDisruptionBudget", "minAvailable over 100%", `{"minAvailable": "101%"}`, `spec.minAvailable: Invalid value: "101%": must not be greater than 100%`},
		{"PodDisruptionBudget", "negative maxUnavailable", `{"maxUnavailable": -1}`, "spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"},
		{"PodDisruptionBudget", "bad policy", `{"minAvailable": 1, "unhealthyPodEvictionPolicy": "Never"}`, `spec.unhealthyPodEvictionPolicy: Unsupported value: "Never"`},
		{"HorizontalPodAutoscaler", "valid", `{"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "minReplicas": 2, "maxReplicas": 10}`, ""},
		{"HorizontalPodAutoscaler", "must be greater than or equal to 1", `{"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "minReplicas": 0, "maxReplicas": 10}`,
			"spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"},
		{"HorizontalPodAutoscaler", "must be greater than or equal to `minReplicas`", `{"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "minReplicas": 7, "maxReplicas": 5}`,
			"must be greater than or equal to `minReplicas`"},
		{"HorizontalPodAutoscaler", "scaleTargetRef.kind: Required", `{"scaleTargetRef": {"apiVersion": "apps/v1", "name": "web"}, "maxReplicas": 5}`, "spec.scaleTargetRef.kind: Required value"},
		{"HorizontalPodAutoscaler", "apiVersion must specify API group", `{"scaleTargetRef": {"apiVersion": "v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 5}`, "apiVersion must specify API group"},
		{"HorizontalPodAutoscaler", "must populate information for the given metric source", `{"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 5,
			"metrics": [{"type": "Resource"}]}`, "spec.metrics[0].resource: Required value: must populate information for the given metric source"},
		{"HorizontalPodAutoscaler", "must specify at least one Policy", `{"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 5,
			"behavior": {"scaleUp": {"policies": []}}}`, "spec.behavior.scaleUp.policies: Required value"}, // an empty list is not a missing one
		{"HorizontalPodAutoscaler", "periodSeconds too long", `{"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 5,
			"behavior": {"scaleDown": {"policies": [{"type": "Pods", "value": 1, "periodSeconds": 1801}]}}}`, "must be less than or equal to 1800"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.name, func(t *testing.T) {
			errs := policyErrors(t, tt.kind, tt.spec)
			switch {
			case tt.want == "" && len(errs) > 0:
				t.Errorf("want no error, got %v", errs)
			case tt.want != "" && !strings.Contains(fmt.Sprint(errs), tt.want):
				t.Errorf("want %q, got %v", tt.want, errs)
			}
		})
	}
}

// TestReadPolicyDefaults: a LimitRange's Container item takes its default
// limit from max and its default request from the default limit or min
// (SetDefaults_LimitRangeItem); an HPA gets minReplicas 1 and a CPU target
// of 80% (SetDefaults_HorizontalPodAutoscaler).
func TestReadPolicyDefaults(t *testing.T) {
	l, _ := schema.DecodeLimitRange([]byte(`{"spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "64Mi"}}]}}`), schema.DecodeOptions{})
	ReadLimitRange(l)
	it := l.Spec.Limits[0]
	if got := at(it.Default, "cpu").String() + " " + at(it.DefaultRequest, "cpu").String() + " " + at(it.DefaultRequest, "memory").String(); got != "2 2 64Mi" {
		t.Errorf("LimitRange defaults: default cpu, defaultRequest cpu and memory = %s, want 2 2 64Mi", got)
	}
	h, _ := schema.DecodeHorizontalPodAutoscaler([]byte(`{"spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 4}}`), schema.DecodeOptions{})
	ReadHorizontalPodAutoscaler(h)
	if *h.Spec.MinReplicas != 1 || len(h.Spec.Metrics) != 1 || *h.Spec.Metrics[0].Resource.Target.AverageUtilization != 80 {
		t.Errorf("HPA defaults: %+v", h.Spec)
	}
}

// TestReadPolicyRefusesAnotherVersion: as for a Deployment, an object of
// a version the server does not serve for its kind is refused at its
// apiVersion; one without apiVersion and kind, or with the group's own
// version left empty, is read (the request's URL names them).
func TestReadPolicyRefusesAnotherVersion(t *testing.T) {
	read := func(apiVersion string) field.ErrorList {
		p, res := schema.DecodePodDisruptionBudget([]byte(`{"apiVersion": "`+apiVersion+`", "kind": "PodDisruptionBudget"}`), schema.DecodeOptions{})
		if len(res.Errs) > 0 {
			t.Fatalf("decoding: %v", res.Errs)
		}
		return ReadPodDisruptionBudget(p)
	}
	if errs := read("policy/v1beta1"); len(errs) != 1 || errs[0].Field != "apiVersion" {
		t.Errorf("policy/v1beta1: %v, want an error at apiVersion", errs)
	}
	for _, ok := range []string{"policy/v1", "", "policy/"} {
		if errs := read(ok); errs != nil {
			t.Errorf("%q: %v", ok, errs)
		}
	}
	q, _ := schema.DecodeResourceQuota([]byte(`{"apiVersion": "v1", "kind": "LimitRange"}`), schema.DecodeOptions{})
	if errs := ReadResourceQuota(q); len(errs) != 1 || errs[0].Field != "kind" {
		t.Errorf("a ResourceQuota of kind LimitRange: %v, want an error at kind", errs)
	}
}
