package rollout_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestValidate carries the API server's validation rules for a Deployment
// (spec §1.4), each with the message the API server gives.
func TestValidate(t *testing.T) {
	rolling := func(maxSurge, maxUnavailable surge.Value) func(*rollout.Deployment) {
		return func(d *rollout.Deployment) {
			d.Spec.Strategy = rollout.Strategy{Type: rollout.RollingUpdateStrategy,
				RollingUpdate: rollout.RollingUpdate{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable}}
		}
	}
	for _, tc := range []struct {
		name   string
		change func(*rollout.Deployment)
		want   []string // the messages, in field order
	}{
		{"valid", func(*rollout.Deployment) {}, nil},
		{"negative replicas", func(d *rollout.Deployment) { d.Spec.Replicas = -1 },
			[]string{"spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
		{"maxSurge and maxUnavailable both 0", rolling(surge.Count(0), surge.Count(0)),
			[]string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}},
		{"maxSurge 0% and maxUnavailable 0", rolling(surge.Percent(0), surge.Count(0)),
			[]string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}},
		{"maxUnavailable over 100%", rolling(surge.Count(1), surge.Percent(101)),
			[]string{`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`}},
		{"maxSurge over 100% is allowed", rolling(surge.Percent(150), surge.Count(0)), nil},
		{"negative maxSurge", rolling(surge.Count(-1), surge.Count(1)),
			[]string{"spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0"}},
		{"unknown strategy type", func(d *rollout.Deployment) { d.Spec.Strategy.Type = "BlueGreen" },
			[]string{`spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"`}},
		{"no strategy type", func(d *rollout.Deployment) { d.Spec.Strategy.Type = "" },
			[]string{"spec.strategy.type: Required value: a strategy type is required"}},
		{"empty selector", func(d *rollout.Deployment) { d.Spec.Selector = rollout.LabelSelector{} },
			[]string{"spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
		{"selector does not match the template", func(d *rollout.Deployment) {
			d.Spec.Selector = rollout.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
		}, []string{"spec.template.metadata.labels: Invalid value: map[app:web]: `selector` does not match template `labels`"}},
		{"selector with a bad operator", func(d *rollout.Deployment) {
			d.Spec.Selector.MatchExpressions = []rollout.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}
		}, []string{`spec.selector: Invalid value: {map[app:web] [{app Near []}]}: matchExpressions[0]: "Near" is not a valid label selector operator`}},
		{"negative minReadySeconds", func(d *rollout.Deployment) { d.Spec.MinReadySeconds = -5 },
			[]string{"spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0"}},
		{"negative revisionHistoryLimit", func(d *rollout.Deployment) { d.Spec.RevisionHistoryLimit = rollout.Int32(-1) },
			[]string{"spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"}},
		{"progress deadline not above minReadySeconds", func(d *rollout.Deployment) {
			d.Spec.MinReadySeconds = 30
			d.Spec.ProgressDeadlineSeconds = rollout.Int32(30)
		}, []string{"spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds"}},
		{"negative status count", func(d *rollout.Deployment) { d.Status.AvailableReplicas = -8 },
			[]string{"status.availableReplicas: Invalid value: -8: must be greater than or equal to 0"}},
		// The bounds themselves: -1 is refused, 0 is not.
		{"minReadySeconds -1", func(d *rollout.Deployment) { d.Spec.MinReadySeconds = -1 },
			[]string{"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"}},
		{"a status count of -1", func(d *rollout.Deployment) { d.Status.ReadyReplicas = -1 },
			[]string{"status.readyReplicas: Invalid value: -1: must be greater than or equal to 0"}},
		{"counts and limits of 0", func(d *rollout.Deployment) {
			d.Spec.Replicas, d.Spec.MinReadySeconds, d.Spec.RevisionHistoryLimit = 0, 0, rollout.Int32(0)
			d.Status = rollout.DeploymentStatus{}
		}, nil},
		{"progress deadline -1", func(d *rollout.Deployment) { d.Spec.ProgressDeadlineSeconds = rollout.Int32(-1) },
			[]string{"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"}},
		{"progress deadline 0", func(d *rollout.Deployment) { d.Spec.ProgressDeadlineSeconds = rollout.Int32(0) },
			[]string{"spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds"}},
		{"progress deadline 1 above minReadySeconds 0", func(d *rollout.Deployment) { d.Spec.ProgressDeadlineSeconds = rollout.Int32(1) }, nil},
		{"several problems, in field order", func(d *rollout.Deployment) {
			d.Spec.Replicas = -1
			d.Spec.Strategy.Type = "BlueGreen"
		}, []string{
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			`spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := rollout.StaleState(t).Deployment
			tc.change(&d)
			err := rollout.Validate(d)
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
				var fe *rollout.FieldError
				if !errors.As(err, &fe) {
					t.Errorf("Validate() = %v, which holds no *FieldError", err)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Validate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeNamesTheField: a malformed maxSurge in a manifest is refused
// with the field's path and value.
func TestDecodeNamesTheField(t *testing.T) {
	_, err := rollout.Decode([]byte(`{"kind":"Deployment","metadata":{"name":"web"},
		"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25 %"}}}}`))
	if err == nil {
		t.Fatal("Decode accepted maxSurge \"25 %\"")
	}
	for _, part := range []string{`Deployment "web"`, "maxSurge", `"25 %"`} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("Decode error %q does not mention %s", err, part)
		}
	}
}
