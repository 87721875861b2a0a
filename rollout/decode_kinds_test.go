package rollout_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestDecodeRefusesAnotherVersionOfEachKind: a ReplicaSet or a Pod of an
// apiVersion the API server does not serve for its kind is an error naming
// apiVersion and the value, as for a Deployment (TestDecodeErrors), and
// nothing of it is kept.
func TestDecodeRefusesAnotherVersionOfEachKind(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, want string
	}{
		{
			"ReplicaSet extensions/v1beta1",
			`{"apiVersion":"extensions/v1beta1","kind":"ReplicaSet","metadata":{"name":"web-1"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}}}`,
			`ReplicaSet "web-1": apiVersion: Invalid value: "extensions/v1beta1": no kind "ReplicaSet" in this version: want apps/v1`,
		},
		{
			"Pod apps/v1",
			`{"apiVersion":"apps/v1","kind":"Pod","metadata":{"name":"web-1-x"},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`,
			`Pod "web-1-x": apiVersion: Invalid value: "apps/v1": no kind "Pod" in this version: want v1`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := rollout.Decode([]byte(tc.manifest))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode error %v, want one containing %q", err, tc.want)
			}
			if len(objs.ReplicaSets)+len(objs.Pods) > 0 {
				t.Errorf("Decode kept %d ReplicaSets and %d Pods, want none", len(objs.ReplicaSets), len(objs.Pods))
			}
		})
	}
}

// TestDecodeValidateDropsDisabledFieldsOfAReplicaSet: with Validate, a
// ReplicaSet manifest's template field whose feature gate is off
// (spec.schedulingGroup, GenericWorkload) is dropped, as the API server
// drops it on create, with a warning naming the gate; a ReplicaSet the
// server already stores (it has a resourceVersion) keeps it, without a
// warning. TestDecodeValidateDropsDisabledFields checks the same of a
// Deployment.
func TestDecodeValidateDropsDisabledFieldsOfAReplicaSet(t *testing.T) {
	const frame = `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-1"%s},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{%s"containers":[{"name":"app","image":"nginx"}]}}}}`
	decode := func(meta, spec string) rollout.Objects {
		t.Helper()
		data := strings.Replace(strings.Replace(frame, "%s", meta, 1), "%s", spec, 1)
		objs, err := rollout.DecodeOptions{Validate: true}.Decode([]byte(data))
		if err != nil || len(objs.ReplicaSets) != 1 {
			t.Fatalf("Decode(%s): %d ReplicaSets, error %v", data, len(objs.ReplicaSets), err)
		}
		return objs
	}
	const group = `"schedulingGroup":{"podGroupName":"g"},`
	without := decode("", "").ReplicaSets[0].Spec.Template
	manifest := decode("", group)
	if w := manifest.Warnings; len(w) != 1 || !strings.Contains(w[0], "feature gate GenericWorkload") {
		t.Errorf("a manifest: warnings %q, want one naming GenericWorkload", w)
	}
	if diff := cmp.Diff(without, manifest.ReplicaSets[0].Spec.Template); diff != "" {
		t.Errorf("a manifest: the template keeps the field of a gate that is off (-without +got):\n%s", diff)
	}

	stored := decode(`,"resourceVersion":"7"`, group)
	if len(stored.Warnings) > 0 {
		t.Errorf("a stored ReplicaSet: warnings %q, want none", stored.Warnings)
	}
	if cmp.Equal(without, stored.ReplicaSets[0].Spec.Template) {
		t.Errorf("a stored ReplicaSet lost its spec.schedulingGroup: its template is the one without it")
	}
}
