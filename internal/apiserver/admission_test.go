package apiserver

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// res is a resource list of cpu and memory, each left out when "".
func res(cpu, memory string) schema.ResourceList {
	m := map[string]schema.Quantity{}
	if cpu != "" {
		m["cpu"] = schema.MustParseQuantity(cpu)
	}
	if memory != "" {
		m["memory"] = schema.MustParseQuantity(memory)
	}
	return schema.MakeResourceList(m)
}

// at returns l's quantity named name, zero when l has none.
func at(l schema.ResourceList, name string) schema.Quantity {
	q, _ := l.Get(name)
	return q
}

// limitPod is upstream's validPod: n containers with the same
// requirements.
func limitPod(n int, requests, limits schema.ResourceList) *schema.Pod {
	p := &schema.Pod{}
	for range n {
		p.Spec.Containers = append(p.Spec.Containers, schema.Container{Name: "foo",
			Resources: schema.ResourceRequirements{Requests: requests.Clone(), Limits: limits.Clone()}})
	}
	return p
}

// limitRange is upstream's createLimitRange, of one item.
func limitRange(typ string, min, max, def, defReq, ratio schema.ResourceList) *schema.LimitRange {
	return &schema.LimitRange{ObjectMeta: schema.ObjectMeta{Name: "abc"}, Spec: schema.LimitRangeSpec{Limits: []schema.LimitRangeItem{{
		Type: typ, Min: min, Max: max, Default: def, DefaultRequest: defReq, MaxLimitRequestRatio: ratio}}}}
}

// TestPodLimitFunc carries cases of upstream's TestPodLimitFunc
// (plugin/pkg/admission/limitranger), by their pods' names: LimitRanger's
// min, max and ratio for Container and Pod items.
func TestPodLimitFunc(t *testing.T) {
	none := schema.ResourceList{}
	tests := []struct {
		name string
		pod  *schema.Pod
		lr   *schema.LimitRange
		want string // the first problem; "" for none
	}{
		{"ctr-min-cpu-request", limitPod(1, res("100m", ""), none), limitRange("Container", res("50m", ""), none, none, none, none), ""},
		{"ctr-max-cpu-limit", limitPod(1, none, res("1", "")), limitRange("Container", none, res("2", ""), none, none, none), ""},
		{"ctr-max-cpu-ratio", limitPod(1, res("500m", ""), res("750m", "")), limitRange("Container", none, none, none, none, res("1.5", "")), ""},
		{"pod-min-cpu-request", limitPod(2, res("75m", ""), none), limitRange("Pod", res("100m", ""), none, none, none, none), ""},
		{"pod-max-mem-ratio", limitPod(3, res("", "300Mi"), res("", "450Mi")), limitRange("Pod", none, res("", "2Gi"), none, none, res("", "1.5")), ""},
		// Errors.
		{"ctr-min-cpu-request (error)", limitPod(1, res("40m", ""), none), limitRange("Container", res("50m", ""), none, none, none, none),
			"minimum cpu usage per Container is 50m, but request is 40m"},
		{"ctr-min-cpu-no-request-limit", limitPod(1, none, none), limitRange("Container", res("50m", ""), none, none, none, none),
			"minimum cpu usage per Container is 50m.  No request is specified"},
		{"ctr-max-cpu-request-limit", limitPod(1, res("500m", ""), res("2500m", "")), limitRange("Container", none, res("2", ""), none, none, none),
			"maximum cpu usage per Container is 2, but limit is 2500m"},
		{"ctr-max-cpu-no-request-limit", limitPod(1, none, none), limitRange("Container", none, res("2", ""), none, none, none),
			"maximum cpu usage per Container is 2.  No limit is specified"},
		{"ctr-max-cpu-ratio (error)", limitPod(1, res("1250m", ""), res("2500m", "")), limitRange("Container", none, none, none, none, res("1", "")),
			"cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000"},
		{"pod-min-cpu-request (error)", limitPod(1, res("75m", ""), none), limitRange("Pod", res("100m", ""), none, none, none, none),
			"minimum cpu usage per Pod is 100m, but request is 75m"},
		{"pod-max-cpu-request-limit", limitPod(3, res("500m", ""), res("1", "")), limitRange("Pod", none, res("2", ""), none, none, none),
			"maximum cpu usage per Pod is 2, but limit is 3"},
		{"pod-max-mem-ratio (error)", limitPod(3, res("", "250Mi"), res("", "500Mi")), limitRange("Pod", none, res("", "2Gi"), none, none, res("", "1.5")),
			"memory max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := AdmitLimits(tt.pod, []*schema.LimitRange{tt.lr})
			got := ""
			if len(problems) > 0 {
				got = problems[0].Message
			}
			if got != tt.want {
				t.Errorf("AdmitLimits() = %q, want %q (all: %+v)", got, tt.want, problems)
			}
		})
	}
}

// TestPodLimitFuncApplyDefault is upstream's: a LimitRange's Container
// defaults go to every container and init container without requests or
// limits; each default is reported at the pod's field it set.
func TestPodLimitFuncApplyDefault(t *testing.T) {
	lr := limitRange("Container", res("25m", "1Mi"), res("100m", "2Gi"), res("75m", "10Mi"), res("50m", "5Mi"), nil)
	lr.Spec.Limits = append([]schema.LimitRangeItem{{Type: "Pod", Max: res("200m", "4Gi"), Min: res("50m", "2Mi")}}, lr.Spec.Limits...)
	p := limitPod(1, nil, nil)
	p.Spec.InitContainers = []schema.Container{{Name: "init"}}
	defaults, problems := AdmitLimits(p, []*schema.LimitRange{lr})
	for _, c := range append(p.Spec.Containers, p.Spec.InitContainers...) {
		r := c.Resources
		got := []string{at(r.Limits, "memory").String(), at(r.Limits, "cpu").String(), at(r.Requests, "memory").String(), at(r.Requests, "cpu").String()}
		if diff := cmp.Diff([]string{"10Mi", "75m", "5Mi", "50m"}, got); diff != "" {
			t.Errorf("container %s (-want +got):\n%s", c.Name, diff)
		}
	}
	if len(defaults) != 8 || defaults[0].Field != "spec.containers[0].resources.limits.cpu" || defaults[0].Item != "spec.limits[1].default[cpu]" {
		t.Errorf("defaults: %+v", defaults)
	}
	// The pod's init container runs alone: 50m of cpu is within the Pod item.
	if len(problems) != 0 {
		t.Errorf("problems: %+v", problems)
	}
}

// TestPodConstraintsFunc carries upstream's cases of the same name
// (pkg/quota/v1/evaluator/core): a quota on cpu or memory refuses pods
// whose containers do not set them.
func TestPodConstraintsFunc(t *testing.T) {
	cpuOnly := schema.ResourceRequirements{Requests: res("1m", ""), Limits: res("2m", "")}
	tests := []struct {
		name     string
		pod      schema.PodSpec
		required []string
		want     string
	}{
		{"init container resource missing", schema.PodSpec{InitContainers: []schema.Container{{Name: "dummy", Resources: cpuOnly}}},
			[]string{"memory"}, "must specify memory for: dummy"},
		{"multiple init container resource missing", schema.PodSpec{InitContainers: []schema.Container{{Name: "foo", Resources: cpuOnly}, {Name: "bar", Resources: cpuOnly}}},
			[]string{"memory"}, "must specify memory for: bar,foo"},
		{"container resource missing", schema.PodSpec{Containers: []schema.Container{{Name: "dummy", Resources: cpuOnly}}},
			[]string{"memory"}, "must specify memory for: dummy"},
		{"container resource missing multiple", schema.PodSpec{Containers: []schema.Container{{Name: "foo"}, {Name: "bar"}}},
			[]string{"memory", "cpu"}, "must specify cpu for: bar,foo; memory for: bar,foo"},
		{"pod-level resource set, container-level required resources missing",
			schema.PodSpec{Resources: &schema.ResourceRequirements{Requests: res("1m", "")}, Containers: []schema.Container{{Name: "foo"}, {Name: "bar"}}},
			[]string{"memory", "cpu"}, ""},
		// A resource no container needs to set.
		{"pods only", schema.PodSpec{Containers: []schema.Container{{Name: "foo"}}}, []string{"pods", "count/replicasets.apps"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &schema.ResourceQuota{Spec: schema.ResourceQuotaSpec{Hard: schema.ResourceList{}}}
			for _, r := range tt.required {
				q.Spec.Hard.Set(r, schema.MustParseQuantity("10"))
			}
			if got := QuotaMissingMessage(QuotaConstraints(q, &schema.Pod{Spec: tt.pod})); got != tt.want {
				t.Errorf("QuotaConstraints() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPodEvaluatorUsage carries upstream's cases of the same name: what a
// quota charges for a pod.
func TestPodEvaluatorUsage(t *testing.T) {
	always := "Always"
	tests := []struct {
		name string
		pod  schema.PodSpec
		want string
	}{
		{"init container CPU", schema.PodSpec{InitContainers: []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("1m", ""), Limits: res("2m", "")}}}},
			"count/pods=1 cpu=1m limits.cpu=2m pods=1 requests.cpu=1m"},
		{"container MEM", schema.PodSpec{Containers: []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("", "1m"), Limits: res("", "2m")}}}},
			"count/pods=1 limits.memory=2m memory=1m pods=1 requests.memory=1m"},
		{"container hugepages", schema.PodSpec{Containers: []schema.Container{{Resources: schema.ResourceRequirements{
			Requests: schema.ResourceList{{Name: "hugepages-2Mi", Quantity: schema.MustParseQuantity("100Mi")}}}}}},
			"count/pods=1 hugepages-2Mi=100Mi pods=1 requests.hugepages-2Mi=100Mi"},
		{"container extended resources", schema.PodSpec{Containers: []schema.Container{{Resources: schema.ResourceRequirements{
			Requests: schema.ResourceList{{Name: "example.com/dongle", Quantity: schema.MustParseQuantity("3")}}, Limits: schema.ResourceList{{Name: "example.com/dongle", Quantity: schema.MustParseQuantity("3")}}}}}},
			"count/pods=1 pods=1 requests.example.com/dongle=3"},
		{"init container maximums override sum of containers", schema.PodSpec{
			InitContainers: []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("4", "100M"), Limits: res("8", "200M")}},
				{Resources: schema.ResourceRequirements{Requests: res("1", "50M"), Limits: res("2", "100M")}}},
			Containers: []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("1", "50M"), Limits: res("2", "100M")}},
				{Resources: schema.ResourceRequirements{Requests: res("2", "25M"), Limits: res("5", "50M")}}}},
			"count/pods=1 cpu=4 limits.cpu=8 limits.memory=200M memory=100M pods=1 requests.cpu=4 requests.memory=100M"},
		{"sidecars run beside the containers", schema.PodSpec{
			InitContainers: []schema.Container{{RestartPolicy: &always, Resources: schema.ResourceRequirements{Requests: res("1", "")}}},
			Containers:     []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("2", "")}}}},
			"count/pods=1 cpu=3 pods=1 requests.cpu=3"},
		{"pod overhead", schema.PodSpec{Overhead: res("1", "64Mi"), Containers: []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("1", "100M"), Limits: res("2", "200M")}}}},
			"count/pods=1 cpu=2 limits.cpu=3 limits.memory=267108864 memory=167108864 pods=1 requests.cpu=2 requests.memory=167108864"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := PodUsage(&schema.Pod{Spec: tt.pod})
			var got []string
			for _, k := range slices.Sorted(maps.Keys(u)) {
				got = append(got, k+"="+u[k].String())
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("PodUsage() = %s\nwant          %s", g, tt.want)
			}
		})
	}
}

// TestQuotaCharges: a quota's scopes and scope selector decide which pods
// it counts (upstream's TestPodEvaluatorMatchingScopes).
func TestQuotaCharges(t *testing.T) {
	deadline := int64(60)
	bestEffort := &schema.Pod{}
	burstable := &schema.Pod{Spec: schema.PodSpec{Containers: []schema.Container{{Resources: schema.ResourceRequirements{Requests: res("1", "")}}}, PriorityClassName: "high"}}
	terminating := &schema.Pod{Spec: schema.PodSpec{ActiveDeadlineSeconds: &deadline}}
	tests := []struct {
		name   string
		scopes []string
		sel    []schema.ScopedResourceSelectorRequirement
		pod    *schema.Pod
		want   bool
	}{
		{"EmptyPod", nil, nil, bestEffort, true},
		{"BestEffort", []string{"BestEffort"}, nil, bestEffort, true},
		{"NotBestEffort", []string{"NotBestEffort"}, nil, bestEffort, false},
		{"NotBestEffort burstable", []string{"NotBestEffort"}, nil, burstable, true},
		{"Terminating", []string{"Terminating"}, nil, terminating, true},
		{"NotTerminating", []string{"NotTerminating"}, nil, terminating, false},
		{"PriorityClass In", nil, []schema.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "In", Values: []string{"high"}}}, burstable, true},
		{"PriorityClass NotIn", nil, []schema.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "NotIn", Values: []string{"high"}}}, burstable, false},
		{"PriorityClass Exists, none", nil, []schema.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "Exists"}}, bestEffort, false},
	}
	for _, tt := range tests {
		q := &schema.ResourceQuota{Spec: schema.ResourceQuotaSpec{Scopes: tt.scopes}}
		if tt.sel != nil {
			q.Spec.ScopeSelector = &schema.ScopeSelector{MatchExpressions: tt.sel}
		}
		if got := QuotaCharges(q, tt.pod); got != tt.want {
			t.Errorf("%s: QuotaCharges() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
