package rollout_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestPlanFailures: each way a sync fails that Plan documents, from each
// branch of the sync that reaches it, with the calls made before it. A
// state the API server would refuse is planned with SkipValidation, as a
// controller handed one would.
func TestPlanFailures(t *testing.T) {
	old := func() rollout.ReplicaSet {
		return rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch)
	}
	state := func(change func(s *rollout.State)) rollout.State {
		s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v2", old())
		s.Options.Version = rollout.V1_36 // the failures of a v1.36 controller
		change(&s)
		return s
	}
	huge := func(s *rollout.State) { // two ReplicaSets of MaxInt32, the Deployment's template on neither
		s.ReplicaSets[0].Status.Replicas = math.MaxInt32
		big := rollout.WebReplicaSet("web-v0", "v0", 0, 0, rollout.WebEpoch)
		big.Status.Replicas = math.MaxInt32
		s.ReplicaSets = append(s.ReplicaSets, big)
	}
	maxRevision := func(s *rollout.State) {
		s.ReplicaSets[0].Annotations[rollout.RevisionAnnotation] = "9223372036854775807"
	}
	tests := []struct {
		name    string
		s       rollout.State
		want    []string // the API calls made
		wantErr string
	}{
		{name: "a selector that cannot be converted", s: state(func(s *rollout.State) {
			s.Deployment.Spec.Selector.MatchExpressions = []rollout.LabelSelectorRequirement{{Key: "tier", Operator: rollout.OpIn}}
			s.Options.SkipValidation = true
		}), wantErr: "deployment default/web has invalid label selector: matchExpressions[0]: for 'in', 'notin' operators, values set can't be empty"},
		{name: "a controlled ReplicaSet without a namespace", s: state(func(s *rollout.State) {
			s.Deployment.Namespace, s.ReplicaSets[0].Namespace = "", ""
			s.Options.SkipValidation = true
		}), wantErr: "no owner namespace provided"},
		{name: "a controlled ReplicaSet without a name", s: state(func(s *rollout.State) {
			s.ReplicaSets[0].Name = ""
			s.Options.SkipValidation = true
		}), wantErr: "no owner name provided"},
		{name: "a controlled ReplicaSet without a UID", s: state(func(s *rollout.State) {
			s.ReplicaSets[0].UID = ""
			s.Options.SkipValidation = true
		}), wantErr: "no owner uid provided"},
		{name: "an unknown strategy type", s: state(func(s *rollout.State) {
			s.Deployment.Spec.Strategy.Type = "Blue"
			s.Options.SkipValidation = true
		}), wantErr: "unexpected deployment strategy type: Blue"},
		{name: "revision MaxInt64, rolling", s: state(maxRevision),
			wantErr: "metadata.annotations[deployment.kubernetes.io/revision]: revision: next revision overflows int64"},
		{name: "revision MaxInt64, Recreate", s: state(func(s *rollout.State) {
			maxRevision(s)
			s.Deployment.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
		}), wantErr: "metadata.annotations[deployment.kubernetes.io/revision]: revision: next revision overflows int64"},
		{name: "revision MaxInt64, paused", s: state(func(s *rollout.State) {
			maxRevision(s)
			s.Deployment.Spec.Paused = true
		}), want: []string{"UpdateDeploymentStatus "}, wantErr: "metadata.annotations[deployment.kubernetes.io/revision]: revision: next revision overflows int64"},
		{name: "revision MaxInt64, being deleted", s: state(func(s *rollout.State) {
			maxRevision(s)
			s.Deployment.DeletionTimestamp = s.Now
		}), wantErr: "metadata.annotations[deployment.kubernetes.io/revision]: revision: next revision overflows int64"},
		{name: "status counts past int32, paused", s: state(func(s *rollout.State) {
			huge(s)
			s.Deployment.Spec.Paused = true
		}), want: []string{"UpdateDeploymentStatus "}, wantErr: "status.replicas: value 4294967294 overflows int32"},
		{name: "status counts past int32, being deleted", s: state(func(s *rollout.State) {
			huge(s)
			s.Deployment.DeletionTimestamp = s.Now
		}), wantErr: "status.replicas: value 4294967294 overflows int32"},
		{name: "revision MaxInt64 with an unknown strategy type: the revision first", s: state(func(s *rollout.State) {
			maxRevision(s)
			s.Deployment.Spec.Strategy.Type = "Blue"
			s.Options.SkipValidation = true
		}), wantErr: "metadata.annotations[deployment.kubernetes.io/revision]: revision: next revision overflows int64"},
		{name: "a rollback that must create the new ReplicaSet, with an unknown strategy type", s: state(func(s *rollout.State) {
			s.Deployment.Annotations = map[string]string{rollout.RollbackToAnnotation: "1"}
			s.Deployment.Spec.Strategy.Type = "Blue"
			s.Options.SkipValidation = true
		}), wantErr: "deployment type Blue isn't supported"},
		{name: "revision MaxInt64, rolling back", s: state(func(s *rollout.State) {
			maxRevision(s)
			s.Deployment.Annotations = map[string]string{rollout.RollbackToAnnotation: "1"}
		}), wantErr: "metadata.annotations[deployment.kubernetes.io/revision]: revision: next revision overflows int64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(tt.s)
			if diff := cmp.Diff(tt.wantErr, errString(err)); diff != "" {
				t.Errorf("Plan() error mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, rollout.APICalls(actions)); diff != "" {
				t.Errorf("Plan() calls mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
