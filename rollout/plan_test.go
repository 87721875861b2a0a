package rollout_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestSyncDeploymentDontDoAnythingDuringDeletion ports upstream's test of
// that name: only the status is written.
func TestSyncDeploymentDontDoAnythingDuringDeletion(t *testing.T) {
	d := rollout.UpstreamNewDeployment("foo", 1, rollout.OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
	d.DeletionTimestamp = rollout.FixtureNow
	actions, err := rollout.Plan(rollout.State{Deployment: d, Now: rollout.FixtureNow, Options: rollout.Options{SkipValidation: true}})
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	if diff := cmp.Diff([]rollout.ActionType{rollout.UpdateDeploymentStatus}, rollout.APICallTypes(actions)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}
}

// TestDontSyncDeploymentsWithEmptyPodSelector ports upstream's test of that
// name. By default Plan refuses the empty selector as the API server does;
// with SkipValidation it does what upstream's controller does: a warning
// event, and a status write only when the generation is not yet observed.
func TestDontSyncDeploymentsWithEmptyPodSelector(t *testing.T) {
	const warning = "Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required."
	tests := []struct {
		name       string
		generation int64
		opts       rollout.Options
		wantErr    bool
		want       []string
	}{
		{name: "refused by validation", wantErr: true},
		{name: "generation observed: no API call", opts: rollout.Options{SkipValidation: true}, want: []string{"RecordEvent " + warning}},
		{
			name: "generation not observed: observedGeneration written", generation: 1, opts: rollout.Options{SkipValidation: true},
			want: []string{"RecordEvent " + warning, "UpdateDeploymentStatus observedGeneration=1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollout.UpstreamNewDeployment("foo", 1, rollout.OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
			d.Spec.Selector = rollout.LabelSelector{}
			d.Generation = tt.generation
			actions, err := rollout.Plan(rollout.State{Deployment: d, Now: rollout.FixtureNow, Options: tt.opts})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Plan() error = %v, want an error: %t", err, tt.wantErr)
			}
			if tt.wantErr && !strings.Contains(err.Error(), "spec.selector") {
				t.Errorf("Plan() error = %v, want one naming spec.selector", err)
			}
			var got []string
			for _, a := range actions {
				switch a.Type {
				case rollout.UpdateDeploymentStatus:
					got = append(got, fmt.Sprintf("%s observedGeneration=%d", a.Type, a.Status.ObservedGeneration))
				default:
					got = append(got, a.String())
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateState: Plan refuses exactly what ValidateState reports.
func TestValidateState(t *testing.T) {
	s := rollout.StaleState(t)
	if err := rollout.ValidateState(s); err != nil {
		t.Fatalf("ValidateState(valid) = %v", err)
	}
	s.ReplicaSets[0].Spec.Replicas = -1
	err := rollout.ValidateState(s)
	if err == nil || !strings.Contains(err.Error(), "replicaset web-v1: spec.replicas: Invalid value: -1") {
		t.Fatalf("ValidateState = %v, want the ReplicaSet's negative size", err)
	}
	if actions, perr := rollout.Plan(s); perr == nil || actions != nil {
		t.Errorf("Plan() = %v, %v; want no actions and an error", actions, perr)
	}
	other := s
	other.ReplicaSets = append([]rollout.ReplicaSet(nil), s.ReplicaSets...)
	other.ReplicaSets[0].Namespace = "elsewhere"
	if err := rollout.ValidateState(other); err != nil {
		t.Errorf("ValidateState looks at another namespace: %v", err)
	}
}

// TestPlanZeroNow: a sync needs its time; a State without one is refused
// before anything else.
func TestPlanZeroNow(t *testing.T) {
	s := rollout.StaleState(t)
	s.Now = time.Time{}
	actions, err := rollout.Plan(s)
	if !errors.Is(err, rollout.ErrZeroNow) || actions != nil {
		t.Errorf("Plan(zero Now) = %v, %v; want no actions and ErrZeroNow", actions, err)
	}
	s.Options.SkipValidation = true
	if _, err := rollout.Plan(s); !errors.Is(err, rollout.ErrZeroNow) {
		t.Errorf("Plan(zero Now, SkipValidation) error = %v, want ErrZeroNow", err)
	}
}
