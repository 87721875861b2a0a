package sim_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

type undoWant struct {
	Target      string
	Revision    int64
	NoOp        bool
	NotFound    string
	NewRevision int64
	History     string
}

// TestPreviewUndo previews the rollbacks of the golden scenarios from
// their first state, without the request, and compares with what the
// controller did: the template it restored and the revision and history
// the restored ReplicaSet ended with.
func TestPreviewUndo(t *testing.T) {
	tests := []struct {
		scenario string
		to       int64 // -1: the scenario's own request
		want     undoWant
	}{
		{"rollback-to-previous", -1, undoWant{Target: "web-bbbb2", Revision: 2, NewRevision: 4, History: "2"}},
		{"rollback-to-revision-1", -1, undoWant{Target: "web-aaaa1", Revision: 1, NewRevision: 3, History: "1"}},
		{"rollback-missing-revision", -1, undoWant{Revision: 7, NotFound: "Unable to find the revision to rollback to."}},
		{"rollback-to-revision-1", 2, undoWant{Target: "web-bbbb2", Revision: 2, NoOp: true}},
		{"rollback-to-previous", 1, undoWant{Target: "web-aaaa1", Revision: 1, NewRevision: 4, History: "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+strconv.FormatInt(tt.to, 10), func(t *testing.T) {
			steps := loadScenario(t, scenarios+"/"+tt.scenario)
			s := rollout.Apply(steps[0].state, nil)
			to := tt.to
			if to < 0 {
				to, _ = strconv.ParseInt(s.Deployment.Annotations[rollout.RollbackToAnnotation], 10, 64)
			}
			delete(s.Deployment.Annotations, rollout.RollbackToAnnotation)
			p, err := sim.PreviewUndo(s, to)
			if err != nil {
				t.Fatalf("PreviewUndo() error: %v", err)
			}
			got := undoWant{p.Target, p.Revision, p.NoOp, p.NotFound, p.NewRevision, p.History}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PreviewUndo() mismatch (-want +got):\n%s", diff)
			}
			if _, ok := p.Deployment.Annotations[rollout.RollbackToAnnotation]; ok {
				t.Error("the rollback request is still there")
			}
			if tt.to >= 0 {
				return
			}
			// The restored template and the end of the timeline are the
			// controller's.
			if !rollout.EqualIgnoreHash(steps[1].state.Deployment.Spec.Template, p.Deployment.Spec.Template) {
				t.Errorf("restored template %s, the controller's %s", p.Deployment.Spec.Template.Spec, steps[1].state.Deployment.Spec.Template.Spec)
			}
			if p.Target == "" {
				return
			}
			res := run(t, p.State, sim.Config{Model: sim.ModelSimple})
			last := res.Steps[len(res.Steps)-1].Sets
			for _, c := range last {
				if c.New && (c.Name != p.Target || c.Revision != strconv.FormatInt(p.NewRevision, 10)) {
					t.Errorf("after the rollback the new ReplicaSet is %s at revision %s", c.Name, c.Revision)
				}
			}
			for _, rs := range steps[len(steps)-1].state.ReplicaSets {
				if rs.Name == p.Target && (rs.Annotations[rollout.RevisionAnnotation] != strconv.FormatInt(p.NewRevision, 10) ||
					rs.Annotations[rollout.RevisionHistoryAnnotation] != p.History) {
					t.Errorf("the controller gave %s annotations %v", rs.Name, rs.Annotations)
				}
			}
		})
	}
}

func TestPreviewUndoEdges(t *testing.T) {
	s := sim.FromDeployment(nginxDeployment(t), epoch)
	p, err := sim.PreviewUndo(s, 0)
	if err != nil || p.NotFound != "Unable to find last revision." || p.Target != "" {
		t.Errorf("PreviewUndo() of a single revision = %+v, %v; want no last revision", p, err)
	}
	if _, err := sim.PreviewUndo(s, -1); err == nil || !strings.Contains(err.Error(), "toRevision -1") {
		t.Errorf("PreviewUndo(-1) error = %v", err)
	}
	s.Deployment.Spec.Paused = true
	if _, err := sim.PreviewUndo(s, 0); err == nil || !strings.Contains(err.Error(), "paused") {
		t.Errorf("PreviewUndo() of a paused Deployment error = %v", err)
	}
	// Mid-rollout, the previous revision is the one being replaced.
	s = withImage(t, sim.FromDeployment(nginxDeployment(t), epoch), "nginx", "nginx:1.9.3")
	before := rollout.Apply(s, nil)
	p, err = sim.PreviewUndo(s, 0)
	if err != nil || p.Target != s.ReplicaSets[0].Name || p.Revision != 1 || p.NewRevision != 3 || p.History != "1" {
		t.Errorf("PreviewUndo() mid-rollout = %+v, %v", p, err)
	}
	if diff := cmp.Diff(before.Deployment.Annotations, s.Deployment.Annotations); diff != "" {
		t.Errorf("PreviewUndo modified its input (-before +after):\n%s", diff)
	}
	// A Deployment deleted and created again under its old name and
	// template: its new ReplicaSet's name is its predecessor's, which it
	// does not own. The controller's first sync fails with the collision
	// and raises collisionCount; the preview syncs again, as the
	// controller does, and finds no revision of the new Deployment's own.
	s = sim.FromDeployment(nginxDeployment(t), epoch)
	s.Deployment.UID = "another-uid"
	s.Deployment.Status = rollout.DeploymentStatus{}
	p, err = sim.PreviewUndo(s, 0)
	if err != nil || p.NotFound != "Unable to find last revision." {
		t.Errorf("PreviewUndo() with a taken name = %+v, %v; want no last revision", p, err)
	}
	if p.Deployment.Status.CollisionCount != rollout.Int32(1) {
		t.Errorf("collisionCount = %v, want 1 after one collision", p.Deployment.Status.CollisionCount)
	}
}
