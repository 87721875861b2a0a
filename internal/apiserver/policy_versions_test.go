package apiserver

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// TestPolicyByVersion: the policy objects are validated as the API
// server's minor does. Each row is a HorizontalPodAutoscaler and the
// messages that each minor's real create path (rest.BeforeCreate with
// pkg/registry/autoscaling/horizontalpodautoscaler.Strategy, v1.35.4,
// v1.36.3, v1.37.2) reported for it, in sorted order. Upstream:
// autoscaling validateHorizontalPodAutoscalerSpec and validateMetrics,
// the strategy's MinReplicasLowerBound (HPAScaleToZero, on from 1.37),
// v1.37's declarative validation of HPAs, and apimachinery's
// ValidateOwnerReferences and ValidateManagedFields (VERSIONS.md V10,
// V11, V24, V25).
func TestPolicyByVersion(t *testing.T) {
	const (
		zeroNeedsObject = "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"
		maxBelowMin0    = "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`"
	)
	for _, tc := range []struct {
		name, meta, spec string
		want             [3][]string // 1.35, 1.36, 1.37
	}{
		{"maxReplicas 0", "", `"maxReplicas":0`, [3][]string{
			{"spec.maxReplicas: Invalid value: 0: must be greater than 0", maxBelowMin0},
			{maxBelowMin0, "spec.maxReplicas: Required value: must be set and greater than 0"},
			{maxBelowMin0, "spec.maxReplicas: Required value"},
		}},
		{"maxReplicas negative", "", `"maxReplicas":-3`, [3][]string{
			{"spec.maxReplicas: Invalid value: -3: must be greater than 0", "spec.maxReplicas: Invalid value: -3: must be greater than or equal to `minReplicas`"},
			{"spec.maxReplicas: Invalid value: -3: must be greater than or equal to 1", "spec.maxReplicas: Invalid value: -3: must be greater than or equal to `minReplicas`"},
			{"spec.maxReplicas: Invalid value: -3: must be greater than or equal to 1", "spec.maxReplicas: Invalid value: -3: must be greater than or equal to `minReplicas`"},
		}},
		{"minReplicas 0 without an Object or External metric", "", `"minReplicas":0,"maxReplicas":5`, [3][]string{
			{zeroNeedsObject, "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"},
			{zeroNeedsObject, "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"},
			{zeroNeedsObject},
		}},
		{"minReplicas 0 with an External metric", "", `"minReplicas":0,"maxReplicas":5,"metrics":[{"type":"External","external":{"metric":{"name":"q"},"target":{"type":"Value","value":"10"}}}]`, [3][]string{
			{"spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"},
			{"spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"},
			nil,
		}},
		{"minReplicas negative", "", `"minReplicas":-1,"maxReplicas":5`, [3][]string{
			{"spec.minReplicas: Invalid value: -1: must be greater than or equal to 1"},
			{"spec.minReplicas: Invalid value: -1: must be greater than or equal to 1"},
			{"spec.minReplicas: Invalid value: -1: must be greater than or equal to 0"},
		}},
		{"owner reference without fields", `,"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]`, `"maxReplicas":2`, [3][]string{
			{`metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty`, `metadata.ownerReferences.kind: Invalid value: "": must not be empty`, `metadata.ownerReferences.name: Invalid value: "": must not be empty`, `metadata.ownerReferences.uid: Invalid value: "": must not be empty`},
			{`metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty`, `metadata.ownerReferences.kind: Invalid value: "": must not be empty`, `metadata.ownerReferences.name: Invalid value: "": must not be empty`, `metadata.ownerReferences.uid: Invalid value: "": must not be empty`},
			{`metadata.ownerReferences[0].apiVersion: Required value: must not be empty`, `metadata.ownerReferences[0].kind: Required value: must not be empty`, `metadata.ownerReferences[0].name: Required value: must not be empty`, `metadata.ownerReferences[0].uid: Required value: must not be empty`},
		}},
		{"managed fields: an unknown operation, no fieldsType", `,"managedFields":[{"manager":"m","operation":"Patch"}]`, `"maxReplicas":2`, [3][]string{
			{"metadata.managedFields[0].operation: Invalid value: \"Patch\": must be `Apply` or `Update`"},
			{"metadata.managedFields[0].operation: Invalid value: \"Patch\": must be `Apply` or `Update`"},
			{`metadata.managedFields[0].operation: Unsupported value: "Patch": supported values: "Apply", "Update"`},
		}},
		{"managed fields: another fieldsType", `,"managedFields":[{"manager":"m","operation":"Update","fieldsType":"X"}]`, `"maxReplicas":2`, [3][]string{
			{"metadata.managedFields[0].fieldsType: Invalid value: \"X\": must be `FieldsV1`"},
			{"metadata.managedFields[0].fieldsType: Invalid value: \"X\": must be `FieldsV1`"},
			{"metadata.managedFields[0].fieldsType: Invalid value: \"X\": must be `FieldsV1`"},
		}},
	} {
		for i, v := range kubeversion.Supported() {
			t.Run(tc.name+"/"+v.String(), func(t *testing.T) {
				data := []byte(`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"` + tc.meta +
					`},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},` + tc.spec + `}}`)
				_, res := DecodeHorizontalPodAutoscaler(data, SequenceOptions{Validate: true, Gates: FeatureGates{Version: v}})
				var got []string
				for _, e := range res.Errs {
					got = append(got, e.Error())
				}
				slices.Sort(got)
				if diff := cmp.Diff(tc.want[i], got); diff != "" {
					t.Errorf("DecodeHorizontalPodAutoscaler() mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestPolicyUnsupportedVersion: the policy validators refuse a Version
// that names no supported minor, as the Deployment's do.
func TestPolicyUnsupportedVersion(t *testing.T) {
	g := FeatureGates{Version: kubeversion.Newest + 1}
	_, res := DecodeHorizontalPodAutoscaler([]byte(`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":2}}`),
		SequenceOptions{Validate: true, Gates: g})
	if len(res.Errs) != 1 || res.Errs[0].Field != "kubernetesVersion" {
		t.Errorf("errors %v, want one at kubernetesVersion", res.Errs)
	}
}

// TestQuotaAndBudgetMessagesByVersion: ResourceQuota and
// PodDisruptionBudget refusals, with the messages each minor's real create
// path (rest.BeforeCreate with the registry strategy of v1.35.4, v1.36.3,
// v1.37.2) reported, sorted. Upstream prints a bad value that is a list
// or a struct as JSON (the internal types' Go field names for a struct);
// a quota's scopes that do not fit two of its resources, and two pairs of
// conflicting scopes, are reported once each per resource and pair, and
// v1.37's declarative validation keeps one of each identical message
// (ValidateDeclarativelyWithMigrationChecks: ErrorList.Filter, whose
// ToAggregate drops repeats). v1.35 and v1.36 agree on all of these.
func TestQuotaAndBudgetMessagesByVersion(t *testing.T) {
	const (
		scopes      = `["BestEffort","NotBestEffort","Terminating","NotTerminating"]`
		selector    = `{"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":["x"]},{"ScopeName":"NotBestEffort","Operator":"Exists","Values":null},{"ScopeName":"PriorityClass","Operator":"In","Values":null}]}`
		conflicting = "spec.scopes: Invalid value: " + scopes + ": conflicting scopes"
		unfit       = "spec.scopes: Invalid value: " + scopes + ": unsupported scope applied to resource"
		unfitSel    = "spec.scopeSelector.matchExpressions: Invalid value: " + selector + ": unsupported scope applied to resource"
		noValue     = "spec.scopeSelector.matchExpressions.values: Invalid value: [\"x\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"
		needValue   = "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"
		nullConfl   = "spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes"
	)
	for _, tc := range []struct {
		name, kind, spec string
		upTo136, from137 []string
	}{
		{"quota scopes: two conflicting pairs, unfit for cpu and memory", "ResourceQuota",
			`{"hard":{"cpu":"1","memory":"1Gi","pods":"2"},"scopes":["BestEffort","NotBestEffort","Terminating","NotTerminating"]}`,
			[]string{conflicting, conflicting, unfit, unfit}, []string{conflicting, unfit}},
		{"quota scope selector", "ResourceQuota",
			`{"hard":{"cpu":"1","memory":"1Gi"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"Exists","values":["x"]},{"scopeName":"NotBestEffort","operator":"Exists"},{"scopeName":"PriorityClass","operator":"In"}]}}`,
			[]string{noValue, needValue, nullConfl, unfitSel, unfitSel}, []string{noValue, needValue, nullConfl, unfitSel}},
		{"quota scope selector conflicts print the spec's scopes", "ResourceQuota",
			`{"hard":{"pods":"1"},"scopes":["Terminating"],"scopeSelector":{"matchExpressions":[{"scopeName":"Terminating","operator":"Exists"},{"scopeName":"NotTerminating","operator":"Exists"}]}}`,
			[]string{`spec.scopeSelector.matchExpressions: Invalid value: ["Terminating"]: conflicting scopes`}, []string{`spec.scopeSelector.matchExpressions: Invalid value: ["Terminating"]: conflicting scopes`}},
		{"budget with both minAvailable and maxUnavailable", "PodDisruptionBudget", `{"minAvailable":1,"maxUnavailable":1}`,
			[]string{`spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`},
			[]string{`spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`}},
	} {
		for _, v := range kubeversion.Supported() {
			t.Run(tc.name+"/"+v.String(), func(t *testing.T) {
				o := SequenceOptions{Validate: true, Gates: FeatureGates{Version: v}}
				var res SequenceResult
				switch tc.kind {
				case "ResourceQuota":
					_, res = DecodeResourceQuota([]byte(`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":`+tc.spec+`}`), o)
				case "PodDisruptionBudget":
					_, res = DecodePodDisruptionBudget([]byte(`{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":`+tc.spec+`}`), o)
				}
				var got []string
				for _, e := range res.Errs {
					got = append(got, e.Error())
				}
				slices.Sort(got)
				want := tc.upTo136
				if v >= kubeversion.V1_37 {
					want = tc.from137
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Decode%s() mismatch (-want +got):\n%s", tc.kind, diff)
				}
			})
		}
	}
}
